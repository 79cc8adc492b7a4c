#include "cli/store_commands.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <iostream>

#include "store/store.hpp"

namespace aisp {
namespace fs = std::filesystem;

namespace {

struct StoreArgs {
  std::string db, target, hardware_key, mode, run_a, run_b;
  std::vector<std::string> run_dirs;
  bool as_json = false, partial = false, fail_on_regression = false;
};

// Unset measurements are NaN; print them as "-" rather than "nan".
std::string ms(double v) { return std::isfinite(v) && v > 0 ? fmt::format("{:.4f}", v) : "-"; }
std::string num(double v, const char* f = "{:.3f}") { return std::isfinite(v) ? fmt::format(fmt::runtime(f), v) : "-"; }
json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

std::string short_commit(const RunInfo& r) {
  if (r.git_commit.empty()) return "-";
  return r.git_commit.substr(0, 8) + (r.git_dirty ? "*" : "");
}

json run_json(const RunInfo& r) {
  return {{"id", r.id}, {"run", r.key}, {"stamp", r.stamp}, {"label", r.label}, {"kind", r.kind}, {"mode", r.mode},
          {"started_at", r.started_at}, {"ended_at", r.ended_at}, {"git_commit", r.git_commit},
          {"git_branch", r.git_branch}, {"git_dirty", r.git_dirty}, {"hardware_key", r.hardware_key},
          {"gpu_model", r.gpu_model}, {"complete", r.complete}, {"targets", r.targets}, {"run_dir", r.run_dir}};
}

json change_json(const std::optional<ChangePoint>& c) {
  if (!c) return nullptr;
  return {{"before_ms", c->before}, {"after_ms", c->after}, {"rel_shift", c->rel_shift}, {"statistic", c->statistic}};
}

std::string change_text(const HistoryRow& r) {
  std::string out;
  if (r.baseline_change) out += fmt::format("<< baseline {:+.1f}%", 100 * r.baseline_change->rel_shift);
  if (r.variant_change)
    out += fmt::format("{}<< variant {:+.1f}%", out.empty() ? "" : " ", 100 * r.variant_change->rel_shift);
  return out;
}

Store open_existing(const StoreArgs& a) { return Store::open(store_path(a.db, "artifacts"), false); }

void runs_command(const StoreArgs& a) {
  Store store = open_existing(a);
  auto runs = store.list_runs();
  if (a.as_json) {
    json out = json::array();
    for (auto& r : runs) out.push_back(run_json(r));
    std::cout << out.dump(2) << "\n";
    return;
  }
  std::cout << fmt::format("{:>4}  {:<52} {:<9} {:<16} {:<5} {:>7}  {}\n", "id", "run", "commit", "hardware", "mode",
                           "targets", "complete");
  for (auto& r : runs)
    std::cout << fmt::format("{:>4}  {:<52} {:<9} {:<16} {:<5} {:>7}  {}\n", r.id, r.key, short_commit(r),
                             r.hardware_key.empty() ? "-" : r.hardware_key, r.mode, r.targets, r.complete ? "yes" : "NO");
  std::cout << fmt::format("{} runs in {}\n", runs.size(), store.path().string());
}

void ingest_command(const StoreArgs& a) {
  Store store = Store::open(store_path(a.db, "artifacts"));
  IngestOptions o;
  o.allow_partial = a.partial;
  int failures = 0;
  json out = json::array();
  for (auto& dir : a.run_dirs) {
    try {
      IngestOutcome r = store.ingest_run(dir, o);
      (a.as_json ? std::cerr : std::cout) << r.message << "\n";
      out.push_back({{"run_dir", dir}, {"inserted", r.inserted}, {"run", run_json(r.run)}});
    } catch (const std::exception& e) {
      // One bad directory must not stop the others; each run is its own transaction anyway.
      ++failures;
      std::cerr << "aisp: " << e.what() << "\n";
      out.push_back({{"run_dir", dir}, {"error", e.what()}});
    }
  }
  if (a.as_json) std::cout << out.dump(2) << "\n";
  if (failures) throw CLI::RuntimeError(1);
}

void history_command(const StoreArgs& a) {
  Store store = open_existing(a);
  auto rows = store.history(a.target, a.hardware_key);
  std::erase_if(rows, [&](const HistoryRow& r) { return !a.mode.empty() && r.run.mode != a.mode; });
  if (rows.empty()) {
    auto near = nearest_names(store.target_ids(), a.target);
    throw CLI::Error("UnknownTarget",
                     fmt::format("no runs of '{}'{} in {}{}", a.target,
                                 a.hardware_key.empty() ? "" : " on " + a.hardware_key, store.path().string(),
                                 near.empty() ? "" : fmt::format(" (did you mean: {}?)", fmt::join(near, ", "))), 2);
  }
  if (a.as_json) {
    json out = {{"target", a.target}, {"db", store.path().string()}, {"rows", json::array()}};
    for (auto& r : rows)
      out["rows"].push_back({{"run", run_json(r.run)}, {"variant", r.variant}, {"status", r.status},
                             {"verdict", r.verdict}, {"baseline_ms", number_or_null(r.baseline_ms)},
                             {"baseline_ci", {number_or_null(r.baseline_low), number_or_null(r.baseline_high)}},
                             {"variant_ms", number_or_null(r.variant_ms)},
                             {"variant_ci", {number_or_null(r.variant_low), number_or_null(r.variant_high)}},
                             {"speedup", number_or_null(r.speedup)},
                             {"speedup_ci", {number_or_null(r.ci_low), number_or_null(r.ci_high)}},
                             {"change_points", {{"baseline", change_json(r.baseline_change)},
                                                {"variant", change_json(r.variant_change)}}}});
    std::cout << out.dump(2) << "\n";
    return;
  }
  std::cout << fmt::format("history of {} ({} rows, oldest first; << marks the first run of a new level)\n", a.target,
                           rows.size());
  std::cout << fmt::format("{:<16} {:<9} {:<16} {:<5} {:<20} {:>11} {:>11} {:>24} {:<13} {}\n", "run", "commit",
                           "hardware", "mode", "variant", "base ms", "var ms", "speedup [95% CI]", "verdict", "change");
  for (auto& r : rows) {
    std::string speed = std::isfinite(r.speedup) && r.speedup > 0
                            ? fmt::format("{:.3f} [{}, {}]", r.speedup, num(r.ci_low), num(r.ci_high)) : "-";
    std::cout << fmt::format("{:<16} {:<9} {:<16} {:<5} {:<20} {:>11} {:>11} {:>24} {:<13} {}\n",
                             r.run.stamp.empty() ? r.run.key.substr(0, 16) : r.run.stamp, short_commit(r.run),
                             r.run.hardware_key.empty() ? "-" : r.run.hardware_key.substr(0, 16), r.run.mode,
                             r.variant.empty() ? "-" : r.variant.substr(0, 20), ms(r.baseline_ms), ms(r.variant_ms), speed,
                             r.verdict.empty() ? r.status.substr(0, 13) : r.verdict, change_text(r));
  }
}

void compare_runs_command(const StoreArgs& a) {
  Store store = open_existing(a);
  RunInfo ra = store.resolve_run(a.run_a), rb = store.resolve_run(a.run_b);
  auto rows = store.compare_runs(ra.id, rb.id);
  bool regressed = false;
  for (auto& r : rows) regressed |= r.change == "slower";
  if (a.as_json) {
    json out = {{"a", run_json(ra)}, {"b", run_json(rb)}, {"rows", json::array()}};
    for (auto& r : rows)
      out["rows"].push_back({{"target", r.target}, {"variant", r.variant}, {"a_ms", number_or_null(r.a_ms)},
                             {"a_ci", {number_or_null(r.a_low), number_or_null(r.a_high)}},
                             {"b_ms", number_or_null(r.b_ms)},
                             {"b_ci", {number_or_null(r.b_low), number_or_null(r.b_high)}},
                             {"ratio_b_over_a", number_or_null(r.ratio)}, {"speedup_b_vs_a", number_or_null(r.speedup)},
                             {"speedup_ci", {number_or_null(r.ci_low), number_or_null(r.ci_high)}},
                             {"p_value", r.p_value}, {"ci_overlap", r.ci_overlap}, {"change", r.change}});
    std::cout << out.dump(2) << "\n";
  } else {
    std::cout << fmt::format("A: #{} {} ({}, {})\nB: #{} {} ({}, {})\n", ra.id, ra.key, short_commit(ra), ra.hardware_key,
                             rb.id, rb.key, short_commit(rb), rb.hardware_key);
    if (ra.hardware_key != rb.hardware_key)
      std::cout << "note: the runs are on different hardware; differences are not code changes alone\n";
    if (ra.mode != rb.mode)
      std::cout << fmt::format("note: the runs used different timing modes ({} vs {}); times are not comparable\n",
                               ra.mode, rb.mode);
    std::cout << fmt::format("{:<30} {:<20} {:>11} {:>11} {:>7} {:>24} {:>9} {:>8}  {}\n", "target", "variant", "A ms",
                             "B ms", "B/A", "A/B speedup [95% CI]", "p", "CIs", "change");
    for (auto& r : rows) {
      std::string speed = std::isfinite(r.speedup) ? fmt::format("{:.3f} [{}, {}]", r.speedup, num(r.ci_low), num(r.ci_high)) : "-";
      std::cout << fmt::format("{:<30} {:<20} {:>11} {:>11} {:>7} {:>24} {:>9} {:>8}  {}\n", r.target.substr(0, 30),
                               r.variant.substr(0, 20), ms(r.a_ms), ms(r.b_ms), num(r.ratio), speed,
                               num(r.p_value, "{:.2g}"), r.in_a && r.in_b ? (r.ci_overlap ? "overlap" : "apart") : "-",
                               r.change);
    }
  }
  if (regressed && a.fail_on_regression) throw CLI::RuntimeError(1);
}

}  // namespace

fs::path store_path(const std::string& db_option, const fs::path& artifacts_dir) {
  if (!db_option.empty()) return db_option;
  if (const char* env = std::getenv("AISP_DB"); env && *env) return env;
  return artifacts_dir / "aisp.db";
}

void store_finished_run(const fs::path& run_dir, const fs::path& db) {
  try {
    Store store = Store::open(db);
    std::cerr << store.ingest_run(run_dir).message << "\n";
  } catch (const std::exception& e) {
    std::cerr << fmt::format("warning: the run was not stored in {}: {}\n  (the run directory is complete; store it "
                             "later with: aisp bench ingest {})\n", db.string(), e.what(), run_dir.string());
  }
}

void add_store_commands(CLI::App& bench) {
  static StoreArgs a;
  const char* db_help = "Results store (default: $AISP_DB, else artifacts/aisp.db)";

  auto* runs = bench.add_subcommand("runs", "List the runs in the results store");
  runs->add_option("--db", a.db, db_help);
  runs->add_flag("--json", a.as_json, "Print JSON");
  runs->callback([] { runs_command(a); });

  auto* ingest = bench.add_subcommand("ingest", "Store existing run directories (one transaction each; re-ingesting is a no-op)");
  ingest->add_option("run_dirs", a.run_dirs, "artifacts/runs/<stamp>__bench__<label> directories")->required();
  ingest->add_option("--db", a.db, db_help);
  ingest->add_flag("--partial", a.partial, "Also store a run that did not finish (marked incomplete)");
  ingest->add_flag("--json", a.as_json, "Print JSON");
  ingest->callback([] { ingest_command(a); });

  auto* history = bench.add_subcommand("history", "A target's runs over time, with change points (level shifts)");
  history->add_option("target", a.target, "chNN:example")->required();
  history->add_option("--hardware", a.hardware_key, "Only runs on this hardware key (e.g. h100_80gb_hbm3)");
  history->add_option("--mode", a.mode, "Only runs in this timing mode (cold, hot, graph)");
  history->add_option("--db", a.db, db_help);
  history->add_flag("--json", a.as_json, "Print JSON");
  history->callback([] { history_command(a); });

  auto* cmp = bench.add_subcommand("compare-runs", "Two stored runs target by target: medians, ratio, CI, change");
  cmp->add_option("run_a", a.run_a, "Run id, directory name or path, unique prefix (stamp), latest or previous")->required();
  cmp->add_option("run_b", a.run_b, "The run compared against A")->required();
  cmp->add_option("--db", a.db, db_help);
  cmp->add_flag("--fail-on-regression", a.fail_on_regression, "Exit 1 when any target/variant is slower in B");
  cmp->add_flag("--json", a.as_json, "Print JSON");
  cmp->callback([] { compare_runs_command(a); });
}

}  // namespace aisp
