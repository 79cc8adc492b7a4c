#include "runner/rank_judging.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace aisp {
namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string mismatch_text(const Verification& v) {
  if (v.unwritten > 0) return fmt::format("{} elements never written (poison survived)", v.unwritten);
  if (v.mismatches > 0)
    return fmt::format("{} of {} elements differ{}", v.mismatches, v.compared,
                       v.output.empty() ? "" : " in '" + v.output + "'");
  return v.output.empty() ? "the comparison failed" : "the comparison failed: " + v.output;
}

RankJudgement judged(std::vector<RankFinding> findings, const std::vector<RankResult>& ranks) {
  RankJudgement j;
  j.findings = std::move(findings);
  j.valid = j.findings.empty();
  if (j.valid) {
    j.samples_ms = slowest_rank_samples(ranks);
    j.slowest_rank = slowest_rank(ranks);
  }
  return j;
}

}  // namespace

std::string RankJudgement::reason() const {
  std::vector<std::string> parts;
  for (const RankFinding& f : findings) parts.push_back(f.detail);
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::vector<double> slowest_rank_samples(const std::vector<RankResult>& ranks) {
  if (ranks.empty()) return {};
  size_t steps = ranks.front().samples_ms.size();
  for (const RankResult& r : ranks) steps = std::min(steps, r.samples_ms.size());
  std::vector<double> out(steps, 0.0);
  for (const RankResult& r : ranks)
    for (size_t k = 0; k < steps; ++k) out[k] = std::max(out[k], r.samples_ms[k]);
  return out;
}

int slowest_rank(const std::vector<RankResult>& ranks) {
  int best = -1;
  double worst = -1;
  for (const RankResult& r : ranks) {
    if (r.samples_ms.empty()) continue;
    double m = median_of(r.samples_ms);
    if (m > worst) worst = m, best = r.rank;
  }
  return best;
}

std::vector<RankFinding> rank_set_findings(const std::vector<RankResult>& ranks, int world_size, const std::string& who) {
  std::vector<RankFinding> out;
  std::map<int, int> seen;
  for (const RankResult& r : ranks) ++seen[r.rank];
  for (int k = 0; k < world_size; ++k)
    if (!seen.count(k)) out.push_back({"ranks", k, fmt::format("{}: rank {} of {} reported nothing", who, k, world_size)});
  for (const auto& [rank, count] : seen) {
    if (rank < 0 || rank >= world_size)
      out.push_back({"ranks", rank, fmt::format("{}: rank {} is outside the plan's world of {}", who, rank, world_size)});
    else if (count > 1) out.push_back({"ranks", rank, fmt::format("{}: rank {} reported {} times", who, rank, count)});
  }
  for (const RankResult& r : ranks) {
    if (r.world_size != world_size)
      out.push_back(
          {"ranks", r.rank,
           fmt::format("{}: rank {} claims a world of {}, the plan launched {}", who, r.rank, r.world_size, world_size)});
    if (r.samples_ms.empty())
      out.push_back({"ranks", r.rank, fmt::format("{}: rank {} reported no timed samples (skipped its share?)", who, r.rank)});
  }
  return out;
}

RankJudgement judge_variant_ranks(const std::vector<RankResult>& variant, int world_size, const std::string& who) {
  std::vector<RankFinding> findings = rank_set_findings(variant, world_size, who);
  for (const RankResult& r : variant) {
    if (!r.outputs_compared)
      findings.push_back({"K2", r.rank,
                          fmt::format("{}: rank {}'s outputs were never compared with the baseline's "
                                      "rank {}",
                                      who, r.rank, r.rank)});
    else if (!r.verification.passed)
      findings.push_back({"K2", r.rank,
                          fmt::format("{}: rank {}'s outputs differ from the baseline's rank {}: {}", who, r.rank, r.rank,
                                      mismatch_text(r.verification))});
  }
  return judged(std::move(findings), variant);
}

RankJudgement judge_baseline_ranks(const std::vector<RankResult>& baseline, int world_size) {
  return judged(rank_set_findings(baseline, world_size, "baseline"), baseline);
}

}  // namespace aisp
