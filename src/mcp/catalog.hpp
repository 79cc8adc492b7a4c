// The benchmark targets the tools can name: built plugins (what `aisp bench run` can run now) merged
// with the pairs in the sources (chapters/chNN, labs/<lab>), so a listing is useful on a machine where
// nothing is built yet and says which targets are runnable.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "mcp/config.hpp"

namespace aisp::mcp {

struct CatalogEntry {
  std::string id, chapter, example;
  std::vector<std::string> variants;  // optimized variant names (union of built and source)
  bool built = false, in_sources = false;
};

struct Catalog {
  std::map<std::string, CatalogEntry> targets;  // by id, sorted
  std::map<std::string, std::filesystem::path> chapter_dirs;  // chapter -> its source directory
  size_t built_count() const;
  size_t source_count() const;
};

Catalog load_catalog(const ServerConfig& config);

// The first Markdown heading of <dir>/README.md without the '#'s, or "".
std::string readme_title(const std::filesystem::path& dir);

}  // namespace aisp::mcp
