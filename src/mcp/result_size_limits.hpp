// Keeps tool results small enough for clients: the TypeScript SDK drops a stdio line over 10 MiB, and a
// model reading a 5,000-sample array learns nothing it could not get from the run directory. Arrays are
// cut to `max_items`, strings to `max_string_chars`; when the whole is still over `max_total_chars` the
// item limit is halved until it fits. Each cut is listed ({path, kept, total}) so nothing is silently lost.
// Defaults (overridable, as in the seed): $AISP_MCP_PREVIEW_ITEMS = 200, $AISP_MCP_PREVIEW_LIMIT = 1,000,000
// characters for the whole result.
#pragma once
#include <nlohmann/json.hpp>

namespace aisp::mcp {

struct ResultSizeLimits {
  size_t max_items = 200;
  size_t max_string_chars = 20000;
  size_t max_total_chars = 1000000;
  static ResultSizeLimits from_environment();
};

// Returns the shortened value; `cuts` receives one {path, kept, total} object per shortened array/string.
nlohmann::json shorten_for_client(const nlohmann::json& value, const ResultSizeLimits& limits, nlohmann::json& cuts);

}  // namespace aisp::mcp
