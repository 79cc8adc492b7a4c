// `--bench-root DIR`: benchmark sources outside the tree, compiled on demand with nvcc against the
// installed aisp headers and cached by a hash of everything that affects the binary.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace aisp {

struct CompileSettings {
  std::string nvcc;                   // path to nvcc
  std::filesystem::path include_dir;  // holds aisp/benchmark.hpp
  std::filesystem::path cache_dir;    // compiled plugins: <cache>/<hash>/<relative path>.so
  std::string arch = "90a";           // CMAKE_CUDA_ARCHITECTURES-style
};

struct CompiledTree {
  std::filesystem::path plugin_root;  // mirror of the bench root holding .so files
  std::vector<std::string> failures;  // "<file>: <compiler message>"
};

// Finds nvcc ($CUDACXX, /usr/local/cuda/bin/nvcc, PATH) and the headers (next to the binary, then the
// source tree it was built from). Throws with what was looked for when one is missing.
CompileSettings default_compile_settings(const std::filesystem::path& aisp_exe);

// Compiles every baseline_*.cu / optimized_*.cu under `bench_root` (parallel, cached). A failing file is
// reported with the compiler's message and left out; the rest still run.
CompiledTree compile_bench_root(const std::filesystem::path& bench_root, const CompileSettings& settings);

// Stable content hash used for the cache key (FNV-1a 64, hex).
std::string content_hash(const std::string& data);

}  // namespace aisp
