// Request parameters for the REST API, validated strictly: an unknown parameter name, a value that does
// not parse completely or lies out of range is a 400 naming the parameter and what is accepted. A typo
// such as `?limt=5` must not silently return the default page.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <string>

namespace aisp::serve {

using json = nlohmann::json;

// Thrown by handlers; the server turns it into the envelope {status:"error", error} with this HTTP status.
struct ApiError : std::runtime_error {
  int http_status;
  ApiError(int status, const std::string& message) : std::runtime_error(message), http_status(status) {}
};

inline ApiError bad_request(const std::string& m) { return ApiError(400, m); }
inline ApiError not_found(const std::string& m) { return ApiError(404, m); }

// Query-string parameters (httplib::Params is this multimap). Path captures are passed separately.
class Query {
 public:
  using Map = std::multimap<std::string, std::string>;
  explicit Query(const Map& params) : params_(params) {}

  // 400 when a parameter outside `allowed` is present, or one is given twice.
  void only(std::initializer_list<const char*> allowed) const;
  bool has(const std::string& name) const { return params_.count(name) > 0; }
  std::string text(const std::string& name, const std::string& fallback = "") const;
  // One of `choices` (or the fallback when absent).
  std::string choice(const std::string& name, std::initializer_list<const char*> choices, const std::string& fallback) const;
  int64_t integer(const std::string& name, int64_t fallback, int64_t min, int64_t max) const;
  // Finite and within [min, max]; NaN fallback = "not given".
  double number(const std::string& name, double fallback, double min, double max) const;
  bool flag(const std::string& name, bool fallback) const;  // 1/0/true/false/yes/no

 private:
  const Map& params_;
};

}  // namespace aisp::serve
