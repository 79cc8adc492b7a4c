// What a variant's verdict means for its status: the goal met, or failed_no_speedup, or a note for an
// informational variant. Shared by the verdict phase and the pooling of request-trace replicates.
#pragma once
#include <string>

#include "core/result.hpp"
#include "core/verdict.hpp"

namespace aisp {

// A variant that did not meet its goal: failed_no_speedup, or a note for an informational variant (its
// measured verdict stays; only the reason the author gave changes, never the statistics).
void apply_goal(VariantResult& v, Verdict verdict, const Interval& ci, double min_speedup, bool memory_goal);

// Says in the variant's timing note how many kept samples ran at the software power cap, so a number
// taken at the power limit is never presented as an unconstrained one.
void note_power_capped(VariantResult& v);

// `note` without the clauses apply_goal and note_power_capped wrote (for a verdict decided again, e.g. over
// pooled request traces).
std::string without_verdict_clauses(const std::string& note);

// Appends one clause to a timing note ("a; b").
void append_note(std::string& note, const std::string& clause);

}  // namespace aisp
