#include "runner/target_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include "core/file_names.hpp"
#include "core/schema.hpp"
#include "core/stats.hpp"
#include "core/verdict.hpp"
#include "runner/verify_outputs.hpp"
#include "runner/worker_process.hpp"
#include "runtime/nvml.hpp"  // clocks-event reason bits only (header constants, no CUDA)

namespace aisp {
namespace {

namespace fs = std::filesystem;

// Base timeouts (seconds), scaled by --timeout-multiplier. Loading includes CUDA context creation.
constexpr double kLoadTimeout = 60, kSetupTimeout = 300, kCheckTimeout = 60, kWarmupTimeout = 120;
constexpr int kCheckRounds = 2;  // fresh-input rounds after setup; each uses a new seed

// Clocks pulled below this fraction of the max SM clock (or any power/thermal slowdown reason) make a
// sample unrepresentative: discarded and counted (NVBench's 75% rule plus NVML's reasons).
constexpr double kThrottleClockFraction = 0.75;

struct Live {
  VariantResult* result;
  std::unique_ptr<WorkerProcess> worker;
  json ready;
  bool failed = false;
  StdRelCriterion criterion;
  double estimate_ms = 0, sampling_wall_s = 0;
  bool done = false;
};

void fail(Live& l, const Reply& r, const std::string& phase) {
  l.failed = true;
  l.result->status = status::failed_error;
  l.result->error_kind = r.kind;
  l.result->error = fmt::format("{}: {}", phase, r.reason);
}

void fail(Live& l, const std::string& kind, const std::string& message, const char* st = status::failed_error) {
  l.failed = true;
  l.result->status = st;
  l.result->error_kind = kind;
  l.result->error = message;
}

Memory memory_from(const json& j) {
  return {j.value("peak_mb", 0.0), j.value("allocated_mb", 0.0), j.value("reserved_mb", 0.0)};
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
  auto progress = [&](const std::string& variant, const std::string& phase, int64_t n = 0, double noise = 0,
                      double med = 0) {
    if (opt.on_progress) opt.on_progress({target.id, variant, phase, n, noise, med});
  };

  // 1. All workers up together (baseline first), each in its own process with one GPU visible.
  fs::create_directories(opt.run_dir / "logs");
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
          WorkerSpawn{opt.aisp_exe, (opt.plugin_root / l.result->file).string(), l.result->log, opt.visible_device});
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
    l.result->min_speedup = r.body.value("min_speedup", 0.0);
  }
  Live& base = live[0];
  auto finish = [&](const std::string& target_error) {
    for (auto& l : live)
      if (l.worker) l.worker->shutdown(10);
    out.error = target_error;
    std::vector<std::string> statuses;
    for (auto& o : out.optimizations) statuses.push_back(o.status);
    out.status = target_error.empty() ? target_status(statuses)
                                      : (base.result->status == status::skipped ? status::skipped : base.result->status);
    if (!target_error.empty() && out.status == status::succeeded) out.status = status::failed_error;
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
  out.goal = base.ready.value("goal", "speed");
  for (size_t i = 1; i < live.size(); ++i) {
    if (live[i].failed) continue;
    std::string diff = workload_difference(base_workload, workload_from_json(live[i].ready.at("workload")));
    if (!diff.empty())
      fail(live[i], "workload", "declared workload differs from the baseline's (" + diff + "); results would not be comparable");
  }

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
    if (!r.ok()) fail(l, r, "setup");
    else l.result->memory = memory_from(r.body.at("memory"));
  }
  if (base.failed) {
    skip_rest("baseline failed");
    return finish("baseline: " + base.result->error);
  }

  // 4. Verification: poisoned outputs, inputs refilled with fresh seeds after setup, full comparison.
  fs::path work = opt.run_dir / "work" / file_slug(target.id);
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
                                   {"dir", (work / l.result->name).string()}, {"tag", fmt::format("round{}", round)}},
                                  kCheckTimeout * opt.timeout_multiplier);
      if (!r.ok()) {
        fail(l, r, "verification run");
        continue;
      }
      for (auto& name : r.body.at("inputs_changed")) mutated[i].push_back(name);
      for (auto& o : r.body.at("outputs")) unwritten[i] += o.value("unwritten", int64_t{0});
      if (i == 0) {
        base_reply = r.body;
        continue;
      }
      try {
        Tolerance t = tolerance_from_json(l.ready.at("tolerance"));
        Tolerance bt = tolerance_from_json(base.ready.at("tolerance"));
        // A loosened tolerance counts only with its written justification (printed in the report).
        ToleranceChoice choice;
        if (!t.justification.empty()) choice = {t.rtol, t.atol, t.justification};
        else if (!bt.justification.empty()) choice = {bt.rtol, bt.atol, bt.justification};
        compare_check_outputs(base_reply, r.body, choice, verif[i]);
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
  std::error_code ec;
  fs::remove_all(work, ec);  // full output dumps are only needed for the comparison itself

  for (size_t i = 0; i < live.size(); ++i) {
    Live& l = live[i];
    auto& checks = l.result->checks;
    checks.push_back({"K14", "isolated worker process, one visible GPU, statistics in the supervisor", true, ""});
    bool inputs_ok = mutated[i].empty();
    std::string names;
    for (auto& n : mutated[i]) names += (names.empty() ? "" : ", ") + n;
    checks.push_back({"K4", "inputs unchanged by run()", inputs_ok, inputs_ok ? "" : "run() modified: " + names});
    if (!inputs_ok && !l.failed) fail(l, "validity", "run() modified its inputs (" + names + ")", status::invalid);
    if (i == 0) continue;
    Verification& v = verif[i];
    checks.push_back({"K1", "poisoned outputs fully written", v.unwritten == 0 && unwritten[i] == 0,
                      unwritten[i] ? fmt::format("{} elements still hold the poison pattern", unwritten[i]) : ""});
    bool match = v.mismatches == 0 && v.compared > 0;
    checks.push_back({"K2", "outputs match the baseline's (full comparison)", match,
                      fmt::format("{} elements, {} mismatches, max abs err {:.3g}, max rel err {:.3g} (rtol {:g}, atol {:g})",
                                  v.compared, v.mismatches, v.max_abs_error, v.max_rel_error, v.rtol, v.atol)});
    checks.push_back({"K3", "outputs follow inputs refilled after setup", match,
                      fmt::format("{} rounds, each with a fresh seed drawn after setup", kCheckRounds)});
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
  double max_clock = dev.sm_clock_max_mhz;
  for (;;) {
    bool any = false;
    for (Live* l : timed) {
      if (l->failed || l->done) continue;
      any = true;
      int64_t n = static_cast<int64_t>(l->result->samples_ms.size());
      int block = static_cast<int>(std::clamp(opt.block_target_ms / l->estimate_ms, 1.0, 256.0));
      int batch = opt.mode == "hot" ? static_cast<int>(std::clamp(std::ceil(1.0 / l->estimate_ms), 1.0, 4096.0)) : 1;
      if (opt.iterations > 0) block = static_cast<int>(std::min<int64_t>(block, opt.iterations - n));
      double expected_s = block * batch * (l->estimate_ms + 1.0) / 1000.0;
      Reply r = l->worker->request({{"op", "time"}, {"mode", opt.mode}, {"samples", block}, {"batch", batch}},
                                   (30 + 20 * expected_s) * opt.timeout_multiplier);
      if (!r.ok()) {
        fail(*l, r, "timing");
        continue;
      }
      l->sampling_wall_s += r.wall_s;
      if (!r.body.value("blocking", true)) l->result->timing_note = r.body.value("blocking_note", "");
      for (auto& s : r.body.at("samples")) {
        double gpu = s.at("gpu_ms"), mhz = s.value("sm_mhz", 0.0);
        uint64_t reasons = s.value("throttle", uint64_t{0});
        if ((reasons & throttle::slowdown_mask) || (mhz > 0 && max_clock > 0 && mhz < kThrottleClockFraction * max_clock)) {
          l->result->discarded++;
          continue;
        }
        l->result->samples_ms.push_back(gpu);
        l->result->wall_ms.push_back(s.value("wall_ms", 0.0));
        l->criterion.add(gpu / 1000.0);
      }
      n = static_cast<int64_t>(l->result->samples_ms.size());
      if (n > 0) l->estimate_ms = median(l->result->samples_ms);
      l->done = opt.iterations > 0 ? n >= opt.iterations || l->sampling_wall_s > opt.policy.time_limit_s * 4
                                   : l->criterion.done(l->sampling_wall_s);
      progress(l->result->name, "timing", n, l->criterion.noise(), l->estimate_ms);
    }
    if (!any) break;
  }
  for (Live* l : timed) {
    if (l->failed) continue;
    l->result->timing = summarize(l->result->samples_ms);
    l->result->stop_reason = opt.iterations > 0 ? fmt::format("fixed iterations ({})", opt.iterations)
                                                : l->criterion.reason(l->sampling_wall_s);
    Reply r = l->worker->request({{"op", "memory"}}, 30);
    if (r.ok()) l->result->memory = memory_from(r.body.at("memory"));
  }
  if (base.failed || base.result->samples_ms.empty()) {
    skip_rest("baseline failed");
    return finish("baseline: " + (base.result->error.empty() ? std::string("no samples kept") : base.result->error));
  }

  // 6. Statistics and verdicts, all from raw samples.
  double target_min = base.result->min_speedup > 0 ? base.result->min_speedup : kDefaultMinSpeedup;
  out.minimum_required_speedup = target_min;
  for (size_t i = 1; i < live.size(); ++i) {
    VariantResult& v = *live[i].result;
    if (v.status == status::invalid) v.verdict = verdict_name(Verdict::invalid);
    if (v.status != status::succeeded && v.status != status::invalid) continue;
    if (v.samples_ms.empty()) {
      if (v.status == status::succeeded) fail(live[i], "timing", "no samples kept (all discarded as throttled)");
      continue;
    }
    double min_speedup = v.min_speedup > 0 ? v.min_speedup : target_min;
    v.min_speedup = min_speedup;
    Interval ci = bootstrap_speedup_ci(base.result->samples_ms, v.samples_ms);
    v.speedup = ci.point;
    v.ci_low = ci.low;
    v.ci_high = ci.high;
    v.p_value = mann_whitney_p(base.result->samples_ms, v.samples_ms);
    if (base.result->memory.peak_mb > 0)
      v.memory_savings_pct = 100.0 * (base.result->memory.peak_mb - v.memory.peak_mb) / base.result->memory.peak_mb;
    bool any_failed = std::any_of(v.checks.begin(), v.checks.end(), [](auto& c) { return !c.passed; });
    Verdict verdict = decide_verdict(ci, min_speedup, any_failed || v.status == status::invalid);
    v.verdict = verdict_name(verdict);
    if (v.status == status::succeeded) {
      bool memory_goal = out.goal == "memory";
      bool ok = memory_goal ? v.memory_savings_pct > 0 : verdict == Verdict::faster;
      if (!ok) {
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
