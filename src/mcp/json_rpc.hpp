// JSON-RPC 2.0 as MCP's stdio transport uses it: one message per line, classified into request,
// notification or response, with every malformed shape mapped to the error the spec names. Pure functions
// (no I/O), so the hostile-input rules are unit-tested line by line (tests/unit/test_mcp_json_rpc.cpp).
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace aisp::mcp {

using json = nlohmann::json;

namespace rpc {
inline constexpr int kParseError = -32700;      // not JSON: answered with id null
inline constexpr int kInvalidRequest = -32600;  // JSON, but not a JSON-RPC 2.0 request or notification
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;   // also MCP's answer to an unknown tool or a bad cursor
inline constexpr int kInternalError = -32603;
}  // namespace rpc

// Defences against hostile input. A line over max_line_bytes is dropped unread (the reader never holds
// more than that); nesting deeper than max_depth is refused before parsing, because tool arguments are
// flat and a million '[' would otherwise cost a parse and an allocation per level; ids longer than
// max_id_chars are refused rather than echoed back at their full size.
struct Limits {
  size_t max_line_bytes = size_t{4} << 20;  // 4 MiB: tool arguments are a few hundred bytes
  int max_depth = 64;
  size_t max_id_chars = 256;
};

enum class MessageKind { request, notification, response, invalid };

struct Message {
  MessageKind kind = MessageKind::invalid;
  json id;          // request/response: a string or an integer, type preserved; null when unknown
  std::string method;
  json params;      // absent params are null (clients send none, {} or an object)
  int error_code = 0;  // invalid: the code to answer with (id = `id`, null when it could not be read)
  std::string error;
};

// Deepest array/object nesting in `text`, counting brackets outside strings; stops counting past `cap`.
int nesting_depth(std::string_view text, int cap);

// One line: parse-time failures (not JSON, too deep, too long) come back as kind invalid with code
// kParseError/kInvalidRequest; otherwise `value` is set and the caller classifies it (it may be a batch).
struct ParsedLine {
  bool ok = false;
  json value;
  int error_code = 0;
  std::string error;
};
ParsedLine parse_line(std::string_view line, const Limits& limits = {});

// One JSON value (one element of a batch) as a request, notification, response or invalid message.
Message classify(const json& value, const Limits& limits = {});

json make_result(const json& id, json result);
json make_error(const json& id, int code, std::string_view message, json data = nullptr);
json make_notification(std::string_view method, json params);

// A map key for an id that keeps its JSON type: 7 and "7" are different requests.
std::string id_key(const json& id);

// `text` cut to `max_chars` (on a UTF-8 boundary) with control characters replaced, for error messages
// that quote client input (a method or tool name): never a megabyte echoed back, never a raw escape.
std::string quote_input(std::string_view text, size_t max_chars = 64);

}  // namespace aisp::mcp
