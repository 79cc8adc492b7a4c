// Phase 5: warm-up, then interleaved timing. Each live variant gets a block of samples (~25 ms of GPU
// time) per round, in a new random order every round, until every one has met its stopping rule. Audited
// blocks (CUPTI trace, output fingerprints, one timed output compared in full) are the first, a random
// fifth of the rest up to kMaxAuditedBlocks and one more after the stopping rule is met, so a benchmark
// that changes behaviour after N calls is caught wherever N lies; their samples stay out of the statistics.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/stats.hpp"
#include "core/verdict.hpp"
#include "runner/sample_clock_rule.hpp"
#include "runner/target_run.hpp"

namespace aisp {
namespace {

constexpr double kAuditProbability = 0.2;
constexpr int kMaxAuditedBlocks = 6, kMaxAuditedSamples = 32;
// The samples of one block into the variant's series: audited ones apart, throttled ones discarded,
// power-capped ones kept and counted (runner/sample_clock_rule.hpp says which is which and why).
BlockClocks record_samples(LiveVariant& l, const std::vector<TimedSampleReply>& samples, bool audited, double wall_ms,
                           double max_clock_mhz) {
  BlockClocks clocks{0, wall_ms};
  for (auto& s : samples) {
    double gpu = s.gpu_ms, mhz = s.sm_mhz;
    clocks.claimed_ms += gpu * s.batch;
    l.all_gpu_ms.push_back(gpu);
    l.all_wall_ms.push_back(s.wall_ms);
    // K6 judges unaudited samples only: under the CUPTI audit a device-wide sync also waits for CUPTI's own
    // activity flush (measured ~1.5 ms after run()s that wait on the host), which is the harness's work, not
    // the benchmark's. A deferring cheat leaves work after every sample, so the unaudited ones still show it.
    l.drain_us.push_back(audited ? -1.0 : s.drain_us);
    if (audited) {
      l.result->audit_samples_ms.push_back(gpu);
      continue;
    }
    SampleClockClass clock = classify_sample_clock(s.throttle, mhz, max_clock_mhz);
    if (clock == SampleClockClass::discarded) {
      l.result->discarded++;
      continue;
    }
    if (clock == SampleClockClass::power_capped) l.result->power_capped++;
    l.result->samples_ms.push_back(gpu);
    l.result->wall_ms.push_back(s.wall_ms);
    if (s.latency_ms >= 0) l.result->latency_samples_ms.push_back(s.latency_ms);
    l.criterion.add(gpu / 1000.0);
  }
  return clocks;
}

}  // namespace

bool TargetRun::warm_up() {
  policy_ = replicate_share(opt_.policy, out_.goal == "latency" ? opt_.trace_replicates : 1);
  for (auto& l : live_)
    if (!l.failed) timed_.push_back(&l);
  for (LiveVariant* l : timed_) {
    progress(l->result->name, "warmup");
    Reply r = l->worker->request(to_json(WarmupRequest{opt_.mode, opt_.warmup, 0.0, opt_.warmup_max_s, opt_.warmup_stable_rel}),
                                 kWarmupTimeout * opt_.timeout_multiplier);
    if (!r.ok()) {
      fail(*l, r, "warm-up");
      continue;
    }
    auto w = parse_reply(*l, r, parse_warmup_reply, "warm-up");
    if (!w) continue;
    l->estimate_ms = std::max(w->estimate_ms, 1e-4);
    l->result->warmup_runs = w->runs;
    l->criterion = StdRelCriterion(policy_);
  }
  if (baseline_failed()) return false;
  // The speedup a variant must clear: its own override, else the target's, widened to the A/A noise floor.
  target_min_speedup_ = live_[0].result->min_speedup > 0 ? live_[0].result->min_speedup : kDefaultMinSpeedup;
  // K21: every variant's timed sample k runs on the inputs of seed sample_seed(k); the projections'
  // coefficients come from a key drawn now, after every plugin is loaded.
  sample_check_.sample_seed = rng_();
  sample_check_.projection_key = rng_();
  sample_check_.tolerance = tolerance_;
  sample_check_.timeout_multiplier = opt_.timeout_multiplier;
  return true;
}

double TargetRun::decision_band(const LiveVariant& l) const {
  double m = l.result->min_speedup > 0 ? l.result->min_speedup : target_min_speedup_;
  return std::max(m, 1.0 + opt_.noise_floor);
}

// Sequential stopping on the comparison: once a 99% interval (stricter than the reported 95%, to pay for
// looking after every block) already decides FASTER, SLOWER or SAME, more samples cannot change the
// verdict, so the variant stops early.
bool TargetRun::comparison_decided(LiveVariant& l) {
  constexpr size_t kMinSamples = 20;
  const bool latency = out_.goal == "latency";  // decided on what the verdict will judge (phase_verdicts.cpp)
  const auto& a = latency ? live_[0].result->latency_samples_ms : live_[0].result->samples_ms;
  const auto& b = latency ? l.result->latency_samples_ms : l.result->samples_ms;
  if (a.size() < kMinSamples || b.size() < kMinSamples) return false;
  Interval ci = widen_for_process_spread(bootstrap_speedup_ci(a, b, 0.99, 500), opt_.process_spread, 0.99);
  double band = decision_band(l);
  // The same symmetric band as the verdict: above it FASTER, below its inverse SLOWER, inside SAME.
  bool decided = ci.low > band || ci.high < 1.0 / band || (ci.low >= 1.0 / band && ci.high <= band);
  if (decided)
    l.stop_note = fmt::format("comparison decided after {} samples: 99% CI [{:.4f}, {:.4f}] against the {:.3f}x band",
                              b.size(), ci.low, ci.high, band);
  return decided;
}

void TargetRun::time_interleaved() {
  for (;;) {
    bool any = false;
    // A new random order every round: a fixed ABAB order would give one variant the same predecessor (and
    // whatever state that leaves in the GPU or the host) in every block.
    std::vector<LiveVariant*> round = timed_;
    std::shuffle(round.begin(), round.end(), rng_);
    for (LiveVariant* l : round) {
      if (l->failed || l->done) continue;
      any = true;
      run_block(*l);
    }
    if (!any) break;
  }
}

void TargetRun::run_block(LiveVariant& l) {
  int64_t n = static_cast<int64_t>(l.result->samples_ms.size());
  int block = static_cast<int>(std::clamp(opt_.block_target_ms / l.estimate_ms, 1.0, 256.0));
  int batch = opt_.mode == "hot" ? static_cast<int>(std::clamp(std::ceil(1.0 / l.estimate_ms), 1.0, 4096.0)) : 1;
  bool audit = opt_.validity && (l.blocks_done == 0 || l.final_audit_pending ||
                                 (l.result->audited_blocks < kMaxAuditedBlocks &&
                                  std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < kAuditProbability));
  if (audit) block = std::min(block, kMaxAuditedSamples);
  else if (opt_.iterations > 0) block = static_cast<int>(std::min<int64_t>(block, opt_.iterations - n));
  int verify_sample = audit ? static_cast<int>(rng_() % static_cast<uint64_t>(block)) : -1;
  double expected_s = block * batch * (l.estimate_ms + 1.0) / 1000.0;
  TimeRequest req;
  req.mode = opt_.mode;
  req.samples = block;
  req.batch = batch;
  req.sample_seed = sample_check_.sample_seed;
  req.first_sample = l.samples_run;
  req.projection_key = sample_check_.projection_key;
  req.audit = audit;
  req.verify_sample = verify_sample;
  req.dir = dump_dir(l).string();
  req.tag = fmt::format("timed{}", l.blocks_done);
  req.dump = dump_files(l);
  Reply r = l.worker->request(to_json(req), (30 + 20 * expected_s + (audit ? 30 : 0)) * opt_.timeout_multiplier);
  if (!r.ok()) {
    fail(l, r, "timing");
    return;
  }
  auto t = parse_reply(l, r, parse_time_reply, "timing");
  if (!t) return;
  record_block(l, *t, r.wall_s);
  bool met = stopping_rule_met(l);
  bool audited = t->audited;
  if (l.final_audit_pending && audited) l.final_audit_done = true;
  // One last audited block after the stopping rule: late behaviour is audited too.
  l.final_audit_pending = met && opt_.validity && !l.final_audit_done && l.audit_unavailable.empty();
  l.done = met && !l.final_audit_pending;
  progress(l.result->name, "timing", static_cast<int64_t>(l.result->samples_ms.size()), l.criterion.noise(), l.estimate_ms);
}

void TargetRun::record_block(LiveVariant& l, const TimeReply& r, double wall_s) {
  ++l.blocks_done;
  l.sampling_wall_s += wall_s;
  json& overhead = l.result->harness_overhead_ms;
  for (const auto& [k, v] : r.host_ms) overhead[k] = overhead.value(k, 0.0) + v;
  overhead["supervisor_block"] = overhead.value("supervisor_block", 0.0) + wall_s * 1000.0;
  l.findings.add_all(r.findings);
  if (!r.blocking) l.result->timing_note = r.blocking_note;
  const bool audited = r.audited;
  if (r.projections.is_array())
    for (size_t k = 0; k < r.projections.size(); ++k)
      l.projections[l.samples_run + static_cast<int64_t>(k)] = sample_projection_from_json(r.projections[k]);
  l.samples_run += static_cast<int64_t>(r.samples.size());
  BlockClocks clocks = record_samples(l, r.samples, audited, wall_s * 1000.0, device_.sm_clock_max_mhz);
  l.blocks.push_back(clocks);
  if (const json& t = r.telemetry; t.is_object()) {
    json& series = l.result->telemetry;
    for (const char* k : {"power_w", "temp_c", "mem_mhz", "energy_mj"})
      if (t.contains(k) && t[k].is_number()) series[k].push_back(t[k]);
    series["block_wall_ms"].push_back(t.value("wall_ms", 0.0));
    series["block_gpu_ms"].push_back(clocks.claimed_ms);
  }
  if (audited) ++l.result->audited_blocks;
  // K3 in timing: the one sample of an audited block dumped in full, on its fresh inputs, against the baseline.
  if (const auto& v = r.verified) {
    try {
      std::string why = compare_with_baseline(l, v->seed, v->outputs, "timed_ref");
      if (why.empty()) ++l.full_timed_checks;
      else l.findings.add("K3", fmt::format("timed sample {} of block {} (fresh inputs): {}", v->sample,
                                             l.blocks_done - 1, why));
    } catch (const std::exception& e) {
      l.findings.add("K3", std::string("timed outputs could not be compared: ") + e.what());
    }
  }
  if (!l.result->samples_ms.empty()) l.estimate_ms = median(l.result->samples_ms);
}

bool TargetRun::stopping_rule_met(LiveVariant& l) {
  LiveVariant* base = &live_[0];
  int64_t n = static_cast<int64_t>(l.result->samples_ms.size());
  bool met = opt_.iterations > 0 ? n >= opt_.iterations || l.sampling_wall_s > policy_.time_limit_s * 4
                                 : l.criterion.done(l.sampling_wall_s);
  if (opt_.stop_on_decision && opt_.iterations == 0 && !met && &l != base && out_.goal != "memory") met = comparison_decided(l);
  if (&l != base || timed_.size() <= 1) return met;
  // The baseline keeps pace with every variant still measuring, so their blocks stay interleaved; and once
  // every variant's comparison is decided it stops too: its own noise target only serves the comparisons,
  // and a short baseline would otherwise sample on for its minimum GPU time.
  bool variants_finished =
      std::all_of(timed_.begin(), timed_.end(), [&](LiveVariant* o) { return o == base || o->done || o->failed; });
  if (met && l.sampling_wall_s < policy_.time_limit_s) return variants_finished;
  if (!met && opt_.stop_on_decision && opt_.iterations == 0 && variants_finished &&
      std::any_of(timed_.begin(), timed_.end(), [&](LiveVariant* o) { return o != base && !o->stop_note.empty(); })) {
    l.stop_note = "every variant's comparison was decided";
    return true;
  }
  return met;
}

}  // namespace aisp
