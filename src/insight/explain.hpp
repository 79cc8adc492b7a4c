// `aisp ai explain <target>`: why the optimized variants are faster or not, from the stored run (verdict,
// speedup CI, medians), the roofline placement of the measured time against the declared bytes/FLOPs and
// the measured ceilings, and — when stored — the ncu counters and the decision tree's bottleneck per
// variant. Data that would sharpen the answer but is not stored is named in `missing`, with the command
// that collects it.
#pragma once
#include "insight/answer.hpp"
#include "insight/evidence.hpp"

namespace aisp::insight {

Answer explain(const RunEvidence& run, const std::vector<ProfileEvidence>& profiles, const std::string& target);

// The facts explain states for one target (also what `ask` selects from).
std::vector<Fact> verdict_facts(const RunEvidence& run, const std::string& target);
std::vector<Fact> roofline_facts(const RunEvidence& run, const std::string& target);
std::vector<Fact> counter_facts(const std::vector<ProfileEvidence>& profiles, const std::string& target);

// Number formats the answers share: "536.9 MB", "2858 GB/s", "1.169 ms".
std::string bytes_text(double bytes);
std::string rate_text(double bytes_per_s);
std::string ms_text(double ms);

}  // namespace aisp::insight
