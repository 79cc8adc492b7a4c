// `aisp cluster slurm`'s script (runner/slurm_script.hpp, issue 26) on a CPU: the #SBATCH lines, NCCL's
// multicast off, one srun task per node with its own run label, one target selector per array task, bash's
// own parse of the text (`bash -n`), and `sbatch --test-only` when Debian's slurm-client is installed and a
// controller answers (skipped with the reason otherwise: CI has no Slurm controller).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "runner/rank_plan.hpp"
#include "runner/slurm_script.hpp"

namespace aisp {
namespace {

namespace fs = std::filesystem;

SlurmJob h100_job() {
  SlurmJob j;
  j.nodes = 2;
  j.gpus_per_node = 8;
  j.gpu_type = "h100";
  j.partition = "gpu";
  j.command = {"aisp", "bench", "run", "-t", "ch04", "--nproc-per-node", "8"};
  return j;
}

bool has_line(const std::string& text, const std::string& line) { return text.find(line + "\n") != std::string::npos; }

TEST(SlurmScript, HeaderAsksForTheNodesAndGpusAndNcclMulticastIsOff) {
  std::string s = slurm_script(h100_job());
  EXPECT_EQ(s.rfind("#!/bin/bash\n", 0), 0u);
  for (const char* line : {"#SBATCH --job-name=aisp-bench", "#SBATCH --nodes=2", "#SBATCH --ntasks-per-node=1",
                           "#SBATCH --gres=gpu:h100:8", "#SBATCH --time=01:00:00", "#SBATCH --partition=gpu",
                           "export NCCL_NVLS_ENABLE=0", "export MASTER_PORT=29500", "set -euo pipefail"})
    EXPECT_TRUE(has_line(s, line)) << line << "\n" << s;
  EXPECT_EQ(s.find("#SBATCH --array"), std::string::npos) << s;
  EXPECT_TRUE(has_line(s, "#SBATCH --output=aisp-bench-%j.out")) << s;
  EXPECT_TRUE(
      has_line(s,
               "srun --nodes=2 --ntasks-per-node=1 --export=ALL bash -c 'exec \"$@\" --label "
               "\"slurm-${SLURM_ARRAY_JOB_ID:-$SLURM_JOB_ID}-${SLURM_ARRAY_TASK_ID:-0}-node${SLURM_NODEID}\"' aisp-task 'aisp' "
               "'bench' 'run' '-t' 'ch04' '--nproc-per-node' '8'"))
      << s;
}

TEST(SlurmScript, ArrayTargetsGiveEachTaskOneSelector) {
  SlurmJob j = h100_job();
  j.command = {"aisp", "bench", "run", "--nproc-per-node", "8"};
  j.array_targets = {"ch04:allreduce_bucket", "ch04:p2p_copy", "labs/x:it's"};
  j.gpu_type.clear();
  std::string s = slurm_script(j);
  EXPECT_TRUE(has_line(s, "#SBATCH --array=0-2")) << s;
  EXPECT_TRUE(has_line(s, "#SBATCH --output=aisp-bench-%A_%a.out")) << s;
  EXPECT_TRUE(has_line(s, "#SBATCH --gres=gpu:8")) << s;
  EXPECT_TRUE(has_line(s, "targets=('ch04:allreduce_bucket' 'ch04:p2p_copy' 'labs/x:it'\\''s')")) << s;
  EXPECT_NE(s.find("exec \"$@\" --targets \"$AISP_SLURM_TARGETS\" --label"), std::string::npos) << s;
}

TEST(SlurmScript, RefusesWhatWouldBreakTheJob) {
  SlurmJob j = h100_job();
  j.command.clear();
  EXPECT_THROW(slurm_script(j), std::invalid_argument);
  j = h100_job();
  j.nodes = 0;
  EXPECT_THROW(slurm_script(j), std::invalid_argument);
  j = h100_job();
  j.time = "an hour";
  EXPECT_THROW(slurm_script(j), std::invalid_argument);
  j = h100_job();
  j.partition = "gpu\n#SBATCH --uid=0";
  EXPECT_THROW(slurm_script(j), std::invalid_argument);
  j = h100_job();
  j.command.push_back("--label=mine");
  EXPECT_THROW(slurm_script(j), std::invalid_argument);
  j = h100_job();
  j.array_targets = {"ch01"};  // the command already has -t ch04
  EXPECT_THROW(slurm_script(j), std::invalid_argument);
  for (const char* t : {"30", "1:00:00", "2-12", "2-12:30:00"}) {
    j = h100_job();
    j.time = t;
    EXPECT_NO_THROW(slurm_script(j)) << t;
  }
}

fs::path write_script(const SlurmJob& j) {
  fs::path f = fs::temp_directory_path() / ("aisp_slurm_" + std::to_string(getpid()) + ".sbatch");
  std::ofstream(f) << slurm_script(j);
  return f;
}

std::string run(const std::string& command, int* rc) {
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  std::string out;
  char buf[512];
  while (p && fgets(buf, sizeof buf, p)) out += buf;
  *rc = p ? pclose(p) : -1;
  return out;
}

TEST(SlurmScript, BashParsesTheScript) {
  SlurmJob j = h100_job();
  j.command = {"aisp", "bench", "run", "--nproc-per-node", "8"};
  j.array_targets = {"ch04", "labs/x:it's"};
  fs::path f = write_script(j);
  int rc = 0;
  std::string out = run("bash -n " + shell_quote(f.string()), &rc);
  EXPECT_EQ(rc, 0) << out;
  fs::remove(f);
}

TEST(SlurmScript, SbatchTestOnlyAcceptsTheScript) {
  std::string sbatch = find_on_path("sbatch", std::getenv("PATH"));
  if (sbatch.empty()) GTEST_SKIP() << "sbatch not installed (Debian: apt-get install slurm-client)";
  fs::path f = write_script(h100_job());
  int rc = 0;
  std::string out = run("timeout 20 " + shell_quote(sbatch) + " --test-only " + shell_quote(f.string()), &rc);
  fs::remove(f);
  if (rc != 0 && (out.find("Unable to contact") != std::string::npos || out.find("slurm.conf") != std::string::npos ||
                  out.find("Could not establish") != std::string::npos || out.find("Invalid partition") != std::string::npos))
    GTEST_SKIP() << "no Slurm controller to test against: " << out.substr(0, 300);
  EXPECT_EQ(rc, 0) << out;
}

}  // namespace
}  // namespace aisp
