// JSON Schema, the small subset MCP tools need: builders for the schemas the tools declare, and a validator
// for the same subset, used twice: on a call's arguments before a tool runs (a failure is an `isError`
// tool result naming the field, as the 2025-11-25 spec asks), and on each tool's own structuredContent
// before it is sent (a mismatch would make the TypeScript SDK client throw on the whole call).
//
// Keywords: type (one name or a list), properties, required, additionalProperties (bool or schema),
// items, enum, minimum, maximum, minLength, maxLength, minItems, maxItems. No $schema, no $ref, no pattern:
// the SDK compiles declared schemas as draft-07 and a 2020-12 $schema URI is not safe there (research note
// §1.8), and regex matching of hostile strings is a denial-of-service risk the tools do not need.
#pragma once
#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace aisp::mcp::schema {

using json = nlohmann::json;

json string(std::string description, size_t max_length = 512);
json string_enum(std::string description, std::vector<std::string> values);
json integer(std::string description, long long minimum, long long maximum);
json number(std::string description);
json number(std::string description, double minimum, double maximum);
json boolean(std::string description);
json array(std::string description, json items, size_t max_items = 1000);
json any(std::string description);  // no constraint: data whose shape belongs to another layer
// `type` becomes [type, "null"]: a measurement that may be missing.
json nullable(json schema);
// An object with these properties; `closed` forbids others (inputs), outputs stay open for additions.
json object(std::vector<std::pair<std::string, json>> properties, std::vector<std::string> required = {},
            bool closed = false, std::string description = "");

// Problems of `value` against `schema`, each "<path>: <what>" (path "/targets/0"); empty when valid.
// Stops after `max_errors`. Values quoted in messages are cut short (they may be hostile or secret).
std::vector<std::string> validate(const json& value, const json& schema, size_t max_errors = 8);

}  // namespace aisp::mcp::schema
