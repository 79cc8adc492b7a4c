// Long work as jobs. A benchmark run or a hardware probe takes minutes, and MCP clients time a request
// out after 60 s (TypeScript SDK default), so the tool that starts one returns a job id at once and the
// client polls aisp_job_status / aisp_job_result. Each job is one child process (`aisp bench run …
// --json`, `aisp hw <probe> --json`): a crash, hang or CUDA error in it is the job's result, never the
// server's end.
//
// GPU jobs run one at a time, in submission order: two benchmark runs sharing a GPU would each time the
// other's kernels and both results would be wrong. A job marked as not using the GPU runs at once (the
// tools mark none: every measurement, `hw disk` included, waits its turn).
#pragma once
#include <nlohmann/json.hpp>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace aisp::mcp {

using json = nlohmann::json;

enum class JobState { queued, running, finished, failed, cancelled };
const char* to_string(JobState s);

struct JobSpec {
  std::string kind;               // "bench_run", "hw_probe", ...
  std::vector<std::string> argv;  // argv[0] is the executable
  bool uses_gpu = true;           // serialised with the other GPU jobs
  double timeout_s = 0;           // 0: none (a run bounds itself with --time-limit per variant)
  // Explains an exit code for the caller ("1: a regression or failed verification"); may be empty.
  std::function<std::string(int exit_code)> explain_exit;
  std::string cwd;            // the child's working directory ("" = the server's)
  std::vector<std::string> env;  // NAME=value added to the child's environment
  // Temporary files of this job (the disk probe's test file): made before the child starts and removed
  // with everything in it when the job ends, whether it finished, failed or was cancelled (also when the
  // client goes away: shutdown cancels every job and waits for this). Empty: none.
  std::string scratch_dir;
};

// submit() when max_active jobs are already queued or running: each waiting job holds a thread, and a
// client looping on a tool must not be able to pile up work without bound.
class JobQueueFull : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A job as the tools report it. `result` is the child's stdout parsed as JSON (null when it printed
// none); `state` is finished when the child exited and printed JSON, whatever its exit code — a run that
// found a regression (exit 1) still has results — and failed when it did not.
struct JobSnapshot {
  std::string id, kind, state;
  std::vector<std::string> command;  // argv with argv[0] shortened to its file name
  std::string created_at, started_at, ended_at;  // ISO 8601 UTC; "" until it happens
  double elapsed_s = 0;
  int queue_position = 0;            // 1 = next to run; 0 when not queued
  std::optional<int> exit_code;
  std::string outcome;               // "exited with code 2", "cancelled", ...
  std::string exit_meaning;
  std::vector<std::string> log_tail;  // last stderr lines
  json result;                        // only when asked for
  std::string error;                  // why there is no result (failed/cancelled), else ""
  bool stdout_truncated = false;
};

class JobManager {
 public:
  explicit JobManager(size_t max_kept_jobs = 64, size_t max_active = 16);
  ~JobManager();  // cancels everything still running and waits for it
  JobManager(const JobManager&) = delete;
  JobManager& operator=(const JobManager&) = delete;

  std::string submit(JobSpec spec);  // throws JobQueueFull
  std::optional<JobSnapshot> snapshot(const std::string& id, bool with_result = false) const;
  std::vector<JobSnapshot> list() const;
  // False when the id is unknown. Cancelling a finished job is a no-op (true).
  bool cancel(const std::string& id);
  // Blocks until the job leaves queued/running or `timeout_s` passes; false on timeout or unknown id.
  bool wait(const std::string& id, double timeout_s) const;
  void cancel_all_and_wait();
  // A GPU job is running now (tools then avoid creating CUDA contexts: they would disturb its timing).
  bool gpu_busy() const;

 private:
  struct Job;
  void run_job(const std::shared_ptr<Job>& job);
  void evict_old_locked();
  JobSnapshot snapshot_locked(const Job& job, bool with_result) const;

  size_t max_kept_, max_active_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::map<std::string, std::shared_ptr<Job>> jobs_;
  std::vector<std::string> order_;  // submission order, for listing and eviction
  std::deque<std::string> gpu_queue_;  // GPU jobs waiting; the front runs when no GPU job is running
  bool gpu_busy_ = false;
  uint64_t next_number_ = 1;
  std::string session_tag_;  // random per server, so ids from an earlier session never match
};

}  // namespace aisp::mcp
