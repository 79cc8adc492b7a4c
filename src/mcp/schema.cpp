#include "mcp/schema.hpp"

#include <fmt/format.h>

#include <cmath>

#include "mcp/json_rpc.hpp"

namespace aisp::mcp::schema {

json string(std::string description, size_t max_length) {
  return {{"type", "string"}, {"description", std::move(description)}, {"maxLength", max_length}};
}

json string_enum(std::string description, std::vector<std::string> values) {
  return {{"type", "string"}, {"description", std::move(description)}, {"enum", std::move(values)}};
}

json integer(std::string description, long long minimum, long long maximum) {
  return {{"type", "integer"}, {"description", std::move(description)}, {"minimum", minimum}, {"maximum", maximum}};
}

json number(std::string description) { return {{"type", "number"}, {"description", std::move(description)}}; }

json number(std::string description, double minimum, double maximum) {
  return {{"type", "number"}, {"description", std::move(description)}, {"minimum", minimum}, {"maximum", maximum}};
}

json boolean(std::string description) { return {{"type", "boolean"}, {"description", std::move(description)}}; }

json array(std::string description, json items, size_t max_items) {
  return {{"type", "array"}, {"description", std::move(description)}, {"items", std::move(items)},
          {"maxItems", max_items}};
}

json any(std::string description) { return {{"description", std::move(description)}}; }

json nullable(json s) {
  if (s.contains("type") && s["type"].is_string()) s["type"] = json::array({s["type"], "null"});
  return s;
}

json object(std::vector<std::pair<std::string, json>> properties, std::vector<std::string> required, bool closed,
            std::string description) {
  json props = json::object();
  for (auto& [name, s] : properties) props[name] = std::move(s);
  json o = {{"type", "object"}, {"properties", std::move(props)}};
  if (!required.empty()) o["required"] = std::move(required);
  if (closed) o["additionalProperties"] = false;
  if (!description.empty()) o["description"] = std::move(description);
  return o;
}

namespace {

bool has_type(const json& value, const std::string& type) {
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  if (type == "null") return value.is_null();
  if (type == "number") return value.is_number();
  // JSON Schema: an integer is any number with a zero fractional part (2.0 counts).
  if (type == "integer")
    return value.is_number_integer() || (value.is_number_float() && std::isfinite(value.get<double>()) &&
                                         std::floor(value.get<double>()) == value.get<double>());
  return false;
}

std::string kind_of(const json& v) {
  if (v.is_number_integer()) return "integer";
  if (v.is_number()) return "number";
  return v.type_name();
}

std::string preview(const json& v) {
  return quote_input(v.is_string() ? "\"" + v.get<std::string>() + "\"" : v.dump(), 48);
}

struct Validator {
  size_t max_errors;
  std::vector<std::string> errors;

  bool full() const { return errors.size() >= max_errors; }
  void add(const std::string& path, std::string what) {
    if (!full()) errors.push_back(fmt::format("{}: {}", path.empty() ? "/" : path, std::move(what)));
  }

  void check(const json& v, const json& s, const std::string& path) {
    if (full() || !s.is_object()) return;
    if (auto t = s.find("type"); t != s.end()) {
      bool ok = false;
      std::string names;
      for (const json& name : t->is_array() ? *t : json::array({*t})) {
        ok |= has_type(v, name.get<std::string>());
        names += (names.empty() ? "" : " or ") + name.get<std::string>();
      }
      if (!ok) return add(path, fmt::format("expected {}, got {}", names, kind_of(v)));
    }
    if (auto e = s.find("enum"); e != s.end()) {
      bool found = false;
      for (auto& option : *e) found |= option == v;
      if (!found) return add(path, fmt::format("{} is not one of {}", preview(v), e->dump()));
    }
    if (v.is_number()) {
      double x = v.get<double>();
      if (auto m = s.find("minimum"); m != s.end() && x < m->get<double>())
        add(path, fmt::format("{} is below the minimum {}", preview(v), m->dump()));
      if (auto m = s.find("maximum"); m != s.end() && x > m->get<double>())
        add(path, fmt::format("{} is above the maximum {}", preview(v), m->dump()));
    }
    if (v.is_string()) {
      // Length in characters (code points), as JSON Schema counts it.
      size_t chars = 0;
      for (unsigned char c : v.get_ref<const std::string&>()) chars += (c & 0xC0) != 0x80;
      if (auto m = s.find("maxLength"); m != s.end() && chars > m->get<size_t>())
        add(path, fmt::format("string of {} characters is longer than {}", chars, m->get<size_t>()));
      if (auto m = s.find("minLength"); m != s.end() && chars < m->get<size_t>())
        add(path, fmt::format("string is shorter than {} characters", m->get<size_t>()));
    }
    if (v.is_array()) {
      if (auto m = s.find("maxItems"); m != s.end() && v.size() > m->get<size_t>())
        add(path, fmt::format("{} items, at most {} allowed", v.size(), m->get<size_t>()));
      if (auto m = s.find("minItems"); m != s.end() && v.size() < m->get<size_t>())
        add(path, fmt::format("{} items, at least {} required", v.size(), m->get<size_t>()));
      if (auto items = s.find("items"); items != s.end())
        for (size_t i = 0; i < v.size() && !full(); ++i) check(v[i], *items, fmt::format("{}/{}", path, i));
    }
    if (v.is_object()) {
      if (auto req = s.find("required"); req != s.end())
        for (auto& name : *req)
          if (!v.contains(name.get<std::string>()))
            add(path, fmt::format("missing required property \"{}\"", name.get<std::string>()));
      const json* props = s.contains("properties") ? &s["properties"] : nullptr;
      auto extra = s.find("additionalProperties");
      for (auto& [key, value] : v.items()) {
        if (full()) return;
        std::string sub = path + "/" + quote_input(key, 48);
        if (props && props->contains(key)) check(value, (*props)[key], sub);
        else if (extra != s.end() && extra->is_boolean() && !extra->get<bool>())
          add(sub, "unknown property (not in the tool's inputSchema)");
        else if (extra != s.end() && extra->is_object()) check(value, *extra, sub);
      }
    }
  }
};

}  // namespace

std::vector<std::string> validate(const json& value, const json& schema, size_t max_errors) {
  Validator v{max_errors, {}};
  v.check(value, schema, "");
  return v.errors;
}

}  // namespace aisp::mcp::schema
