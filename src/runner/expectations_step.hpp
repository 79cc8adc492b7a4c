// The expectations step at the end of a bench run: compare every target with this hardware's stored
// expectations, record the outcome in the results, write reports/expectations_check.md, and update
// the files when asked. Skipped, with a note, when the chapters' source directories are not found.
#pragma once
#include <filesystem>

#include "core/expectation_check.hpp"

namespace aisp {

// Returns the manifest's `expectations` block (null when the step is disabled).
json run_expectations_step(std::vector<TargetResult>& results, const std::filesystem::path& run_dir,
                           const json& manifest, const ExpectationCheckOptions& options);

}  // namespace aisp
