#include "runner/worker_transport.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

namespace aisp {

pid_t spawn_in_own_group(const std::vector<std::string>& args, const std::string& log_file,
                         const std::function<void()>& in_child) {
  // Built before fork: the child only calls async-signal-safe functions and setenv.
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  int log = open(log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log < 0) throw std::runtime_error(fmt::format("cannot open worker log {}: {}", log_file, std::strerror(errno)));
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    setpgid(0, 0);
    if (in_child) in_child();
    dup2(log, 1);
    dup2(log, 2);
    int devnull = open("/dev/null", O_RDONLY);
    dup2(devnull, 0);
    execvp(argv[0], argv.data());
    dprintf(2, "exec %s failed: %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);  // also from the parent, so the group can be killed even before the child ran
  close(log);
  return pid;
}

Received receive_timed(LineChannel& channel, double timeout_s) {
  Received in;
  auto t0 = std::chrono::steady_clock::now();
  in.status = channel.receive(in.message, timeout_s);
  in.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return in;
}

Reply no_answer(Reply::Status status, std::string reason, double wall_s) {
  const char* kind = status == Reply::Status::timeout          ? "timeout"
                     : status == Reply::Status::protocol_error ? "protocol"
                                                               : "crashed";
  return {status, {}, std::move(reason), kind, wall_s};
}

Reply as_ready(Reply first) {
  if (first.ok() && first.body.value("event", "") != "ready") {
    first.status = Reply::Status::error;
    first.kind = first.body.value("kind", "load");
    first.reason = first.body.value("error", "worker did not become ready");
  }
  return first;
}

void send_exit(LineChannel& channel, double timeout_s) {
  if (channel.send(to_json(ExitRequest{}))) {
    json answer;
    channel.receive(answer, timeout_s);
  }
}

}  // namespace aisp
