#include "runner/pair_contract.hpp"

#include <fmt/format.h>

#include "core/output_comparison.hpp"
#include "core/json_io.hpp"
#include "core/schema.hpp"
#include "core/tolerance_contract.hpp"

namespace aisp {

ToleranceChoice pair_tolerance(const LiveVariant& baseline) {
  Tolerance t = tolerance_from_json(baseline.ready.at("tolerance"));
  ToleranceChoice c;
  // Without a justification a tolerance is the dtype default, whatever numbers came with it.
  if (!t.justification.empty()) c = {t.rtol, t.atol, t.justification};
  return c;
}

void check_tolerance_declarations(std::vector<LiveVariant>& live) {
  Tolerance pair = tolerance_from_json(live[0].ready.at("tolerance"));
  for (size_t i = 1; i < live.size(); ++i) {
    LiveVariant& l = live[i];
    if (l.failed) continue;
    std::string diff = tolerance_difference(pair, tolerance_from_json(l.ready.at("tolerance")));
    if (diff.empty()) {
      l.evidence["K23"] = "declares the pair's tolerance (the baseline's)";
      continue;
    }
    std::string why = "the variant declares its own tolerance (" + diff +
                      "): a tolerance belongs to the pair's shared workload, and a variant may not loosen it";
    l.findings.add("K23", why);
    fail(l, "validity", why, status::invalid);
  }
}

std::optional<std::string> loose_tolerance_reason(const std::vector<OutputView>& base_outputs, const OutputReader& reader,
                                                  const ToleranceChoice& tol, DType precision, std::string* note) {
  if (tol.justification.empty()) return std::nullopt;  // dtype defaults are strict by construction
  std::optional<DType> refuse = rounding_to_refuse(precision);
  if (!refuse) return std::nullopt;
  for (const OutputView& o : base_outputs) {
    DType dt = o.dtype;
    if (dt != DType::f32 && dt != DType::f64) continue;
    ToleranceValues t = default_tolerance(dt);
    if (tol.rtol >= 0) t.rtol = tol.rtol;
    if (tol.atol >= 0) t.atol = tol.atol;
    std::string bytes = reader.host_bytes(o);
    int64_t count = static_cast<int64_t>(bytes.size() / dtype_size(dt));
    RoundingProbe p = probe_rounding(bytes.data(), count, dt, t, *refuse);
    if (p.admits())
      return fmt::format("the pair's tolerance (rtol {:g}, atol {:g}) accepts the baseline's own output '{}' rounded "
                         "to {} ({} of {} elements changed, all within tolerance), but the workload declares {} "
                         "precision: a variant computing in {} would pass. Declare the precision or tighten it.",
                         t.rtol, t.atol, o.name, dtype_name(*refuse), p.changed, p.elements,
                         dtype_name(precision), dtype_name(*refuse));
    RoundingProbe half = probe_rounding(bytes.data(), count, dt, t, DType::f16);
    if (note && half.admits())
      *note = fmt::format("the pair's tolerance would also accept output '{}' rounded to fp16",
                          o.name);
  }
  return std::nullopt;
}

void refuse_loose_tolerance(std::vector<LiveVariant>& live, const std::vector<OutputView>& base_outputs,
                            const OutputReader& reader, const ToleranceChoice& tol, DType precision) {
  std::string note;
  std::optional<std::string> why = loose_tolerance_reason(base_outputs, reader, tol, precision, &note);
  for (size_t i = 1; i < live.size(); ++i) {
    LiveVariant& l = live[i];
    if (!note.empty()) l.result->timing_note += (l.result->timing_note.empty() ? "" : "; ") + note;
    if (!why) {
      if (!tol.justification.empty())
        l.evidence["K23"] += "; the loosened tolerance rejects the baseline's output rounded to bf16";
      continue;
    }
    l.findings.add("K23", *why);
    if (!l.failed) fail(l, "validity", *why, status::invalid);
  }
}

void check_input_sensitivity(std::vector<LiveVariant>& live, uint64_t seed, uint64_t alt_seed, double timeout_s) {
  std::vector<json> changed(live.size());
  for (size_t i = 0; i < live.size(); ++i) {
    LiveVariant& l = live[i];
    if (l.failed) continue;
    Reply r = l.worker->request(to_json(SensitivityRequest{seed, alt_seed}), timeout_s);
    if (!r.ok()) {
      fail(l, r, "sensitivity round");
      continue;
    }
    auto s = parse_reply(l, r, parse_sensitivity_reply, "sensitivity round");
    if (s) changed[i] = s->changed;
  }
  if (live[0].failed || !changed[0].is_object()) return;
  std::vector<std::string> followed;
  for (auto& [name, moved] : changed[0].items())
    if (moved.get<bool>()) followed.push_back(name);
  for (size_t i = 1; i < live.size(); ++i) {
    LiveVariant& l = live[i];
    if (l.failed || !changed[i].is_object()) continue;
    std::string ignored;
    for (auto& name : followed)
      if (!changed[i].value(name, false)) ignored += (ignored.empty() ? "'" : ", '") + name + "'";
    if (ignored.empty()) {
      l.evidence["K5"] = fmt::format("each input has its own random stream; refilling each of the {} inputs the "
                                     "baseline's outputs follow changed this variant's outputs too", followed.size());
      continue;
    }
    l.findings.add("K5", "the outputs ignore input " + ignored +
                             ", which the baseline's outputs follow: the variant does not compute from all its inputs");
  }
}

}  // namespace aisp
