// The targets a bench command can reach: the built plugin tree, or the .cu pairs under --bench-root
// (listed as sources, or compiled with the in-tree flags), and the selectors resolved against them.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "core/discovery.hpp"

namespace aisp {

struct BenchCatalog {
  std::filesystem::path plugin_root;  // where every Target's variant files are relative to
  std::vector<Target> targets;
  std::vector<std::string> compile_failures;  // "<file>: <compiler message>" (--bench-root only)
};

// `bench_root` empty: the built plugins under `built_plugins` (BenchError NoPlugins, exit 2, when that is
// no directory). Otherwise the pairs under `bench_root`: with `compile`, compiled (cached) the way the
// in-tree plugins are (runner/plugin_compiler.hpp, `aisp_exe` finds the headers and flags); without,
// listed from their sources (list-targets, which must not need nvcc).
BenchCatalog load_catalog(const std::filesystem::path& bench_root, const std::filesystem::path& built_plugins,
                          const std::filesystem::path& aisp_exe, bool compile);

// Plugin folders the build marked as test fixtures (a `.test-only` file in the chapter folder).
bool is_test_only(const BenchCatalog& catalog, const Target& target);

// The selectors resolved once, in discovery order. `all` is the chapters and labs, never the test-fixture
// folders, which only a selector naming them reaches. Unknown selectors: BenchError UnknownTarget (exit
// 2) listing each with its nearest names.
std::vector<Target> resolve_targets(const BenchCatalog& catalog, const std::vector<std::string>& selectors);

}  // namespace aisp
