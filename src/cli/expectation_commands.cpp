// `aisp bench expectations [--hardware KEY] [--min-speedup X] [--show-all] [--json] [--output DIR]`:
// the stored expectation entries across chapters (what each pair achieves on that hardware), and the
// seed's proof-of-benefit CSV/MD when --output is given. `--update-from RUN_DIR` applies a finished run's
// results to the files, as `bench run --update-expectations` does at the end of a run.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "cli/export_commands.hpp"
#include "cli/paths.hpp"
#include "core/expectation_check.hpp"
#include "core/json_io.hpp"
#include "core/result.hpp"
#include "core/verdict.hpp"
#include "report/expectation_reports.hpp"

namespace aisp {
namespace fs = std::filesystem;
namespace {

struct ExpectationArgs {
  std::string hardware, output, source_root, update_from;
  bool accept_regressions = false;
  double min_speedup = kDefaultMinSpeedup;
  bool show_all = false, as_json = false;
};

// The measured results of a finished run (its directory, or a copy holding manifest.json and
// benchmark_test_results.json side by side) written into the expectation files: for a run made on a
// machine whose checkout was not kept (the lent GPU machines), with the same rules as at the end of a run.
int update_from_run(const ExpectationArgs& a, const fs::path& root) {
  fs::path dir = a.update_from;
  fs::path results = dir / "results" / "benchmark_test_results.json";
  if (!fs::exists(results)) results = dir / "benchmark_test_results.json";
  if (!fs::exists(dir / "manifest.json") || !fs::exists(results))
    throw CLI::Error("NoRun", fmt::format("{}: not a run directory (needs manifest.json and "
                                          "results/benchmark_test_results.json)", dir.string()), 2);
  json manifest;
  std::vector<TargetResult> targets;
  try {
    manifest = read_json(dir / "manifest.json");
    targets = targets_from_document(read_json(results));
  } catch (const std::exception& e) {
    throw CLI::Error("BadRun", e.what(), 2);
  }
  ExpectationCheckOptions o;
  o.enabled = o.update = true;
  o.accept_regressions = a.accept_regressions;
  o.source_root = root;
  ExpectationProvenance prov = provenance_from_manifest(manifest, dir);
  if (prov.hardware_key.empty()) throw CLI::Error("BadRun", dir.string() + "/manifest.json names no hardware key", 2);
  ExpectationCheckReport report = check_expectations(targets, prov.hardware_key, prov, o);
  for (auto& note : report.notes) std::cerr << "expectations: " << note << "\n";
  std::cout << expectations_check_markdown(report);
  std::cerr << report.summary_line() << "\n";
  return report.count(ExpectationStatus::regression) > 0 && !a.accept_regressions ? 1 : 0;
}

int expectations_command(const ExpectationArgs& a) {
  fs::path root = a.source_root.empty() ? project_source_root() : fs::path(a.source_root);
  if (root.empty() || !fs::is_directory(root))
    throw CLI::Error("NoSources", "cannot find the chapters (set AISP_SOURCE_DIR or pass --source-root)", 2);
  if (!a.update_from.empty()) return update_from_run(a, root);
  std::vector<std::string> errors;
  std::vector<ListedExpectation> all = list_expectations(root, a.hardware, &errors);
  for (auto& e : errors) std::cerr << "error: " << e << "\n";
  std::vector<const ListedExpectation*> shown;
  for (auto& l : all)
    if (a.show_all || best_improvement(l.entry) >= a.min_speedup) shown.push_back(&l);

  if (a.as_json) {
    json out = json::array();
    for (auto* l : shown)
      out.push_back({{"chapter", l->chapter},
                     {"example", l->entry.example},
                     {"target", l->entry.target},
                     {"hardware_key", l->hardware_key},
                     {"file", l->file.string()},
                     {"best_improvement", best_improvement(l->entry)},
                     {"meets_min_speedup", best_improvement(l->entry) >= a.min_speedup},
                     {"severity", proof_of_benefit_severity(l->entry, a.min_speedup)},
                     {"entry", to_json(l->entry)}});
    std::cout << out.dump(2) << "\n";
  } else {
    std::cout << fmt::format("{} of {} expectation entries{} with best improvement >= {:.2f}x{}\n", shown.size(),
                             all.size(), a.hardware.empty() ? "" : " for '" + a.hardware + "'", a.min_speedup,
                             a.show_all ? " (--show-all: listing all)" : "");
    std::cout << fmt::format("{:<34} {:<16} {:<20} {:>28} {:>11} {:>11} {:>9}  {}\n", "target", "hardware",
                             "best variant", "speedup [95% CI]", "base ms", "opt ms", "n", "recorded");
    for (auto* l : shown) {
      const ExpectationEntry& e = l->entry;
      std::cout << fmt::format("{:<34} {:<16} {:<20} {:>28} {:>11.4g} {:>11.4g} {:>9}  {} {}\n",
                               l->chapter + ":" + e.example, l->hardware_key, e.best_optimization,
                               fmt::format("{:.3f}x [{:.3f}, {:.3f}]", e.best_speedup, e.ci_low, e.ci_high),
                               e.baseline_time_ms, e.best_optimized_time_ms,
                               fmt::format("{}/{}", e.provenance.baseline_samples, e.provenance.optimized_samples),
                               e.provenance.timestamp.substr(0, 10), e.provenance.git_commit.substr(0, 10));
    }
  }
  if (!a.output.empty()) {
    fs::path dir = a.output;
    write_file_atomic(dir / "proof_of_benefit_issues.csv", proof_of_benefit_csv(all, a.min_speedup));
    write_file_atomic(dir / "proof_of_benefit_issues.md", proof_of_benefit_markdown(all, a.min_speedup));
    std::cerr << fmt::format("wrote {} and {}\n", (dir / "proof_of_benefit_issues.csv").string(),
                             (dir / "proof_of_benefit_issues.md").string());
  }
  return errors.empty() ? 0 : 1;  // a corrupt expectations file is a failure to report, not to hide
}

}  // namespace

void add_expectation_commands(CLI::App& bench) {
  static ExpectationArgs a;
  auto* cmd = bench.add_subcommand(
      "expectations", "Stored expectations (chNN/expectations_<hwkey>.json) meeting a minimum speedup; "
                      "proof-of-benefit CSV/MD with --output");
  cmd->add_option("--hardware", a.hardware, "Hardware key or its prefix (h100 matches h100_80gb_hbm3); default: all");
  cmd->add_option("--min-speedup", a.min_speedup, "List entries whose best improvement is at least this")
      ->capture_default_str();
  cmd->add_flag("--show-all", a.show_all, "List every entry, whatever its speedup");
  cmd->add_option("--output", a.output, "Write proof_of_benefit_issues.csv and .md (all entries) into this directory");
  cmd->add_option("--source-root", a.source_root, "Project root holding chapters/ and labs/ (default: found from the binary)");
  cmd->add_flag("--json", a.as_json, "Print JSON");
  cmd->add_option("--update-from", a.update_from,
                  "Write a finished run's results into the expectation files (the rules of bench run "
                  "--update-expectations), e.g. a run copied back from a GPU machine");
  cmd->add_flag("--accept-regressions", a.accept_regressions, "With --update-from: also replace regressed entries");
  cmd->callback([] {
    int code = expectations_command(a);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace aisp
