#include "core/axes.hpp"

#include <fmt/format.h>

#include <limits>
#include <set>
#include <stdexcept>

namespace aisp {
namespace {

[[noreturn]] void bad(const std::string& spec, const std::string& why) {
  throw std::invalid_argument(fmt::format("--axis '{}': {}", spec, why));
}

// "2^k" -> k, else -1.
int power_exponent(const std::string& s, const std::string& spec) {
  if (s.rfind("2^", 0) != 0) return -1;
  size_t used = 0;
  int k = -1;
  try {
    k = std::stoi(s.substr(2), &used);
  } catch (const std::exception&) {
    bad(spec, "'" + s + "' is not 2^<exponent>");
  }
  if (used != s.size() - 2 || k < 0 || k > 62) bad(spec, "'" + s + "': the exponent must be 0..62");
  return k;
}

int64_t parse_value(const std::string& s, const std::string& spec) {
  if (int k = power_exponent(s, spec); k >= 0) return int64_t{1} << k;
  size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(s, &used);
  } catch (const std::exception&) {
    bad(spec, "'" + s + "' is not a number");
  }
  int shift = 0;
  std::string suffix = s.substr(used);
  if (suffix == "K") shift = 10;
  else if (suffix == "M") shift = 20;
  else if (suffix == "G") shift = 30;
  else if (!suffix.empty()) bad(spec, "'" + s + "': unknown suffix '" + suffix + "' (K, M, G are powers of 1024)");
  if (v <= 0) bad(spec, "'" + s + "': values must be positive");
  if (v > (std::numeric_limits<int64_t>::max() >> shift)) bad(spec, "'" + s + "' is too large");
  return static_cast<int64_t>(v) << shift;
}

}  // namespace

AxisSpec parse_axis_spec(const std::string& text) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) bad(text, "expected <name>=<values>, e.g. n=2^20..2^28");
  AxisSpec spec{text.substr(0, eq), {}};
  for (char c : spec.name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) bad(text, "axis names are letters, digits and _");
  std::string rest = text.substr(eq + 1);
  if (rest.empty()) bad(text, "no values");
  if (size_t dots = rest.find(".."); dots != std::string::npos) {
    std::string lo = rest.substr(0, dots), hi = rest.substr(dots + 2);
    int step = 1;
    if (size_t colon = hi.find(':'); colon != std::string::npos) {
      try {
        step = std::stoi(hi.substr(colon + 1));
      } catch (const std::exception&) {
        bad(text, "the step after ':' must be a number");
      }
      hi = hi.substr(0, colon);
    }
    int a = power_exponent(lo, text), b = power_exponent(hi, text);
    if (a < 0 || b < 0) bad(text, "a range is 2^a..2^b[:step] (powers of two)");
    if (a > b || step < 1) bad(text, "a range needs a <= b and a step >= 1");
    for (int k = a; k <= b; k += step) spec.values.push_back(int64_t{1} << k);
    return spec;
  }
  size_t start = 0;
  while (start <= rest.size()) {
    size_t comma = rest.find(',', start);
    std::string item = rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty()) bad(text, "empty value in the list");
    spec.values.push_back(parse_value(item, text));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return spec;
}

std::vector<AxisPoint> axis_points(const std::vector<AxisSpec>& specs) {
  std::vector<AxisPoint> points{{}};
  std::set<std::string> seen;
  for (const auto& spec : specs) {
    if (!seen.insert(spec.name).second) throw std::invalid_argument("--axis '" + spec.name + "' is given twice");
    std::vector<AxisPoint> next;
    for (const auto& p : points)
      for (int64_t v : spec.values) {
        AxisPoint q = p;
        q[spec.name] = v;
        next.push_back(std::move(q));
      }
    points = std::move(next);
  }
  return points;
}

std::string axis_point_label(const AxisPoint& point) {
  std::string out;
  for (const auto& [name, value] : point) out += fmt::format("{}{}={}", out.empty() ? "" : ",", name, value);
  return out;
}

Target at_axis_point(const Target& target, const AxisPoint& point) {
  Target t = target;
  if (point.empty()) return t;
  t.axes = point;
  t.id += "[" + axis_point_label(point) + "]";
  return t;
}

}  // namespace aisp
