// Phase 4: capture-replay (K10). One run() captured into a graph on the harness stream, replayed on fresh
// inputs and verified against the baseline's answer for the same seed. Work the capture did not record
// (another stream, another thread, a host-side cache) is missing from the replay.
#include <fmt/format.h>

#include "runner/target_run.hpp"

namespace aisp {

std::string TargetRun::compare_with_baseline(uint64_t seed, const json& outputs, const std::string& tag) {
  Reply ref = live_[0].worker->request({{"op", "check"}, {"seed", seed}, {"dir", (work_ / "baseline_ref").string()},
                                        {"tag", tag}, {"audit", false}},
                                       kCheckTimeout * opt_.timeout_multiplier);
  if (!ref.ok()) return "the baseline's reference run failed: " + ref.reason;
  Verification v;
  compare_check_outputs(ref.body, json{{"outputs", outputs}}, tolerance_, v);
  if (v.unwritten > 0) return fmt::format("{} output elements were never written", v.unwritten);
  if (v.mismatches > 0)
    return fmt::format("{} of {} output elements differ from the baseline's for the same inputs (max rel err {:.3g})",
                       v.mismatches, v.compared, v.max_rel_error);
  return "";
}

void TargetRun::replay() {
  if (baseline_failed()) return;
  uint64_t replay_seed = rng_();
  for (auto& l : live_) {
    if (l.failed) continue;
    progress(l.result->name, "replay");
    Reply r = l.worker->request({{"op", "replay"}, {"seed", replay_seed}, {"dir", dump_dir(l).string()}, {"tag", "replay"}},
                                kCheckTimeout * opt_.timeout_multiplier);
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
      std::string why = compare_with_baseline(replay_seed, r.body.at("outputs"), "replay_ref");
      if (why.empty()) l.evidence["K10"] = "one run() captured into a graph and replayed on fresh inputs: outputs verified";
      else l.findings.add("K10", "the captured run() replayed on fresh inputs is wrong: " + why +
                                 " (work outside the harness stream's graph, or a cached result)");
    } catch (const std::exception& e) {
      l.findings.add("K10", std::string("replay outputs could not be compared: ") + e.what());
    }
  }
}

}  // namespace aisp
