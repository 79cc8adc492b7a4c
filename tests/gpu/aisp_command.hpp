// Running the aisp binary from a GPU test (tests/gpu/*.cpp): where it is, and a shell command's stdout
// with its exit code.
#pragma once
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

// The aisp binary: $AISP_EXE, else the one this test was built beside (build/tests/.. -> build/aisp), so
// a build folder copied to another path (the GPU machine) still finds it.
inline std::string aisp_exe() {
  if (const char* e = std::getenv("AISP_EXE")) return e;
  auto self = std::filesystem::read_symlink("/proc/self/exe");
  auto beside = self.parent_path().parent_path() / "aisp";
  return std::filesystem::exists(beside) ? beside.string() : AISP_EXE;
}

// What `cmd` (run by /bin/sh) printed on stdout; its exit code in *code (-1 when it did not exit).
inline std::string shell_output(const std::string& cmd, int* code) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int st = pclose(p);
  *code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}
