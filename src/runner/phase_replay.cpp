// Phase 4: capture-replay (K10). One run() captured into a graph on the harness stream, replayed on fresh
// inputs and verified against the baseline's answer for the same seed. Work the capture did not record
// (another stream, another thread, a host-side cache) is missing from the replay.
#include <fmt/format.h>

#include "runner/target_run.hpp"

namespace aisp {

std::string TargetRun::baseline_reference(uint64_t seed, const std::string& tag, std::vector<OutputView>& ref) {
  LiveVariant& base = live_[0];
  Reply r = base.worker->request(
      to_json(CheckRequest{seed, (work_ / "baseline_ref").string(), tag, /*audit=*/false, dump_files(base)}),
      kCheckTimeout * opt_.timeout_multiplier);
  if (!r.ok()) return "the baseline's reference run failed: " + r.reason;
  try {
    ref = outputs_of(base, parse_check_reply(r.body).outputs);
  } catch (const ProtocolError& e) {
    return std::string("the baseline's reference run broke the protocol: ") + e.what();
  }
  return "";
}

std::string TargetRun::agrees_with(const std::vector<OutputView>& reference, const std::vector<OutputView>& outputs) {
  Verification v;
  compare_check_outputs(reference, outputs, tolerance_, reader_, v);
  if (v.unwritten > 0) return fmt::format("{} output elements were never written", v.unwritten);
  if (v.mismatches > 0)
    return fmt::format(
        "{} of {} output elements differ from the baseline's for the same inputs (first at {} in '{}': baseline {:.6g}, "
        "variant {:.6g}; rtol {:g}, atol {:g})",
        v.mismatches, v.compared, v.first_mismatch, v.output, v.first_baseline, v.first_variant, v.rtol, v.atol);
  return "";
}

std::string TargetRun::compare_with_baseline(LiveVariant& candidate, uint64_t seed, const json& outputs,
                                             const std::string& tag) {
  std::vector<OutputView> cand = outputs_of(candidate, outputs);
  // The baseline's own outputs would be overwritten by its reference run: keep a copy first.
  if (&candidate == &live_[0])
    for (auto& o : cand) o = reader_.keep(o);
  std::vector<OutputView> ref;
  if (std::string why = baseline_reference(seed, tag, ref); !why.empty()) return why;
  return agrees_with(ref, cand);
}

// The baseline replays first and keeps its outputs; one reference run of the baseline then serves every
// variant (its buffers hold the answer while the variants replay in their own processes).
void TargetRun::replay() {
  if (baseline_failed()) return;
  uint64_t replay_seed = rng_();
  std::vector<OutputView> ref;
  std::string ref_error;
  bool have_ref = false;
  for (auto& l : live_) {
    if (l.failed) continue;
    progress(l.result->name, "replay");
    Reply r = l.worker->request(to_json(ReplayRequest{replay_seed, dump_dir(l).string(), "replay", dump_files(l)}),
                                kCheckTimeout * opt_.timeout_multiplier);
    if (!r.ok()) {
      fail(l, r, "capture-replay");
      continue;
    }
    auto c = parse_reply(l, r, [](const json& b) { return parse_check_reply(b, "replay"); }, "capture-replay");
    if (!c) continue;
    if (!c->captured) {
      l.evidence["K10"] = "not applicable: run() cannot be captured into a CUDA graph (" + c->reason +
                          "); K8's audit covers it";
      continue;
    }
    l.findings.add_all(c->findings);
    try {
      std::vector<OutputView> replayed = outputs_of(l, c->outputs);
      if (&l == &live_[0])
        for (auto& o : replayed) o = reader_.keep(o);
      if (!have_ref) {
        ref_error = baseline_reference(replay_seed, "replay_ref", ref);
        have_ref = true;
      }
      std::string why = ref_error.empty() ? agrees_with(ref, replayed) : ref_error;
      if (why.empty()) l.evidence["K10"] = "one run() captured into a graph and replayed on fresh inputs: outputs verified";
      else l.findings.add("K10", "the captured run() replayed on fresh inputs is wrong: " + why +
                                 " (work outside the harness stream's graph, or a cached result)");
    } catch (const std::exception& e) {
      l.findings.add("K10", std::string("replay outputs could not be compared: ") + e.what());
    }
  }
}

}  // namespace aisp
