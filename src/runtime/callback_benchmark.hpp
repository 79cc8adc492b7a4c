// An aisp::Benchmark whose declarations, setup(), run() and teardown() come from a table of C callbacks
// (runtime/c_api.h): how a host process (the Python worker) puts its benchmark under the same worker,
// timing engine and checks as a plugin. The callbacks see the harness through aisp_host_* calls, which
// forward to the worker's Context; a callback's failure becomes an exception the worker reports.
#pragma once
#include <string>
#include <vector>

#include "core/audit.hpp"

#include "aisp/benchmark.hpp"
#include "runtime/c_api.h"

namespace aisp {

class CallbackBenchmark final : public Benchmark {
 public:
  // Parses the declarations strictly (every field required, unknown goal/dtype rejected): throws
  // std::invalid_argument naming the field.
  explicit CallbackBenchmark(const aisp_benchmark_callbacks& callbacks);
  ~CallbackBenchmark() override = default;

  Workload workload() const override { return workload_; }
  void setup(Context& ctx) override { call(callbacks_.setup, ctx, "setup"); }
  void run(Context& ctx) override { call(callbacks_.run, ctx, "run"); }
  void teardown(Context& ctx) override;
  Tolerance tolerance() const override { return tolerance_; }
  Goal goal() const override { return goal_; }
  Requirements requirements() const override { return requirements_; }
  double min_speedup() const override { return min_speedup_; }
  std::string technique() const override { return technique_; }
  std::string informational() const override { return informational_; }
  double latency_percentile() const override { return latency_percentile_; }

 private:
  using Callback = int (*)(void*, aisp_host*);
  void call(Callback fn, Context& ctx, const char* what);

  aisp_benchmark_callbacks callbacks_;
  Workload workload_;
  Tolerance tolerance_;
  Goal goal_ = Goal::speed;
  Requirements requirements_;
  double min_speedup_ = 0, latency_percentile_ = 99;
  std::string technique_, informational_;
};

// The message a callback left with aisp_set_error() (cleared by reading), or `fallback` when it left none.
std::string take_callback_error(const std::string& fallback);
void set_callback_error(const std::string& message);

// Findings a host reported with aisp_host_finding() since the last call (cleared by reading); the worker
// adds them to the findings of the reply it is building.
std::vector<AuditFinding> take_host_findings();

}  // namespace aisp
