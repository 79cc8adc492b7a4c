// One target's run as a pipeline of phases (load, declarations, setup, verify, sensitivity, replay,
// warm-up, timing, wrap-up, verdicts), one method each, in files named by phase. run_target()
// (target_runner.hpp) is the entry point; this class is the runner's inside, talking to its workers only
// through VariantWorker, so every phase runs against a scripted worker in the CPU tests.
#pragma once
#include <chrono>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "aisp/device_info.hpp"
#include "aisp/workload.hpp"
#include "runner/live_variant.hpp"
#include "runner/target_runner.hpp"
#include "runner/timed_sample_check.hpp"
#include "runner/trace_replicates.hpp"
#include "runner/verify_outputs.hpp"

namespace aisp {

// Base timeouts (seconds), scaled by --timeout-multiplier. Loading includes CUDA context creation.
inline constexpr double kLoadTimeout = 60, kSetupTimeout = 300, kCheckTimeout = 60, kWarmupTimeout = 120;
inline constexpr int kCheckRounds = 2;  // fresh-input rounds after setup; each uses a new seed

class TargetRun {
 public:
  TargetRun(const Target& target, const RunOptions& options);
  TargetResult run();

 private:
  // Phases, in order. Those returning bool return false when the target cannot go on; the reason is
  // already in the results and finish() ends the run.
  bool load();                // phase_load.cpp: workers up together, ready messages
  bool check_declarations();  // phase_load.cpp: requirements, axes, workload and tolerance equality
  void start_ranks(LiveVariant& l, WorkerSpawn spawn, const WorkerFactory& make);  // phase_load.cpp (issue 26)
  int ranks() const;          // ranks per variant (1 without --nproc-per-node)
  void compare_ranks(std::vector<std::vector<Reply>>& checks);  // phase_verify.cpp: each rank vs the baseline's
  void judge_ranks();         // phase_wrap_up.cpp: rank set, claims, comparisons -> findings (K14, K2)
  bool setup();               // phase_setup.cpp: seeds drawn, setup() in every worker
  bool verify();              // phase_verify.cpp: checked runs on fresh inputs, full comparison (K1-K4)
  void check_sensitivity();   // phase_verify.cpp: every input matters (K5)
  void replay();              // phase_replay.cpp: capture-replay (K10)
  bool warm_up();             // phase_timing.cpp
  void time_interleaved();    // phase_timing.cpp: blocks in random order until every stopping rule is met
  bool wrap_up();             // phase_wrap_up.cpp: summaries, K21, the validity verdict of each variant
  void decide_verdicts();     // phase_verdicts.cpp: speedup intervals and verdicts from raw samples
  TargetResult finish(const std::string& target_error);

  // Timing internals (phase_timing.cpp).
  void run_block(LiveVariant& l);
  void record_block(LiveVariant& l, const TimeReply& r, double wall_s);
  bool stopping_rule_met(LiveVariant& l);
  bool comparison_decided(LiveVariant& l);
  double decision_band(const LiveVariant& l) const;
  std::optional<GoalMetric> goal_metric_of(const VariantResult& v) const;  // phase_verdicts.cpp

  // The baseline's answer for `seed` compared with the candidate's `outputs` (from its last reply): ""
  // when they agree (phase_replay.cpp).
  std::string compare_with_baseline(LiveVariant& candidate, uint64_t seed, const json& outputs, const std::string& tag);
  // The baseline's checked run on `seed`, its outputs in `ref`: "" or why it failed.
  std::string baseline_reference(uint64_t seed, const std::string& tag, std::vector<OutputView>& ref);
  // "" when `outputs` match `reference` under the pair's tolerance, else what differs.
  std::string agrees_with(const std::vector<OutputView>& reference, const std::vector<OutputView>& outputs);
  // Output access (phase_setup.cpp): map each worker's exported outputs, or fall back to files.
  void map_outputs(LiveVariant& l);
  void unmap_outputs();
  bool dump_files(const LiveVariant& l) const { return l.mapped_outputs.empty() || opt_.keep_outputs; }
  std::vector<OutputView> outputs_of(const LiveVariant& l, const json& outputs) const {
    return reader_.views(outputs, l.mapped_outputs);
  }
  void progress(const std::string& variant, const std::string& phase, int64_t n = 0, double noise = 0, double med = 0);
  void enter_phase(const std::string& phase);
  void skip_rest(const std::string& why);
  bool baseline_failed() const { return live_[0].failed; }
  TargetResult finish_baseline_failed();
  std::filesystem::path dump_dir(const LiveVariant& l) const { return work_ / l.result->name; }

  const Target& target_;
  const RunOptions& opt_;
  TargetResult out_;
  std::vector<LiveVariant> live_;      // baseline first
  std::vector<LiveVariant*> timed_;    // the variants that reached timing
  std::filesystem::path work_;         // full output dumps, removed when the target finishes
  std::mt19937_64 rng_;
  uint64_t static_seed_ = 0, setup_seed_ = 0;
  std::vector<uint64_t> check_seeds_;
  DeviceInfo device_;
  Workload base_workload_;
  ToleranceChoice tolerance_;          // the pair's (K23)
  OutputReader reader_;                // compares outputs on the device when mapped, else from files
  TimedSampleCheck sample_check_;      // K21: shared per-sample seeds and the projection key
  double target_min_speedup_ = 0;
  StoppingPolicy policy_;  // opt_.policy, or this run's share of it as one of several traces
  std::string phase_now_ = "load";
  std::chrono::steady_clock::time_point phase_start_;
};

}  // namespace aisp
