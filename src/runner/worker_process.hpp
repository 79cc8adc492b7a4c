// One worker process as the supervisor sees it: spawn (own process group, one GPU visible, stdout and
// stderr to a log file, protocol on fds 3/4), request with a timeout, and kill the whole group on a hang.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "core/protocol.hpp"

namespace aisp {

struct WorkerSpawn {
  std::string aisp_exe;     // path of this binary (re-executed as `aisp worker`)
  std::string plugin;
  std::string log_file;
  std::string visible_device = "0";  // CUDA_VISIBLE_DEVICES for the child
  bool validity = true;              // off: no CUPTI subscription, input refresh or drain checks
  std::map<std::string, int64_t> axes;  // AISP_AXIS_<name> in the child's environment (aisp/axes.hpp)
};

struct Reply {
  enum class Status { ok, error, timeout, crashed, protocol_error } status = Status::ok;
  json body;           // the worker's JSON (ok or error)
  std::string reason;  // human text for timeout/crash/protocol errors or the worker's error message
  std::string kind;    // error kind: timeout, crashed, oom, cuda, exception, load, arch, ...
  double wall_s = 0;   // supervisor-side wall time of the request
  bool ok() const { return status == Status::ok; }
};

class WorkerProcess {
 public:
  explicit WorkerProcess(const WorkerSpawn& spawn);
  ~WorkerProcess();
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  // The worker's first message (ready or load error), waited for up to timeout_s.
  Reply wait_ready(double timeout_s);
  Reply request(json req, double timeout_s);
  // Polite exit (teardown), then kill if it does not leave in time.
  void shutdown(double timeout_s = 10);
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
