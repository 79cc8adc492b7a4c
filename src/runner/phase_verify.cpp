// Phase 3: verification. Checked runs on inputs refilled from fresh seeds (drawn after setup), outputs
// poisoned before and compared in full with the baseline's after (K1-K4), the pair's tolerance refused
// when it cannot tell fp32 from bf16 (K23); then the sensitivity round (K5).
#include <fmt/format.h>

#include "runner/pair_contract.hpp"
#include "runner/rank_verify.hpp"
#include "runner/ranked_worker.hpp"
#include "runner/target_run.hpp"

namespace aisp {
namespace {

// What the check rounds left for one variant.
struct CheckRecord {
  Verification verification;
  std::vector<std::string> mutated_inputs;
  int64_t unwritten = 0;
};

// K1-K4 evidence and findings for one variant from its check rounds; a mismatch fails it.
void judge_checks(LiveVariant& l, CheckRecord& c, bool is_baseline) {
  l.evidence["K14"] = "own worker process and process group, one visible GPU, statistics in the supervisor";
  l.evidence["K12"] = "every harness CUDA call checked; pending errors collected after every request";
  l.evidence["K4"] = fmt::format("fingerprints of every input before/after run() in {} rounds", kCheckRounds);
  if (!c.mutated_inputs.empty()) {
    std::string names;
    for (auto& n : c.mutated_inputs) names += (names.empty() ? "" : ", ") + n;
    l.findings.add("K4", "run() modified its inputs: " + names);
    if (!l.failed) fail(l, "validity", "run() modified its inputs (" + names + ")", status::invalid);
  }
  if (is_baseline) return;
  Verification& v = c.verification;
  // A variant stopped before any comparison (its own tolerance, a crash) has nothing to report here.
  if (l.failed && v.compared == 0 && c.unwritten == 0) return;
  bool match = v.mismatches == 0 && v.compared > 0;
  l.evidence["K1"] = fmt::format("outputs poisoned before {} verified runs; no poison survived", kCheckRounds);
  if (c.unwritten) l.findings.add("K1", fmt::format("{} elements still hold the poison pattern", c.unwritten));
  std::string comparison = fmt::format("{} elements, {} mismatches, max abs err {:.3g}, max rel err {:.3g} (rtol {:g}, atol {:g})",
                                       v.compared, v.mismatches, v.max_abs_error, v.max_rel_error, v.rtol, v.atol);
  l.evidence["K2"] = comparison + (l.outputs_via_files.empty()
                                       ? "; compared on the GPU by the supervisor (outputs mapped through CUDA IPC)"
                                       : "; compared from dumped files (" + l.outputs_via_files + ")");
  l.evidence["K3"] = fmt::format("{} rounds, each with a fresh seed drawn after setup", kCheckRounds);
  if (!match) {
    l.findings.add("K2", comparison);
    l.findings.add("K3", "outputs did not follow inputs refilled with a seed drawn after setup");
  }
  l.result->verification = v;
  if (!l.failed && (!match || c.unwritten > 0)) {
    v.passed = false;
    l.result->verification = v;
    fail(l, "verification",
         c.unwritten ? fmt::format("{} output elements were never written", c.unwritten)
                     : fmt::format("{} of {} output elements differ from the baseline (first at {} in '{}': baseline "
                                   "{:.6g}, variant {:.6g})",
                                   v.mismatches, v.compared, v.first_mismatch, v.output, v.first_baseline, v.first_variant),
         status::failed_verification);
  }
}

}  // namespace

bool TargetRun::verify() {
  std::vector<CheckRecord> records(live_.size());
  std::vector<std::vector<Reply>> rank_checks(live_.size());  // multi-rank: each rank's reply, last round
  for (int round = 0; round < kCheckRounds && !baseline_failed(); ++round) {
    std::vector<OutputView> base_outputs;
    for (size_t i = 0; i < live_.size(); ++i) {
      LiveVariant& l = live_[i];
      if (l.failed) continue;
      progress(l.result->name, "verify");
      // The first run() is not audited: libraries initialize lazily inside it (cuBLAS creates a stream on
      // a handle's first GEMM). Later rounds are.
      Reply r = l.worker->request(to_json(CheckRequest{check_seeds_[round], dump_dir(l).string(),
                                                       fmt::format("round{}", round), opt_.validity && round > 0,
                                                       dump_files(l)}),
                                  kCheckTimeout * opt_.timeout_multiplier);
      if (!r.ok()) {
        fail(l, r, "verification run");
        continue;
      }
      if (l.ranked) rank_checks[i] = l.ranked->last_replies();
      auto c = parse_reply(l, r, [](const json& b) { return parse_check_reply(b); }, "verification run");
      if (!c) continue;
      l.findings.add_all(c->findings);
      for (auto& name : c->inputs_changed) records[i].mutated_inputs.push_back(name);
      try {
        std::vector<OutputView> outputs = outputs_of(l, c->outputs);
        for (auto& o : outputs) records[i].unwritten += reader_.unwritten(o);
        if (i == 0) {
          base_outputs = std::move(outputs);
          if (round == 0) refuse_loose_tolerance(live_, base_outputs, reader_, tolerance_, base_workload_.precision);
          continue;
        }
        compare_check_outputs(base_outputs, outputs, tolerance_, reader_, records[i].verification);
      } catch (const std::exception& e) {
        fail(l, "verification", e.what(), status::failed_verification);
      }
    }
  }
  if (baseline_failed()) return false;
  if (records[0].unwritten > 0) {
    skip_rest("baseline invalid");
    out_.error = fmt::format("baseline left {} output elements unwritten (poison survived)", records[0].unwritten);
    return false;
  }
  for (size_t i = 0; i < live_.size(); ++i) judge_checks(live_[i], records[i], i == 0);
  compare_ranks(rank_checks);
  return true;
}

// Multi-rank (issue 26): every rank's dumped outputs of the last round against the baseline's same rank, by
// the one-rank comparison code; the judging (phase_wrap_up.cpp) turns a rank never compared or differing
// into a finding that names it. (The merged reply's outputs, rank r's as `<name>@rank<r>`, have already been
// compared above; this keeps the per-rank account the judging needs.)
void TargetRun::compare_ranks(std::vector<std::vector<Reply>>& checks) {
  if (!opt_.rank_plan || checks.empty()) return;
  for (size_t i = 1; i < live_.size(); ++i) {
    LiveVariant& l = live_[i];
    if (!l.ranked || checks[i].empty()) continue;
    l.rank_checks = compare_rank_outputs(checks[0], checks[i], tolerance_, reader_);
    // A variant stopped here never reaches the judging: name the ranks at fault now.
    if (l.result->status != status::failed_verification) continue;
    for (size_t r = 0; r < l.rank_checks.size(); ++r) {
      const auto& v = l.rank_checks[r];
      if (v && v->passed) continue;
      l.findings.add("K2", !v ? fmt::format("rank {}'s outputs were never compared with the baseline's rank {}", r, r)
                              : v->unwritten > 0
                                    ? fmt::format("rank {}: {} elements never written (poison survived); the baseline's "
                                                  "rank {} wrote all of its outputs", r, v->unwritten, r)
                                    : fmt::format("rank {}'s outputs differ from the baseline's rank {}: {} of {} elements",
                                                  r, r, v->mismatches, v->compared));
    }
  }
}

void TargetRun::check_sensitivity() {
  if (baseline_failed()) return;
  progress("*", "verify");
  check_input_sensitivity(live_, rng_(), rng_(), kCheckTimeout * opt_.timeout_multiplier * 4);
}

}  // namespace aisp
