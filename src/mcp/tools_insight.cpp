// Reading what is stored, with advice: aisp_run_triage (one stored run: what failed, what is INVALID,
// what regressed, what is inconclusive or noisy, and what to do about each) and aisp_expectations_report
// (every GPU's expectations side by side: counts, pairs that need work, pairs whose speedup differs between
// machines, and the between-machine spread each one is checked with). In-process over the store and the
// chapters' files; no child, no GPU.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

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

// Above this relative noise (stdev / mean of the kept samples) a median is not a settled number: the
// seed's stdrel criterion stops at 0.5%, and a pair that ends a run several times noisier was disturbed
// (other processes, clocks) or is host-bound.
constexpr double kNoisyRelative = 0.05;

struct Finding {
  std::string target, variant, severity, finding, recommendation;
};

json finding_json(const Finding& f) {
  return {{"target", f.target}, {"variant", f.variant}, {"severity", f.severity}, {"finding", f.finding},
          {"recommendation", f.recommendation}};
}

std::vector<Finding> triage_target(const TargetResult& t) {
  std::vector<Finding> out;
  auto add = [&](const std::string& variant, const char* severity, std::string finding, std::string rec) {
    out.push_back({t.id, variant, severity, std::move(finding), std::move(rec)});
  };
  const std::string rerun = fmt::format("rerun it alone: aisp_run_benchmarks targets=[\"{}\"]", t.id);
  if (t.status == status::failed_error || t.status == status::skipped) {
    std::string why = !t.error.empty() ? t.error : !t.baseline.error.empty() ? t.baseline.error : "no reason recorded";
    add("", "error", fmt::format("{}: {}", t.status, why.substr(0, 600)),
        "read the variant's worker log (run directory, logs/) and " + rerun);
  }
  if (t.status == status::failed_regression) {
    std::string msg = t.expectation.is_object() ? t.expectation.value("message", t.error) : t.error;
    add(t.best_optimization, "regression", msg.substr(0, 600),
        fmt::format("confirm with aisp_benchmark_history target=\"{}\" (a level shift across runs) and "
                    "aisp_benchmark_compare_runs; a pair whose speedup depends on the host needs a between-machine "
                    "spread in its expectation (aisp_expectations_report)",
                    t.id));
  }
  for (const VariantResult& v : t.optimizations) {
    std::vector<std::string> failed;
    for (auto& c : v.checks)
      if (!c.passed) failed.push_back(c.id + " " + c.name);
    if (v.status == status::invalid || v.verdict == "INVALID")
      add(v.name, "invalid",
          fmt::format("INVALID: failed {}", failed.empty() ? std::string("a validity check") : fmt::format("{}", fmt::join(failed, "; "))),
          "never report this speedup; fix the variant so the check passes (docs/VALIDITY.md names each check)");
    else if (v.status == status::failed_verification)
      add(v.name, "error", "its output does not match the baseline's" + (v.error.empty() ? "" : ": " + v.error.substr(0, 300)),
          "a wrong answer is not an optimization: fix the variant, then " + rerun);
    else if (v.status == status::failed_error)
      add(v.name, "error", "failed: " + v.error.substr(0, 600), "read its worker log (" + v.log + ") and " + rerun);
    else if (v.verdict == "INCONCLUSIVE")
      add(v.name, "inconclusive",
          fmt::format("speedup {:.3f}x with CI [{:.3f}, {:.3f}]: the interval straddles the equivalence band", v.speedup,
                      v.ci_low, v.ci_high),
          fmt::format("more samples settle it: aisp_run_benchmarks targets=[\"{}\"] with a larger time_limit or "
                      "iterations (this run kept {})",
                      t.id, v.samples_ms.size()));
    else if ((v.verdict == "SLOWER" || v.verdict == "SAME") && v.informational.empty())
      add(v.name, "no_benefit",
          fmt::format("{} ({:.3f}x, CI [{:.3f}, {:.3f}])", v.verdict, v.speedup, v.ci_low, v.ci_high),
          fmt::format("see why with aisp_profile_ncu target=\"{}\" (a GPU job), then aisp_profile_compare", t.id));
    else if (!v.informational.empty() && v.verdict != "FASTER")
      add(v.name, "info", fmt::format("{}: machine-dependent by design ({})", v.verdict, v.informational),
          "nothing to fix: its author says on what machines it wins");
  }
  for (const VariantResult* v : [&] {
         std::vector<const VariantResult*> all = {&t.baseline};
         for (auto& o : t.optimizations) all.push_back(&o);
         return all;
       }()) {
    if (v->timing.rel_noise > kNoisyRelative && v->status == status::succeeded)
      add(v->name, "noisy", fmt::format("relative noise {:.1f}% over {} samples", 100 * v->timing.rel_noise, v->samples_ms.size()),
          "check the environment (aisp_triage: other GPU processes, clocks, CPU governor); host-bound pairs are "
          "noisier by nature");
  }
  if (t.expectation.is_object() && t.expectation.value("status", "") == "improvement")
    add(t.best_optimization, "info", t.expectation.value("message", "").substr(0, 600),
        "faster than recorded: if it holds on a rerun, record it with `aisp bench run --update-expectations` (CLI)");
  return out;
}

int severity_rank(const std::string& s) {
  static const std::map<std::string, int> rank = {{"invalid", 0}, {"error", 1}, {"regression", 2},
                                                  {"inconclusive", 3}, {"no_benefit", 4}, {"noisy", 5}, {"info", 6}};
  auto it = rank.find(s);
  return it == rank.end() ? 9 : it->second;
}

json run_ref_schema(const std::string& what) {
  json sch = s::string(what + ": a run id (integer), a run directory name, a unique prefix of it, `latest` or `previous`", 512);
  sch["type"] = json::array({"string", "integer"});
  return sch;
}

Store open_store_or_fail(const ServerConfig& config) {
  std::error_code ec;
  if (!fs::exists(config.db_path, ec))
    throw ToolError("no results store yet: run benchmarks (aisp_run_benchmarks) or ingest run directories with "
                    "`aisp bench ingest`");
  try {
    return Store::open_read_only(config.db_path);
  } catch (const std::exception& e) {
    throw ToolError(e.what());
  }
}

// The example objects of an expectations file as written (for between_machine_spread / host_bound).
json raw_examples(const fs::path& file) {
  try {
    json j = read_json(file);
    return j.contains("examples") && j["examples"].is_object() ? j["examples"] : json::object();
  } catch (const std::exception&) {
    return json::object();
  }
}

}  // namespace

std::vector<Tool> insight_tools(const ServerConfig& config) {
  std::vector<Tool> tools;

  json finding = s::object({{"target", s::string("Target id", 256)},
                            {"variant", s::string("Variant (\"\" for the target as a whole)", 256)},
                            {"severity", s::string_enum("Most severe first", {"invalid", "error", "regression", "inconclusive",
                                                                              "no_benefit", "noisy", "info"})},
                            {"finding", s::string("What the run shows", 2048)},
                            {"recommendation", s::string("What to do about it", 2048)}},
                           {"target", "variant", "severity", "finding", "recommendation"});
  tools.push_back(
      {"aisp_run_triage", "Triage a stored run",
       "One stored run, target by target: failures, INVALID variants (never to be reported as speedups), "
       "regressions against the expectations, inconclusive verdicts, variants with no benefit, noisy "
       "measurements; each with the evidence and a concrete next step (which tool to call). Default: the newest "
       "run.",
       s::object({{"run", run_ref_schema("The run (default: latest)")}}, {}, true),
       s::object({{"run", s::object({{"id", s::integer("Run id", 0, 1LL << 62)},
                                     {"name", s::string("Run directory name", 512)},
                                     {"hardware_key", s::string("GPU hardware key", 128)},
                                     {"mode", s::string("Timing mode", 16)},
                                     {"complete", s::boolean("False for a run that did not finish")}},
                                    {"id", "name", "hardware_key", "mode", "complete"})},
                  {"targets", s::integer("Targets in the run", 0, 1 << 30)},
                  {"counts", s::object({}, {}, false, "Findings per severity")},
                  {"healthy", s::array("Targets with no finding", s::string("", 256), 100000)},
                  {"findings", s::array("Most severe first", finding, 100000)},
                  {"next_steps", s::array("The few things to do first", s::string("", 2048), 16)}},
                 {"run", "targets", "counts", "healthy", "findings", "next_steps"}),
       read_only_annotations(), [&config](ToolCall& call) {
         Store store = open_store_or_fail(config);
         RunInfo run;
         std::vector<TargetResult> targets;
         try {
           auto it = call.arguments.find("run");
           std::string ref = it == call.arguments.end() ? "latest"
                             : it->is_number()          ? fmt::format("{}", it->get<long long>())
                                                        : it->get<std::string>();
           run = store.resolve_run(ref);
           targets = store.load_run(run.id);
         } catch (const std::exception& e) {
           throw ToolError(e.what());
         }
         std::vector<Finding> all;
         json healthy = json::array();
         for (auto& t : targets) {
           auto f = triage_target(t);
           if (f.empty()) healthy.push_back(t.id);
           all.insert(all.end(), f.begin(), f.end());
         }
         std::stable_sort(all.begin(), all.end(),
                          [](const Finding& a, const Finding& b) { return severity_rank(a.severity) < severity_rank(b.severity); });
         json counts = json::object(), findings = json::array(), steps = json::array();
         std::set<std::string> step_seen;
         for (auto& f : all) {
           counts[f.severity] = counts.value(f.severity, 0) + 1;
           findings.push_back(finding_json(f));
           // One next step per kind of problem, most severe first.
           if (f.severity != "info" && steps.size() < 5 && step_seen.insert(f.severity).second)
             steps.push_back(fmt::format("{} ({}{}): {}", f.severity, f.target, f.variant.empty() ? "" : " / " + f.variant,
                                         f.recommendation));
         }
         if (!run.complete) steps.push_back("the run did not finish: targets after the last one stored were not measured");
         if (steps.empty())
           steps.push_back("nothing to fix: compare with an earlier run (aisp_benchmark_compare_runs) to see the trend");
         return json{{"run", {{"id", run.id}, {"name", run.key}, {"hardware_key", run.hardware_key}, {"mode", run.mode},
                              {"complete", run.complete}}},
                     {"targets", targets.size()},
                     {"counts", counts},
                     {"healthy", healthy},
                     {"findings", findings},
                     {"next_steps", steps}};
       }});

  json per_hw = s::object({{"hardware_key", s::string("Hardware key", 128)},
                           {"entries", s::integer("Entries", 0, 1 << 30)},
                           {"meeting_min_speedup", s::integer("Entries whose best improvement meets min_speedup", 0, 1 << 30)},
                           {"needs_work", s::array("Entries below min_speedup", s::string("", 256), 100000)},
                           {"between_machine", s::array("Entries checked with a between-machine spread",
                                                        s::object({{"target", s::string("Target", 256)},
                                                                   {"spread", s::number("Relative spread")},
                                                                   {"source", s::string("Why", 1024)}},
                                                                  {"target", "spread", "source"}),
                                                        100000)}},
                          {"hardware_key", "entries", "meeting_min_speedup", "needs_work", "between_machine"});
  json across = s::object({{"target", s::string("Target", 256)},
                           {"speedups", s::object({}, {}, false, "Per hardware key: [speedup, ci_low, ci_high]")},
                           {"ratio", s::number("Largest / smallest speedup across the hardware keys")},
                           {"cis_disjoint", s::boolean("Some two hardware keys' CIs do not overlap")}},
                          {"target", "speedups", "ratio", "cis_disjoint"});
  tools.push_back(
      {"aisp_expectations_report", "Expectations report",
       "Every GPU's expectations (chNN/expectations_<hwkey>.json) side by side: per hardware key the entries, how "
       "many meet a minimum speedup, which need work, which are checked with a between-machine spread (host-bound "
       "pairs); and each pair measured on several GPUs with its speedups, the spread between them and whether "
       "their CIs disagree (a pair whose speedup depends on the machine). Per-entry detail is "
       "aisp_benchmark_expectations.",
       s::object({{"min_speedup", s::number("Minimum best improvement (default 1.05)", 0, 1e6)},
                  {"min_ratio", s::number("List pairs whose speedups across GPUs differ by at least this factor "
                                          "(default 1.1)", 1, 1e6)}},
                 {}, true),
       s::object({{"source_root", s::string("Where chapters/ and labs/ were read", 4096)},
                  {"hardware", s::array("Per hardware key", per_hw, 256)},
                  {"across_machines", s::array("Pairs measured on several GPUs that differ (largest ratio first)", across, 100000)},
                  {"errors", s::array("Unreadable expectation files", s::string("", 4096), 1000)}},
                 {"source_root", "hardware", "across_machines", "errors"}),
       read_only_annotations(), [&config](ToolCall& call) {
         fs::path root = !config.bench_root.empty() ? fs::path(config.bench_root) : config.source_root;
         if (root.empty()) throw ToolError("cannot find the chapters: run the server from a checkout or set AISP_SOURCE_DIR");
         double min_speedup = arg_number(call.arguments, "min_speedup", kDefaultMinSpeedup);
         double min_ratio = arg_number(call.arguments, "min_ratio", 1.1);
         std::vector<std::string> errors;
         auto listed = list_expectations(root, "", &errors);
         std::map<std::string, json> hw;
         std::map<fs::path, json> raw;  // per file, read once
         std::map<std::string, std::map<std::string, ExpectationEntry>> by_target;
         for (auto& l : listed) {
           const ExpectationEntry& e = l.entry;
           std::string target = e.target.empty() ? l.chapter + ":" + e.example : e.target;
           json& h = hw[l.hardware_key];
           if (h.is_null())
             h = {{"hardware_key", l.hardware_key}, {"entries", 0}, {"meeting_min_speedup", 0},
                  {"needs_work", json::array()}, {"between_machine", json::array()}};
           h["entries"] = h["entries"].get<int>() + 1;
           double best = best_improvement(e);
           if (best >= min_speedup) h["meeting_min_speedup"] = h["meeting_min_speedup"].get<int>() + 1;
           else h["needs_work"].push_back(target);
           if (!raw.count(l.file)) raw[l.file] = raw_examples(l.file);
           const json& r = raw[l.file];
           TargetResult none;
           MachineSpread m = machine_spread_for(r.contains(e.example) ? r[e.example] : json(nullptr), none, &e);
           if (m.relative > 0) h["between_machine"].push_back({{"target", target}, {"spread", m.relative}, {"source", m.source}});
           if (e.goal == "speed" && e.best_speedup > 0) by_target[target][l.hardware_key] = e;
         }
         json hardware = json::array();
         for (auto& [key, h] : hw) hardware.push_back(h);
         std::vector<std::pair<double, json>> rows;
         for (auto& [target, per] : by_target) {
           if (per.size() < 2) continue;
           double lo = INFINITY, hi = 0, lo_high = INFINITY, hi_low = 0;
           json speedups = json::object();
           for (auto& [key, e] : per) {
             lo = std::min(lo, e.best_speedup), hi = std::max(hi, e.best_speedup);
             lo_high = std::min(lo_high, e.ci_high), hi_low = std::max(hi_low, e.ci_low);
             speedups[key] = {e.best_speedup, e.ci_low, e.ci_high};
           }
           double ratio = hi / lo;
           if (ratio < min_ratio) continue;
           rows.push_back({ratio, {{"target", target}, {"speedups", speedups}, {"ratio", ratio}, {"cis_disjoint", hi_low > lo_high}}});
         }
         std::sort(rows.begin(), rows.end(), [](auto& a, auto& b) { return a.first > b.first; });
         json across = json::array();
         for (auto& [ratio, row] : rows) across.push_back(row);
         return json{{"source_root", root.string()}, {"hardware", hardware}, {"across_machines", across}, {"errors", errors}};
       }});
  return tools;
}

}  // namespace aisp::mcp
