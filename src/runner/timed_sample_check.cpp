#include "runner/timed_sample_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "core/output_comparison.hpp"

namespace aisp {
namespace {

struct OutputTolerances {
  std::vector<ProjectionTolerance> tol;
  std::vector<std::string> names;
};

OutputTolerances output_tolerances(const json& buffers, const ToleranceChoice& pair) {
  OutputTolerances out;
  for (auto& b : buffers) {
    if (b.value("kind", "") != "output") continue;
    DType dt = *dtype_from_name(b.at("dtype").get<std::string>());
    ToleranceValues t = default_tolerance(dt);
    if (pair.rtol >= 0) t.rtol = pair.rtol;
    if (pair.atol >= 0) t.atol = pair.atol;
    int64_t count = 1;
    for (auto& d : b.at("shape")) count *= d.get<int64_t>();
    out.tol.push_back({t.rtol, t.atol, count});
    out.names.push_back(b.at("name").get<std::string>());
  }
  return out;
}

// The sample indices some variant ran and the baseline did not, capped by the reference budget (a
// random subset when over it).
std::vector<int64_t> references_needed(const std::vector<LiveVariant>& live, const TimedSampleCheck& c,
                                       std::mt19937_64& rng) {
  std::set<int64_t> missing;
  for (size_t i = 1; i < live.size(); ++i)
    for (auto& [k, p] : live[i].projections)
      if (!live[0].projections.contains(k)) missing.insert(k);
  std::vector<int64_t> all(missing.begin(), missing.end());
  double base_ms = std::max(live[0].result->timing.median, 1e-4);
  auto affordable = std::max<int64_t>(c.min_references, static_cast<int64_t>(c.reference_budget_s * 1000.0 / base_ms));
  if (static_cast<int64_t>(all.size()) <= affordable) return all;
  std::vector<int64_t> chosen;
  std::sample(all.begin(), all.end(), std::back_inserter(chosen), affordable, rng);
  return chosen;
}

}  // namespace

void verify_timed_samples(std::vector<LiveVariant>& live, const TimedSampleCheck& c, std::mt19937_64& rng) {
  LiveVariant& base = live[0];
  if (base.failed || base.projections.empty()) return;
  OutputTolerances tol = output_tolerances(base.buffers, c.tolerance);
  std::map<int64_t, SampleProjection> reference = base.projections;
  std::vector<int64_t> extra = references_needed(live, c, rng);
  std::string reference_error;
  if (!extra.empty()) {
    double timeout = 60 + 20.0 * extra.size() * base.result->timing.median / 1000.0;
    Reply r = base.worker->request(to_json(ReferenceRequest{extra, c.sample_seed, c.projection_key}),
                                   timeout * c.timeout_multiplier);
    if (!r.ok()) {
      reference_error = r.reason;
    } else {
      try {
        json p = parse_reference_reply(r.body).projections;
        for (size_t i = 0; i < extra.size() && i < p.size(); ++i) reference[extra[i]] = sample_projection_from_json(p[i]);
      } catch (const ProtocolError& e) {
        reference_error = e.what();
      }
    }
  }
  for (size_t i = 1; i < live.size(); ++i) {
    LiveVariant& l = live[i];
    if (l.failed || l.projections.empty()) continue;
    int64_t verified = 0, mismatched = 0;
    for (auto& [k, p] : l.projections) {
      auto ref = reference.find(k);
      if (ref == reference.end()) continue;
      ++verified;
      if (auto why = projection_mismatch(ref->second, p, tol.tol, tol.names)) {
        ++mismatched;
        l.findings.add("K21", fmt::format("timed sample {}: {}", k, *why));
      }
    }
    l.result->timed_verified = verified;
    std::string coverage = fmt::format("{} of {} timed samples verified against the baseline's outputs for the same "
                                       "inputs (output projections, per sample)", verified, l.projections.size());
    if (verified < static_cast<int64_t>(l.projections.size()))
      coverage += reference_error.empty()
                      ? "; the rest exceed the baseline's reference budget, and those verified among them were "
                        "chosen at random after sampling"
                      : "; the baseline's reference runs failed: " + reference_error;
    if (mismatched) l.findings.add("K21", fmt::format("{} of {} verified timed samples differ from the baseline's "
                                                      "outputs", mismatched, verified));
    l.evidence["K21"] = coverage;
  }
}

}  // namespace aisp
