// Runs one target (a baseline and its optimized variants) end to end: workers up together, requirements
// and workload checks, seeded setup, verification on fresh inputs, interleaved timing, statistics.
#pragma once
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "core/discovery.hpp"
#include "core/output_device.hpp"
#include "core/result.hpp"
#include "core/stats.hpp"
#include "core/stopping.hpp"
#include "runner/variant_worker.hpp"

namespace aisp {

struct RankPlan;  // runner/rank_plan.hpp

struct Progress {
  std::string target, variant, phase;  // phase: load, setup, verify, warmup, timing, done
  int64_t samples = 0;
  double noise = 0, median_ms = 0;
};

struct RunOptions {
  std::string aisp_exe;
  std::filesystem::path plugin_root;  // where Target::*.file paths are relative to
  std::filesystem::path run_dir;      // logs/, work/ go under it
  std::string mode = "cold";          // cold | hot | graph
  int iterations = 0;                 // > 0: exactly this many samples per variant (no adaptive stopping)
  int warmup = 5;                     // at least this many warm-up runs, then until the run time settles
  double warmup_max_s = 0.2;          // warm-up ends here even if the run time has not settled
  double warmup_stable_rel = 0.01;    // settled: the last three runs within 1% of their median, clock up
  double timeout_multiplier = 1.0;
  bool reproducible = false;
  uint64_t seed = 0;                  // base seed when reproducible
  std::string visible_device = "0";
  // Validity machinery (CUPTI audits, fresh inputs per sample, drain/fingerprint/replay checks). Off only
  // to measure its overhead: results are then marked unvalidated.
  bool validity = true;
  bool stop_on_decision = true;  // sequential stopping on the comparison (off for A/A calibration)
  double noise_floor = 0;  // this target's A/A floor on this GPU (0.004 = 0.4%), from `aisp bench calibrate`
  ProcessSpread process_spread;  // this target's between-process spread on this GPU, likewise (widens the CIs)
  StoppingPolicy policy;
  double block_target_ms = 25;        // GPU time per interleaved block: short enough that drift cancels
  std::function<void(const Progress&)> on_progress;
  WorkerFactory worker_factory;  // empty: a real worker process per variant (tests pass a scripted one)
  // Harness-only device access to the workers' outputs (CUDA IPC); null: outputs go through files.
  std::shared_ptr<OutputDevice> output_device;
  bool keep_outputs = false;  // dump every compared output to files and keep them under run_dir/work
  // --nproc-per-node N > 1 (issue 26): each variant runs as the plan's N ranks, one worker per GPU
  // (runner/ranked_worker.hpp); null: one worker per variant. `mpirun`: mpirun's path for --launch-via mpirun.
  std::shared_ptr<const RankPlan> rank_plan;
  std::string mpirun;
  // A latency goal is judged over this many request traces, each drawn from its own seed and run
  // end to end with 1/N of the sampling budget (runner/trace_replicates.hpp); 1: one trace.
  int trace_replicates = 5;
};

// One run; for a latency goal, one per request trace, pooled (runner/trace_replicates.hpp).
TargetResult run_target(const Target& target, const RunOptions& options);

}  // namespace aisp
