#include "mcp/child_process.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>

extern char** environ;

namespace aisp::mcp {

namespace {

using Clock = std::chrono::steady_clock;

struct Pipe {
  int read = -1, write = -1;
  bool open() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return false;
    read = fds[0];
    write = fds[1];
    return true;
  }
  void close_all() {
    if (read >= 0) ::close(read);
    if (write >= 0) ::close(write);
    read = write = -1;
  }
};

}  // namespace

std::string ChildResult::describe() const {
  if (!started) return "could not start: " + error;
  std::string why = cancelled ? " (cancelled)" : timed_out ? " (timed out)" : "";
  if (signal) return fmt::format("killed by signal SIG{}{}", sigabbrev_np(signal) ? sigabbrev_np(signal) : "?", why);
  return fmt::format("exited with code {}{}", exit_code, why);
}

ChildResult run_child(const std::vector<std::string>& argv, const ChildOptions& o) {
  ChildResult r;
  if (argv.empty()) {
    r.error = "empty command";
    return r;
  }
  Pipe out, err;
  if (!out.open() || !err.open()) {
    r.error = std::string("pipe: ") + std::strerror(errno);
    out.close_all();
    err.close_all();
    return r;
  }
  // posix_spawn, not fork: the server is multi-threaded, and spawn does the fd set-up without running
  // arbitrary code between fork and exec.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out.write, 1);
  posix_spawn_file_actions_adddup2(&actions, err.write, 2);
  if (!o.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, o.cwd.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setpgroup(&attr, 0);  // own process group: kill(-pid) reaches its children too
  sigset_t defaults;
  sigemptyset(&defaults);
  // The server ignores SIGPIPE and routes SIGTERM/SIGINT/SIGHUP to a thread; children get the defaults.
  for (int sig : {SIGPIPE, SIGTERM, SIGINT, SIGHUP}) sigaddset(&defaults, sig);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);  // the server blocks SIGTERM for its sigwait thread; children must not
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // The environment: the server's, with o.env's entries replacing same-named ones.
  std::vector<std::string> env_store;
  for (char** e = environ; e && *e; ++e) {
    std::string entry = *e;
    std::string name = entry.substr(0, entry.find('='));
    bool replaced = std::any_of(o.env.begin(), o.env.end(), [&](const std::string& x) { return x.compare(0, name.size() + 1, name + "=") == 0; });
    if (!replaced) env_store.push_back(std::move(entry));
  }
  env_store.insert(env_store.end(), o.env.begin(), o.env.end());
  std::vector<char*> envp;
  for (auto& e : env_store) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = -1;
  auto t0 = Clock::now();
  int rc = posix_spawn(&pid, args[0], &actions, &attr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(out.write);
  ::close(err.write);
  out.write = err.write = -1;
  if (rc != 0) {
    r.error = fmt::format("{}: {}", argv[0], std::strerror(rc));
    out.close_all();
    err.close_all();
    return r;
  }
  r.started = true;
  if (o.on_started) o.on_started(pid);

  std::string err_partial;
  std::deque<std::string> tail;
  auto emit_line = [&](std::string line) {
    if (o.on_stderr_line) o.on_stderr_line(line);
    tail.push_back(std::move(line));
    if (tail.size() > o.stderr_tail_lines) tail.pop_front();
  };
  bool term_sent = false, kill_sent = false, exited = false;
  int status = 0;
  Clock::time_point term_at, exited_at;
  pollfd fds[2] = {{out.read, POLLIN, 0}, {err.read, POLLIN, 0}};
  char buf[65536];
  // Until the child has exited and both pipes are at end-of-file (poll on closed entries just sleeps, so
  // a child that closed its outputs early is still waited for, cancellable and timed).
  while (!exited || fds[0].fd >= 0 || fds[1].fd >= 0) {
    int n = poll(fds, 2, 100);
    if (n < 0 && errno != EINTR) break;
    for (int i = 0; i < 2 && n > 0; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
      if (got <= 0) {
        if (got < 0 && errno == EINTR) continue;
        ::close(fds[i].fd);
        fds[i].fd = -1;
        continue;
      }
      if (i == 0) {
        size_t room = o.stdout_limit > r.out.size() ? o.stdout_limit - r.out.size() : 0;
        r.out.append(buf, std::min<size_t>(room, static_cast<size_t>(got)));
        if (static_cast<size_t>(got) > room) r.stdout_truncated = true;
      } else {
        err_partial.append(buf, static_cast<size_t>(got));
        for (size_t nl; (nl = err_partial.find('\n')) != std::string::npos;) {
          emit_line(err_partial.substr(0, nl));
          err_partial.erase(0, nl + 1);
        }
        // Progress redraws use '\r' without '\n'; keep the buffer bounded either way.
        if (err_partial.size() > 8192) err_partial.erase(0, err_partial.size() - 8192);
      }
    }
    if (!exited) {
      pid_t w = waitpid(pid, &status, WNOHANG);
      if (w == pid || (w < 0 && errno == ECHILD)) {  // ECHILD: reaped elsewhere; nothing left to wait for
        exited = true;
        exited_at = Clock::now();
      }
    }
    // A grandchild that inherited the pipes may keep them open after the child is gone: read what it
    // wrote for a moment, then stop waiting for an end-of-file that may never come.
    if (exited && std::chrono::duration<double>(Clock::now() - exited_at).count() > 2) break;
    double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    bool stop = (o.cancel && o.cancel->load()) || (o.timeout_s > 0 && elapsed > o.timeout_s);
    if (stop && !term_sent && !exited) {
      r.cancelled = o.cancel && o.cancel->load();
      r.timed_out = !r.cancelled;
      kill(-pid, SIGTERM);
      term_sent = true;
      term_at = Clock::now();
    }
    if (term_sent && !kill_sent && std::chrono::duration<double>(Clock::now() - term_at).count() > o.kill_grace_s) {
      kill(-pid, SIGKILL);
      kill_sent = true;
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) ::close(f.fd);
  if (!err_partial.empty()) emit_line(err_partial);
  // Grandchildren that kept the pipes open are gone with the group; any left after the leader exited
  // (a detached helper) must not outlive a cancelled tool either.
  if (term_sent) kill(-pid, SIGKILL);
  r.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.stderr_tail.assign(tail.begin(), tail.end());
  return r;
}

}  // namespace aisp::mcp
