#include "mcp/jobs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <random>

#include "mcp/child_process.hpp"
#include "mcp/redact.hpp"

namespace aisp::mcp {

namespace {

using SystemClock = std::chrono::system_clock;
using SteadyClock = std::chrono::steady_clock;

std::string iso_utc(SystemClock::time_point t) {
  std::time_t s = SystemClock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&s, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// The child's stdout as JSON. Commands print exactly one document with --json; should a line of text
// precede it, the document is taken from the first line that opens an object or array.
json parse_output(const std::string& out) {
  json j = json::parse(out, nullptr, false);
  if (!j.is_discarded()) return j;
  for (size_t pos = 0; pos < out.size();) {
    if (out[pos] == '{' || out[pos] == '[') {
      j = json::parse(out.begin() + static_cast<std::ptrdiff_t>(pos), out.end(), nullptr, false);
      if (!j.is_discarded()) return j;
    }
    size_t nl = out.find('\n', pos);
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return nullptr;
}

}  // namespace

const char* to_string(JobState s) {
  switch (s) {
    case JobState::queued: return "queued";
    case JobState::running: return "running";
    case JobState::finished: return "finished";
    case JobState::failed: return "failed";
    case JobState::cancelled: return "cancelled";
  }
  return "?";
}

struct JobManager::Job {
  std::string id;
  JobSpec spec;
  JobState state = JobState::queued;
  SystemClock::time_point created, started, ended;
  SteadyClock::time_point steady_started, steady_ended;
  std::atomic<bool> cancel{false};
  std::optional<int> exit_code;
  std::string outcome, error;
  std::deque<std::string> log;
  json result;
  bool stdout_truncated = false;
  std::thread thread;
  bool terminal() const { return state != JobState::queued && state != JobState::running; }
};

JobManager::JobManager(size_t max_kept_jobs, size_t max_active) : max_kept_(max_kept_jobs), max_active_(max_active) {
  std::random_device rd;
  session_tag_ = fmt::format("{:04x}", rd() & 0xffff);
}

JobManager::~JobManager() { cancel_all_and_wait(); }

std::string JobManager::submit(JobSpec spec) {
  auto job = std::make_shared<Job>();
  {
    std::lock_guard lock(mutex_);
    size_t active = static_cast<size_t>(
        std::count_if(jobs_.begin(), jobs_.end(), [](auto& j) { return !j.second->terminal(); }));
    if (active >= max_active_)
      throw JobQueueFull(fmt::format("{} jobs are already queued or running (the limit): wait for one to end "
                                     "(aisp_job_status) or cancel one (aisp_job_cancel)", active));
    evict_old_locked();
    job->id = fmt::format("job-{}-{}", session_tag_, next_number_++);
    job->spec = std::move(spec);
    job->created = SystemClock::now();
    jobs_[job->id] = job;
    order_.push_back(job->id);
    if (job->spec.uses_gpu) gpu_queue_.push_back(job->id);
  }
  job->thread = std::thread([this, job] { run_job(job); });
  return job->id;
}

void JobManager::run_job(const std::shared_ptr<Job>& job) {
  // The job's temporary files go when it ends: before it is reported ended (a client that sees
  // `cancelled` finds them gone), and on any other way out of here.
  struct Scratch {
    std::filesystem::path dir;
    void remove() {
      std::error_code ec;
      if (!dir.empty()) std::filesystem::remove_all(dir, ec);
      dir.clear();
    }
    ~Scratch() { remove(); }
  } scratch{job->spec.scratch_dir};
  {
    std::unique_lock lock(mutex_);
    if (job->spec.uses_gpu) {
      changed_.wait(lock, [&] { return job->cancel.load() || (!gpu_busy_ && gpu_queue_.front() == job->id); });
      std::erase(gpu_queue_, job->id);
      if (job->cancel) {
        job->state = JobState::cancelled;
        job->outcome = "cancelled before it started";
        job->error = "cancelled while queued";
        job->ended = SystemClock::now();
        changed_.notify_all();
        return;
      }
      gpu_busy_ = true;
    }
    job->state = JobState::running;
    job->started = SystemClock::now();
    job->steady_started = SteadyClock::now();
    changed_.notify_all();
  }
  ChildOptions o;
  o.cancel = &job->cancel;
  o.timeout_s = job->spec.timeout_s;
  o.cwd = job->spec.cwd;
  o.env = job->spec.env;
  std::error_code ec;
  if (!o.cwd.empty()) std::filesystem::create_directories(o.cwd, ec);
  if (!scratch.dir.empty()) std::filesystem::create_directories(scratch.dir, ec);
  o.on_stderr_line = [&](const std::string& line) {
    std::lock_guard lock(mutex_);
    std::string shown = hide_parser_context(line);
    job->log.push_back(shown.size() > 400 ? shown.substr(0, 400) + "..." : shown);
    if (job->log.size() > 40) job->log.pop_front();
  };
  ChildResult r = run_child(job->spec.argv, o);
  json parsed = r.started ? parse_output(r.out) : json(nullptr);
  scratch.remove();

  std::lock_guard lock(mutex_);
  if (job->spec.uses_gpu) gpu_busy_ = false;
  job->ended = SystemClock::now();
  job->steady_ended = SteadyClock::now();
  job->outcome = r.describe();
  job->stdout_truncated = r.stdout_truncated;
  if (r.started && !r.signal) job->exit_code = r.exit_code;
  if (r.cancelled) {
    job->state = JobState::cancelled;
    job->error = "cancelled: " + r.describe();
  } else if (!parsed.is_null()) {
    job->state = JobState::finished;
    job->result = std::move(parsed);
  } else {
    job->state = JobState::failed;
    // The child's last stderr lines say why (no GPU, unknown target, a crash report).
    std::string why;
    for (size_t i = r.stderr_tail.size() > 6 ? r.stderr_tail.size() - 6 : 0; i < r.stderr_tail.size(); ++i)
      if (!r.stderr_tail[i].empty()) why += (why.empty() ? "" : "\n") + hide_parser_context(r.stderr_tail[i]);
    job->error = r.describe() + (r.stdout_truncated ? " (output over the capture limit)" : "") +
                 (why.empty() ? "" : ": " + why);
  }
  changed_.notify_all();
}

JobSnapshot JobManager::snapshot_locked(const Job& job, bool with_result) const {
  JobSnapshot s;
  s.id = job.id;
  s.kind = job.spec.kind;
  s.state = to_string(job.state);
  s.command = job.spec.argv;
  if (!s.command.empty()) s.command[0] = std::filesystem::path(s.command[0]).filename().string();
  s.created_at = iso_utc(job.created);
  if (job.state != JobState::queued && job.steady_started != SteadyClock::time_point{}) {
    s.started_at = iso_utc(job.started);
    auto end = job.terminal() ? job.steady_ended : SteadyClock::now();
    s.elapsed_s = std::chrono::duration<double>(end - job.steady_started).count();
  }
  if (job.terminal()) s.ended_at = iso_utc(job.ended);
  if (job.state == JobState::queued) {
    int pos = 1;
    for (auto& id : gpu_queue_) {
      if (id == job.id) break;
      ++pos;
    }
    s.queue_position = pos;
  }
  s.exit_code = job.exit_code;
  s.outcome = job.terminal() ? job.outcome : "";
  if (job.exit_code && job.spec.explain_exit) s.exit_meaning = job.spec.explain_exit(*job.exit_code);
  s.log_tail.assign(job.log.begin(), job.log.end());
  if (with_result) s.result = job.result;
  s.error = job.error;
  s.stdout_truncated = job.stdout_truncated;
  return s;
}

std::optional<JobSnapshot> JobManager::snapshot(const std::string& id, bool with_result) const {
  std::lock_guard lock(mutex_);
  auto it = jobs_.find(id);
  if (it == jobs_.end()) return std::nullopt;
  return snapshot_locked(*it->second, with_result);
}

std::vector<JobSnapshot> JobManager::list() const {
  std::lock_guard lock(mutex_);
  std::vector<JobSnapshot> out;
  for (auto& id : order_) out.push_back(snapshot_locked(*jobs_.at(id), false));
  return out;
}

bool JobManager::cancel(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = jobs_.find(id);
  if (it == jobs_.end()) return false;
  it->second->cancel = true;
  changed_.notify_all();
  return true;
}

bool JobManager::wait(const std::string& id, double timeout_s) const {
  std::unique_lock lock(mutex_);
  auto it = jobs_.find(id);
  if (it == jobs_.end()) return false;
  auto job = it->second;
  return changed_.wait_for(lock, std::chrono::duration<double>(timeout_s), [&] { return job->terminal(); });
}

void JobManager::cancel_all_and_wait() {
  std::vector<std::shared_ptr<Job>> all;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, job] : jobs_) {
      job->cancel = true;
      all.push_back(job);
    }
    changed_.notify_all();
  }
  for (auto& job : all)
    if (job->thread.joinable()) job->thread.join();
}

bool JobManager::gpu_busy() const {
  std::lock_guard lock(mutex_);
  return gpu_busy_;
}

void JobManager::evict_old_locked() {
  // Oldest finished jobs go first; running and queued jobs are never dropped.
  for (auto it = order_.begin(); jobs_.size() >= max_kept_ && it != order_.end();) {
    auto& job = jobs_.at(*it);
    if (!job->terminal()) {
      ++it;
      continue;
    }
    if (job->thread.joinable()) job->thread.join();  // already past its last locked section
    jobs_.erase(*it);
    it = order_.erase(it);
  }
}

}  // namespace aisp::mcp
