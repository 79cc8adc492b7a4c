// `aisp clean` retention and `aisp info topology|software` parsers on fake inputs: a temporary artifacts
// tree with stamped directories, a constructed `nvidia-smi topo -m` text, a fake sysfs node folder, and
// fake library/include folders with version headers.
#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/artifact_retention.hpp"
#include "core/gpu_topology.hpp"
#include "core/software_inventory.hpp"

namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("aisp_host_inv_" + std::to_string(::getpid()) + "_" +
                                               ::testing::UnitTest::GetInstance()->current_test_info()->name());
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

std::string read(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

TEST(Retention, StampTime) {
  auto t = aisp::stamp_time("20261125_005247__bench__targets-all");
  ASSERT_TRUE(t);
  EXPECT_EQ(std::chrono::system_clock::to_time_t(*t), 1795567967);  // 2026-11-25 00:52:47 UTC
  EXPECT_FALSE(aisp::stamp_time("latest"));
  EXPECT_FALSE(aisp::stamp_time("2026112x_005247"));
}

TEST(Retention, AgeCountAndBoth) {
  TempDir d;
  for (const char* r : {"20261101_000000__bench__a", "20261110_000000__bench__b", "20261120_000000__bench__c"})
    fs::create_directories(d.path / "runs" / r);
  write(d.path / "runs" / "20261001_000000__bench__live" / "progress" / "run_progress.json", R"({"state":"running"})");
  fs::create_directories(d.path / "profiles" / "20261001_000000__ncu__ch07_copy");
  write(d.path / "aisp.db", "x");
  auto now = *aisp::stamp_time("20261125_000000");
  auto removed = [](const std::vector<aisp::RetentionItem>& items) {
    std::vector<std::string> out;
    for (auto& i : items)
      if (i.remove) out.push_back(i.path.filename().string());
    return out;
  };
  aisp::RetentionPolicy age{10.0, std::nullopt};
  EXPECT_EQ(
      removed(aisp::plan_retention(d.path, age, now)),
      (std::vector<std::string>{"20261110_000000__bench__b", "20261101_000000__bench__a", "20261001_000000__ncu__ch07_copy"}));
  aisp::RetentionPolicy count{std::nullopt, 1};
  auto items = aisp::plan_retention(d.path, count, now);
  EXPECT_EQ(removed(items), (std::vector<std::string>{"20261110_000000__bench__b", "20261101_000000__bench__a"}));
  for (auto& i : items)
    if (i.path.filename() == "20261001_000000__bench__live") EXPECT_NE(i.reason.find("running"), std::string::npos);
  aisp::RetentionPolicy both{10.0, 2};  // older than 10 days AND beyond the newest 2
  EXPECT_EQ(removed(aisp::plan_retention(d.path, both, now)), (std::vector<std::string>{"20261101_000000__bench__a"}));
  aisp::RetentionPolicy store{std::nullopt, std::nullopt, true, d.path / "aisp.db"};
  EXPECT_EQ(removed(aisp::plan_retention(d.path, store, now)), std::vector<std::string>{"aisp.db"});
  EXPECT_TRUE(removed(aisp::plan_retention(d.path, aisp::RetentionPolicy{}, now)).empty());
}

TEST(Topology, ParsesNvidiaSmiMatrix) {
  auto t = aisp::parse_nvidia_smi_topo(read(std::string(AISP_TEST_DATA_DIR) + "/info/nvidia_smi_topo_2gpu_1nic.txt"));
  EXPECT_EQ(t.devices, (std::vector<std::string>{"GPU0", "GPU1", "NIC0"}));
  ASSERT_EQ(t.links.size(), 3u);
  EXPECT_EQ(t.links[0][1], "NV18");
  EXPECT_EQ(t.links[1][2], "SYS");
  EXPECT_EQ(t.links[2][2], "X");
  EXPECT_EQ(t.affinity["GPU1"]["CPU Affinity"], "48-95,144-191");
  EXPECT_EQ(t.affinity["GPU1"]["NUMA Affinity"], "1");
  EXPECT_EQ(t.affinity["GPU0"]["GPU NUMA ID"], "N/A");
  EXPECT_TRUE(t.affinity["NIC0"].empty());
  EXPECT_EQ(t.nic_names["NIC0"], "mlx5_0");
  EXPECT_NE(t.legend["NV#"].find("bonded set"), std::string::npos);
  EXPECT_THROW(aisp::parse_nvidia_smi_topo("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."),
               std::runtime_error);
}

TEST(Topology, NumaNodesFromSysfs) {
  TempDir d;
  write(d.path / "node1" / "cpulist", "8-15\n");
  write(d.path / "node1" / "meminfo", "Node 1 MemTotal:       16777216 kB\nNode 1 MemFree: 1 kB\n");
  write(d.path / "node0" / "cpulist", "0-7\n");
  write(d.path / "node0" / "meminfo", "Node 0 MemTotal:        8388608 kB\n");
  write(d.path / "possible", "0-1\n");
  auto nodes = aisp::numa_nodes(d.path);
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].id, 0);
  EXPECT_EQ(nodes[0].cpus, "0-7");
  EXPECT_DOUBLE_EQ(nodes[1].mem_total_gib, 16.0);
  EXPECT_TRUE(aisp::numa_nodes(d.path / "missing").empty());
}

TEST(Software, VersionsFromHeadersAndNames) {
  EXPECT_EQ(aisp::header_version("#define CUDART_VERSION 13000\n", {"CUDART_VERSION"}), "13.0");
  EXPECT_EQ(aisp::header_version("#define NCCL_MAJOR 2\n#define NCCL_MINOR 28\n#define NCCL_PATCH 9\n",
                                 {"NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH"}),
            "2.28.9");
  EXPECT_EQ(aisp::header_version("#define NCCL_MAJOR 2\n", {"NCCL_MAJOR", "NCCL_MINOR"}), "");
  EXPECT_EQ(aisp::nvcc_release("Cuda compilation tools, release 13.0, V13.0.88\nBuild cuda_13.0"), "13.0.88");
  EXPECT_EQ(aisp::nvcc_release("bash: nvcc: command not found"), "");
  EXPECT_EQ(aisp::driver_from_proc("NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  Tue Sep 23 2025\n"),
            "580.95.05");
  EXPECT_EQ(aisp::driver_from_proc(""), "");

  TempDir d;
  write(d.path / "lib" / "libcudnn.so.9", "");
  write(d.path / "lib" / "libcudnn.so.9.1.0", "");
  write(d.path / "lib" / "libnccl.so.2", "");
  write(d.path / "inc" / "nccl.h", "#define NCCL_MAJOR 2\n#define NCCL_MINOR 21\n#define NCCL_PATCH 5\n");
  const auto& libs = aisp::cuda_libraries();
  auto spec = [&](const std::string& lib) {
    return *std::find_if(libs.begin(), libs.end(), [&](auto& s) { return s.lib == lib; });
  };
  auto cudnn = aisp::find_library(spec("cudnn"), {d.path / "lib"}, {d.path / "inc"});
  EXPECT_TRUE(cudnn.found);
  EXPECT_EQ(cudnn.version, "9.1.0");  // no header: the longest file name
  auto nccl = aisp::find_library(spec("nccl"), {d.path / "lib"}, {d.path / "inc"});
  EXPECT_EQ(nccl.version, "2.21.5");
  EXPECT_NE(nccl.note.find("nccl.h"), std::string::npos);
  auto cublas = aisp::find_library(spec("cublas"), {d.path / "lib"}, {d.path / "inc"});
  EXPECT_FALSE(cublas.found);
  EXPECT_NE(cublas.note.find("not found: no libcublas.so*"), std::string::npos) << cublas.note;
}
