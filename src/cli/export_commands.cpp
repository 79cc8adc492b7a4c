// `aisp bench export <run dir | results json> --format nvbench|gbench|csv|json|html [-o FILE]`: a finished run in
// another harness's JSON so its comparison tool (nvbench_compare.py, Google Benchmark's compare.py)
// can read it (src/report/exports.cpp), or in aisp's own analysed forms (src/analysis, via cli/analysis_commands).
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include <unistd.h>

#include "cli/analysis_commands.hpp"
#include "cli/export_commands.hpp"
#include "core/json_io.hpp"
#include "report/exports.hpp"
#include "report/pdf_print.hpp"

namespace aisp {
namespace fs = std::filesystem;
namespace {

struct ExportArgs {
  std::string input, format, output;
  bool samples_as_repetitions = false;
};

// A run directory, its results/ folder, or the results file itself.
fs::path results_file(const fs::path& input) {
  if (fs::is_regular_file(input)) return input;
  for (fs::path cand : {input / "results" / "benchmark_test_results.json", input / "benchmark_test_results.json"})
    if (fs::is_regular_file(cand)) return cand;
  throw CLI::Error("NoResults", fmt::format("{}: no benchmark_test_results.json there (pass a run directory or the "
                                            "results file)", input.string()), 2);
}

json manifest_for(const fs::path& results) {
  fs::path dir = results.parent_path();
  for (fs::path cand : {dir.parent_path() / "manifest.json", dir / "manifest.json"})
    if (fs::is_regular_file(cand)) return read_json(cand);
  std::cerr << "warning: no manifest.json next to " << results.string()
            << ": the export has no device, host or git context\n";
  return json::object();
}

// The HTML report (analysis_commands) written to a temporary file, then printed by headless Chromium.
int export_pdf(const ExportArgs& a) {
  if (a.output.empty() || a.output == "-") throw CLI::ValidationError("-o", "--format pdf writes a file: give -o FILE.pdf");
  report::BrowserLocation browser = report::find_chromium();
  if (browser.path.empty())
    throw CLI::Error("NoBrowser", fmt::format("--format pdf needs headless Chromium, not found; looked in: {} "
                                              "(Debian: apt-get install chromium; or set $AISP_CHROMIUM)",
                                              fmt::join(browser.looked_in, ", ")), 2);
  fs::path html = fs::temp_directory_path() / fmt::format("aisp_export_{}.html", getpid());
  export_analysis(a.input, "html", html.string());
  try {
    report::print_html_to_pdf(browser.path, html, a.output);
  } catch (const std::exception& e) {
    fs::remove(html);
    throw CLI::Error("PdfFailed", e.what(), 1);
  }
  fs::remove(html);
  std::cerr << fmt::format("wrote {} (pdf, {} bytes, printed by {})\n", a.output, fs::file_size(a.output), browser.path);
  return 0;
}

int export_command(const ExportArgs& a) {
  if (a.format == "pdf") return export_pdf(a);
  if (a.format == "csv" || a.format == "json" || a.format == "html") {  // aisp's own forms (src/analysis)
    export_analysis(a.input, a.format, a.output);
    return 0;
  }
  fs::path file = results_file(a.input);
  std::vector<TargetResult> targets;
  try {
    targets = targets_from_document(read_json(file));
  } catch (const std::exception& e) {
    throw CLI::Error("BadResults", fmt::format("{}: not a results document: {}", file.string(), e.what()), 2);
  }
  json manifest = manifest_for(file);
  ExportOptions o;
  o.samples_as_repetitions = a.samples_as_repetitions;
  o.source = fs::absolute(file).lexically_normal().string();
  json out = a.format == "nvbench" ? to_nvbench_json(targets, manifest, o) : to_gbench_json(targets, manifest, o);
  if (a.output.empty() || a.output == "-") {
    std::cout << out.dump(2) << "\n";
  } else {
    write_json_atomic(a.output, out);
    std::cerr << fmt::format("wrote {} ({} format, {} benchmark entries)\n", a.output, a.format,
                             out["benchmarks"].size());
  }
  return 0;
}

}  // namespace

void add_export_commands(CLI::App& bench) {
  static ExportArgs a;
  auto* exp = bench.add_subcommand(
      "export", "A run's results as NVBench JSON (for nvbench_compare.py), Google Benchmark JSON (for compare.py), "
                "or aisp's CSV / analysis JSON / HTML report / PDF (the HTML report printed by headless Chromium)");
  exp->add_option("input", a.input, "Run directory (artifacts/runs/<id>) or its results/benchmark_test_results.json")
      ->required();
  exp->add_option("--format", a.format, "nvbench | gbench | csv (one row per variant with derived figures) | json "
                                        "(the analysis document) | html (the self-contained report) | pdf (that report printed by headless Chromium; "
                                        "needs -o)")
      ->required()->check(CLI::IsMember({"nvbench", "gbench", "csv", "json", "html", "pdf"}));
  exp->add_option("-o,--output", a.output, "Write here (atomically) instead of stdout");
  exp->add_flag("--samples-as-repetitions", a.samples_as_repetitions,
                "gbench: one iteration entry per raw sample, so compare.py can run its U test");
  exp->callback([] { export_command(a); });
}

}  // namespace aisp
