// `aisp profile torch` (src/profile/torch_profile.cpp): the ops document the Python worker writes, read strictly,
// and the top-ops table, on the documents recorded on an H200 (tests/data/torch_profile).
#include "profile/torch_profile.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

namespace pf = aisp::profile;
using json = nlohmann::json;

namespace {
json recorded(const std::string& name) {
  std::ifstream f(std::string(AISP_TEST_DATA_DIR) + "/torch_profile/" + name);
  return json::parse(f);
}
}  // namespace

TEST(TorchProfile, RecordedEagerBlockIsReadInSelfCudaOrder) {
  pf::TorchOps t = pf::parse_torch_ops(recorded("baseline.torch_ops.json"));
  EXPECT_EQ(t.torch_version, "2.11.0+cu130");
  ASSERT_GT(t.ops.size(), 10u);
  EXPECT_EQ(t.ops[0].name, "aten::mm");  // the four GEMMs lead the eager block
  EXPECT_EQ(t.ops[0].calls, 4);
  for (size_t i = 1; i < t.ops.size(); ++i) EXPECT_GE(t.ops[i - 1].self_device_us, t.ops[i].self_device_us);
  EXPECT_EQ(t.ops[0].kind, "");  // recorded before rows had a kind
  std::string table = pf::torch_ops_table(t, 5);
  EXPECT_NE(table.find("aten::mm"), std::string::npos);
  EXPECT_NE(table.find("more rows in the ops document"), std::string::npos);
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 1 + 5 + 1 + 1);  // header, rows, more, GPU time
}

TEST(TorchProfile, RecordedCompiledBlockHasTritonKernels) {
  pf::TorchOps t = pf::parse_torch_ops(recorded("transformer_block_torch_compiled.torch_ops.json"));
  bool triton = false;
  for (auto& op : t.ops) triton = triton || op.name.rfind("triton_", 0) == 0;
  EXPECT_TRUE(triton);
}

TEST(TorchProfile, KindsAndStrictness) {
  json doc = {{"schema", "aisp.torch_ops/1"},
              {"torch_version", "2.11"},
              {"trace", "t.json"},
              {"wall_ms", 1.0},
              {"total_self_device_us", 100.0},
              {"ops",
               {{{"name", "gemm"},
                 {"kind", "gpu"},
                 {"calls", 1},
                 {"self_device_us", 100.0},
                 {"device_us", 100.0},
                 {"self_cpu_us", 0.0},
                 {"cpu_us", 0.0}},
                {{"name", "aten::mm"},
                 {"kind", "op"},
                 {"calls", 1},
                 {"self_device_us", 100.0},
                 {"device_us", 100.0},
                 {"self_cpu_us", 9.0},
                 {"cpu_us", 9.0}}}}};
  pf::TorchOps t = pf::parse_torch_ops(doc);
  ASSERT_EQ(t.ops.size(), 2u);
  EXPECT_EQ(t.ops[0].kind, "gpu");
  std::string table = pf::torch_ops_table(t, 10);
  EXPECT_NE(table.find("100.0%"), std::string::npos);  // each row against the GPU time, counted once
  EXPECT_NE(table.find("100.0 us"), std::string::npos);
  json bad = doc;
  bad["ops"][0]["kind"] = "cpu";
  EXPECT_THROW(pf::parse_torch_ops(bad), std::runtime_error);
  bad = doc;
  bad["schema"] = "aisp.torch_ops/9";
  EXPECT_THROW(pf::parse_torch_ops(bad), std::runtime_error);
  bad = doc;
  bad["ops"][1].erase("calls");
  EXPECT_THROW(pf::parse_torch_ops(bad), std::runtime_error);
}

TEST(TorchProfile, InterpreterWithoutTorchIsNamed) {
  EXPECT_NE(pf::torch_import_problem("/nonexistent/python3"), "");
  EXPECT_EQ(pf::torch_import_problem("/bin/true"), "");  // exit 0: what the interpreter says is all that counts
}
