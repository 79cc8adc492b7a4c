#include "runner/plugin_compiler.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <stdexcept>

#include "core/json_io.hpp"

#ifndef AISP_SOURCE_INCLUDE_DIR
#define AISP_SOURCE_INCLUDE_DIR ""
#endif
#ifndef AISP_CUDA_ARCH
#define AISP_CUDA_ARCH "90a"
#endif

namespace aisp {
namespace fs = std::filesystem;

std::string content_hash(const std::string& data) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return fmt::format("{:016x}", h);
}

namespace {

std::string shell_quote(const std::string& s) {
  std::string o = "'";
  for (char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}

// Runs a command, returns (exit code, combined output).
std::pair<int, std::string> run_capture(const std::string& cmd) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return {-1, "popen failed"};
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

std::string gencode_flags(const std::string& archs) {
  std::string flags;
  size_t start = 0;
  while (start <= archs.size()) {
    size_t end = archs.find(';', start);
    std::string a = archs.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!a.empty()) flags += fmt::format(" -gencode=arch=compute_{0},code=sm_{0}", a);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return flags;
}

}  // namespace

CompileSettings default_compile_settings(const fs::path& exe) {
  CompileSettings s;
  std::vector<std::string> nvccs;
  if (const char* c = std::getenv("CUDACXX")) nvccs.push_back(c);
  nvccs.push_back("/usr/local/cuda/bin/nvcc");
  for (auto& c : nvccs)
    if (fs::exists(c)) {
      s.nvcc = c;
      break;
    }
  if (s.nvcc.empty() && run_capture("command -v nvcc").first == 0) s.nvcc = "nvcc";
  if (s.nvcc.empty()) throw std::runtime_error("--bench-root needs nvcc: set CUDACXX or install CUDA under /usr/local/cuda");
  fs::path dir = exe.parent_path();
  for (fs::path cand : {dir / "include", dir / ".." / "include", dir / ".." / "share" / "aisp" / "include",
                        fs::path(AISP_SOURCE_INCLUDE_DIR)})
    if (!cand.empty() && fs::exists(cand / "aisp" / "benchmark.hpp")) {
      s.include_dir = fs::weakly_canonical(cand);
      break;
    }
  if (s.include_dir.empty()) throw std::runtime_error("cannot find the aisp headers (include/aisp/benchmark.hpp) next to " + exe.string());
  const char* home = std::getenv("HOME");
  s.cache_dir = std::getenv("AISP_CACHE_DIR") ? fs::path(std::getenv("AISP_CACHE_DIR"))
                                               : fs::path(home ? home : "/tmp") / ".cache" / "aisp" / "plugins";
  s.arch = AISP_CUDA_ARCH;
  return s;
}

CompiledTree compile_bench_root(const fs::path& root, const CompileSettings& s) {
  if (!fs::is_directory(root)) throw std::runtime_error(fmt::format("--bench-root {} is not a directory", root.string()));
  // What every plugin depends on besides its own folder: the API headers and the compile command.
  std::string api;
  for (auto& e : fs::recursive_directory_iterator(s.include_dir))
    if (e.is_regular_file()) api += read_file(e.path());
  std::string flags = fmt::format("-std=c++20 -O3 -lineinfo --expt-relaxed-constexpr -shared -Xcompiler -fPIC,-fvisibility=hidden{}",
                                  gencode_flags(s.arch));
  std::string api_hash = content_hash(api + flags + s.nvcc);

  struct Job { fs::path src, rel, out; std::string key; };
  std::vector<Job> jobs;
  for (auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file() || e.path().extension() != ".cu") continue;
    std::string stem = e.path().stem().string();
    if (stem.rfind("baseline_", 0) != 0 && stem.rfind("optimized_", 0) != 0) continue;
    // The cache key covers the file and its sibling headers (the pair's shared .cuh).
    std::string content = read_file(e.path());
    for (auto& sib : fs::directory_iterator(e.path().parent_path())) {
      auto ext = sib.path().extension();
      if (ext == ".cuh" || ext == ".h" || ext == ".hpp") content += read_file(sib.path());
    }
    fs::path rel = fs::relative(e.path(), root);
    std::string key = content_hash(content + api_hash);
    jobs.push_back({e.path(), rel, s.cache_dir / key / rel.parent_path() / (stem + ".so"), key});
  }
  CompiledTree tree;
  tree.plugin_root = s.cache_dir / ("tree_" + content_hash(fs::absolute(root).string()));
  std::vector<std::future<std::string>> results;
  for (auto& j : jobs) {
    results.push_back(std::async(std::launch::async, [&s, &flags, j] () -> std::string {
      if (fs::exists(j.out)) return {};
      fs::create_directories(j.out.parent_path());
      fs::path tmp = j.out;
      tmp += fmt::format(".tmp{}", ::getpid());
      std::string cmd = fmt::format("{} {} -I{} -I{} {} -o {} -lcublas -lcublasLt", shell_quote(s.nvcc), flags,
                                    shell_quote(s.include_dir.string()), shell_quote(j.src.parent_path().string()),
                                    shell_quote(j.src.string()), shell_quote(tmp.string()));
      auto [code, text] = run_capture(cmd);
      if (code != 0) {
        fs::remove(tmp);
        return fmt::format("{}: nvcc failed (exit {}):\n{}", j.rel.string(), code, text);
      }
      fs::rename(tmp, j.out);
      return {};
    }));
  }
  // Mirror the bench root's layout with links to the cached binaries, so discovery sees the usual names.
  std::error_code ec;
  fs::remove_all(tree.plugin_root, ec);
  for (size_t i = 0; i < jobs.size(); ++i) {
    std::string err = results[i].get();
    if (!err.empty()) {
      tree.failures.push_back(err);
      continue;
    }
    fs::path link = tree.plugin_root / jobs[i].rel.parent_path() / (jobs[i].src.stem().string() + ".so");
    fs::create_directories(link.parent_path());
    fs::create_symlink(jobs[i].out, link, ec);
  }
  return tree;
}

}  // namespace aisp
