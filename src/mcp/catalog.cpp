#include "mcp/catalog.hpp"

#include <algorithm>
#include <fstream>

#include "core/discovery.hpp"

namespace aisp::mcp {

namespace fs = std::filesystem;

namespace {

// Files under `root` relative to it, each prefixed with `prefix` ("labs/" for the labs tree).
void list_files(const fs::path& root, const std::string& prefix, std::vector<std::string>& out) {
  std::error_code ec;
  if (root.empty() || !fs::is_directory(root, ec)) return;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it.depth() > 3) it.disable_recursion_pending();  // chapters are shallow; never walk a whole disk
    if (it->is_regular_file(ec)) out.push_back(prefix + it->path().lexically_relative(root).string());
  }
}

void merge(Catalog& c, const std::vector<Target>& found, bool built) {
  for (auto& t : found) {
    CatalogEntry& e = c.targets[t.id];
    e.id = t.id;
    e.chapter = t.chapter;
    e.example = t.example;
    for (auto& v : t.optimized)
      if (std::find(e.variants.begin(), e.variants.end(), v.name) == e.variants.end()) e.variants.push_back(v.name);
    std::sort(e.variants.begin(), e.variants.end());
    (built ? e.built : e.in_sources) = true;
  }
}

}  // namespace

size_t Catalog::built_count() const {
  return static_cast<size_t>(std::count_if(targets.begin(), targets.end(), [](auto& t) { return t.second.built; }));
}

size_t Catalog::source_count() const {
  return static_cast<size_t>(std::count_if(targets.begin(), targets.end(), [](auto& t) { return t.second.in_sources; }));
}

Catalog load_catalog(const ServerConfig& config) {
  Catalog c;
  std::vector<std::string> plugins, sources;
  list_files(config.plugin_root, "", plugins);
  merge(c, discover_targets(plugins, ".so"), true);
  if (!config.bench_root.empty()) {
    // A --bench-root tree is compiled on demand by `bench run`: its pairs are runnable as they are.
    list_files(config.bench_root, "", sources);
    merge(c, discover_targets(sources, ".cu"), true);
    merge(c, discover_targets(sources, ".cu"), false);
  } else if (!config.source_root.empty()) {
    list_files(config.source_root / "chapters", "", sources);
    list_files(config.source_root / "labs", "labs/", sources);
    merge(c, discover_targets(sources, ".cu"), false);
  }
  for (auto& [id, e] : c.targets) {
    if (c.chapter_dirs.count(e.chapter)) continue;
    fs::path dir = !config.bench_root.empty()       ? fs::path(config.bench_root) / e.chapter
                   : e.chapter.rfind("labs/", 0) == 0 ? config.source_root / e.chapter
                                                      : config.source_root / "chapters" / e.chapter;
    std::error_code ec;
    c.chapter_dirs[e.chapter] = (config.source_root.empty() && config.bench_root.empty()) || !fs::is_directory(dir, ec)
                                    ? fs::path() : dir;
  }
  return c;
}

std::string readme_title(const fs::path& dir) {
  std::ifstream f(dir / "README.md");
  std::string line;
  for (int i = 0; i < 20 && std::getline(f, line); ++i) {
    if (line.rfind("#", 0) != 0) continue;
    size_t start = line.find_first_not_of("# ");
    return start == std::string::npos ? "" : line.substr(start, 200);
  }
  return "";
}

}  // namespace aisp::mcp
