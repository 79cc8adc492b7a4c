#include "serve/api_params.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

namespace aisp::serve {

void Query::only(std::initializer_list<const char*> allowed) const {
  std::set<std::string> ok(allowed.begin(), allowed.end());
  for (auto it = params_.begin(); it != params_.end(); it = params_.upper_bound(it->first)) {
    if (!ok.count(it->first)) {
      std::string list;
      for (auto& a : ok) list += (list.empty() ? "" : ", ") + a;
      throw bad_request(fmt::format("unknown parameter '{}' (accepted: {})", it->first, list.empty() ? "none" : list));
    }
    if (params_.count(it->first) > 1) throw bad_request(fmt::format("parameter '{}' given more than once", it->first));
  }
}

std::string Query::text(const std::string& name, const std::string& fallback) const {
  auto it = params_.find(name);
  return it == params_.end() ? fallback : it->second;
}

std::string Query::choice(const std::string& name, std::initializer_list<const char*> choices,
                          const std::string& fallback) const {
  if (!has(name)) return fallback;
  std::string v = text(name);
  std::string list;
  for (const char* c : choices) {
    if (v == c) return v;
    list += (list.empty() ? "" : ", ") + std::string(c);
  }
  throw bad_request(fmt::format("parameter '{}' must be one of {} (got '{}')", name, list, v));
}

int64_t Query::integer(const std::string& name, int64_t fallback, int64_t min, int64_t max) const {
  if (!has(name)) return fallback;
  std::string v = text(name);
  errno = 0;
  char* end = nullptr;
  long long x = v.empty() ? 0 : std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || errno != 0 || *end != '\0' || x < min || x > max)
    throw bad_request(fmt::format("parameter '{}' must be an integer in [{}, {}] (got '{}')", name, min, max, v));
  return x;
}

double Query::number(const std::string& name, double fallback, double min, double max) const {
  if (!has(name)) return fallback;
  std::string v = text(name);
  errno = 0;
  char* end = nullptr;
  double x = v.empty() ? 0 : std::strtod(v.c_str(), &end);
  if (v.empty() || errno != 0 || *end != '\0' || !std::isfinite(x) || x < min || x > max)
    throw bad_request(fmt::format("parameter '{}' must be a number in [{}, {}] (got '{}')", name, min, max, v));
  return x;
}

bool Query::flag(const std::string& name, bool fallback) const {
  if (!has(name)) return fallback;
  std::string v = text(name);
  if (v == "1" || v == "true" || v == "yes") return true;
  if (v == "0" || v == "false" || v == "no") return false;
  throw bad_request(fmt::format("parameter '{}' must be 1/0/true/false (got '{}')", name, v));
}

}  // namespace aisp::serve
