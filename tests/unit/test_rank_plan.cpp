// The multi-rank launch plan (runner/rank_plan.hpp, issue 26) on a CPU: one spawn per rank with its own GPU
// and the torchrun variables, NCCL_NVLS_ENABLE=0 in every rank, refusals with a message, the Open MPI command
// line, and the environment a real forked child (WorkerProcess) and a real mpirun job (when Debian's
// openmpi-bin is installed; skipped with the reason otherwise) actually see.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "runner/rank_plan.hpp"

namespace aisp {
namespace {

namespace fs = std::filesystem;

std::string env_of(const RankSpawn& s, const std::string& name) {
  for (const auto& [k, v] : s.env)
    if (k == name) return v;
  return "<unset>";
}

RankLaunchOptions ranks(int n) {
  RankLaunchOptions o;
  o.nproc_per_node = n;
  return o;
}

TEST(RankPlan, OneRankPerVisibleGpuWithTheTorchrunVariablesAndNvlsOff) {
  RankPlan p = make_rank_plan(ranks(4), visible_device_ids(nullptr, 8));
  ASSERT_EQ(p.ranks.size(), 4u);
  for (int r = 0; r < 4; ++r) {
    const RankSpawn& s = p.ranks[r];
    EXPECT_EQ(s.visible_device, std::to_string(r));
    EXPECT_EQ(env_of(s, "RANK"), std::to_string(r));
    EXPECT_EQ(env_of(s, "LOCAL_RANK"), std::to_string(r));
    EXPECT_EQ(env_of(s, "WORLD_SIZE"), "4");
    EXPECT_EQ(env_of(s, "MASTER_ADDR"), "127.0.0.1");
    EXPECT_EQ(env_of(s, "MASTER_PORT"), "29500");
    EXPECT_EQ(env_of(s, "NCCL_NVLS_ENABLE"), "0");
  }
}

TEST(RankPlan, RanksGetTheSupervisorsOwnVisibleDevicesInOrder) {
  EXPECT_EQ(visible_device_ids("3,5", 2), (std::vector<std::string>{"3", "5"}));
  EXPECT_EQ(visible_device_ids("GPU-abc,GPU-def", 2), (std::vector<std::string>{"GPU-abc", "GPU-def"}));
  EXPECT_EQ(visible_device_ids("2,-1,4", 3), (std::vector<std::string>{"2"}));  // CUDA stops at -1
  EXPECT_TRUE(visible_device_ids("", 0).empty());
  RankPlan p = make_rank_plan(ranks(2), visible_device_ids("3,5", 2));
  EXPECT_EQ(p.ranks[0].visible_device, "3");
  EXPECT_EQ(p.ranks[1].visible_device, "5");
}

TEST(RankPlan, RefusesMoreRanksThanVisibleGpusWithAClearMessage) {
  try {
    make_rank_plan(ranks(2), visible_device_ids(nullptr, 1));
    FAIL() << "2 ranks on 1 GPU were accepted";
  } catch (const std::invalid_argument& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("--nproc-per-node 2 needs 2 GPUs, but 1 is visible"), std::string::npos) << m;
    EXPECT_NE(m.find("--ranks-on-one-gpu"), std::string::npos) << m;
  }
  EXPECT_THROW(make_rank_plan(ranks(1), {}), std::invalid_argument);  // no GPU at all
  EXPECT_THROW(make_rank_plan(ranks(0), {"0"}), std::invalid_argument);
  RankLaunchOptions bad = ranks(1);
  bad.launch_via = "torchrun";
  EXPECT_THROW(make_rank_plan(bad, {"0"}), std::invalid_argument);
}

TEST(RankPlan, RanksOnOneGpuPutsEveryRankOnTheFirstDeviceAndSaysSo) {
  RankLaunchOptions o = ranks(4);
  o.ranks_on_one_gpu = true;
  RankPlan p = make_rank_plan(o, {"7"});
  for (const RankSpawn& s : p.ranks) EXPECT_EQ(s.visible_device, "7");
  EXPECT_EQ(p.ranks[3].world_size, 4);
  json j = p.to_json();
  EXPECT_TRUE(j["ranks_on_one_gpu"].get<bool>());
  EXPECT_EQ(j["ranks"][2]["env"]["NCCL_NVLS_ENABLE"], "0");
  EXPECT_EQ(j["ranks"].size(), 4u);
}

TEST(RankPlan, LocalSpawnsKeepTheBaseAndGiveEachRankItsOwnLog) {
  RankPlan p = make_rank_plan(ranks(2), {"0", "1"});
  WorkerSpawn base;
  base.aisp_exe = "/x/aisp";
  base.plugin = "p.so";
  base.log_file = "/run/logs/ch04__allreduce__baseline.log";
  base.axes = {{"n", 4}};
  auto spawns = rank_spawns(p, base);
  ASSERT_EQ(spawns.size(), 2u);
  EXPECT_EQ(spawns[1].log_file, "/run/logs/ch04__allreduce__baseline.rank1.log");
  EXPECT_EQ(spawns[1].visible_device, "1");
  EXPECT_EQ(spawns[1].plugin, "p.so");
  EXPECT_EQ(spawns[1].axes.at("n"), 4);
  std::set<std::string> names;
  for (const auto& kv : spawns[1].env) names.insert(kv.first + "=" + kv.second);
  EXPECT_TRUE(names.count("RANK=1") && names.count("NCCL_NVLS_ENABLE=0"));
}

TEST(RankPlan, MpirunLineHasOneAppContextPerRankWithItsOwnDevice) {
  RankLaunchOptions o = ranks(2);
  o.launch_via = "mpirun";
  RankPlan p = make_rank_plan(o, {"0", "1"});
  WorkerCommand cmd{{"/x/aisp", "worker", "--plugin", "p.so"}, {{"PYTHONUNBUFFERED", "1"}}};
  auto argv = mpirun_argv(p, "/usr/bin/mpirun", cmd);
  std::string line;
  for (auto& a : argv) line += a + " ";
  EXPECT_EQ(line,
            "/usr/bin/mpirun --bind-to none "
            "-np 1 env CUDA_VISIBLE_DEVICES=0 PYTHONUNBUFFERED=1 RANK=0 LOCAL_RANK=0 WORLD_SIZE=2 LOCAL_WORLD_SIZE=2 "
            "MASTER_ADDR=127.0.0.1 MASTER_PORT=29500 NCCL_NVLS_ENABLE=0 /x/aisp worker --plugin p.so : "
            "-np 1 env CUDA_VISIBLE_DEVICES=1 PYTHONUNBUFFERED=1 RANK=1 LOCAL_RANK=1 WORLD_SIZE=2 LOCAL_WORLD_SIZE=2 "
            "MASTER_ADDR=127.0.0.1 MASTER_PORT=29500 NCCL_NVLS_ENABLE=0 /x/aisp worker --plugin p.so ");
}

TEST(RankPlan, MissingMpirunIsAClearError) {
  fs::path empty = fs::temp_directory_path() / "aisp_rank_plan_empty_path";
  fs::create_directories(empty);
  try {
    require_mpirun(empty.c_str());
    FAIL() << "found an mpirun in an empty directory";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("apt-get install openmpi-bin"), std::string::npos) << e.what();
  }
}

// A stand-in for `aisp worker`: prints its environment to the log (its stdout), answers ready on fd 4 and
// the exit request read from fd 3, as a worker does.
fs::path fake_worker_script() {
  fs::path dir = fs::temp_directory_path() / ("aisp_rank_plan_" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::path script = dir / "fake_aisp";
  std::ofstream(script) << "#!/bin/sh\nenv\necho '{\"event\":\"ready\"}' >&4\nread line <&3\necho '{\"ok\":true}' >&4\n";
  fs::permissions(script, fs::perms::owner_all);
  return script;
}

std::string read_text(const fs::path& f) {
  std::ifstream in(f);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(RankPlan, AForkedRankWorkerSeesItsRankDeviceAndNvlsOff) {
  fs::path script = fake_worker_script();
  RankPlan p = make_rank_plan(ranks(2), {"4", "6"});
  WorkerSpawn base;
  base.aisp_exe = script.string();
  base.plugin = "fake.so";
  base.log_file = (script.parent_path() / "w.log").string();
  for (const WorkerSpawn& s : rank_spawns(p, base)) {
    WorkerProcess w(s);
    Reply ready = w.wait_ready(10);
    ASSERT_TRUE(ready.ok()) << ready.reason;
    w.shutdown(10);
    std::string env = read_text(s.log_file);
    const std::string r = env.find("RANK=1\n") != std::string::npos ? "1" : "0";
    EXPECT_EQ(s.log_file, (script.parent_path() / ("w.rank" + r + ".log")).string());
    EXPECT_NE(env.find("CUDA_VISIBLE_DEVICES=" + std::string(r == "1" ? "6" : "4") + "\n"), std::string::npos) << env;
    EXPECT_NE(env.find("NCCL_NVLS_ENABLE=0\n"), std::string::npos) << env;
    EXPECT_NE(env.find("WORLD_SIZE=2\n"), std::string::npos) << env;
    EXPECT_NE(env.find("MASTER_PORT=29500\n"), std::string::npos) << env;
  }
  fs::remove_all(script.parent_path());
}

// The generated mpirun line run for real (Open MPI forks each rank on this host), with `sh -c` standing in
// for the worker: every rank reports its own RANK, device and NCCL_NVLS_ENABLE.
TEST(RankPlan, RealMpirunGivesEachRankItsEnvironment) {
  std::string mpirun = find_on_path("mpirun", std::getenv("PATH"));
  if (mpirun.empty()) GTEST_SKIP() << "mpirun not installed (Debian: apt-get install openmpi-bin)";
  RankLaunchOptions o = ranks(2);
  o.launch_via = "mpirun";
  RankPlan p = make_rank_plan(o, {"0", "1"});
  WorkerCommand cmd{{"sh", "-c", "echo rank=$RANK dev=$CUDA_VISIBLE_DEVICES nvls=$NCCL_NVLS_ENABLE ws=$WORLD_SIZE"}, {}};
  std::string line;
  for (auto& a : mpirun_argv(p, mpirun, cmd)) line += "'" + a + "' ";
  // Root containers (CI, this machine) need Open MPI's explicit consent; harmless for other users.
  line = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_plm_rsh_agent= " + line + " 2>&1";
  FILE* f = popen(line.c_str(), "r");
  ASSERT_NE(f, nullptr);
  std::string out;
  char buf[512];
  while (fgets(buf, sizeof buf, f)) out += buf;
  int rc = pclose(f);
  ASSERT_EQ(rc, 0) << line << "\n" << out;
  EXPECT_NE(out.find("rank=0 dev=0 nvls=0 ws=2"), std::string::npos) << out;
  EXPECT_NE(out.find("rank=1 dev=1 nvls=0 ws=2"), std::string::npos) << out;
}

}  // namespace
}  // namespace aisp

namespace aisp {
namespace {

TEST(RankPlanRequest, TheFlagsAreCheckedAndNGreaterThanOneIsARunnableRequest) {
  BenchRequest r;
  r.targets = {"ch04"};
  EXPECT_NO_THROW(check_request(r));  // the defaults: one rank, as before
  r.nproc_per_node = 0;
  EXPECT_THROW(check_request(r), BenchError);
  // N > 1 runs (the ranks are wired into the target phases); whether there are GPUs enough is decided once
  // the GPUs are known (bench_run.cpp's plan_ranks, tests/e2e/cli_multi_rank.sh).
  r.nproc_per_node = 2;
  EXPECT_NO_THROW(check_request(r));
  r.print_launch_plan = true;
  EXPECT_NO_THROW(check_request(r));
  r.launch_via = "srun";
  try {
    check_request(r);
    FAIL() << "--launch-via srun accepted";
  } catch (const BenchError& e) { EXPECT_EQ(e.option, "--launch-via"); }
}

TEST(RankPlanRequest, ThePrintedPlanListsEachWorkersCommandAndEnvironment) {
  BenchRequest r;
  r.nproc_per_node = 2;
  r.ranks_on_one_gpu = true;
  RankPlan p = make_rank_plan(rank_launch_options(r), {"0"});
  WorkerSpawn base;
  base.aisp_exe = "/b/aisp";
  base.plugin = "<plugin>";
  base.log_file = "logs/<variant>.log";
  json j = launch_plan_report(p, base, "");
  ASSERT_EQ(j["workers"].size(), 2u);
  EXPECT_EQ(j["workers"][1]["argv"][0], "/b/aisp");
  EXPECT_EQ(j["workers"][1]["env"]["CUDA_VISIBLE_DEVICES"], "0");
  EXPECT_EQ(j["workers"][1]["env"]["RANK"], "1");
  EXPECT_EQ(j["workers"][1]["env"]["NCCL_NVLS_ENABLE"], "0");
  EXPECT_EQ(j["workers"][1]["log"], "logs/<variant>.rank1.log");
  EXPECT_TRUE(j["ranks_on_one_gpu"].get<bool>());
  r.launch_via = "mpirun";
  json m = launch_plan_report(make_rank_plan(rank_launch_options(r), {"0"}), base, "/usr/bin/mpirun");
  EXPECT_EQ(m["mpirun_argv"][0], "/usr/bin/mpirun");
  EXPECT_NE(m["mpirun_argv"].dump().find("<run>/work/pipes/<variant>/rank1.req"), std::string::npos) << m.dump();
  EXPECT_FALSE(m.contains("workers"));
}

}  // namespace
}  // namespace aisp
