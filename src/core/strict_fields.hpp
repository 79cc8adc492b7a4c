// Strict reading of one protocol message (core/worker_requests.*, core/worker_replies.*): each field read
// with its type checked, and whatever key is left unread refused — a typo or a field of another protocol
// version is an error, never a default that silently turns a check off.
#pragma once
#include <fmt/format.h>

#include <set>
#include <string>
#include <type_traits>

#include "core/worker_requests.hpp"  // ProtocolError, json

namespace aisp {

class StrictFields {
 public:
  // `what` and `name` label errors: "request 'check'", "reply to 'time'".
  StrictFields(const json& m, std::string what, std::string name, std::set<std::string> always_allowed = {"op", "id"})
      : m_(m), label_(fmt::format("{} '{}'", what, name)), seen_(std::move(always_allowed)) {
    if (!m_.is_object()) throw ProtocolError(label_ + ": not a JSON object");
  }
  template <class T>
  void required(const char* key, T& out) {
    if (!m_.contains(key)) throw ProtocolError(fmt::format("{}: missing '{}'", label_, key));
    read(key, out);
  }
  template <class T>
  void optional(const char* key, T& out) {
    if (m_.contains(key) && !(m_.at(key).is_null() && std::is_same_v<T, json>)) read(key, out);
    else seen_.insert(key);
  }
  void finish() const {
    for (auto& [key, value] : m_.items())
      if (!seen_.count(key)) throw ProtocolError(fmt::format("{}: unknown key '{}'", label_, key));
  }

 private:
  template <class T>
  void read(const char* key, T& out) {
    seen_.insert(key);
    const json& v = m_.at(key);
    bool ok;
    if constexpr (std::is_same_v<T, bool>) ok = v.is_boolean();
    else if constexpr (std::is_same_v<T, std::string>) ok = v.is_string();
    else if constexpr (std::is_same_v<T, json>) ok = true;
    else if constexpr (std::is_floating_point_v<T>) ok = v.is_number();
    else if constexpr (std::is_unsigned_v<T>)
      ok = v.is_number_unsigned() || (v.is_number_integer() && v.template get<int64_t>() >= 0);
    else if constexpr (std::is_integral_v<T>) ok = v.is_number_integer();
    else ok = v.is_array() || v.is_object();
    if (!ok) throw ProtocolError(fmt::format("{}: '{}' has the wrong type ({})", label_, key, v.dump()));
    try {
      out = v.template get<T>();
    } catch (const std::exception& e) {
      throw ProtocolError(fmt::format("{}: '{}': {}", label_, key, e.what()));
    }
  }
  const json& m_;
  std::string label_;
  std::set<std::string> seen_;
};

}  // namespace aisp
