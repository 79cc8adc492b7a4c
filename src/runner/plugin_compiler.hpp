// `--bench-root DIR`: benchmark sources outside the tree, compiled on demand with nvcc exactly as the
// in-tree plugins are (the flags CMake builds them with, written into a header at configure time by
// cmake/aisp_plugin_flags.cmake), and cached by the content of every file the compiler read.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace aisp {

struct CompileSettings {
  std::string nvcc;                        // path to nvcc
  std::filesystem::path include_dir;       // holds aisp/benchmark.hpp
  std::filesystem::path cache_dir;         // compiled plugins: <cache>/<key>/<stem>.so, dependency lists in deps/
  std::vector<std::string> compile_flags;  // the in-tree plugins' nvcc options (-O3, arch, -std, ...)
  std::vector<std::string> link_flags;     // -shared -cudart shared and the in-tree plugins' libraries
  int jobs = 0;                            // concurrent nvcc processes; 0: the cores this process may run on
};

struct CompiledTree {
  std::filesystem::path plugin_root;  // mirror of the bench root holding .so files
  std::vector<std::string> failures;  // "<file>: <compiler message>"
  int compiled = 0, reused = 0;       // sources compiled now / found in the cache
  int jobs = 0;                       // how many nvcc ran at once
};

// Finds nvcc ($CUDACXX, the nvcc the tree was built with, /usr/local/cuda/bin/nvcc, PATH) and the headers
// (next to the binary, then the source tree it was built from), and takes the in-tree flags. Throws with
// what was looked for when one is missing.
CompileSettings default_compile_settings(const std::filesystem::path& aisp_exe);

// The nvcc command line for one source (arguments, unquoted): the in-tree compile flags, the API headers
// and the source's folder on the include path, a dependency file, the link flags.
std::vector<std::string> compile_command(const CompileSettings& s, const std::filesystem::path& source,
                                         const std::filesystem::path& output, const std::filesystem::path& depfile);

// Compiles every baseline_*.cu / optimized_*.cu under `bench_root` (at most `jobs` at once, cached) and
// links every baseline_*.py / optimized_*.py into the same tree (Python variants, run by the Python worker). A
// source is reused only when nvcc, the flags and the content of every file its last compile read (nvcc's
// dependency output: the source, its headers wherever they are, the aisp and CUDA headers) are unchanged.
// A failing file is reported with the compiler's message and left out; the rest still run.
CompiledTree compile_bench_root(const std::filesystem::path& bench_root, const CompileSettings& settings);

// The files a Makefile-style dependency file (nvcc -MD -MF) names as prerequisites, in order.
std::vector<std::string> parse_depfile(const std::string& text);

// Stable content hash used for the cache key (FNV-1a 64, hex).
std::string content_hash(const std::string& data);

}  // namespace aisp
