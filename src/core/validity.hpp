// Supervisor-side validity bookkeeping, CUDA-free: findings per check id collected over a variant's life,
// the drain-residual (K6) and clock-consistency (K7) rules on raw samples, and the final checks[] list.
#pragma once
#include "core/worker_replies.hpp"
#include <map>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace aisp {

class FindingLog {
 public:
  // Identical details are kept once; at most kMaxPerCheck distinct details per check (the count goes on).
  void add(const std::string& check, const std::string& detail);
  void add_json(const json& findings);  // [{"check": "K8", "detail": "..."}...] as workers send them
  void add_all(const std::vector<WorkerFinding>& findings);
  bool failed(const std::string& check) const { return count_.contains(check); }
  bool any() const { return !count_.empty(); }
  std::string summary() const;  // "K8: first detail; K9: ..." for error lines
  std::string details(const std::string& check) const;

 private:
  static constexpr size_t kMaxPerCheck = 4;
  std::map<std::string, std::vector<std::string>> details_;
  std::map<std::string, int64_t> count_;
};

// K6: after the harness stream finished, a device-wide sync waited for other work. Honest residuals on
// the lent H100/H200 machines: p50 2 us, p99 8 us, max 20 us. A sample is flagged above
// kDrainAbsoluteUs + kDrainRelative x its own time; the variant fails when more than kDrainFlaggedFraction
// of its samples are flagged (one preempted host thread must not fail a run).
inline constexpr double kDrainAbsoluteUs = 50, kDrainRelative = 0.05, kDrainFlaggedFraction = 0.25;
void check_drain_residual(const std::vector<double>& gpu_ms, const std::vector<double>& drain_us, FindingLog& log);

// K7: what the events claim against host clocks. Per sample, event time cannot exceed the worker's wall
// time around it; per block, the sum of claimed times cannot exceed the supervisor's wall time for the
// whole request (measured in another process, out of the benchmark's reach).
struct BlockClocks {
  double claimed_ms = 0;          // sum over the block of gpu_ms x batch
  double supervisor_wall_ms = 0;  // the supervisor's clock around the request
};
void check_clocks(const std::vector<double>& gpu_ms, const std::vector<double>& wall_ms,
                  const std::vector<BlockClocks>& blocks, FindingLog& log);

// One CheckResult per id that was run (`evidence`: id -> what was done, for the detail of a pass).
std::vector<CheckResult> assemble_checks(const FindingLog& log, const std::map<std::string, std::string>& evidence);

}  // namespace aisp
