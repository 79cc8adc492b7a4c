// `aisp cluster merge`'s finder (runner/slurm_runs.hpp, issue 26): the run directories one Slurm job left
// under several nodes' artifacts directories, and nothing else (another job, a prefix of the id, a directory
// without a manifest).
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "runner/slurm_runs.hpp"

namespace aisp {
namespace {

namespace fs = std::filesystem;

fs::path run_dir(const fs::path& runs, const std::string& name, bool manifest = true) {
  fs::path d = runs / name;
  fs::create_directories(d);
  if (manifest) std::ofstream(d / "manifest.json") << "{}";
  return d;
}

TEST(SlurmRuns, FindsOneJobsRunsAcrossNodesAndNothingElse) {
  fs::path root = fs::temp_directory_path() / ("aisp_slurm_runs_" + std::to_string(getpid()));
  fs::path a = run_dir(root / "node0" / "runs", "20261125_010000__bench__slurm-77-0-node0");
  fs::path b = run_dir(root / "node1" / "runs", "20261125_010002__bench__slurm-77-1-node1");
  fs::path single = run_dir(root / "elsewhere", "20261125_010001__bench__slurm-77-0-node2");
  run_dir(root / "node0" / "runs", "20261125_010000__bench__slurm-770-0-node0");        // another job (prefix)
  run_dir(root / "node0" / "runs", "20261125_010000__bench__slurm-78-0-node0");         // another job
  run_dir(root / "node1" / "runs", "20261125_010003__bench__slurm-77-2-node1", false);  // no manifest
  run_dir(root / "node1" / "runs", "20261125_010004__bench__targets-ch04");             // not a Slurm run
  auto found = slurm_run_dirs({root / "node0", root / "node1" / "runs", single}, "77");
  EXPECT_EQ(found, (std::vector<fs::path>{a, single, b}));  // by name: the stamps order them
  EXPECT_TRUE(slurm_run_dirs({root / "node0"}, "79").empty());
  EXPECT_THROW(slurm_run_dirs({root}, "77*"), std::invalid_argument);
  fs::remove_all(root);
}

}  // namespace
}  // namespace aisp
