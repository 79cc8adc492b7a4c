// `aisp ai ask "<question>"`: rule-based selection of stored facts for a question. The question is read
// for targets (a target id, a chapter `chNN`, or an example name as a whole word) and topics (keywords:
// why/faster -> verdicts, roofline/bandwidth -> roofline placement, next/improve -> suggestions,
// best/fastest -> a ranking by CI low end, invalid/failed -> status, energy/power -> energy per run). The
// answer is only those facts, each citing its run or profile; nothing is generated.
#pragma once
#include <set>

#include "insight/suggest.hpp"

namespace aisp::insight {

struct Question {
  std::vector<std::string> targets;  // from the known target ids, in the order found
  std::set<std::string> topics;      // explain | roofline | suggest | rank | status | energy
};
Question parse_question(const std::string& question, const std::vector<std::string>& known_targets);

Answer ask(const std::string& question, const Question& parsed, const RunEvidence& run,
           const std::map<std::string, std::vector<ProfileEvidence>>& profiles, const SuggestTables& tables);

}  // namespace aisp::insight
