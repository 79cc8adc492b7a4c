#include "runner/variant_goal.hpp"

#include <fmt/format.h>

#include <sstream>

namespace aisp {

void append_note(std::string& note, const std::string& clause) { note += (note.empty() ? "" : "; ") + clause; }

namespace {
constexpr const char* kInformationalClause = "informational (";                    // apply_goal's clause starts so
constexpr const char* kPowerCapClause = "kept samples at the software power cap";  // note_power_capped's contains
}  // namespace

std::string without_verdict_clauses(const std::string& note) {
  std::string out, clause;
  std::istringstream in(note);
  while (std::getline(in, clause, ';')) {
    if (!clause.empty() && clause.front() == ' ') clause.erase(0, 1);
    if (clause.empty() || clause.rfind(kInformationalClause, 0) == 0 || clause.find(kPowerCapClause) != std::string::npos)
      continue;
    append_note(out, clause);
  }
  return out;
}

void note_power_capped(VariantResult& v) {
  if (v.power_capped == 0) return;
  append_note(v.timing_note, fmt::format("{} of {} {} (SM clock >= 75% of max): a power-limited steady state", v.power_capped,
                                         v.samples_ms.size(), kPowerCapClause));
}

void apply_goal(VariantResult& v, Verdict verdict, const Interval& ci, double min_speedup, bool memory_goal) {
  bool ok = memory_goal ? v.memory_savings_pct > 0 : verdict == Verdict::faster;
  if (ok) return;
  if (!v.informational.empty()) {
    append_note(v.timing_note,
                fmt::format("{}{}): {} at {:.3f}x, not a failure", kInformationalClause, v.informational, v.verdict, ci.point));
    return;
  }
  v.status = status::failed_no_speedup;
  v.error = memory_goal ? "no peak-memory saving"
                        : fmt::format("speedup {:.3f}x, 95% CI [{:.3f}, {:.3f}]: {} (needs CI above {:.2f}x)", ci.point, ci.low,
                                      ci.high, v.verdict, min_speedup);
}

}  // namespace aisp
