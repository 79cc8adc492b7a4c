#include "runner/worker_process.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "aisp/axes.hpp"
#include "core/discovery.hpp"
#include "runner/worker_transport.hpp"

namespace aisp {
namespace {

using Clock = std::chrono::steady_clock;

void move_fd(int from, int to) {
  if (from == to) {
    fcntl(to, F_SETFD, 0);  // keep across exec
    return;
  }
  dup2(from, to);
  close(from);
}

// The Python worker (python/aisp, issue 23): the package beside the build tree the binary runs from
// (<build>/../python, also true of a checkout copied to another machine), else the source tree this binary
// was built from; the runtime library from <build>/lib. $AISP_PYTHON picks the interpreter.
WorkerCommand python_worker_command(const WorkerSpawn& s) {
  namespace fs = std::filesystem;
  const fs::path build = fs::path(s.aisp_exe).parent_path();
  fs::path package = build / ".." / "python";
  if (!fs::exists(package / "aisp" / "worker.py")) package = fs::path(AISP_SOURCE_INCLUDE_DIR) / ".." / "python";
  const char* python = std::getenv("AISP_PYTHON");
  const char* inherited = std::getenv("PYTHONPATH");
  std::string path = package.lexically_normal().string();
  if (inherited && *inherited) path += std::string(":") + inherited;
  return {{python && *python ? python : "python3", "-m", "aisp.worker", "--benchmark", s.plugin, "--validity",
           s.validity ? "on" : "off"},
          {{"PYTHONPATH", path},
           {"AISP_WORKER_LIBRARY", (build / "lib" / "libaisp_worker.so").lexically_normal().string()},
           {"PYTHONDONTWRITEBYTECODE", "1"},   // nothing written into the plugin tree
           {"PYTHONUNBUFFERED", "1"}}};        // benchmark prints reach the log in order
}

}  // namespace

WorkerCommand worker_command(const WorkerSpawn& s) {
  if (is_python_variant(s.plugin)) return python_worker_command(s);
  return {{s.aisp_exe, "worker", "--plugin", s.plugin, "--validity", s.validity ? "on" : "off"}, {}};
}

WorkerProcess::WorkerProcess(const WorkerSpawn& s) {
  const WorkerCommand command = worker_command(s);
  int req[2], resp[2];
  if (pipe2(req, O_CLOEXEC) != 0 || pipe2(resp, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  // In the child: the protocol on fds 3/4, one GPU visible, the axes and the command's environment.
  pid_ = spawn_in_own_group(command.argv, s.log_file, [&] {
    int in = fcntl(req[0], F_DUPFD, 10), out = fcntl(resp[1], F_DUPFD, 10);
    move_fd(in, 3);
    move_fd(out, 4);
    setenv("CUDA_VISIBLE_DEVICES", s.visible_device.c_str(), 1);
    for (const auto& [name, value] : s.axes) setenv(axis_environment_name(name).c_str(), std::to_string(value).c_str(), 1);
    for (const auto& [name, value] : command.env) setenv(name.c_str(), value.c_str(), 1);
    for (const auto& [name, value] : s.env) setenv(name.c_str(), value.c_str(), 1);
  });
  close(req[0]);
  close(resp[1]);
  to_child_ = req[1];
  from_child_ = resp[0];
  channel_ = std::make_unique<LineChannel>(from_child_, to_child_);
  alive_ = true;
}

WorkerProcess::~WorkerProcess() {
  if (alive_) {
    kill_group();
    reap(5);
  }
  if (to_child_ >= 0) close(to_child_);
  if (from_child_ >= 0) close(from_child_);
}

void WorkerProcess::kill_group() {
  if (pid_ > 0) kill(-pid_, SIGKILL);
}

std::string WorkerProcess::reap(double wait_s) {
  auto deadline = Clock::now() + std::chrono::duration<double>(wait_s);
  int st = 0;
  for (;;) {
    pid_t r = waitpid(pid_, &st, WNOHANG);
    if (r == pid_) break;
    if (r < 0) return "exit status unknown";
    if (Clock::now() > deadline) {
      kill_group();
      waitpid(pid_, &st, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  alive_ = false;
  if (WIFSIGNALED(st))
    return fmt::format("killed by signal SIG{} ({})", sigabbrev_np(WTERMSIG(st)) ? sigabbrev_np(WTERMSIG(st)) : "?",
                       strsignal(WTERMSIG(st)));
  if (WIFEXITED(st)) return fmt::format("exited with code {}", WEXITSTATUS(st));
  return "ended";
}

Reply WorkerProcess::read_reply(double timeout_s, const std::string& what) {
  Received in = receive_timed(*channel_, timeout_s);
  switch (in.status) {
    case LineChannel::Status::ok:
      return reply_from_message(std::move(in.message), in.wall_s);
    case LineChannel::Status::timeout:
      kill_group();
      return no_answer(Reply::Status::timeout,
                       fmt::format("{} did not answer within {:.1f} s: worker killed ({})", what, timeout_s, reap(5)),
                       in.wall_s);
    case LineChannel::Status::eof:
    case LineChannel::Status::error:
      // A benchmark calling exit()/abort()/_exit() or crashing ends the process mid-request: never a result.
      return no_answer(Reply::Status::crashed, fmt::format("worker died during {}: {}", what, reap(5)), in.wall_s);
    case LineChannel::Status::bad_json: {
      kill_group();
      Reply r =
          no_answer(Reply::Status::protocol_error,
                    fmt::format("worker sent malformed data during {}: {:.200}", what, channel_->error_text()), in.wall_s);
      reap(5);
      return r;
    }
  }
  return {};
}

Reply WorkerProcess::wait_ready(double timeout_s) { return as_ready(read_reply(timeout_s, "plugin load")); }

Reply WorkerProcess::request(json req, double timeout_s) {
  std::string what = fmt::format("request '{}'", req.value("op", "?"));
  if (!alive_) return no_answer(Reply::Status::crashed, "worker is not running");
  req["id"] = next_id_++;
  if (!channel_->send(req)) return no_answer(Reply::Status::crashed, fmt::format("worker gone before {}: {}", what, reap(5)));
  Reply r = read_reply(timeout_s, what);
  // A fatal CUDA error makes the worker exit right after answering; collect its status.
  if (r.status == Reply::Status::error && (r.kind == "cuda" || r.kind == "oom")) {
    int st = 0;
    if (waitpid(pid_, &st, WNOHANG) == pid_) alive_ = false;
  }
  return r;
}

void WorkerProcess::shutdown(double timeout_s) {
  if (!alive_) return;
  send_exit(*channel_, timeout_s);
  reap(timeout_s);
}

}  // namespace aisp
