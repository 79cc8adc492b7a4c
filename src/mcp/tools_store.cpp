// The results store and expectations, read in-process (src/store, src/core): aisp_benchmark_runs,
// aisp_benchmark_history, aisp_benchmark_compare_runs, aisp_benchmark_expectations. The store is opened
// read-only for every call, so the server never migrates or locks a database a run is writing.
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "core/expectation_check.hpp"
#include "core/json_io.hpp"
#include "core/verdict.hpp"
#include "mcp/schema.hpp"
#include "mcp/tools.hpp"
#include "report/expectation_reports.hpp"
#include "store/store.hpp"

namespace aisp::mcp {

namespace fs = std::filesystem;
namespace s = schema;

namespace {

Store open_store(const ServerConfig& config) {
  if (!fs::exists(config.db_path))
    throw ToolError(fmt::format("no results store at {} yet: run benchmarks (aisp_run_benchmarks) or store existing "
                                "run directories with `aisp bench ingest <run dir> --db {}`",
                                config.db_path.string(), config.db_path.string()));
  try {
    return Store::open_read_only(config.db_path);
  } catch (const std::exception& e) {
    throw ToolError(e.what());
  }
}

json run_json(const RunInfo& r) {
  return {{"id", r.id}, {"run", r.key}, {"stamp", r.stamp}, {"label", r.label}, {"mode", r.mode},
          {"started_at", r.started_at}, {"git_commit", r.git_commit}, {"git_dirty", r.git_dirty},
          {"hardware_key", r.hardware_key}, {"gpu_model", r.gpu_model}, {"complete", r.complete},
          {"targets", r.targets}, {"run_dir", r.run_dir}};
}

json run_schema() {
  return s::object({{"id", s::integer("Run id in the store", 0, 1LL << 62)},
                    {"run", s::string("Run directory name (<stamp>__bench__<label>)", 512)},
                    {"stamp", s::string("YYYYmmdd_HHMMSS", 32)},
                    {"label", s::string("Run label", 512)},
                    {"mode", s::string("Timing mode: cold, hot or graph", 16)},
                    {"started_at", s::string("Start time", 64)},
                    {"git_commit", s::string("Commit the binary was built from", 64)},
                    {"git_dirty", s::boolean("Uncommitted changes at build time")},
                    {"hardware_key", s::string("GPU hardware key (h100_80gb_hbm3)", 128)},
                    {"gpu_model", s::string("GPU name", 256)},
                    {"complete", s::boolean("False for a run that did not finish (ingested with --partial)")},
                    {"targets", s::integer("Targets in the run", 0, 1 << 30)},
                    {"run_dir", s::string("Where the run's artifacts were ingested from", 4096)}},
                   {"id", "run", "mode", "hardware_key", "complete", "targets"});
}

json ci_schema(const std::string& what) {
  return s::array(what + ": [low, high] of the 95% CI (null when unknown)", s::nullable(s::number("")), 2);
}

json change_json(const std::optional<ChangePoint>& c) {
  if (!c) return nullptr;
  return {{"before_ms", c->before}, {"after_ms", c->after}, {"rel_shift", c->rel_shift}, {"statistic", c->statistic}};
}

json change_schema(const std::string& what) {
  return s::nullable(s::object({{"before_ms", s::number("Median level before")},
                                {"after_ms", s::number("Median level from this run on")},
                                {"rel_shift", s::number("Relative shift (after/before - 1)")},
                                {"statistic", s::number("Shift in standard errors")}},
                               {}, false, what));
}

// A run named by its store id (an integer, as aisp_benchmark_runs lists it, or its digits as a string),
// its directory name, a unique prefix, `latest` or `previous`.
json run_ref_schema(const std::string& description) {
  json sch = s::string(description + ": a run id (integer), a run directory name, a unique prefix of it, `latest` "
                       "or `previous`", 512);
  sch["type"] = json::array({"string", "integer"});
  return sch;
}

std::string run_ref(const json& args, const char* name, const std::string& fallback) {
  auto it = args.find(name);
  if (it == args.end()) return fallback;
  if (it->is_number()) return fmt::format("{}", it->get<long long>());
  return it->is_string() ? it->get<std::string>() : fallback;
}

}  // namespace

std::vector<Tool> store_tools(const ServerConfig& config) {
  std::vector<Tool> tools;

  tools.push_back({"aisp_benchmark_runs", "Stored runs",
                   "Runs in the results store, newest last: id, directory name, commit, hardware key, timing mode, "
                   "target count, complete. Run ids and names are what aisp_benchmark_compare_runs takes.",
                   s::object({{"limit", s::integer("Show the newest N runs (default 20)", 1, 10000)}}, {}, true),
                   s::object({{"db", s::string("Results store", 4096)},
                              {"total", s::integer("Runs stored", 0, 1LL << 40)},
                              {"runs", s::array("The newest `limit` runs, oldest first", run_schema(), 10000)}},
                             {"db", "total", "runs"}),
                   read_only_annotations(), [&config](ToolCall& call) {
                     Store store = open_store(config);
                     auto runs = store.list_runs();
                     size_t limit = static_cast<size_t>(arg_number(call.arguments, "limit", 20));
                     json out = json::array();
                     for (size_t i = runs.size() > limit ? runs.size() - limit : 0; i < runs.size(); ++i)
                       out.push_back(run_json(runs[i]));
                     return json{{"db", config.db_path.string()}, {"total", runs.size()}, {"runs", out}};
                   }});

  json history_row = s::object(
      {{"run", run_schema()},
       {"variant", s::string("Optimized variant (\"\" when the run had only a baseline)", 256)},
       {"status", s::string("Target status word", 64)},
       {"verdict", s::string("FASTER, SLOWER, SAME, INCONCLUSIVE or INVALID", 32)},
       {"baseline_ms", s::nullable(s::number("Baseline median (ms)"))},
       {"baseline_ci", ci_schema("Baseline median")},
       {"variant_ms", s::nullable(s::number("Variant median (ms)"))},
       {"variant_ci", ci_schema("Variant median")},
       {"speedup", s::nullable(s::number("Baseline median / variant median"))},
       {"speedup_ci", ci_schema("Speedup")},
       {"change_points", s::object({{"baseline", change_schema("Baseline level shift starting at this run")},
                                    {"variant", change_schema("Variant level shift starting at this run")}},
                                   {"baseline", "variant"})}},
      {"run", "variant", "verdict", "baseline_ms", "variant_ms", "speedup", "change_points"});
  tools.push_back(
      {"aisp_benchmark_history", "Benchmark history",
       "A target's stored runs over time (oldest first), one row per run and optimized variant: medians, speedup "
       "with 95% CI, verdict, and change points (a level shift of >= 5%, >= 4 standard errors, beyond the runs' "
       "CIs) per hardware key, timing mode and variant.",
       s::object({{"target", s::string("Target id (ch07:copy_scalar)", 256)},
                  {"hardware_key", s::string("Only runs on this hardware key (h100_80gb_hbm3)", 128)},
                  {"mode", s::string_enum("Only runs in this timing mode", {"cold", "hot", "graph"})}},
                 {"target"}, true),
       s::object({{"target", s::string("Target id", 256)},
                  {"db", s::string("Results store", 4096)},
                  {"rows", s::array("Oldest first", history_row, 100000)}},
                 {"target", "db", "rows"}),
       read_only_annotations(), [&config](ToolCall& call) {
         std::string target = arg_string(call.arguments, "target"), hw = arg_string(call.arguments, "hardware_key");
         std::string mode = arg_string(call.arguments, "mode");
         Store store = open_store(config);
         auto rows = store.history(target, hw);
         std::erase_if(rows, [&](const HistoryRow& r) { return !mode.empty() && r.run.mode != mode; });
         if (rows.empty()) {
           auto near = nearest_names(store.target_ids(), target);
           throw ToolError(fmt::format("no stored runs of '{}'{}{}{}", target, hw.empty() ? "" : " on " + hw,
                                       mode.empty() ? "" : " in " + mode + " mode",
                                       near.empty() ? "" : fmt::format(" (stored targets near it: {})", fmt::join(near, ", "))));
         }
         json out = json::array();
         for (auto& r : rows)
           out.push_back({{"run", run_json(r.run)}, {"variant", r.variant}, {"status", r.status},
                          {"verdict", r.verdict}, {"baseline_ms", number_or_null(r.baseline_ms)},
                          {"baseline_ci", {number_or_null(r.baseline_low), number_or_null(r.baseline_high)}},
                          {"variant_ms", number_or_null(r.variant_ms)},
                          {"variant_ci", {number_or_null(r.variant_low), number_or_null(r.variant_high)}},
                          {"speedup", number_or_null(r.speedup)},
                          {"speedup_ci", {number_or_null(r.ci_low), number_or_null(r.ci_high)}},
                          {"change_points", {{"baseline", change_json(r.baseline_change)},
                                             {"variant", change_json(r.variant_change)}}}});
         return json{{"target", target}, {"db", config.db_path.string()}, {"rows", out}};
       }});

  json compare_row = s::object(
      {{"target", s::string("Target id", 256)},
       {"variant", s::string("Variant (\"baseline\" for the baseline)", 256)},
       {"a_ms", s::nullable(s::number("Median in run A (ms)"))},
       {"a_ci", ci_schema("Run A median")},
       {"b_ms", s::nullable(s::number("Median in run B (ms)"))},
       {"b_ci", ci_schema("Run B median")},
       {"ratio_b_over_a", s::nullable(s::number("B median / A median (< 1: B is faster)"))},
       {"speedup_b_vs_a", s::nullable(s::number("A median / B median, bootstrap over both runs' samples"))},
       {"speedup_ci", ci_schema("Speedup")},
       {"p_value", s::nullable(s::number("Mann-Whitney U on the two sample sets"))},
       {"ci_overlap", s::boolean("The two medians' CIs overlap")},
       {"change", s::string("faster, slower, same, unclear, only in A, only in B", 32)}},
      {"target", "variant", "a_ms", "b_ms", "change"});
  tools.push_back(
      {"aisp_benchmark_compare_runs", "Compare runs",
       "Two stored runs target by target and variant by variant: medians, B/A, A/B speedup with a bootstrap 95% CI "
       "from both runs' raw samples, Mann-Whitney p, and faster (CI above 1.05) / slower (CI below 1/1.05) / same / "
       "unclear. Runs are named by id, directory name, a unique prefix (the stamp), `latest` or `previous`.",
       s::object({{"run_a", run_ref_schema("Baseline run (default: previous)")},
                  {"run_b", run_ref_schema("Run compared against A (default: latest)")}},
                 {}, true),
       s::object({{"a", run_schema()},
                  {"b", run_schema()},
                  {"notes", s::array("Caveats: different hardware or timing modes", s::string("", 1024), 16)},
                  {"slower", s::integer("Rows whose change is `slower` (a regression in B)", 0, 1 << 30)},
                  {"rows", s::array("Per target and variant", compare_row, 100000)}},
                 {"a", "b", "notes", "slower", "rows"}),
       read_only_annotations(), [&config](ToolCall& call) {
         Store store = open_store(config);
         RunInfo a, b;
         try {
           a = store.resolve_run(run_ref(call.arguments, "run_a", "previous"));
           b = store.resolve_run(run_ref(call.arguments, "run_b", "latest"));
         } catch (const std::exception& e) {
           throw ToolError(e.what());
         }
         json notes = json::array();
         if (a.hardware_key != b.hardware_key)
           notes.push_back("the runs are on different hardware; differences are not code changes alone");
         if (a.mode != b.mode)
           notes.push_back(fmt::format("the runs used different timing modes ({} vs {}); times are not comparable",
                                       a.mode, b.mode));
         if (a.id == b.id) notes.push_back("run A and run B are the same run");
         int slower = 0;
         json rows = json::array();
         for (auto& r : store.compare_runs(a.id, b.id)) {
           slower += r.change == "slower";
           rows.push_back({{"target", r.target}, {"variant", r.variant}, {"a_ms", number_or_null(r.a_ms)},
                           {"a_ci", {number_or_null(r.a_low), number_or_null(r.a_high)}},
                           {"b_ms", number_or_null(r.b_ms)},
                           {"b_ci", {number_or_null(r.b_low), number_or_null(r.b_high)}},
                           {"ratio_b_over_a", number_or_null(r.ratio)}, {"speedup_b_vs_a", number_or_null(r.speedup)},
                           {"speedup_ci", {number_or_null(r.ci_low), number_or_null(r.ci_high)}},
                           {"p_value", number_or_null(r.p_value)}, {"ci_overlap", r.ci_overlap}, {"change", r.change}});
         }
         return json{{"a", run_json(a)}, {"b", run_json(b)}, {"notes", notes}, {"slower", slower}, {"rows", rows}};
       }});

  json entry = s::object(
      {{"target", s::string("Target id", 256)},
       {"chapter", s::string("Chapter or lab", 128)},
       {"hardware_key", s::string("Hardware the entry was measured on", 128)},
       {"best_variant", s::string("Best optimized variant", 256)},
       {"best_speedup", s::nullable(s::number("Best speedup (speed goal)"))},
       {"speedup_ci", ci_schema("Best speedup")},
       {"best_improvement", s::nullable(s::number("Speedup, or memory ratio for the memory goal"))},
       {"baseline_ms", s::nullable(s::number("Baseline median (ms)"))},
       {"optimized_ms", s::nullable(s::number("Best variant median (ms)"))},
       {"goal", s::string("speed, memory, throughput or latency", 32)},
       {"severity", s::string("ok, needs-work (below min_speedup) or fail (a failed status)", 32)},
       {"recorded", s::object({}, {}, false, "Provenance: date, commit, GPU, driver, samples")},
       {"between_machine", s::nullable(s::object({{"spread", s::number("Relative widening of the CI a run is checked "
                                                                         "against (0.6: [low / 1.6, high x 1.6])")},
                                                  {"source", s::string("Why: between_machine_spread, host_bound", 1024)}},
                                                 {"spread", "source"}, false,
                                                 "Set for pairs whose speedup depends on the host (null: the recorded "
                                                 "CI is the band)"))},
       {"file", s::string("The expectations file", 4096)}},
      {"target", "chapter", "hardware_key", "best_improvement", "severity", "file"});
  tools.push_back(
      {"aisp_benchmark_expectations", "Expectations",
       "What each pair is expected to achieve on a GPU (chNN/expectations_<hwkey>.json): best variant, speedup with "
       "CI, medians, provenance, and whether it meets a minimum speedup. A run is checked against these.",
       s::object({{"hardware", s::string("Hardware key or its prefix (h100 matches h100_80gb_hbm3); default all", 128)},
                  {"min_speedup", s::number("Entries with best improvement >= this (default 1.05)", 0, 1e6)},
                  {"show_all", s::boolean("List every entry, whatever its speedup")}},
                 {}, true),
       s::object({{"source_root", s::string("Where chapters/ and labs/ were searched", 4096)},
                  {"total", s::integer("Entries found", 0, 1 << 30)},
                  {"entries", s::array("Entries shown", entry, 100000)},
                  {"errors", s::array("Corrupt or unreadable expectation files", s::string("", 4096), 1000)}},
                 {"source_root", "total", "entries", "errors"}),
       read_only_annotations(), [&config](ToolCall& call) {
         fs::path root = !config.bench_root.empty() ? fs::path(config.bench_root) : config.source_root;
         if (root.empty())
           throw ToolError("cannot find the chapters: run the server from a checkout or set AISP_SOURCE_DIR");
         double min_speedup = arg_number(call.arguments, "min_speedup", kDefaultMinSpeedup);
         bool show_all = arg_bool(call.arguments, "show_all");
         std::vector<std::string> errors;
         auto all = list_expectations(root, arg_string(call.arguments, "hardware"), &errors);
         json out = json::array();
         std::map<fs::path, json> raw;  // each file as written, for the keys the typed reader drops
         for (auto& l : all) {
           double best = best_improvement(l.entry);
           if (!show_all && !(best >= min_speedup)) continue;
           const ExpectationEntry& e = l.entry;
           const ExpectationProvenance& p = e.provenance;
           out.push_back({{"target", e.target.empty() ? l.chapter + ":" + e.example : e.target},
                          {"chapter", l.chapter}, {"hardware_key", l.hardware_key},
                          {"best_variant", e.best_optimization}, {"best_speedup", number_or_null(e.best_speedup)},
                          {"speedup_ci", {number_or_null(e.ci_low), number_or_null(e.ci_high)}},
                          {"best_improvement", number_or_null(best)},
                          {"baseline_ms", number_or_null(e.baseline_time_ms)},
                          {"optimized_ms", number_or_null(e.best_optimized_time_ms)}, {"goal", e.goal},
                          {"severity", proof_of_benefit_severity(e, min_speedup)},
                          {"recorded", {{"timestamp", p.timestamp}, {"git_commit", p.git_commit}, {"gpu", p.gpu},
                                        {"driver_version", p.driver_version}, {"mode", p.mode},
                                        {"baseline_samples", p.baseline_samples},
                                        {"optimized_samples", p.optimized_samples}}},
                          {"between_machine", [&] {
                             if (!raw.count(l.file)) {
                               try {
                                 raw[l.file] = read_json(l.file).value("examples", json::object());
                               } catch (const std::exception&) {
                                 raw[l.file] = json::object();
                               }
                             }
                             const json& r = raw[l.file];
                             MachineSpread m = machine_spread_for(r.contains(e.example) ? r[e.example] : json(nullptr),
                                                                  TargetResult{}, &e);
                             return m.relative > 0 ? json{{"spread", m.relative}, {"source", m.source}} : json(nullptr);
                           }()},
                          {"file", l.file.string()}});
         }
         return json{{"source_root", root.string()}, {"total", all.size()}, {"entries", out}, {"errors", errors}};
       }});
  return tools;
}

}  // namespace aisp::mcp
