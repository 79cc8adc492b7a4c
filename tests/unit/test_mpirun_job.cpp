// `--launch-via mpirun` as a transport (runner/mpirun_job.hpp, issue 26), run for real with Debian's Open MPI
// when it is installed (skipped with the reason otherwise, e.g. CI): a shell script stands in for
// `aisp worker` and speaks the protocol on fds 3/4, which the generated wrapper opens from the rank's named
// pipes. Every rank answers ready with its own RANK, device and NCCL_NVLS_ENABLE, requests through a
// RankGroup reach all ranks, exit ends the job, and a rank that never answers times out and takes the job down.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "runner/mpirun_job.hpp"
#include "runner/rank_group.hpp"

namespace aisp {
namespace {

namespace fs = std::filesystem;

const char* kFakeWorker = R"(#!/bin/sh
echo "{\"event\":\"ready\",\"rank\":\"$RANK\",\"dev\":\"$CUDA_VISIBLE_DEVICES\",\"nvls\":\"$NCCL_NVLS_ENABLE\"}" >&4
while IFS= read -r line <&3; do
  case "$line" in *'"exit"'*) echo '{"ok":true}' >&4; exit 0 ;; esac
  if [ "$RANK" = "$HANG_RANK" ]; then sleep 60; fi
  echo "{\"ok\":true,\"rank\":\"$RANK\"}" >&4
done
)";

class MpirunJobTest : public ::testing::Test {
 protected:
  void SetUp() override {
    mpirun = find_on_path("mpirun", std::getenv("PATH"));
    if (mpirun.empty()) GTEST_SKIP() << "mpirun not installed (Debian: apt-get install openmpi-bin)";
    dir = fs::temp_directory_path() / ("aisp_mpirun_job_" + std::to_string(getpid()));
    fs::create_directories(dir);
    script = dir / "fake_worker";
    std::ofstream(script) << kFakeWorker;
    fs::permissions(script, fs::perms::owner_all);
    // As in aisp's main(): a write to a killed rank's pipe is an error return, not a SIGPIPE that ends us.
    signal(SIGPIPE, SIG_IGN);
    // Root containers (CI, this machine) need Open MPI's explicit consent; harmless for other users.
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  }
  void TearDown() override {
    if (!dir.empty()) fs::remove_all(dir);
  }
  RankGroup start(int n, const char* hang_rank) {
    RankLaunchOptions o;
    o.nproc_per_node = n;
    o.launch_via = "mpirun";
    RankPlan plan = make_rank_plan(o, {"3", "5"});
    WorkerCommand cmd{{script.string()}, {{"HANG_RANK", hang_rank}}};
    return RankGroup(start_mpirun_job(plan, mpirun, cmd, (dir / "pipes").string(), (dir / "mpirun.log").string()));
  }
  std::string log() {
    std::ifstream in(dir / "mpirun.log");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  std::string mpirun;
  fs::path dir, script;
};

TEST_F(MpirunJobTest, EveryRankAnswersThroughItsPipesWithItsOwnEnvironment) {
  RankGroup g = start(2, "none");
  std::vector<Reply> ready = g.wait_ready(30);
  ASSERT_FALSE(first_rank_failure(ready)) << *first_rank_failure(ready) << "\n" << log();
  for (int r = 0; r < 2; ++r) {
    EXPECT_EQ(ready[r].body["rank"], std::to_string(r));
    EXPECT_EQ(ready[r].body["dev"], r == 0 ? "3" : "5");
    EXPECT_EQ(ready[r].body["nvls"], "0");
  }
  std::vector<Reply> replies = g.request({{"op", "memory"}}, 10);
  ASSERT_FALSE(first_rank_failure(replies)) << *first_rank_failure(replies);
  EXPECT_EQ(replies[1].body["rank"], "1");
  g.shutdown(10);
}

TEST_F(MpirunJobTest, ARankThatNeverAnswersTimesOutAndNamesItself) {
  RankGroup g = start(2, "1");
  ASSERT_FALSE(first_rank_failure(g.wait_ready(30))) << log();
  std::vector<Reply> replies = g.request({{"op", "time"}}, 1.0);
  EXPECT_TRUE(replies[0].ok());
  EXPECT_EQ(replies[1].status, Reply::Status::timeout);
  EXPECT_NE(replies[1].reason.find("rank 1: request 'time' did not answer"), std::string::npos) << replies[1].reason;
  // The job is gone: the next request fails at once instead of waiting again.
  std::vector<Reply> after = g.request({{"op", "memory"}}, 5);
  EXPECT_FALSE(after[1].ok());
}

// The real `aisp worker` (this checkout's build/aisp) under mpirun: its first message crosses the pipes. On a
// CPU it is the no_gpu error, on a GPU machine the load error of a plugin that does not exist: either way a
// reply from the worker itself, not a transport failure.
TEST_F(MpirunJobTest, TheRealWorkerSpeaksThroughThePipes) {
  fs::path aisp = fs::path(AISP_SOURCE_DIR) / "build" / "aisp";
  if (!fs::exists(aisp)) GTEST_SKIP() << aisp << " not built";
  RankLaunchOptions o;
  o.nproc_per_node = 2;
  o.launch_via = "mpirun";
  o.ranks_on_one_gpu = true;
  RankPlan plan = make_rank_plan(o, {"0"});
  WorkerSpawn spawn;
  spawn.aisp_exe = aisp.string();
  spawn.plugin = (dir / "no_such_plugin.so").string();
  RankGroup g(start_mpirun_job(plan, mpirun, worker_command(spawn), (dir / "pipes").string(), (dir / "mpirun.log").string()));
  for (const Reply& r : g.wait_ready(60)) {
    EXPECT_EQ(r.status, Reply::Status::error) << r.reason << "\n" << log();
    EXPECT_TRUE(r.kind == "no_gpu" || r.kind == "load") << r.kind << ": " << r.reason;
  }
}

TEST(MpirunPipeArgv, EachRankOpensItsOwnPipesAsFds4And3) {
  RankLaunchOptions o;
  o.nproc_per_node = 2;
  o.launch_via = "mpirun";
  auto argv = mpirun_pipe_argv(make_rank_plan(o, {"0", "1"}), "/usr/bin/mpirun", {{"/b/aisp", "worker"}, {}}, "/p");
  std::string line;
  for (auto& a : argv) line += a + " ";
  EXPECT_EQ(line.rfind("/usr/bin/mpirun --bind-to none -np 1 env CUDA_VISIBLE_DEVICES=0 ", 0), 0u) << line;
  EXPECT_NE(line.find("AISP_RANK_REQUESTS=/p/rank1.req AISP_RANK_REPLIES=/p/rank1.rep"), std::string::npos) << line;
  EXPECT_NE(line.find("sh -c exec \"$@\" 4>\"$AISP_RANK_REPLIES\" 3<\"$AISP_RANK_REQUESTS\" aisp-rank /b/aisp worker"),
            std::string::npos)
      << line;
  EXPECT_EQ(std::count(argv.begin(), argv.end(), ":"), 1);
  EXPECT_EQ(std::count(argv.begin(), argv.end(), "/usr/bin/mpirun"), 1);
}

}  // namespace
}  // namespace aisp
