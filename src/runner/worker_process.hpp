// One worker process as the supervisor sees it: spawn (own process group, one GPU visible, stdout and
// stderr to a log file, protocol on fds 3/4), request with a timeout, and kill the whole group on a hang.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/protocol.hpp"
#include "runner/variant_worker.hpp"

namespace aisp {

// What a variant's worker process is started with: `aisp worker --plugin <file>` for a compiled variant,
// `python3 -m aisp.worker --benchmark <file>` for a Python one (core/discovery.hpp is_python_variant), which
// serves the same protocol through libaisp_worker.so. Environment entries are set in the child only.
struct WorkerCommand {
  std::vector<std::string> argv;  // argv[0] is looked up on PATH when it has no '/'
  std::vector<std::pair<std::string, std::string>> env;
};
WorkerCommand worker_command(const WorkerSpawn& spawn);

class WorkerProcess final : public VariantWorker {
 public:
  explicit WorkerProcess(const WorkerSpawn& spawn);
  ~WorkerProcess() override;
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  // The worker's first message (ready or load error), waited for up to timeout_s.
  Reply wait_ready(double timeout_s) override;
  Reply request(json req, double timeout_s) override;
  // Polite exit (teardown), then kill if it does not leave in time.
  void shutdown(double timeout_s = 10) override;
  bool alive() const { return alive_; }
  pid_t pid() const { return pid_; }

 private:
  Reply read_reply(double timeout_s, const std::string& what);
  void kill_group();
  std::string reap(double wait_s);  // "exited with code N" / "killed by SIGSEGV (Segmentation fault)"

  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
  std::unique_ptr<LineChannel> channel_;
  bool alive_ = false;
  int next_id_ = 1;
};

}  // namespace aisp
