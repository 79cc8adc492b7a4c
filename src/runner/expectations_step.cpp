#include "runner/expectations_step.hpp"

#include <cstdio>

#include "core/json_io.hpp"
#include "report/expectation_reports.hpp"

namespace aisp {

json run_expectations_step(std::vector<TargetResult>& results, const std::filesystem::path& run_dir,
                           const json& manifest, const ExpectationCheckOptions& options) {
  if (!options.enabled) return nullptr;
  ExpectationProvenance prov = provenance_from_manifest(manifest, run_dir);
  ExpectationCheckReport report;
  try {
    report = check_expectations(results, prov.hardware_key, prov, options);
  } catch (const std::exception& e) {
    // The run's measurements stand on their own; a failure here is reported, not fatal.
    std::fprintf(stderr, "expectations: not checked: %s\n", e.what());
    return {{"error", e.what()}};
  }
  write_file_atomic(run_dir / "reports" / "expectations_check.md", expectations_check_markdown(report));
  for (auto& note : report.notes) std::fprintf(stderr, "expectations: %s\n", note.c_str());
  std::fprintf(stderr, "%s\n", report.summary_line().c_str());
  return report.to_json();
}

}  // namespace aisp
