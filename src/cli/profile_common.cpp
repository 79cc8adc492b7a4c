#include "cli/profile_common.hpp"

#include <fmt/format.h>

#include "cli/paths.hpp"
#include "runner/bench_suite.hpp"  // now_stamp

namespace aisp::profile_cli {
namespace fs = std::filesystem;

void fail(const std::string& msg, int code) { throw CLI::Error("ProfileError", msg, code); }

namespace {

std::vector<std::string> plugin_files(const fs::path& root) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return files;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::follow_directory_symlink, ec);
       it != fs::recursive_directory_iterator(); ++it)
    if (it->is_regular_file() || it->is_symlink()) files.push_back(it->path().lexically_relative(root).string());
  return files;
}

}  // namespace

Picked pick(const std::string& target, const std::string& variant) {
  Picked p;
  p.plugin_root = default_plugin_root();
  auto all = discover_targets(plugin_files(p.plugin_root), ".so");
  if (all.empty()) fail(fmt::format("no plugins at {} (build the project, or set AISP_PLUGIN_DIR)", p.plugin_root.string()));
  Selection sel = select_targets(all, {target});
  if (sel.targets.size() != 1 || !sel.unknown.empty()) {
    std::string hint;
    for (auto& n : closest_names(all, target)) hint += (hint.empty() ? "" : ", ") + n;
    fail(fmt::format("'{}' is not one target{} (list them with: aisp bench list-targets)", target,
                     hint.empty() ? "" : " (did you mean: " + hint + "?)"));
  }
  p.target = sel.targets.front();
  std::vector<Variant> all_variants = {p.target.baseline};
  all_variants.insert(all_variants.end(), p.target.optimized.begin(), p.target.optimized.end());
  for (auto& v : all_variants) {
    bool base = v.name == "baseline";
    if (variant == "all" || variant == v.name || (variant == "optimized" && !base)) p.variants.push_back(v);
  }
  if (p.variants.empty()) {
    std::string names;
    for (auto& v : all_variants) names += " " + v.name;
    fail(fmt::format("{} has no variant '{}' (variants:{}; or all, optimized)", p.target.id, variant, names));
  }
  return p;
}

// The GPU facts a profile document records (for the roofline later): from a child `aisp info gpu`, so this
// process never creates a CUDA context of its own next to the profiled one.

std::string safe(const std::string& s) {
  std::string o;
  for (char c : s) o += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' ? c : '_';
  return o;
}

fs::path new_profile_dir(const std::string& artifacts_dir, const std::string& tool, const std::string& target) {
  fs::path d = fs::path(artifacts_dir) / "profiles" / fmt::format("{}__{}__{}", now_stamp("%Y%m%d_%H%M%S"), tool, safe(target));
  for (int i = 2; fs::exists(d); ++i) d = fs::path(d.string() + "_" + std::to_string(i));
  fs::create_directories(d);
  return d;
}

}  // namespace aisp::profile_cli
