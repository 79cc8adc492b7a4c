// Phase 6: wrap-up. Each timed variant's summary, energy and final memory; every timed sample checked
// against the baseline's (K21); then the checks judged on the whole run (K6, K7, K17 and the audits'
// evidence), any finding making the variant INVALID.
#include <fmt/format.h>

#include <algorithm>

#include "core/energy.hpp"
#include "core/plausibility.hpp"
#include "core/stats.hpp"
#include "core/verdict.hpp"
#include "runner/rank_judging.hpp"
#include "runner/ranked_worker.hpp"
#include "runner/target_run.hpp"

namespace aisp {
namespace {

// K6, K7 on every sample, and the evidence lines of the checks that ran during timing.
void record_timing_evidence(LiveVariant& l) {
  VariantResult& v = *l.result;
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
  // Python variants: the worker's PyTorch guards ran after setup() and every benchmark_fn() and reported
  // nothing (what they find arrives as K16/K24 findings, python/aisp/guards.py).
  if (v.file.ends_with(".py")) {
    l.evidence["K16"] += "; PyTorch precision flags equal to the process defaults after setup() and every call";
    l.evidence["K24"] = "torch.compile graph counters unchanged after setup()'s warm-up calls";
  }
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

// K3 (timed), K6, K7, K8/K9/K11/K13/K16 (audits), K17 after timing: evidence for the checks that ran,
// then the checks[] list; any finding makes a timed variant INVALID.
void judge_timing_validity(LiveVariant& l, const RunOptions& opt, const Workload& workload, const DeviceInfo& dev) {
  VariantResult& v = *l.result;
  v.validity_enabled = opt.validity;
  if (!l.failed && !v.samples_ms.empty()) {
    if (auto why = implausibility(workload, v.timing.median, dev)) l.findings.add("K17", *why);
    else if (workload.bytes > 0 || workload.flops > 0)
      l.evidence["K17"] = fmt::format("achieved throughput below the ceilings from device properties (x{:.2f} margin)",
                                      kPlausibilityMargin);
  }
  if (opt.validity) record_timing_evidence(l);
  v.checks = assemble_checks(l.findings, l.evidence);
  if (l.findings.any() && (v.status == status::succeeded || v.status == status::failed_no_speedup)) {
    v.status = status::invalid;
    v.error_kind = "validity";
    v.error = "validity checks failed: " + l.findings.summary();
  }
}



}  // namespace

// Multi-rank (issue 26): each timed variant's ranks judged as a set (runner/rank_judging.hpp): exactly ranks
// 0..N-1, each claiming the plan's WORLD_SIZE in its ready message, each with timed samples, and (variants)
// each rank's outputs compared with the baseline's same rank. Set findings are K14's (one process per rank,
// one GPU each, as planned), comparison findings K2's; either makes the variant INVALID.
void TargetRun::judge_ranks() {
  if (!opt_.rank_plan) return;
  const int n = ranks();
  for (size_t i = 0; i < live_.size(); ++i) {
    LiveVariant& l = live_[i];
    if (l.failed || !l.ranked) continue;
    std::vector<RankResult> results;
    for (int r = 0; r < l.ranked->world_size(); ++r) {
      RankResult rr;
      const json& ready = l.ranked->ready().at(r);
      rr.rank = ready.value("rank", -1);
      rr.world_size = ready.value("world_size", 0);
      rr.samples_ms = l.ranked->rank_samples().at(r);
      if (i > 0 && static_cast<size_t>(r) < l.rank_checks.size() && l.rank_checks[r]) {
        rr.outputs_compared = true;
        rr.verification = *l.rank_checks[r];
      }
      results.push_back(std::move(rr));
    }
    RankJudgement j = i == 0 ? judge_baseline_ranks(results, n) : judge_variant_ranks(results, n, l.result->name);
    for (const RankFinding& f : j.findings) l.findings.add(f.check == "ranks" ? "K14" : f.check, f.detail);
    if (!j.valid) continue;
    l.evidence["K14"] = fmt::format("{} ranks, each its own worker process and GPU, each claiming its RANK and "
                                    "WORLD_SIZE {}; time per step = the slowest rank's (rank {} by median)",
                                    n, n, j.slowest_rank);
    if (i > 0) l.evidence["K2"] += fmt::format("; each of the {} ranks compared with the baseline's same rank", n);
  }
}

bool TargetRun::wrap_up() {
  enter_phase("wrap_up");
  for (LiveVariant* l : timed_) {
    if (l->failed) continue;
    l->result->timing = summarize(l->result->samples_ms);
    l->result->energy = energy_summary(l->result->telemetry, l->result->timing.median);
    l->result->stop_reason = opt_.iterations > 0   ? fmt::format("fixed iterations ({})", opt_.iterations)
                             : !l->stop_note.empty() ? l->stop_note
                                                     : l->criterion.reason(l->sampling_wall_s);
    Reply r = l->worker->request(to_json(MemoryRequest{}), 30);
    if (r.ok())
      if (auto m = parse_reply(*l, r, parse_memory_reply, "memory")) l->result->memory = memory_from_json(m->memory);
  }
  if (opt_.validity) verify_timed_samples(live_, sample_check_, rng_);
  judge_ranks();
  for (LiveVariant* l : timed_) judge_timing_validity(*l, opt_, base_workload_, device_);
  LiveVariant& base = live_[0];
  if (base.failed || base.result->samples_ms.empty()) {
    skip_rest("baseline failed");
    out_.error = "baseline: " + (base.result->error.empty() ? std::string("no samples kept") : base.result->error);
    return false;
  }
  // A baseline that fails a check has no trustworthy times: nothing is compared against it.
  if (base.result->status == status::invalid) {
    for (size_t i = 1; i < live_.size(); ++i) live_[i].result->verdict = verdict_name(Verdict::invalid);
    out_.error = "baseline invalid: " + base.findings.summary();
    return false;
  }
  return true;
}

}  // namespace aisp
