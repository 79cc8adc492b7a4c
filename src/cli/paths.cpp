#include "cli/paths.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace aisp {

std::filesystem::path self_exe() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "aisp";
  buf[n] = 0;
  return buf;
}

std::filesystem::path default_plugin_root() {
  if (const char* env = std::getenv("AISP_PLUGIN_DIR")) return env;
  return self_exe().parent_path() / "plugins";
}

std::filesystem::path project_source_root() {
#ifndef AISP_PROJECT_SOURCE_DIR
#define AISP_PROJECT_SOURCE_DIR ""
#endif
  std::vector<std::filesystem::path> candidates;
  if (const char* env = std::getenv("AISP_SOURCE_DIR")) candidates.emplace_back(env);
  // build/aisp -> the checkout holding build/ (also true on a machine the tree was copied to). The build
  // folder has its own chapters/ (CMake's binary dir for the plugins), so a root must also hold the top
  // CMakeLists.txt.
  auto dir = self_exe().parent_path();
  for (int up = 0; up < 3 && !dir.empty() && dir != dir.root_path(); ++up, dir = dir.parent_path())
    candidates.push_back(dir);
  candidates.emplace_back(AISP_PROJECT_SOURCE_DIR);
  for (auto& c : candidates) {
    std::error_code ec;
    if (!c.empty() && std::filesystem::is_directory(c / "chapters", ec) &&
        std::filesystem::is_regular_file(c / "CMakeLists.txt", ec))
      return c;
  }
  return {};
}

std::string capture_stdout(const std::string& cmd, int* exit_code) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    if (exit_code) *exit_code = -1;
    return out;
  }
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int st = pclose(p);
  if (exit_code) *exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

}  // namespace aisp
