#include "runner/target_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <map>
#include <random>

#include "core/energy.hpp"
#include "core/file_names.hpp"
#include "core/plausibility.hpp"
#include "core/validity.hpp"
#include "core/schema.hpp"
#include "core/stats.hpp"
#include "core/verdict.hpp"
#include "runner/live_variant.hpp"
#include "runner/pair_contract.hpp"
#include "runner/timed_sample_check.hpp"
#include "runner/verify_outputs.hpp"
#include "runner/worker_process.hpp"
#include "runtime/nvml.hpp"  // clocks-event reason bits only (header constants, no CUDA)

namespace aisp {
namespace {

namespace fs = std::filesystem;

// Base timeouts (seconds), scaled by --timeout-multiplier. Loading includes CUDA context creation.
constexpr double kLoadTimeout = 60, kSetupTimeout = 300, kCheckTimeout = 60, kWarmupTimeout = 120;
constexpr int kCheckRounds = 2;  // fresh-input rounds after setup; each uses a new seed

// Audited blocks (CUPTI trace, output fingerprints, one timed output verified): the first block, a random
// fifth of the rest up to kMaxAuditedBlocks, and one more after the stopping rule is met, so a benchmark
// that changes behaviour after N calls is caught wherever N lies. Their samples stay out of the statistics.
constexpr double kAuditProbability = 0.2;
constexpr int kMaxAuditedBlocks = 6, kMaxAuditedSamples = 32;

// Clocks pulled below this fraction of the max SM clock (or any power/thermal slowdown reason) make a
// sample unrepresentative: discarded and counted (NVBench's 75% rule plus NVML's reasons).
constexpr double kThrottleClockFraction = 0.75;

using Live = LiveVariant;

Memory memory_from(const json& j) {
  return {j.value("peak_mb", 0.0), j.value("allocated_mb", 0.0), j.value("reserved_mb", 0.0)};
}

// K3 (timed), K6, K7, K8/K9/K11/K13/K16 (audits), K17 after timing: evidence for the checks that ran,
// then the checks[] list; any finding makes a timed variant INVALID.
void judge_timing_validity(Live& l, const RunOptions& opt, const Workload& workload, const DeviceInfo& dev) {
  VariantResult& v = *l.result;
  v.validity_enabled = opt.validity;
  if (!l.failed && !v.samples_ms.empty()) {
    if (auto why = implausibility(workload, v.timing.median, dev)) l.findings.add("K17", *why);
    else if (workload.bytes > 0 || workload.flops > 0)
      l.evidence["K17"] = fmt::format("achieved throughput below the ceilings from device properties (x{:.2f} margin)",
                                      kPlausibilityMargin);
  }
  if (opt.validity) {
    check_drain_residual(l.all_gpu_ms, l.drain_us, l.findings);
    check_clocks(l.all_gpu_ms, l.all_wall_ms, l.blocks, l.findings);
    std::vector<double> drains;
    for (double d : l.drain_us)
      if (d >= 0) drains.push_back(d);
    if (!drains.empty())
      l.evidence["K6"] = fmt::format("drain residual after each of {} samples: median {:.1f} us, max {:.1f} us",
                                     drains.size(), median(drains), *std::max_element(drains.begin(), drains.end()));
    l.evidence["K7"] = fmt::format("event time within the worker's wall clock for {} samples; {} blocks within the "
                                   "supervisor's", l.all_gpu_ms.size(), l.blocks.size());
    l.evidence["K22"] = fmt::format("canary guard bands around every buffer intact after setup, every verified run "
                                    "and each of {} timed blocks", l.blocks.size());
    l.evidence["K16"] = "threads, current device, limits, persisting-L2 carve-out and cuBLAS math mode unchanged "
                        "from before the plugin was loaded to after setup(), and around verified runs and audited blocks";
    if (l.full_timed_checks > 0)
      l.evidence["K3"] += fmt::format("; {} timed samples (fresh inputs before every sample) compared in full with "
                                      "the baseline's outputs", l.full_timed_checks);
    if (l.audit_unavailable.empty() && v.audited_blocks > 0) {
      std::string blocks = fmt::format("{} audited blocks ({} samples)", v.audited_blocks, v.audit_samples_ms.size());
      l.evidence["K8"] = "CUPTI activity of the verification runs and " + blocks + ": all work inside the timed windows";
      l.evidence["K9"] = "CUPTI API callbacks in " + blocks + ": no forbidden calls, no CUDA calls from other threads";
      l.evidence["K11"] = "outputs fingerprinted after each audited window and again after quiescence";
      l.evidence["K13"] = "persisting L2 reset before every sample; carve-out and access-policy window checked after run()";
    } else if (!l.audit_unavailable.empty()) {
      v.timing_note += (v.timing_note.empty() ? "" : "; ") + std::string("CUPTI audit not run: ") + l.audit_unavailable;
    }
    if (!v.audit_samples_ms.empty() && !v.samples_ms.empty())
      v.audit_overhead_pct = 100.0 * (median(v.audit_samples_ms) / v.timing.median - 1.0);
  }
  v.checks = assemble_checks(l.findings, l.evidence);
  if (l.findings.any() && (v.status == status::succeeded || v.status == status::failed_no_speedup)) {
    v.status = status::invalid;
    v.error_kind = "validity";
    v.error = "validity checks failed: " + l.findings.summary();
  }
}

}  // namespace

TargetResult run_target(const Target& target, const RunOptions& opt) {
  TargetResult out;
  out.id = target.id;
  out.chapter = target.chapter;
  out.example = target.example;
  out.mode = opt.mode;
  out.baseline.name = "baseline";
  out.baseline.file = target.baseline.file;
  out.optimizations.resize(target.optimized.size());
  for (size_t i = 0; i < target.optimized.size(); ++i) {
    out.optimizations[i].name = target.optimized[i].name;
    out.optimizations[i].file = target.optimized[i].file;
  }
  // Wall seconds per phase: entering a phase closes the running one.
  std::string phase_now = "load";
  auto phase_start = std::chrono::steady_clock::now();
  auto enter_phase = [&](const std::string& p) {
    if (p == phase_now) return;
    auto now = std::chrono::steady_clock::now();
    out.phase_seconds[phase_now] = out.phase_seconds.value(phase_now, 0.0) +
                                   std::chrono::duration<double>(now - phase_start).count();
    phase_now = p;
    phase_start = now;
  };
  auto progress = [&](const std::string& variant, const std::string& phase, int64_t n = 0, double noise = 0,
                      double med = 0) {
    if (phase != "done") enter_phase(phase);
    if (opt.on_progress) opt.on_progress({target.id, variant, phase, n, noise, med});
  };

  // 1. All workers up together (baseline first), each in its own process with one GPU visible.
  fs::create_directories(opt.run_dir / "logs");
  // Full output dumps, needed only for comparisons; removed when the target finishes.
  fs::path work = opt.run_dir / "work" / file_slug(target.id);
  std::vector<Live> live;
  live.push_back({&out.baseline});
  for (auto& o : out.optimizations) live.push_back({&o});
  progress("*", "load");
  for (auto& l : live) {
    l.result->log = (opt.run_dir / "logs" / fmt::format("{}__{}__{}.log", file_slug(target.chapter), target.example,
                                                        l.result->name)).string();
    l.result->status = status::succeeded;
    try {
      l.worker = std::make_unique<WorkerProcess>(
          WorkerSpawn{opt.aisp_exe, (opt.plugin_root / l.result->file).string(), l.result->log, opt.visible_device,
                      opt.validity, target.axes});
    } catch (const std::exception& e) {
      fail(l, "spawn", e.what());
    }
  }
  for (auto& l : live) {
    if (l.failed) continue;
    Reply r = l.worker->wait_ready(kLoadTimeout * opt.timeout_multiplier);
    if (!r.ok()) {
      fail(l, r, "load");
      continue;
    }
    l.ready = r.body;
    l.result->technique = r.body.value("technique", "");
    l.result->informational = r.body.value("informational", "");
    l.result->min_speedup = r.body.value("min_speedup", 0.0);
  }
  Live& base = live[0];
  auto finish = [&](const std::string& target_error) {
    enter_phase("wrap_up");
    for (auto& l : live)
      if (l.worker) l.worker->shutdown(10);
    for (auto& l : live) {
      if (l.result->checks.empty()) l.result->checks = assemble_checks(l.findings, l.evidence);
      // DESIGN §8: any failed check is an INVALID verdict, whatever the seed status word (failed_verification).
      bool failed_check = std::any_of(l.result->checks.begin(), l.result->checks.end(), [](auto& c) { return !c.passed; });
      if (failed_check && &l != &base) l.result->verdict = verdict_name(Verdict::invalid);
    }
    std::error_code ec;
    fs::remove_all(work, ec);
    out.error = target_error;
    std::vector<std::string> statuses;
    for (auto& o : out.optimizations) statuses.push_back(o.status);
    out.status = target_error.empty() ? target_status(statuses)
                                      : (base.result->status == status::skipped ? status::skipped : base.result->status);
    if (!target_error.empty() && out.status == status::succeeded) out.status = status::failed_error;
    enter_phase("");  // closes wrap_up
    progress("*", "done");
    return out;
  };
  auto skip_rest = [&](const std::string& why) {
    for (size_t i = 1; i < live.size(); ++i)
      if (!live[i].failed) fail(live[i], "skipped", why, status::skipped);
  };
  if (base.failed) {
    skip_rest("baseline failed");
    return finish("baseline: " + base.result->error);
  }

  // 2. Requirements and workload equality, from what each plugin declared.
  DeviceInfo dev = device_from_json(base.ready.at("device"));
  int cc = dev.cc_major * 10 + dev.cc_minor;
  for (auto& l : live) {
    if (l.failed) continue;
    Requirements req = requirements_from_json(l.ready.at("requirements"));
    if (req.min_compute_capability > cc)
      fail(l, "requirements", fmt::format("needs sm_{} (this GPU is sm_{})", req.min_compute_capability, cc),
           status::skipped);
    else if (req.gpus > 1)
      fail(l, "requirements", fmt::format("needs {} GPUs (1 visible)", req.gpus), status::skipped);
    else if (req.min_memory_bytes > dev.global_memory_bytes)
      fail(l, "requirements", fmt::format("needs {:.1f} GiB of device memory", req.min_memory_bytes / 1073741824.0),
           status::skipped);
  }
  if (base.failed) {
    skip_rest(base.result->error);
    return finish(base.result->error);
  }
  Workload base_workload = workload_from_json(base.ready.at("workload"));
  out.workload = base.ready.at("workload");
  // An axis the pair does not read would silently rerun its default size under another name.
  for (const auto& [name, value] : target.axes) {
    auto it = base_workload.params.find(name);
    if (it == base_workload.params.end() || it->second != value) {
      std::string why = it == base_workload.params.end()
                            ? fmt::format("--axis {}: the baseline's workload has no parameter '{}'", name, name)
                            : fmt::format("--axis {}={}: the baseline declared {}={} (the pair does not read this "
                                          "axis through aisp::axis)", name, value, name, it->second);
      fail(base, "workload", why);
      skip_rest(why);
      return finish(why);
    }
  }
  out.goal = base.ready.value("goal", "speed");
  for (size_t i = 1; i < live.size(); ++i) {
    if (live[i].failed) continue;
    std::string diff = workload_difference(base_workload, workload_from_json(live[i].ready.at("workload")));
    if (!diff.empty())
      fail(live[i], "workload", "declared workload differs from the baseline's (" + diff + "); results would not be comparable");
  }
  check_tolerance_declarations(live);
  const ToleranceChoice tolerance = pair_tolerance(base);
  out.tolerance = {{"rtol", tolerance.rtol}, {"atol", tolerance.atol}, {"justification", tolerance.justification},
                   {"source", tolerance.justification.empty() ? "output dtype default" : "the pair (shared workload)"}};

  // 3. Seeds are drawn only now, after every plugin is loaded, so no plugin can know them in advance.
  std::mt19937_64 rng(opt.reproducible ? opt.seed : std::random_device{}() ^ (uint64_t(std::random_device{}()) << 32));
  uint64_t static_seed = rng(), setup_seed = rng();
  std::vector<uint64_t> check_seeds;
  for (int i = 0; i < kCheckRounds; ++i) check_seeds.push_back(rng());
  out.seeds = {static_seed, setup_seed};
  out.seeds.insert(out.seeds.end(), check_seeds.begin(), check_seeds.end());

  for (auto& l : live) {
    if (l.failed) continue;
    progress(l.result->name, "setup");
    Reply r = l.worker->request({{"op", "setup"}, {"static_seed", static_seed}, {"dynamic_seed", setup_seed}},
                                kSetupTimeout * opt.timeout_multiplier);
    if (!r.ok()) {
      fail(l, r, "setup");
      continue;
    }
    l.result->memory = memory_from(r.body.at("memory"));
    l.buffers = r.body.at("buffers");
    // K16 (state changed while the plugin loaded or in setup()) and K22 (guard bands) so far.
    l.findings.add_json(r.body.value("findings", json::array()));
    if (r.body.value("audit_unavailable", json()).is_string()) l.audit_unavailable = r.body["audit_unavailable"];
  }
  if (base.failed) {
    skip_rest("baseline failed");
    return finish("baseline: " + base.result->error);
  }

  // The pair's tolerance, whoever is compared: a variant never brings its own (K23).
  auto tolerance_for = [&](const Live&) { return tolerance; };

  // 4. Verification: poisoned outputs, inputs refilled with fresh seeds after setup, full comparison.
  std::vector<Verification> verif(live.size());
  std::vector<std::vector<std::string>> mutated(live.size());
  std::vector<int64_t> unwritten(live.size(), 0);
  for (int round = 0; round < kCheckRounds && !base.failed; ++round) {
    json base_reply;
    for (size_t i = 0; i < live.size(); ++i) {
      Live& l = live[i];
      if (l.failed) continue;
      progress(l.result->name, "verify");
      Reply r = l.worker->request({{"op", "check"}, {"seed", check_seeds[round]},
                                   {"dir", (work / l.result->name).string()}, {"tag", fmt::format("round{}", round)},
                                   // The first run() is not audited: libraries initialize lazily inside it
                                   // (cuBLAS creates a stream on a handle's first GEMM). Later rounds are.
                                   {"audit", opt.validity && round > 0}},
                                  kCheckTimeout * opt.timeout_multiplier);
      if (!r.ok()) {
        fail(l, r, "verification run");
        continue;
      }
      l.findings.add_json(r.body.value("findings", json::array()));
      for (auto& name : r.body.at("inputs_changed")) mutated[i].push_back(name);
      for (auto& o : r.body.at("outputs")) unwritten[i] += o.value("unwritten", int64_t{0});
      if (i == 0) {
        base_reply = r.body;
        if (round == 0) refuse_loose_tolerance(live, r.body, tolerance, base_workload.precision);
        continue;
      }
      try {
        compare_check_outputs(base_reply, r.body, tolerance_for(l), verif[i]);
      } catch (const std::exception& e) {
        fail(l, "verification", e.what(), status::failed_verification);
      }
    }
  }
  if (base.failed) {
    skip_rest("baseline failed");
    return finish("baseline: " + base.result->error);
  }
  if (unwritten[0] > 0) {
    skip_rest("baseline invalid");
    return finish(fmt::format("baseline left {} output elements unwritten (poison survived)", unwritten[0]));
  }
  for (size_t i = 0; i < live.size(); ++i) {
    Live& l = live[i];
    l.evidence["K14"] = "own worker process and process group, one visible GPU, statistics in the supervisor";
    l.evidence["K12"] = "every harness CUDA call checked; pending errors collected after every request";
    bool inputs_ok = mutated[i].empty();
    std::string names;
    for (auto& n : mutated[i]) names += (names.empty() ? "" : ", ") + n;
    l.evidence["K4"] = fmt::format("fingerprints of every input before/after run() in {} rounds", kCheckRounds);
    if (!inputs_ok) {
      l.findings.add("K4", "run() modified its inputs: " + names);
      if (!l.failed) fail(l, "validity", "run() modified its inputs (" + names + ")", status::invalid);
    }
    if (i == 0) continue;
    Verification& v = verif[i];
    // A variant stopped before any comparison (its own tolerance, a crash) has nothing to report here.
    if (l.failed && v.compared == 0 && unwritten[i] == 0) continue;
    bool match = v.mismatches == 0 && v.compared > 0;
    l.evidence["K1"] = fmt::format("outputs poisoned before {} verified runs; no poison survived", kCheckRounds);
    if (unwritten[i]) l.findings.add("K1", fmt::format("{} elements still hold the poison pattern", unwritten[i]));
    std::string comparison = fmt::format("{} elements, {} mismatches, max abs err {:.3g}, max rel err {:.3g} (rtol {:g}, atol {:g})",
                                         v.compared, v.mismatches, v.max_abs_error, v.max_rel_error, v.rtol, v.atol);
    l.evidence["K2"] = comparison;
    l.evidence["K3"] = fmt::format("{} rounds, each with a fresh seed drawn after setup", kCheckRounds);
    if (!match) {
      l.findings.add("K2", comparison);
      l.findings.add("K3", "outputs did not follow inputs refilled with a seed drawn after setup");
    }
    l.result->verification = v;
    if (!l.failed && (!match || unwritten[i] > 0)) {
      v.passed = false;
      l.result->verification = v;
      fail(l, "verification",
           unwritten[i] ? fmt::format("{} output elements were never written", unwritten[i])
                        : fmt::format("{} of {} output elements differ from the baseline (first at {} in '{}')",
                                      v.mismatches, v.compared, v.first_mismatch, v.output),
           status::failed_verification);
    }
  }

  // K5: outputs follow every input the baseline's outputs follow (each input refilled alone).
  if (opt.validity && !base.failed) {
    progress("*", "verify");
    check_input_sensitivity(live, rng(), rng(), kCheckTimeout * opt.timeout_multiplier * 4);
  }

  // A reference answer for `seed` from the baseline (poisoned outputs, fresh inputs), and a comparison of
  // another set of dumped outputs against it. Returns "" when they agree, else why not.
  auto compare_with_baseline = [&](const Live& l, uint64_t seed, const json& outputs, const std::string& tag) -> std::string {
    Reply ref = base.worker->request({{"op", "check"}, {"seed", seed}, {"dir", (work / "baseline_ref").string()},
                                      {"tag", tag}, {"audit", false}},
                                     kCheckTimeout * opt.timeout_multiplier);
    if (!ref.ok()) return "the baseline's reference run failed: " + ref.reason;
    Verification v;
    compare_check_outputs(ref.body, json{{"outputs", outputs}}, tolerance_for(l), v);
    if (v.unwritten > 0) return fmt::format("{} output elements were never written", v.unwritten);
    if (v.mismatches > 0)
      return fmt::format("{} of {} output elements differ from the baseline's for the same inputs (max rel err {:.3g})",
                         v.mismatches, v.compared, v.max_rel_error);
    return "";
  };

  // 4b. Capture-replay (K10): one run() captured into a graph, replayed on fresh inputs, verified. Work
  // the capture did not record (another stream, another thread, a host-side cache) is missing from it.
  if (opt.validity && !base.failed) {
    uint64_t replay_seed = rng();
    for (auto& l : live) {
      if (l.failed) continue;
      progress(l.result->name, "replay");
      Reply r = l.worker->request({{"op", "replay"}, {"seed", replay_seed}, {"dir", (work / l.result->name).string()},
                                   {"tag", "replay"}},
                                  kCheckTimeout * opt.timeout_multiplier);
      if (!r.ok()) {
        fail(l, r, "capture-replay");
        continue;
      }
      if (!r.body.value("captured", false)) {
        l.evidence["K10"] = "not applicable: run() cannot be captured into a CUDA graph (" + r.body.value("reason", "") +
                            "); K8's audit covers it";
        continue;
      }
      l.findings.add_json(r.body.value("findings", json::array()));
      try {
        std::string why = compare_with_baseline(l, replay_seed, r.body.at("outputs"), "replay_ref");
        if (why.empty()) l.evidence["K10"] = "one run() captured into a graph and replayed on fresh inputs: outputs verified";
        else l.findings.add("K10", "the captured run() replayed on fresh inputs is wrong: " + why +
                                   " (work outside the harness stream's graph, or a cached result)");
      } catch (const std::exception& e) {
        l.findings.add("K10", std::string("replay outputs could not be compared: ") + e.what());
      }
    }
  }

  // 5. Timing, interleaved: each live variant gets a block in turn until every one has met its stopping rule.
  std::vector<Live*> timed;
  for (auto& l : live)
    if (!l.failed) timed.push_back(&l);
  for (Live* l : timed) {
    progress(l->result->name, "warmup");
    Reply r = l->worker->request({{"op", "warmup"}, {"mode", opt.mode}, {"count", opt.warmup}, {"min_time_s", opt.warmup_min_s}},
                                 kWarmupTimeout * opt.timeout_multiplier);
    if (!r.ok()) {
      fail(*l, r, "warm-up");
      continue;
    }
    l->estimate_ms = std::max(r.body.value("estimate_ms", 0.0), 1e-4);
    l->result->warmup_runs = r.body.value("runs", 0);
    l->criterion = StdRelCriterion(opt.policy);
  }
  if (base.failed) {
    skip_rest("baseline failed");
    return finish("baseline: " + base.result->error);
  }
  // The speedup a variant must clear: its own override, else the target's, widened to the A/A noise floor.
  double target_min = base.result->min_speedup > 0 ? base.result->min_speedup : kDefaultMinSpeedup;
  auto decision_band = [&](const Live& l) {
    double m = l.result->min_speedup > 0 ? l.result->min_speedup : target_min;
    return std::max(m, 1.0 + opt.noise_floor);
  };
  // Sequential stopping on the comparison: once a 99% interval (stricter than the reported 95%, to pay
  // for looking after every block) already decides FASTER, SLOWER or SAME, more samples cannot change
  // the verdict, so the variant stops early.
  auto comparison_decided = [&](Live& l) {
    constexpr size_t kMinSamples = 20;
    const auto& a = base.result->samples_ms;
    const auto& b = l.result->samples_ms;
    if (a.size() < kMinSamples || b.size() < kMinSamples) return false;
    Interval ci = widen_for_process_spread(bootstrap_speedup_ci(a, b, 0.99, 500), opt.process_spread, 0.99);
    double band = decision_band(l);
    // The same symmetric band as the verdict: above it FASTER, below its inverse SLOWER, inside SAME.
    bool decided = ci.low > band || ci.high < 1.0 / band || (ci.low >= 1.0 / band && ci.high <= band);
    if (decided)
      l.stop_note = fmt::format("comparison decided after {} samples: 99% CI [{:.4f}, {:.4f}] against the {:.3f}x band",
                                b.size(), ci.low, ci.high, band);
    return decided;
  };
  double max_clock = dev.sm_clock_max_mhz;
  // K21: every variant's timed sample k runs on the inputs of seed sample_seed(k); the projections'
  // coefficients come from a key drawn now, after every plugin is loaded.
  TimedSampleCheck sample_check{rng(), rng(), tolerance};
  sample_check.timeout_multiplier = opt.timeout_multiplier;
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  for (;;) {
    bool any = false;
    // A new random order every round: a fixed ABAB order would give one variant the same predecessor
    // (and whatever state that leaves in the GPU or the host) in every block.
    std::vector<Live*> round = timed;
    std::shuffle(round.begin(), round.end(), rng);
    for (Live* l : round) {
      if (l->failed || l->done) continue;
      any = true;
      int64_t n = static_cast<int64_t>(l->result->samples_ms.size());
      int block = static_cast<int>(std::clamp(opt.block_target_ms / l->estimate_ms, 1.0, 256.0));
      int batch = opt.mode == "hot" ? static_cast<int>(std::clamp(std::ceil(1.0 / l->estimate_ms), 1.0, 4096.0)) : 1;
      bool audit = opt.validity && (l->blocks_done == 0 || l->final_audit_pending ||
                                    (l->result->audited_blocks < kMaxAuditedBlocks && coin(rng) < kAuditProbability));
      if (audit) block = std::min(block, kMaxAuditedSamples);
      else if (opt.iterations > 0) block = static_cast<int>(std::min<int64_t>(block, opt.iterations - n));
      int verify_sample = audit ? static_cast<int>(rng() % static_cast<uint64_t>(block)) : -1;
      double expected_s = block * batch * (l->estimate_ms + 1.0) / 1000.0;
      Reply r = l->worker->request({{"op", "time"}, {"mode", opt.mode}, {"samples", block}, {"batch", batch},
                                    {"sample_seed", sample_check.sample_seed}, {"first_sample", l->samples_run},
                                    {"projection_key", sample_check.projection_key},
                                    {"audit", audit}, {"verify_sample", verify_sample},
                                    {"dir", (work / l->result->name).string()},
                                    {"tag", fmt::format("timed{}", l->blocks_done)}},
                                   (30 + 20 * expected_s + (audit ? 30 : 0)) * opt.timeout_multiplier);
      if (!r.ok()) {
        fail(*l, r, "timing");
        continue;
      }
      ++l->blocks_done;
      l->sampling_wall_s += r.wall_s;
      json& overhead = l->result->harness_overhead_ms;
      const json host_ms = r.body.value("host_ms", json::object());  // a named copy: items() must not outlive it
      for (const auto& [k, v] : host_ms.items())
        if (v.is_number()) overhead[k] = overhead.value(k, 0.0) + v.get<double>();
      overhead["supervisor_block"] = overhead.value("supervisor_block", 0.0) + r.wall_s * 1000.0;
      l->findings.add_json(r.body.value("findings", json::array()));
      if (!r.body.value("blocking", true)) l->result->timing_note = r.body.value("blocking_note", "");
      bool audited = r.body.value("audited", false);
      if (const json& p = r.body.value("projections", json()); p.is_array())
        for (size_t k = 0; k < p.size(); ++k) l->projections[l->samples_run + static_cast<int64_t>(k)] = sample_projection_from_json(p[k]);
      l->samples_run += static_cast<int64_t>(r.body.at("samples").size());
      BlockClocks clocks{0, r.wall_s * 1000.0};
      for (auto& s : r.body.at("samples")) {
        double gpu = s.at("gpu_ms"), mhz = s.value("sm_mhz", 0.0);
        int sample_batch = s.value("batch", 1);
        clocks.claimed_ms += gpu * sample_batch;
        l->all_gpu_ms.push_back(gpu);
        l->all_wall_ms.push_back(s.value("wall_ms", 0.0));
        // K6 judges unaudited samples only: under the CUPTI audit a device-wide sync also waits for
        // CUPTI's own activity flush (measured ~1.5 ms after run()s that wait on the host), which is the
        // harness's work, not the benchmark's. A deferring cheat leaves work after every sample, so the
        // unaudited ones still show it.
        l->drain_us.push_back(audited ? -1.0 : s.value("drain_us", -1.0));
        if (audited) {
          l->result->audit_samples_ms.push_back(gpu);
          continue;
        }
        uint64_t reasons = s.value("throttle", uint64_t{0});
        if ((reasons & throttle::slowdown_mask) || (mhz > 0 && max_clock > 0 && mhz < kThrottleClockFraction * max_clock)) {
          l->result->discarded++;
          continue;
        }
        l->result->samples_ms.push_back(gpu);
        l->result->wall_ms.push_back(s.value("wall_ms", 0.0));
        l->criterion.add(gpu / 1000.0);
      }
      l->blocks.push_back(clocks);
      if (const json& t = r.body.value("telemetry", json()); t.is_object()) {
        json& series = l->result->telemetry;
        for (const char* k : {"power_w", "temp_c", "mem_mhz", "energy_mj"})
          if (t.contains(k) && t[k].is_number()) series[k].push_back(t[k]);
        series["block_wall_ms"].push_back(t.value("wall_ms", 0.0));
        series["block_gpu_ms"].push_back(clocks.claimed_ms);
      }
      if (audited) ++l->result->audited_blocks;
      // K3 in timing: the one poisoned sample of an audited block, on its fresh inputs, against the baseline.
      if (const json& v = r.body.value("verified", json()); v.is_object()) {
        try {
          std::string why = compare_with_baseline(*l, v.at("seed").get<uint64_t>(), v.at("outputs"), "timed_ref");
          if (why.empty()) ++l->full_timed_checks;
          else l->findings.add("K3", fmt::format("timed sample {} of block {} (fresh inputs): {}", v.value("sample", 0),
                                                 l->blocks_done - 1, why));
        } catch (const std::exception& e) {
          l->findings.add("K3", std::string("timed outputs could not be compared: ") + e.what());
        }
      }
      n = static_cast<int64_t>(l->result->samples_ms.size());
      if (n > 0) l->estimate_ms = median(l->result->samples_ms);
      bool met = opt.iterations > 0 ? n >= opt.iterations || l->sampling_wall_s > opt.policy.time_limit_s * 4
                                    : l->criterion.done(l->sampling_wall_s);
      if (opt.stop_on_decision && opt.iterations == 0 && !met && l != &base && out.goal != "memory") met = comparison_decided(*l);
      // The baseline keeps pace with every variant still measuring, so their blocks stay interleaved; and
      // once every variant's comparison is decided it stops too: its own noise target only serves the
      // comparisons, and a short baseline would otherwise sample on for its minimum GPU time.
      if (l == &base && timed.size() > 1) {
        bool variants_finished =
            std::all_of(timed.begin(), timed.end(), [&](Live* o) { return o == &base || o->done || o->failed; });
        if (met && l->sampling_wall_s < opt.policy.time_limit_s) met = variants_finished;
        else if (!met && opt.stop_on_decision && opt.iterations == 0 && variants_finished &&
                 std::any_of(timed.begin(), timed.end(), [&](Live* o) { return o != &base && !o->stop_note.empty(); })) {
          met = true;
          l->stop_note = "every variant's comparison was decided";
        }
      }
      if (l->final_audit_pending && audited) l->final_audit_done = true;
      // One last audited block after the stopping rule: late behaviour is audited too.
      l->final_audit_pending = met && opt.validity && !l->final_audit_done && l->audit_unavailable.empty();
      l->done = met && !l->final_audit_pending;
      progress(l->result->name, "timing", n, l->criterion.noise(), l->estimate_ms);
    }
    if (!any) break;
  }
  enter_phase("wrap_up");
  for (Live* l : timed) {
    if (l->failed) continue;
    l->result->timing = summarize(l->result->samples_ms);
    l->result->energy = energy_summary(l->result->telemetry, l->result->timing.median);
    l->result->stop_reason = opt.iterations > 0   ? fmt::format("fixed iterations ({})", opt.iterations)
                             : !l->stop_note.empty() ? l->stop_note
                                                     : l->criterion.reason(l->sampling_wall_s);
    Reply r = l->worker->request({{"op", "memory"}}, 30);
    if (r.ok()) l->result->memory = memory_from(r.body.at("memory"));
  }
  if (opt.validity) verify_timed_samples(live, sample_check, rng);
  for (Live* l : timed) judge_timing_validity(*l, opt, base_workload, dev);
  if (base.failed || base.result->samples_ms.empty()) {
    skip_rest("baseline failed");
    return finish("baseline: " + (base.result->error.empty() ? std::string("no samples kept") : base.result->error));
  }
  // A baseline that fails a check has no trustworthy times: nothing is compared against it.
  if (base.result->status == status::invalid) {
    for (size_t i = 1; i < live.size(); ++i) live[i].result->verdict = verdict_name(Verdict::invalid);
    return finish("baseline invalid: " + base.findings.summary());
  }

  // 6. Statistics and verdicts, all from raw samples.
  out.minimum_required_speedup = target_min;
  for (size_t i = 1; i < live.size(); ++i) {
    VariantResult& v = *live[i].result;
    if (v.status == status::invalid) v.verdict = verdict_name(Verdict::invalid);
    if (v.status != status::succeeded && v.status != status::invalid) continue;
    if (v.samples_ms.empty()) {
      if (v.status == status::succeeded) fail(live[i], "timing", "no samples kept (all discarded as throttled)");
      continue;
    }
    double min_speedup = decision_band(live[i]);
    // Differences inside this GPU's A/A noise floor are SAME, so a win must clear it too.
    if (min_speedup > (v.min_speedup > 0 ? v.min_speedup : target_min))
      v.timing_note += (v.timing_note.empty() ? "" : "; ") +
                       fmt::format("decision band widened to {:.3f}x by the A/A noise floor", min_speedup);
    v.min_speedup = min_speedup;
    // The samples' own interval, widened by what one pair of processes cannot see (the between-process
    // spread this GPU's A/A calibration measured for the target), when there is one.
    Interval ci = widen_for_process_spread(bootstrap_speedup_ci(base.result->samples_ms, v.samples_ms),
                                           opt.process_spread, 0.95);
    v.ci_process_spread = opt.process_spread;
    v.speedup = ci.point;
    v.ci_low = ci.low;
    v.ci_high = ci.high;
    v.p_value = mann_whitney_p(base.result->samples_ms, v.samples_ms);
    if (base.result->memory.peak_mb > 0)
      v.memory_savings_pct = 100.0 * (base.result->memory.peak_mb - v.memory.peak_mb) / base.result->memory.peak_mb;
    bool any_failed = std::any_of(v.checks.begin(), v.checks.end(), [](auto& c) { return !c.passed; });
    Verdict verdict = decide_verdict(ci, min_speedup, any_failed || v.status == status::invalid, opt.noise_floor);
    v.verdict = verdict_name(verdict);
    if (v.status == status::succeeded) {
      bool memory_goal = out.goal == "memory";
      bool ok = memory_goal ? v.memory_savings_pct > 0 : verdict == Verdict::faster;
      // Informational variants keep their measured verdict without failing the run (a SLOWER or
      // INCONCLUSIVE one too: only the reason the author gave changes, never the statistics).
      if (!ok && !v.informational.empty()) {
        v.timing_note += (v.timing_note.empty() ? "" : "; ") +
                         fmt::format("informational ({}): {} at {:.3f}x, not a failure", v.informational, v.verdict,
                                     ci.point);
      } else if (!ok) {
        v.status = status::failed_no_speedup;
        v.error = memory_goal ? "no peak-memory saving"
                              : fmt::format("speedup {:.3f}x, 95% CI [{:.3f}, {:.3f}]: {} (needs CI above {:.2f}x)",
                                            ci.point, ci.low, ci.high, v.verdict, min_speedup);
      }
    }
    if (v.status != status::invalid && v.speedup > out.best_speedup) {
      out.best_speedup = v.speedup;
      out.best_optimization = v.name;
    }
    out.best_memory_savings_pct = std::max(out.best_memory_savings_pct, v.memory_savings_pct);
  }
  return finish("");
}

}  // namespace aisp
