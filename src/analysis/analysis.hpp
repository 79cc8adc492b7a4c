// The analysis engine: what a set of measured results says beyond each verdict. Leaderboards, the
// speed/memory Pareto frontier, what-if constraints, technique stacking, power, cost and scaling, plus the
// HTML/Markdown report. Plain functions over `TargetResult`s returning structs with a JSON form, so the
// CLI (`aisp bench analyze|whatif|...`), the dashboard's REST API and the MCP server print the same numbers.
//
// Rules every function keeps:
//  - it uses measured numbers only (medians, CIs, peak memory, energy counters); where a figure needs
//    data a run does not have (energy, a workload axis, a FLOP count), the result says so in `notes`
//    instead of estimating it silently;
//  - an INVALID or failed variant is never ranked as a win (it appears in `excluded` with the reason);
//  - every ceiling or price carries its source string, printed next to the figure.
// Formulas and the meaning of each field: docs/analysis.md.
#pragma once
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "aisp/device_info.hpp"
#include "core/result.hpp"
#include "store/store.hpp"

namespace aisp::analysis {

using json = nlohmann::json;
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline bool known(double v) { return std::isfinite(v); }

// ------------------------------------------------------------------------------------------ inputs

// Numeric series per target, variant and metric (telemetry the store or results file carries beside the
// timings: power_w, energy_mj, sm_mhz ...). target -> variant -> metric -> values.
using Telemetry = TelemetrySeries;

// The GPU a run was measured on, and where roofline ceilings come from.
struct Hardware {
  std::string gpu_model, hardware_key;
  DeviceInfo device;           // from the run manifest's gpus[0]; zeros when the run had no manifest
  double power_limit_w = kNaN;
  json capabilities;           // hardware_capabilities_<hwkey>.json (measured ceilings), or null
  std::string capabilities_path;
};

// One stored run: its identity, targets and telemetry.
struct RunData {
  int64_t id = 0;  // store row id; 0 for a results file
  std::string key, stamp, label, mode, git_commit, hardware_key, gpu_model;
  std::vector<TargetResult> targets;
  Telemetry telemetry;
  json manifest;  // null when not available
};

// What the commands analyse: the chosen run (`runs.back()`) and, from a store, the earlier runs of the same
// hardware for history and scaling.
struct Dataset {
  std::vector<RunData> runs;  // oldest first; never empty after a successful load
  Hardware hardware;          // of runs.back()
  std::string source;         // "store artifacts/aisp.db, run 3 (20261122_...)" or "file <path>"
  const RunData& current() const { return runs.back(); }
};

// From a store: `run_spec` as Store::resolve_run accepts ("latest", an id, a key or prefix); `history_runs`
// earlier runs of the same hardware key are loaded too (0 = only the chosen run).
Dataset load_store(const std::filesystem::path& db, const std::string& run_spec = "latest", size_t history_runs = 50);
// A run loaded through Store::load_runs, as the analyses read it.
RunData run_data_of(StoredRun run);
// From a results file or a run directory (manifest.json beside it is used when present).
Dataset load_file(const std::filesystem::path& results_or_run_dir);
// Looks for hardware_capabilities_<hwkey>.json: `explicit_path` when given, else in each of `dirs`.
// Fills hw.capabilities/capabilities_path; returns false when none was found.
bool attach_capabilities(Hardware& hw, const std::string& explicit_path, const std::vector<std::filesystem::path>& dirs);

// Options shared by the per-variant derivations.
struct Context {
  Hardware hardware;
  Telemetry telemetry;  // of the analysed run
};
Context context_of(const Dataset& d);

// ------------------------------------------------------------------------------------------ per variant

// Roofline ceilings for one precision: measured ones (hardware_capabilities) when present, else computed
// from device properties. `source` says which, and is empty when neither is known.
struct RooflineCeilings {
  double dram_bytes_per_s = kNaN;
  double flops_per_s = kNaN;
  std::string bandwidth_source, compute_source;
  bool measured_bandwidth = false, measured_compute = false;
};
RooflineCeilings roofline_ceilings(const Hardware& hw, const std::string& precision);

// Energy of one run() of a variant, from NVML energy counters. `present` is false (and `why` says so) when
// the run recorded no energy. Sources, first found wins: the variant's "energy" summary the harness writes
// (core/energy.hpp: board energy over the timed blocks; in cold mode an estimate, see gpu_busy_fraction),
// then per-run energy series in the telemetry (energy_per_run_j/_mj, or energy_j/_mj with energy_runs).
struct Energy {
  bool present = false;
  double joules_per_run = kNaN, avg_power_w = kNaN;
  double gpu_busy_fraction = kNaN;  // GPU event time / wall time of the blocks the energy was read over
  std::string source, why;
};
Energy energy_of(const Telemetry& t, const std::string& target, const std::string& variant, double median_ms);
// From the harness's per-variant energy summary ({"joules", "wall_s", "gpu_busy_s", "mean_power_w",
// "joules_per_run", "method"}); present=false when `summary` is not such an object.
Energy energy_from_summary(const json& summary);

// One measured variant (the baseline included) with everything the analyses derive from it.
struct VariantRow {
  std::string target, variant, technique, status, verdict, goal, mode, precision, item_unit;
  bool baseline = false;
  bool usable = false;          // succeeded and not INVALID: may be ranked
  std::string unusable_reason;  // when !usable
  double median_ms = kNaN, p99_ms = kNaN, rel_noise = kNaN;
  int64_t samples = 0;
  double flops = kNaN, bytes = kNaN, items = kNaN;  // per run(), as the workload declares them (NaN: not declared)
  double speedup = kNaN, ci_low = kNaN, ci_high = kNaN;  // 1 for the baseline
  double peak_mb = kNaN, allocated_mb = kNaN, memory_savings_pct = kNaN;
  double items_per_s = kNaN, bytes_per_s = kNaN, flops_per_s = kNaN;
  double arithmetic_intensity = kNaN;  // FLOP per DRAM byte (declared workload); NaN when no FLOPs declared
  double roofline_pct = kNaN;          // achieved / attainable at this intensity, in %
  std::string bound;                   // "memory" | "compute" | "" (unknown)
  Energy energy;
  json params;                         // the workload's params
};
std::vector<VariantRow> variant_rows(const std::vector<TargetResult>& targets, const Context& ctx = {});

// ------------------------------------------------------------------------------------------ analyze

struct LeaderboardEntry {
  std::string target, variant, technique, verdict;
  double value = kNaN, low = kNaN, high = kNaN;  // the ranked figure (and its CI where it has one)
  std::string unit, detail;
};
struct Leaderboards {
  std::vector<LeaderboardEntry> speed;       // speedup, ranked by the CI's lower end (a defensible order)
  std::vector<LeaderboardEntry> memory;      // peak-memory saving vs the baseline, %
  std::vector<LeaderboardEntry> throughput;  // items/s per item unit, baselines included
  std::vector<LeaderboardEntry> roofline;    // % of the attainable roofline, baselines included
  std::vector<std::string> excluded;         // "<target> <variant>: <why>"
};
Leaderboards leaderboards(const std::vector<VariantRow>& rows, size_t top_n = 10);

// Generic 2-D Pareto frontier: indices of the points no other point dominates when both coordinates are
// maximised (a point dominates when it is >= in both and > in one). Ties are all kept. Order: by x.
std::vector<size_t> pareto_indices(const std::vector<std::pair<double, double>>& points);

struct ParetoPoint {
  std::string target, variant, technique;
  double speedup = kNaN, memory_savings_pct = kNaN, peak_mb = kNaN;
  bool on_frontier = false;
};
// Optimized variants on (speedup, memory saving); all usable ones are returned, the frontier flagged.
std::vector<ParetoPoint> pareto(const std::vector<VariantRow>& rows);

struct Tradeoff {
  std::string target, variant, kind;  // "faster, more memory" | "less memory, slower"
  double speedup = kNaN, memory_savings_pct = kNaN;
  std::string text;
};
std::vector<Tradeoff> tradeoffs(const std::vector<VariantRow>& rows);

struct Recommendation {
  std::string goal, target, variant, why;
};
// Per target, the variant to pick for a goal. goal: "speed" (highest CI lower end among FASTER variants),
// "latency" (lowest p99), "memory" (lowest peak memory among variants that are not SLOWER), "" (all three).
std::vector<Recommendation> recommendations(const std::vector<VariantRow>& rows, const std::string& goal = "");

struct Analysis {
  std::vector<VariantRow> rows;
  Leaderboards boards;
  std::vector<ParetoPoint> pareto;
  std::vector<Tradeoff> tradeoffs;
  std::vector<Recommendation> recommendations;
  RooflineCeilings ceilings_note;  // of the first precision seen, for the header line
  std::vector<std::string> notes;
};
Analysis analyze(const std::vector<TargetResult>& targets, const Context& ctx = {}, size_t top_n = 10);

// ------------------------------------------------------------------------------------------ what-if

struct WhatIfConstraints {
  double max_vram_gb = kNaN;       // measured peak memory must be <= this (GiB of 2^30 bytes)
  double max_latency_ms = kNaN;    // the chosen latency statistic must be <= this
  std::string latency_stat = "p99";  // "median" | "p99"
  double min_throughput = kNaN;    // items/s (the workload's item unit)
  double min_speedup = kNaN;
};
struct WhatIfRow {
  VariantRow row;
  bool fits = false;
  std::vector<std::string> violations;  // why it does not fit
};
struct WhatIf {
  WhatIfConstraints constraints;
  std::vector<WhatIfRow> fits, rejected;  // fits: by target, then fastest first
  std::vector<std::string> best_per_target;  // "<target>: <variant> (<median> ms, <peak> MiB)"
};
WhatIf whatif(const std::vector<VariantRow>& rows, const WhatIfConstraints& c);

// ------------------------------------------------------------------------------------------ stacking

// Technique tags: a vocabulary (tag -> keywords matched in technique() text, and declared conflicts).
// Variants do not declare tags in the Benchmark API yet, so tags are derived from the technique line.
struct TagVocabulary {
  struct Tag {
    std::string name, description;
    std::vector<std::string> keywords;  // lower-case substrings of technique() text
  };
  std::vector<Tag> tags;
  std::vector<std::pair<std::string, std::string>> conflicts;
  std::map<std::string, std::string> conflict_reasons;  // "a|b" -> why they cannot stack
  std::string source;
};
TagVocabulary vocabulary_from_json(const json& doc, const std::string& source);
std::vector<std::string> tags_for(const TagVocabulary& v, const std::string& technique);

struct StackingCell {
  std::string a, b;
  std::string state;  // "measured" | "conflict" | "untested"
  std::vector<std::string> variants;  // variants that carry both tags
  double best_speedup = kNaN;
  std::string reason;  // conflict reason
};
struct Stacking {
  std::vector<std::string> tags;  // tags seen in the data, sorted
  std::map<std::string, std::vector<std::string>> variants_by_tag;
  std::map<std::string, double> best_speedup_by_tag;
  std::vector<StackingCell> cells;  // upper triangle incl. the diagonal, row-major over `tags`
  std::vector<std::string> untagged;  // variants whose technique matched no tag
  std::vector<std::string> notes;
};
Stacking stacking(const std::vector<VariantRow>& rows, const TagVocabulary& vocabulary);

// ------------------------------------------------------------------------------------------ power

struct PowerRow {
  std::string target, variant;
  Energy energy;
  double ops_per_joule = kNaN;    // FLOP per joule (= FLOP/s per W) when FLOPs are declared
  double items_per_joule = kNaN;
  double bytes_per_joule = kNaN;
  double energy_saving_pct = kNaN;  // vs the baseline's energy per run
};
struct Power {
  std::vector<PowerRow> rows;     // with energy first (by items per joule), then the rest
  bool any_energy = false;
  std::vector<std::string> notes;
};
Power power(const std::vector<VariantRow>& rows);

// ------------------------------------------------------------------------------------------ cost

// A GPU price file (data/gpu_prices.json): prices per GPU-hour with their source and date.
struct GpuPrice {
  std::string gpu, source, as_of;
  std::vector<std::string> match;  // lower-case substrings of a GPU model name
  double usd_per_hour = kNaN;
};
struct PriceTable {
  std::vector<GpuPrice> prices;
  std::string source;
};
PriceTable price_table_from_json(const json& doc, const std::string& source);
// The entry for a GPU name ("H100", "NVIDIA H100 80GB HBM3"): exact name first, then the longest match.
std::optional<GpuPrice> find_price(const PriceTable& t, const std::string& gpu);

struct CostRow {
  std::string target, variant;
  double median_ms = kNaN;
  double usd_per_op = kNaN, usd_per_million_ops = kNaN;
  double usd_per_million_items = kNaN;
  double baseline_usd_per_million_ops = kNaN;
  double saving_pct = kNaN;  // 1 - optimized/baseline cost = 1 - 1/speedup
  double usd_saved_per_million_ops = kNaN;
  std::string item_unit;
};
struct Cost {
  std::string gpu, rate_source, measured_on;
  double usd_per_hour = kNaN;
  std::vector<CostRow> rows;  // optimized variants, largest saving per million ops first
  std::vector<std::string> notes;
};
// `gpu` empty: the measured GPU's entry. `rate_override` (USD/GPU-hour) wins over the file when known().
Cost cost(const std::vector<VariantRow>& rows, const PriceTable& prices, const std::string& gpu,
          const std::string& measured_gpu, double rate_override = kNaN, size_t top_n = 0);

// ------------------------------------------------------------------------------------------ scaling

struct ScalingPoint {
  double x = kNaN;  // the axis value
  std::string run;  // run key (or "" within one run)
  double baseline_ms = kNaN, variant_ms = kNaN, speedup = kNaN, ci_low = kNaN, ci_high = kNaN;
};
struct ScalingSeries {
  std::string target, variant, axis;
  json fixed_params;  // the params that stay constant along the axis
  std::vector<ScalingPoint> points;  // by x
  // Fits over log2(x): speedup = a + b*log2(x) (b = change per doubling) and time ~ x^k (log-log slopes).
  double speedup_per_doubling = kNaN, speedup_intercept = kNaN, speedup_r2 = kNaN;
  double baseline_exponent = kNaN, variant_exponent = kNaN;
  std::string trend;  // "grows" | "shrinks" | "flat" (|change over the range| < the CIs' half-width)
};
struct Scaling {
  std::vector<ScalingSeries> series;
  std::vector<std::string> single_point;  // "<target> <variant>": measured at one workload size only
  std::vector<std::string> notes;
};
Scaling scaling(const std::vector<RunData>& runs);

// ------------------------------------------------------------------------------------------ history

struct HistoryPoint {
  std::string run, stamp;
  double speedup = kNaN, ci_low = kNaN, ci_high = kNaN, variant_ms = kNaN;
};
// Per "<target> <variant>", oldest first, over the dataset's runs of one hardware key.
std::map<std::string, std::vector<HistoryPoint>> speedup_history(const std::vector<RunData>& runs);

// ------------------------------------------------------------------------------------------ utilities

struct KvCacheInput {
  int64_t layers = 0, hidden = 0, tokens = 0, batch = 1;
  int64_t heads = 0, kv_heads = 0;  // grouped-query attention: K/V width = hidden * kv_heads / heads
  std::string dtype = "fp16";
};
struct KvCache {
  int64_t kv_width = 0;        // per layer, per token, for K (and again for V)
  double bytes_per_element = 0;
  double bytes_per_token = 0;  // all layers, K and V
  double total_bytes = 0;
  std::string formula;
};
// Throws std::invalid_argument on a non-positive size or an unknown dtype.
KvCache kv_cache(const KvCacheInput& in);

struct CostPerTokenInput {
  double avg_power_w = kNaN, tokens_per_s = kNaN, usd_per_kwh = kNaN;
  double usd_per_gpu_hour = kNaN;  // optional rental rate
};
struct CostPerToken {
  double joules_per_token = kNaN, kwh_per_million_tokens = kNaN;
  double energy_usd_per_million_tokens = kNaN, rental_usd_per_million_tokens = kNaN, total_usd_per_million_tokens = kNaN;
};
CostPerToken cost_per_token(const CostPerTokenInput& in);

// ------------------------------------------------------------------------------------------ report

struct ReportOptions {
  std::string title = "aisp benchmark report";
  std::string author;
  size_t top_n = 20;
  std::optional<PriceTable> prices;         // adds a cost section
  std::optional<TagVocabulary> vocabulary;  // adds a stacking section
};
// One self-contained HTML file: inline CSS and SVG charts, no script, no external resource.
std::string render_html(const Dataset& d, const ReportOptions& o = {});
std::string render_markdown(const Dataset& d, const ReportOptions& o = {});
// One row per measured variant with the derived figures, RFC 4180 quoting.
std::string render_csv(const std::vector<VariantRow>& rows);

// ------------------------------------------------------------------------------------------ JSON forms

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
// NaN and infinities become null: JSON has no NaN, and a missing figure must not read as 0.
json number(double v);

}  // namespace aisp::analysis
