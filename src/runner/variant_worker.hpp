// What the supervisor needs from a variant's worker: its first message, requests with a timeout, and a
// shutdown. A worker process (runner/worker_process.hpp) is the real one; tests script a fake one, so
// every phase of a target run is exercised without a GPU.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/protocol.hpp"
#include "core/worker_requests.hpp"

namespace aisp {

struct WorkerSpawn {
  std::string aisp_exe;     // path of this binary (re-executed as `aisp worker`)
  std::string plugin;
  std::string log_file;
  std::string visible_device = "0";  // CUDA_VISIBLE_DEVICES for the child
  bool validity = true;              // off: no CUPTI subscription, input refresh or drain checks
  std::map<std::string, int64_t> axes;  // AISP_AXIS_<name> in the child's environment (aisp/axes.hpp)
  // More of the child's environment, set last: a rank's RANK, WORLD_SIZE, … and NCCL_NVLS_ENABLE=0
  // (runner/rank_plan.hpp).
  std::vector<std::pair<std::string, std::string>> env;
};

struct Reply {
  enum class Status { ok, error, timeout, crashed, protocol_error } status = Status::ok;
  json body;           // the worker's JSON (ok or error)
  std::string reason;  // human text for timeout/crash/protocol errors or the worker's error message
  std::string kind;    // error kind: timeout, crashed, oom, cuda, exception, load, arch, ...
  double wall_s = 0;   // supervisor-side wall time of the request
  bool ok() const { return status == Status::ok; }
};

// A message a worker sent (its ready event or a reply) as a Reply: ok, or an error with the worker's kind
// and text. One reading for every transport (a forked worker, an mpirun rank).
inline Reply reply_from_message(json msg, double wall_s) {
  Reply r;
  r.wall_s = wall_s;
  r.body = std::move(msg);
  if (r.body.value("ok", false) || r.body.value("event", "") == "ready") return r;
  r.status = Reply::Status::error;
  r.kind = r.body.value("kind", "error");
  r.reason = r.body.value("error", "worker reported an error");
  return r;
}

class VariantWorker {
 public:
  virtual ~VariantWorker() = default;
  // The worker's first message (ready or load error), waited for up to timeout_s.
  virtual Reply wait_ready(double timeout_s) = 0;
  virtual Reply request(json req, double timeout_s) = 0;
  // Polite exit (teardown), then whatever it takes to end it.
  virtual void shutdown(double timeout_s) = 0;
};

// Makes the worker of one variant; throws when it cannot be started.
using WorkerFactory = std::function<std::unique_ptr<VariantWorker>(const WorkerSpawn&)>;

}  // namespace aisp
