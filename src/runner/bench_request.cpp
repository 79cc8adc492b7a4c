#include "runner/bench_request.hpp"

#include <fmt/format.h>

#include "core/axes.hpp"

namespace aisp {

void check_request(const BenchRequest& r) {
  if (r.mode != "cold" && r.mode != "hot" && r.mode != "graph")
    throw BenchError("ValidationError", "must be cold, hot or graph", 2, "--mode");
}

std::string run_label(const BenchRequest& r) {
  if (!r.label.empty()) return r.label;
  return (r.calibrate ? "calibrate-" : "targets-") + fmt::format("{}", fmt::join(r.targets, "_"));
}

std::vector<std::string> report_formats(const BenchRequest& r) {
  if (r.format == "all") return {"json", "md", "csv"};
  return {"json", r.format};
}

std::vector<Target> targets_to_run(std::vector<Target> targets, const BenchRequest& r) {
  // A/A: the copies load the baseline's own plugin, so any difference they show is process noise.
  if (r.calibrate)
    for (auto& t : targets) {
      t.optimized.clear();
      for (int k = 1; k <= r.replicates; ++k) t.optimized.push_back(Variant{fmt::format("aa_self_{}", k), t.baseline.file});
    }
  if (r.axes.empty()) return targets;
  std::vector<AxisPoint> points;
  try {
    std::vector<AxisSpec> specs;
    for (auto& s : r.axes) specs.push_back(parse_axis_spec(s));
    points = axis_points(specs);
  } catch (const std::invalid_argument& e) {
    throw BenchError("ValidationError", e.what(), 2, "--axis");
  }
  std::vector<Target> expanded;
  for (auto& t : targets)
    for (auto& p : points) expanded.push_back(at_axis_point(t, p));
  return expanded;
}

}  // namespace aisp
