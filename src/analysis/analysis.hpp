// The analysis engine: what a set of measured results says beyond each verdict. Leaderboards, the
// speed/memory Pareto frontier, what-if constraints, technique stacking, power, cost and scaling. Plain
// functions over `TargetResult`s returning structs with a JSON form, so the CLI (`aisp bench
// analyze|whatif|...`), the dashboard's REST API and the MCP server print the same numbers. The
// HTML/Markdown/CSV reports over them are printers in src/report/analysis_report.hpp: analysis never
// depends on report.
//
// Rules every function keeps:
//  - it uses measured numbers only (medians, CIs, peak memory, energy counters); where a figure needs
//    data a run does not have (energy, a workload axis, a FLOP count), the result says so in `notes`
//    instead of estimating it silently;
//  - an INVALID or failed variant is never ranked as a win (it appears in `excluded` with the reason);
//  - every ceiling or price carries its source string, printed next to the figure.
// Formulas and the meaning of each field: docs/analysis.md.
#pragma once
// One header per concept; this one includes them all for callers that use several.
#include "analysis/dataset.hpp"
#include "analysis/leaderboards.hpp"
#include "analysis/measured_number.hpp"
#include "analysis/power_cost.hpp"
#include "analysis/scaling_history.hpp"
#include "analysis/sizing_utils.hpp"
#include "analysis/stacking.hpp"
#include "analysis/to_json.hpp"
#include "analysis/variant_metrics.hpp"
#include "analysis/whatif.hpp"
