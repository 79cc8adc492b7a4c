#include "mcp/json_rpc.hpp"

#include <fmt/format.h>

namespace aisp::mcp {

int nesting_depth(std::string_view text, int cap) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest) deepest = depth;
      if (deepest > cap) return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

ParsedLine parse_line(std::string_view line, const Limits& limits) {
  ParsedLine r;
  if (line.size() > limits.max_line_bytes) {
    r.error_code = rpc::kInvalidRequest;
    r.error = fmt::format("Invalid Request: message of {} bytes exceeds the {}-byte limit", line.size(),
                          limits.max_line_bytes);
    return r;
  }
  if (nesting_depth(line, limits.max_depth) > limits.max_depth) {
    r.error_code = rpc::kInvalidRequest;
    r.error = fmt::format("Invalid Request: JSON nested deeper than {} levels", limits.max_depth);
    return r;
  }
  r.value = json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
  if (r.value.is_discarded()) {
    r.value = nullptr;
    r.error_code = rpc::kParseError;
    r.error = "Parse error: the line is not valid JSON";
    return r;
  }
  r.ok = true;
  return r;
}

namespace {

bool usable_id(const json& id, const Limits& limits) {
  if (id.is_number_integer()) return true;  // signed or unsigned, both exact
  return id.is_string() && id.get_ref<const std::string&>().size() <= limits.max_id_chars;
}

Message invalid(json id, std::string why) {
  Message m;
  m.kind = MessageKind::invalid;
  m.id = std::move(id);
  m.error_code = rpc::kInvalidRequest;
  m.error = "Invalid Request: " + why;
  return m;
}

}  // namespace

Message classify(const json& value, const Limits& limits) {
  if (!value.is_object()) return invalid(nullptr, "a message must be a JSON object");
  // The id is read first so that every later error can be answered to the request that caused it.
  json id = nullptr;
  bool has_id = value.contains("id");
  if (has_id) {
    const json& raw = value["id"];
    if (!usable_id(raw, limits))
      return invalid(nullptr, raw.is_string() ? fmt::format("id longer than {} characters", limits.max_id_chars)
                                              : "id must be a string or an integer (never null)");
    id = raw;
  }
  auto version = value.find("jsonrpc");
  if (version == value.end() || !version->is_string() || *version != "2.0")
    return invalid(id, "\"jsonrpc\" must be \"2.0\"");
  auto method = value.find("method");
  if (method == value.end()) {
    if (has_id && (value.contains("result") || value.contains("error"))) {
      Message m;
      m.kind = MessageKind::response;
      m.id = id;
      return m;
    }
    return invalid(id, "missing \"method\"");
  }
  if (!method->is_string()) return invalid(id, "\"method\" must be a string");
  Message m;
  m.method = method->get<std::string>();
  if (auto p = value.find("params"); p != value.end()) {
    if (!p->is_object() && !p->is_array() && !p->is_null())
      return invalid(id, "\"params\" must be an object");
    m.params = *p;
  }
  m.kind = has_id ? MessageKind::request : MessageKind::notification;
  m.id = id;
  return m;
}

json make_result(const json& id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json make_error(const json& id, int code, std::string_view message, json data) {
  json error = {{"code", code}, {"message", message}};
  if (!data.is_null()) error["data"] = std::move(data);
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
}

json make_notification(std::string_view method, json params) {
  json n = {{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) n["params"] = std::move(params);
  return n;
}

std::string id_key(const json& id) { return id.dump(); }

std::string quote_input(std::string_view text, size_t max_chars) {
  std::string out;
  size_t i = 0;
  for (; i < text.size() && out.size() < max_chars; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    out += (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
  }
  if (i < text.size()) {
    // Do not end inside a UTF-8 sequence: drop continuation bytes and the lead byte they belong to.
    while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) out.pop_back();
    if (!out.empty() && (static_cast<unsigned char>(out.back()) & 0x80)) out.pop_back();
    out += fmt::format("... ({} bytes)", text.size());
  }
  return out;
}

}  // namespace aisp::mcp
