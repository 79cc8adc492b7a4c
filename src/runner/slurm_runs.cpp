#include "runner/slurm_runs.hpp"

#include <algorithm>
#include <regex>
#include <set>
#include <stdexcept>

namespace aisp {
namespace fs = std::filesystem;

std::vector<fs::path> slurm_run_dirs(const std::vector<fs::path>& roots, const std::string& job) {
  if (job.empty() || !std::all_of(job.begin(), job.end(), [](char c) { return c >= '0' && c <= '9'; }))
    throw std::invalid_argument("--job must be a Slurm job id (digits), got '" + job + "'");
  const std::regex name("[0-9_]+__bench__slurm-" + job + "-[0-9]+-node[0-9]+");
  auto is_run = [&](const fs::path& d) {
    std::error_code ec;
    return std::regex_match(d.filename().string(), name) && fs::exists(d / "manifest.json", ec);
  };
  std::set<fs::path> found;
  for (const fs::path& root : roots) {
    if (is_run(root)) {
      found.insert(root);
      continue;
    }
    for (const fs::path& dir : {root / "runs", root}) {
      std::error_code ec;
      if (!fs::is_directory(dir, ec)) continue;
      for (auto& e : fs::directory_iterator(dir, ec))
        if (e.is_directory() && is_run(e.path())) found.insert(e.path());
    }
  }
  std::vector<fs::path> out(found.begin(), found.end());
  std::sort(out.begin(), out.end(), [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
  return out;
}

}  // namespace aisp
