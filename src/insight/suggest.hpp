// `aisp ai suggest [<target>]`: the next optimizations to try, ranked. Each target's bottleneck comes from
// the ncu decision tree when a profile of its best measured variant is stored, else from where the
// measured time puts it on the roofline (declared bytes/FLOPs against the measured ceilings). The rows of
// the optimization-patterns table for those bottlenecks are scored priority x headroom (x the finding's
// severity), and fixes a measured variant already applies (its technique text carries the fix's tag) are
// listed as done, not suggested.
#pragma once
#include <map>

#include "analysis/stacking.hpp"
#include "insight/answer.hpp"
#include "insight/evidence.hpp"
#include "insight/patterns.hpp"

namespace aisp::insight {

struct SuggestTables {
  const PatternTable& patterns;
  const analysis::TagVocabulary& tags;
};

// `targets` empty: every target of the run. `top`: the number of suggestions kept (0 = all).
Answer suggest(const RunEvidence& run, const std::map<std::string, std::vector<ProfileEvidence>>& profiles,
               const std::vector<std::string>& targets, const SuggestTables& tables, size_t top);

// The roofline bottleneck id of one measured variant: off_roof (< 5% of its roof) | memory_far_from_roof |
// memory_bound | memory_near_roof | compute_far_from_roof | compute_bound | compute_near_roof (thresholds 50%
// and 80% of the roof) | unplaced (no declared bytes/FLOPs or ceilings).
std::string roofline_bottleneck(const analysis::VariantRow& row);

}  // namespace aisp::insight
