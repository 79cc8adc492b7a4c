// JSON forms of every analysis result: what `--json`, the dashboard's REST API and the MCP server print.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "analysis/leaderboards.hpp"
#include "analysis/power_cost.hpp"
#include "analysis/scaling_history.hpp"
#include "analysis/sizing_utils.hpp"
#include "analysis/stacking.hpp"
#include "analysis/whatif.hpp"

namespace aisp::analysis {

json to_json(const RooflineCeilings& c);
json to_json(const Energy& e);
json to_json(const VariantRow& r);
json to_json(const Leaderboards& b);
json to_json(const ParetoPoint& p);
json to_json(const Tradeoff& t);
json to_json(const Recommendation& r);
json to_json(const Analysis& a);
json to_json(const WhatIf& w);
json to_json(const Stacking& s);
json to_json(const Power& p);
json to_json(const Cost& c);
json to_json(const Scaling& s);
json to_json(const KvCache& k);
json to_json(const CostPerToken& c);
json to_json(const std::map<std::string, std::vector<HistoryPoint>>& h);

}  // namespace aisp::analysis
