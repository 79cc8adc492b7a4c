// `--axis` specifications: which values of a pair's parameter axes (include/aisp/axes.hpp) a run sweeps.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/discovery.hpp"

namespace aisp {

using AxisPoint = std::map<std::string, int64_t>;

struct AxisSpec {
  std::string name;
  std::vector<int64_t> values;
};

// "n=1048576", "n=1024,4096,1M" (K/M/G = 2^10/2^20/2^30), "n=2^20", "n=2^20..2^28" (every power of two),
// "n=2^20..2^28:2" (every second exponent). Throws std::invalid_argument naming the bad part.
AxisSpec parse_axis_spec(const std::string& text);

// Every combination of the specs' values (cartesian product, first spec outermost); {{}} for no specs.
// Throws when an axis is named twice.
std::vector<AxisPoint> axis_points(const std::vector<AxisSpec>& specs);

// "n=1048576,k=64": how an axis point appears in target ids and reports.
std::string axis_point_label(const AxisPoint& point);

// The target at one axis point: id "ch07:copy_scalar[n=1048576]", the point kept for the workers.
// An empty point returns the target unchanged.
Target at_axis_point(const Target& target, const AxisPoint& point);

}  // namespace aisp
