#include "serve/static_files.hpp"

#include <fmt/format.h>

#include <map>
#include <stdexcept>

namespace aisp::serve {
namespace fs = std::filesystem;

StaticFiles::StaticFiles(const fs::path& root) {
  std::error_code ec;
  root_ = fs::canonical(root, ec);
  if (ec || !fs::is_directory(root_))
    throw std::runtime_error(fmt::format("web UI directory {} not found{}", root.string(), ec ? ": " + ec.message() : ""));
}

std::optional<fs::path> StaticFiles::resolve(const std::string& path) const {
  if (path.empty() || path[0] != '/') return std::nullopt;
  if (path.find('\0') != std::string::npos || path.find('\\') != std::string::npos) return std::nullopt;
  fs::path relative;
  size_t start = 1;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    std::string segment = path.substr(start, end - start);
    // "." and ".." never; other dot-names neither (no .git, .env or editor files leave the directory).
    if (!segment.empty() && segment[0] == '.') return std::nullopt;
    // Empty segments ("//etc") are skipped: joined, they can never form an absolute path.
    if (!segment.empty()) relative /= segment;
    start = end + 1;
  }
  if (relative.empty()) relative = "index.html";
  std::error_code ec;
  fs::path candidate = fs::weakly_canonical(root_ / relative, ec);
  if (ec) return std::nullopt;
  // Component-wise prefix check (a string prefix would accept "/srv/web-secret" for root "/srv/web").
  auto [root_end, unused] = std::mismatch(root_.begin(), root_.end(), candidate.begin(), candidate.end());
  if (root_end != root_.end()) return std::nullopt;
  if (!fs::is_regular_file(candidate, ec)) return std::nullopt;
  return candidate;
}

std::string content_type_for(const fs::path& file) {
  static const std::map<std::string, std::string> types = {
      {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"}, {".css", "text/css; charset=utf-8"},
      {".json", "application/json"}, {".svg", "image/svg+xml"}, {".png", "image/png"},
      {".ico", "image/x-icon"}, {".txt", "text/plain; charset=utf-8"}, {".map", "application/json"}};
  auto it = types.find(file.extension().string());
  return it == types.end() ? "application/octet-stream" : it->second;
}

}  // namespace aisp::serve
