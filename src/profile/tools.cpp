#include "profile/tools.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

extern char** environ;

namespace aisp::profile {
namespace fs = std::filesystem;

std::string ToolLocation::missing_message() const {
  std::string s = fmt::format("{} not found; looked in:", name);
  for (auto& l : looked_in) s += "\n  " + l;
  return s;
}

namespace {

bool executable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
}

// Versioned install folders, newest first (lexicographic order is good enough for YYYY.N.N names).
std::vector<fs::path> versioned(const fs::path& parent, const std::string& prefix, const std::string& rel) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(parent, ec)) return out;
  for (auto& e : fs::directory_iterator(parent, ec))
    if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path() / rel);
  std::sort(out.rbegin(), out.rend());
  return out;
}

}  // namespace

ToolLocation find_tool(const std::string& name, const std::string& env_var) {
  ToolLocation t;
  t.name = name;
  if (const char* env = std::getenv(env_var.c_str()); env && *env) {
    // An explicit choice is final: a wrong $AISP_NCU is reported, never silently replaced by another ncu.
    t.looked_in.push_back(fmt::format("${} = {} ({})", env_var, env, executable(env) ? "found" : "not an executable file"));
    if (executable(env)) t.path = env;
    return t;
  } else {
    t.looked_in.push_back(fmt::format("${} (unset)", env_var));
  }
  std::string path_env = std::getenv("PATH") ? std::getenv("PATH") : "";
  t.looked_in.push_back("PATH (" + path_env + ")");
  std::stringstream ss(path_env);
  for (std::string dir; std::getline(ss, dir, ':');)
    if (!dir.empty() && executable(fs::path(dir) / name)) {
      t.path = (fs::path(dir) / name).string();
      return t;
    }
  std::vector<fs::path> extra;
  if (const char* home = std::getenv("CUDA_HOME")) extra.push_back(fs::path(home) / "bin" / name);
  extra.push_back(fs::path("/usr/local/cuda/bin") / name);
  if (name == "ncu") {
    for (auto& p : versioned("/opt/nvidia/nsight-compute", "", "ncu")) extra.push_back(p);
    for (auto& p : versioned("/usr/local/cuda", "nsight-compute", "ncu")) extra.push_back(p);
  } else if (name == "compute-sanitizer") {
    extra.push_back("/usr/local/cuda/compute-sanitizer/compute-sanitizer");
  } else if (name == "nsys") {
    for (auto& p : versioned("/opt/nvidia/nsight-systems", "", "bin/nsys")) extra.push_back(p);
    for (auto& p : versioned("/usr/local/cuda", "nsight-systems", "bin/nsys")) extra.push_back(p);
  }
  for (auto& p : extra) {
    t.looked_in.push_back(p.string());
    if (executable(p)) {
      t.path = p.string();
      return t;
    }
  }
  return t;
}

ToolRun run_tool(const std::vector<std::string>& argv, const std::string& log_file, double timeout_s,
                 const std::map<std::string, std::string>& env) {
  ToolRun r;
  auto start = std::chrono::steady_clock::now();
  std::string log = log_file;
  char tmpl[] = "/tmp/aisp_tool_XXXXXX";
  bool temp_log = log.empty();
  if (temp_log) {
    int fd = mkstemp(tmpl);
    if (fd < 0) {
      r.error = "cannot create a temporary log file";
      return r;
    }
    close(fd);
    log = tmpl;
  }
  std::vector<std::string> envs;
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    if (!env.count(kv.substr(0, kv.find('=')))) envs.push_back(kv);
  }
  for (auto& [k, v] : env) envs.push_back(k + "=" + v);
  std::vector<char*> cargv, cenv;
  for (auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  for (auto& e : envs) cenv.push_back(const_cast<char*>(e.c_str()));
  cenv.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);  // own group: a timeout kills the whole tree
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, cargv[0], &fa, &attr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    r.error = fmt::format("cannot start {}: {}", argv[0], std::strerror(rc));
    return r;
  }
  int status = 0;
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeout_s) {
      r.timed_out = true;
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!r.timed_out) r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(log);
  r.output.assign(std::istreambuf_iterator<char>(in), {});
  if (temp_log) std::remove(log.c_str());
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

std::string tool_version(const std::string& path) {
  ToolRun r = run_tool({path, "--version"}, "", 30);
  std::stringstream ss(r.output);
  for (std::string line; std::getline(ss, line);)
    if (line.find("Version") != std::string::npos || line.find("version") != std::string::npos) return line;
  return "";
}

}  // namespace aisp::profile
