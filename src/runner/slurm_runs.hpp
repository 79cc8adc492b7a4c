// The run directories a Slurm job of `aisp cluster slurm` left (issue 26): every node labels its run
// `slurm-<job>-<array task>-node<id>` (runner/slurm_script.hpp), so `aisp cluster merge` finds them by the
// job id under the nodes' artifacts directories and ingests them into one store. Pure file-system reading.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace aisp {

// The run directories of Slurm job `job` (array job id or job id) under `roots`, sorted by name. A root may be
// an artifacts directory (its runs/ is searched), a runs/ directory, or one run directory. A run directory is
// one named <stamp>__bench__slurm-<job>-<task>-node<id> with a manifest.json. Throws std::invalid_argument for a
// job id that is not a number (it is matched inside directory names).
std::vector<std::filesystem::path> slurm_run_dirs(const std::vector<std::filesystem::path>& roots, const std::string& job);

}  // namespace aisp
