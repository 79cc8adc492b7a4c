#include "runner/bench_request.hpp"

#include <fmt/format.h>

#include "core/axes.hpp"

namespace aisp {

namespace {

// The multi-rank flags (issue 26); the plan itself (GPUs enough?) is made once the GPUs are known (bench_run.cpp).
void check_rank_flags(const BenchRequest& r) {
  if (r.nproc_per_node < 1) throw BenchError("ValidationError", "must be 1 or more", 2, "--nproc-per-node");
  if (r.launch_via != "local" && r.launch_via != "mpirun")
    throw BenchError("ValidationError", "must be local or mpirun", 2, "--launch-via");
}

}  // namespace

void check_request(const BenchRequest& r) {
  if (r.mode != "cold" && r.mode != "hot" && r.mode != "graph")
    throw BenchError("ValidationError", "must be cold, hot or graph", 2, "--mode");
  const auto& m = r.ncu_metric_set;
  if (m != "auto" && m != "minimal" && m != "roofline" && m != "deep_dive")
    throw BenchError("ValidationError", "must be auto, minimal, roofline or deep_dive", 2, "--ncu-metric-set");
  if (r.suite_timeout_s < 0) throw BenchError("ValidationError", "must be 0 (no limit) or more seconds", 2, "--suite-timeout");
  if (r.trace_replicates < 1) throw BenchError("ValidationError", "must be 1 or more", 2, "--trace-replicates");
  target_extra_args(r);
  check_rank_flags(r);
}

std::string profile_preset(const BenchRequest& r) {
  return r.ncu_metric_set == "auto" ? r.profile : r.ncu_metric_set;
}

std::vector<TargetExtraArgs> target_extra_args(const BenchRequest& r) {
  std::vector<TargetExtraArgs> out;
  try {
    for (auto& text : r.target_extra_args) out.push_back(parse_target_extra_arg(text));
  } catch (const std::invalid_argument& e) {
    throw BenchError("ValidationError", e.what(), 2, "--target-extra-arg");
  }
  return out;
}

std::string run_label(const BenchRequest& r) {
  if (!r.label.empty()) return r.label;
  return (r.calibrate ? "calibrate-" : "targets-") + fmt::format("{}", fmt::join(r.targets, "_"));
}

std::vector<std::string> report_formats(const BenchRequest& r) {
  if (r.format == "all") return {"json", "md", "csv"};
  return {"json", r.format};
}

namespace {

// Every combination of the axis specs; none for no specs. A malformed spec is a usage error of `option`.
std::vector<AxisPoint> points_of(const std::vector<std::string>& specs_text, const char* option) {
  if (specs_text.empty()) return {};
  try {
    std::vector<AxisSpec> specs;
    for (auto& s : specs_text) specs.push_back(parse_axis_spec(s));
    return axis_points(specs);
  } catch (const std::invalid_argument& e) {
    throw BenchError("ValidationError", e.what(), 2, option);
  }
}

}  // namespace

std::vector<Target> targets_to_run(std::vector<Target> targets, const BenchRequest& r) {
  // A/A: the copies load the baseline's own plugin, so any difference they show is process noise.
  if (r.calibrate)
    for (auto& t : targets) {
      t.optimized.clear();
      for (int k = 1; k <= r.replicates; ++k) t.optimized.push_back(Variant{fmt::format("aa_self_{}", k), t.baseline.file});
    }
  std::vector<TargetExtraArgs> extras = target_extra_args(r);
  for (auto& e : extras) {
    bool used = false;
    for (auto& t : targets) used = used || applies_to(e, t);
    if (!used)
      throw BenchError("ValidationError", fmt::format("'{}' applies to no selected target (name a target id such as "
                                                      "ch07:copy_scalar, or a chapter)", e.text), 2, "--target-extra-arg");
  }
  std::vector<AxisPoint> run_points = points_of(r.axes, "--axis");
  std::vector<Target> expanded;
  for (auto& t : targets) {
    // This target's own axes (the last extra arg that gives any), else the run's.
    std::vector<std::string> own;
    for (auto& e : extras)
      if (applies_to(e, t) && !e.axes.empty()) own = e.axes;
    std::vector<AxisPoint> points = own.empty() ? run_points : points_of(own, "--target-extra-arg");
    if (points.empty()) expanded.push_back(t);
    for (auto& p : points) expanded.push_back(at_axis_point(t, p));
  }
  return expanded;
}

}  // namespace aisp
