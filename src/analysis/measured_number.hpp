// How the analyses hold a figure: a double that is NaN when it was not measured (never 0, which would read
// as a measurement), and the JSON alias every analysis header uses.
#pragma once
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

namespace aisp::analysis {

using json = nlohmann::json;
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline bool known(double v) { return std::isfinite(v); }
// NaN and infinities become null: JSON has no NaN, and a missing figure must not read as 0.
json number(double v);

}  // namespace aisp::analysis
