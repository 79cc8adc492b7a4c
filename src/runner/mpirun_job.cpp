#include "runner/mpirun_job.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <future>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "runner/worker_transport.hpp"

namespace aisp {

using Clock = std::chrono::steady_clock;

// The mpirun process: killed as a group on a timeout, reaped once.
class MpirunJob {
 public:
  MpirunJob(pid_t pid, std::string pipe_dir) : pid_(pid), pipe_dir_(std::move(pipe_dir)) {}
  // After every rank's exit request mpirun ends by itself; a job still running then is killed.
  ~MpirunJob() {
    if (reap(5) == "running") kill_group();
  }
  const std::string& pipe_dir() const { return pipe_dir_; }
  // SIGTERM first: mpirun forwards it to every rank and reaps them (the ranks are not in its process group,
  // so a SIGKILL of the group alone would orphan them, stuck in their collectives); SIGKILL after 5 s.
  void kill_group() {
    if (pid_ <= 0) return;
    kill(-pid_, SIGTERM);
    if (reap(5) == "running") kill(-pid_, SIGKILL);
  }
  // "exited with code N" / "killed by signal N" / "running" (not ended within wait_s).
  std::string reap(double wait_s) {
    std::lock_guard<std::mutex> lock(m_);
    if (!status_.empty()) return status_;
    auto deadline = Clock::now() + std::chrono::duration<double>(wait_s);
    int st = 0;
    for (;;) {
      pid_t r = waitpid(pid_, &st, WNOHANG);
      if (r == pid_) break;
      if (r < 0) return status_ = "exit status unknown";
      if (Clock::now() > deadline) return "running";
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (WIFSIGNALED(st)) return status_ = fmt::format("mpirun killed by signal {}", WTERMSIG(st));
    return status_ = fmt::format("mpirun exited with code {}", WEXITSTATUS(st));
  }

 private:
  pid_t pid_;
  std::string pipe_dir_, status_;
  std::mutex m_;
};

std::string rank_request_pipe(const std::string& dir, int rank) { return fmt::format("{}/rank{}.req", dir, rank); }
std::string rank_reply_pipe(const std::string& dir, int rank) { return fmt::format("{}/rank{}.rep", dir, rank); }

std::vector<std::string> mpirun_pipe_argv(const RankPlan& plan, const std::string& mpirun, const WorkerCommand& command,
                                          const std::string& pipe_dir) {
  std::vector<std::string> argv;
  for (const RankSpawn& s : plan.ranks) {
    RankPlan one = plan;
    one.ranks = {s};
    WorkerCommand wrapped = command;
    // Replies first: the supervisor opens that pipe for reading first (see MpirunRank::connect).
    wrapped.argv = {"sh", "-c", "exec \"$@\" 4>\"$AISP_RANK_REPLIES\" 3<\"$AISP_RANK_REQUESTS\"", "aisp-rank"};
    wrapped.argv.insert(wrapped.argv.end(), command.argv.begin(), command.argv.end());
    wrapped.env.push_back({"AISP_RANK_REQUESTS", rank_request_pipe(pipe_dir, s.rank)});
    wrapped.env.push_back({"AISP_RANK_REPLIES", rank_reply_pipe(pipe_dir, s.rank)});
    std::vector<std::string> part = mpirun_argv(one, mpirun, wrapped);
    if (argv.empty()) {
      argv = part;
      continue;
    }
    // The contexts after the first: drop the repeated "mpirun --bind-to none [--oversubscribe]" prefix.
    auto first_np = std::find(part.begin(), part.end(), "-np");
    argv.push_back(":");
    argv.insert(argv.end(), first_np, part.end());
  }
  return argv;
}

namespace {

// open() of a FIFO blocks until the other end opens it. Done on a helper thread so it can time out; on a
// timeout the FIFO is opened from this side with the other direction, which releases the blocked open, and
// that descriptor is closed again. Returns -1 on timeout or error.
int open_fifo(const std::string& path, int flags, double timeout_s) {
  auto opened = std::async(std::launch::async, [path, flags] { return ::open(path.c_str(), flags | O_CLOEXEC); });
  if (opened.wait_for(std::chrono::duration<double>(timeout_s)) == std::future_status::ready) return opened.get();
  int other = ::open(path.c_str(), ((flags & O_ACCMODE) == O_RDONLY ? O_WRONLY : O_RDONLY) | O_NONBLOCK | O_CLOEXEC);
  int fd = opened.get();
  if (other >= 0) close(other);
  if (fd >= 0) close(fd);
  return -1;
}

}  // namespace

MpirunRank::MpirunRank(std::shared_ptr<MpirunJob> job, int rank) : job_(std::move(job)), rank_(rank) {}

MpirunRank::~MpirunRank() {
  if (to_rank_ >= 0) close(to_rank_);
  if (from_rank_ >= 0) close(from_rank_);
}

bool MpirunRank::connect(double timeout_s, std::string& why) {
  from_rank_ = open_fifo(rank_reply_pipe(job_->pipe_dir(), rank_), O_RDONLY, timeout_s);
  if (from_rank_ >= 0) to_rank_ = open_fifo(rank_request_pipe(job_->pipe_dir(), rank_), O_WRONLY, timeout_s);
  if (from_rank_ >= 0 && to_rank_ >= 0) {
    channel_ = std::make_unique<LineChannel>(from_rank_, to_rank_);
    return true;
  }
  why = fmt::format("rank {} never opened its pipes within {:.1f} s ({})", rank_, timeout_s, job_->reap(0));
  return false;
}

Reply MpirunRank::read_reply(double timeout_s, const std::string& what) {
  Received in = receive_timed(*channel_, timeout_s);
  if (in.status == LineChannel::Status::ok) return reply_from_message(std::move(in.message), in.wall_s);
  done_ = true;
  switch (in.status) {
    case LineChannel::Status::timeout:
      job_->kill_group();  // every rank: the others wait for this one in their collectives
      return no_answer(Reply::Status::timeout,
                       fmt::format("rank {}: {} did not answer within {:.1f} s: mpirun job killed", rank_, what, timeout_s),
                       in.wall_s);
    case LineChannel::Status::bad_json:
      job_->kill_group();
      return no_answer(Reply::Status::protocol_error,
                       fmt::format("rank {} sent malformed data during {}: {:.200}", rank_, what, channel_->error_text()),
                       in.wall_s);
    default:  // eof, error
      return no_answer(Reply::Status::crashed, fmt::format("rank {} died during {} ({})", rank_, what, job_->reap(1)),
                       in.wall_s);
  }
}

Reply MpirunRank::wait_ready(double timeout_s) {
  std::string why;
  if (!connect(timeout_s, why)) {
    done_ = true;
    return no_answer(Reply::Status::crashed, why, timeout_s);
  }
  return as_ready(read_reply(timeout_s, "plugin load"));
}

Reply MpirunRank::request(json req, double timeout_s) {
  const std::string what = fmt::format("request '{}'", req.value("op", "?"));
  if (done_ || !channel_) return no_answer(Reply::Status::crashed, fmt::format("rank {} is not running", rank_));
  req["id"] = next_id_++;
  if (!channel_->send(req)) {
    done_ = true;
    return no_answer(Reply::Status::crashed, fmt::format("rank {} gone before {} ({})", rank_, what, job_->reap(1)));
  }
  return read_reply(timeout_s, what);
}

void MpirunRank::shutdown(double timeout_s) {
  if (done_ || !channel_) return;
  done_ = true;
  send_exit(*channel_, timeout_s);
}

std::vector<std::unique_ptr<VariantWorker>> start_mpirun_job(const RankPlan& plan, const std::string& mpirun,
                                                             const WorkerCommand& command, const std::string& pipe_dir,
                                                             const std::string& log_file) {
  std::filesystem::create_directories(pipe_dir);
  for (const RankSpawn& s : plan.ranks)
    for (const std::string& p : {rank_request_pipe(pipe_dir, s.rank), rank_reply_pipe(pipe_dir, s.rank)}) {
      std::filesystem::remove(p);
      if (mkfifo(p.c_str(), 0600) != 0) throw std::runtime_error(fmt::format("mkfifo {}: {}", p, std::strerror(errno)));
    }
  pid_t pid = spawn_in_own_group(mpirun_pipe_argv(plan, mpirun, command, pipe_dir), log_file);
  auto job = std::make_shared<MpirunJob>(pid, pipe_dir);
  std::vector<std::unique_ptr<VariantWorker>> ranks;
  for (const RankSpawn& s : plan.ranks) ranks.push_back(std::make_unique<MpirunRank>(job, s.rank));
  return ranks;
}

}  // namespace aisp
