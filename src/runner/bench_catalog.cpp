#include "runner/bench_catalog.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "runner/bench_request.hpp"
#include "runner/plugin_compiler.hpp"

namespace aisp {
namespace fs = std::filesystem;
namespace {

std::vector<std::string> list_relative_files(const fs::path& root) {
  std::vector<std::string> files;
  if (!fs::is_directory(root)) return files;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::follow_directory_symlink);
       it != fs::recursive_directory_iterator(); ++it)
    if (it->is_regular_file() || it->is_symlink()) files.push_back(it->path().lexically_relative(root).string());
  return files;
}

}  // namespace

BenchCatalog load_catalog(const fs::path& bench_root, const fs::path& built_plugins, const fs::path& aisp_exe,
                          bool compile) {
  BenchCatalog c;
  if (!bench_root.empty()) {
    if (!compile) {
      c.plugin_root = bench_root;
      c.targets = discover_targets(list_relative_files(bench_root), ".cu");
      return c;
    }
    std::cerr << "compiling benchmarks under " << bench_root.string() << " (cached)...\n";
    CompiledTree tree = compile_bench_root(bench_root, default_compile_settings(aisp_exe));
    c.plugin_root = tree.plugin_root;
    c.compile_failures = tree.failures;
  } else {
    c.plugin_root = built_plugins;
    if (!fs::is_directory(c.plugin_root))
      throw BenchError("NoPlugins", fmt::format("no plugins at {} (build the project, or set AISP_PLUGIN_DIR)",
                                                c.plugin_root.string()), 2);
  }
  c.targets = discover_targets(list_relative_files(c.plugin_root), ".so");
  return c;
}

bool is_test_only(const BenchCatalog& c, const Target& t) {
  std::error_code ec;
  return fs::exists(c.plugin_root / t.chapter / ".test-only", ec);
}

std::vector<Target> resolve_targets(const BenchCatalog& c, const std::vector<std::string>& selectors) {
  Selection sel = select_targets(c.targets, selectors);
  if (std::find(selectors.begin(), selectors.end(), "all") != selectors.end()) {
    // A test-fixture target stays only when another selector names it (`all fixtures`).
    std::vector<std::string> named(selectors.begin(), selectors.end());
    std::erase(named, "all");
    Selection explicitly = select_targets(c.targets, named);
    std::erase_if(sel.targets, [&](const Target& t) {
      return is_test_only(c, t) && std::none_of(explicitly.targets.begin(), explicitly.targets.end(),
                                               [&](const Target& e) { return e.id == t.id; });
    });
  }
  if (!sel.unknown.empty()) {
    std::string msg;
    for (auto& u : sel.unknown) {
      auto near = closest_names(c.targets, u);
      std::string hint;
      for (auto& n : near) hint += (hint.empty() ? "" : ", ") + n;
      msg += fmt::format("unknown target '{}'{}\n", u, hint.empty() ? "" : " (did you mean: " + hint + "?)");
    }
    msg += "list them with: aisp bench list-targets";
    throw BenchError("UnknownTarget", msg, 2);
  }
  return std::move(sel.targets);
}

}  // namespace aisp
