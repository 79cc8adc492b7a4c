#include "mcp/result_size_limits.hpp"

#include <cstdlib>
#include <string>

namespace aisp::mcp {

namespace {

using json = nlohmann::json;

size_t env_size(const char* name, size_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  unsigned long long n = std::strtoull(v, &end, 10);
  return (end && *end == 0 && n > 0) ? static_cast<size_t>(n) : fallback;
}

json cut(const json& v, size_t max_items, size_t max_chars, const std::string& path, json& cuts) {
  if (v.is_array()) {
    json out = json::array();
    size_t keep = std::min(max_items, v.size());
    for (size_t i = 0; i < keep; ++i) out.push_back(cut(v[i], max_items, max_chars, path + "/" + std::to_string(i), cuts));
    if (keep < v.size()) cuts.push_back({{"path", path.empty() ? "/" : path}, {"kept", keep}, {"total", v.size()}});
    return out;
  }
  if (v.is_object()) {
    json out = json::object();
    for (auto& [k, x] : v.items()) out[k] = cut(x, max_items, max_chars, path + "/" + k, cuts);
    return out;
  }
  if (v.is_string() && v.get_ref<const std::string&>().size() > max_chars) {
    const std::string& s = v.get_ref<const std::string&>();
    size_t end = max_chars;
    while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;  // not inside a UTF-8 char
    cuts.push_back({{"path", path.empty() ? "/" : path}, {"kept", end}, {"total", s.size()}});
    return s.substr(0, end) + "...";
  }
  return v;
}

}  // namespace

ResultSizeLimits ResultSizeLimits::from_environment() {
  ResultSizeLimits t;
  t.max_items = env_size("AISP_MCP_PREVIEW_ITEMS", t.max_items);
  t.max_total_chars = env_size("AISP_MCP_PREVIEW_LIMIT", t.max_total_chars);
  t.max_string_chars = std::min(t.max_string_chars, t.max_total_chars);
  return t;
}

json shorten_for_client(const json& value, const ResultSizeLimits& limits, json& cuts) {
  size_t items = limits.max_items, chars = limits.max_string_chars;
  for (;;) {
    json attempt_cuts = json::array();
    json out = cut(value, items, chars, "", attempt_cuts);
    // dump() size is what goes on the wire (twice: structuredContent and the text copy; the caller
    // budgets for that by halving max_total_chars if it wants).
    if (out.dump().size() <= limits.max_total_chars || (items <= 1 && chars <= 64)) {
      cuts = std::move(attempt_cuts);
      return out;
    }
    if (items > 1) items /= 2;
    else chars = std::max<size_t>(64, chars / 2);
  }
}

}  // namespace aisp::mcp
