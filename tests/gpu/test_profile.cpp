// GPU test (label gpu): `aisp profile` on the real ch07 pairs and the planted out-of-bounds fixture.
// Skips with a visible reason when there is no GPU, or when ncu / compute-sanitizer are not installed
// (the command then exits 2 and says where it looked). Classifications, not timings, are under test.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "aisp_command.hpp"

using nlohmann::json;

namespace {

// `aisp <args>`'s stdout (with its stderr when asked); the exit code in *code.
std::string run(const std::string& args, int* code, bool with_stderr = false) {
  return shell_output("'" + aisp_exe() + "' " + args + (with_stderr ? " 2>&1" : " 2>/dev/null"), code);
}

class Profile : public ::testing::Test {
 protected:
  static inline std::string dir;
  static inline std::string skip;
  std::string tool_missing;  // set by profile() when ncu / compute-sanitizer is not installed
  static void SetUpTestSuite() {
    int code = 0;
    run("info gpu --json", &code);
    if (code != 0) {
      skip = "no GPU: `aisp info gpu` found no CUDA device";
      return;
    }
    dir = (std::filesystem::temp_directory_path() / "aisp_profile_gpu_test").string();
    std::filesystem::remove_all(dir);
  }
  void SetUp() override {
    if (!skip.empty()) GTEST_SKIP() << skip;
  }
  // Runs an `aisp profile` command with this suite's artifacts dir; skips when the tool is missing.
  json profile(const std::string& args, int want_code) {
    int code = 0;
    std::string out = run("profile " + args + " --json --artifacts-dir " + dir, &code);
    if (code == 2) {
      std::string msg = run("profile " + args + " --artifacts-dir " + dir, &code, true);
      if (msg.find("not found") != std::string::npos) {
        tool_missing = msg;
        return json(json::value_t::discarded);
      }
    }
    EXPECT_EQ(code, want_code) << args << "\n" << out.substr(0, 3000);
    json j = json::parse(out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << args << " printed no JSON:\n" << out.substr(0, 3000);
    return j;
  }
};

// Ends the test: skipped (with the tool's message) when the tool is missing, else already failed.
#define RETURN_IF_NO_JSON(docs)                                                    \
  if ((docs).is_discarded()) {                                                     \
    if (!tool_missing.empty()) GTEST_SKIP() << "tool missing: " << tool_missing;   \
    return;                                                                        \
  }

TEST_F(Profile, SanitizerFindsThePlantedOutOfBoundsWrite) {
  json docs = profile("sanitizer --target sanitizer:oob_write --tool memcheck", 3);
  RETURN_IF_NO_JSON(docs);
  ASSERT_EQ(docs.size(), 2u);
  for (auto& d : docs) {
    ASSERT_TRUE(d.contains("sanitizer")) << d.dump(2);
    if (d["variant"] == "baseline") {
      EXPECT_TRUE(d["sanitizer"]["clean"].get<bool>()) << d["sanitizer"].dump(2);
    } else {
      EXPECT_GE(d["sanitizer"]["errors"].get<int>(), 1);
      ASSERT_FALSE(d["sanitizer"]["findings"].empty());
      auto& f = d["sanitizer"]["findings"][0];
      EXPECT_NE(f["kind"].get<std::string>().find("Invalid __global__ write"), std::string::npos) << f.dump(2);
      EXPECT_NE(f["kernel"].get<std::string>().find("oob_write_kernel"), std::string::npos) << f.dump(2);
    }
  }
}

TEST_F(Profile, HonestFixtureIsCleanUnderEveryTool) {
  json docs = profile("sanitizer --target sanitizer:oob_write --variant baseline --tool all", 0);
  RETURN_IF_NO_JSON(docs);
  EXPECT_EQ(docs.size(), 4u);
  for (auto& d : docs) EXPECT_TRUE(d["sanitizer"]["clean"].get<bool>()) << d.dump(2);
}

TEST_F(Profile, CopyIsMemoryBoundNearTheDramRoof) {
  json docs = profile("ncu --target ch07:copy_scalar --preset deep_dive", 0);
  RETURN_IF_NO_JSON(docs);
  ASSERT_EQ(docs.size(), 2u);
  for (auto& d : docs) EXPECT_EQ(d["kernels"].size(), 1u) << "only the timed kernel may be profiled: " << d.dump(1).substr(0, 2000);
  json bn = profile("bottleneck --target ch07:copy_scalar", 0);
  for (auto& k : bn) EXPECT_EQ(k["verdict"], "memory_bound") << k.dump(2);
  json rl = profile("roofline --target ch07:copy_scalar", 0);
  for (auto& p : rl) {
    EXPECT_EQ(p["bound"], "memory") << p.dump(2);
    if (p["variant"] != "baseline") EXPECT_GT(p["pct_of_roof"].get<double>(), 60) << p.dump(2);
  }
}

TEST_F(Profile, NaiveTransposeIsUncoalescedAndCompareExplainsIt) {
  json docs = profile("ncu --target ch07:transpose --preset deep_dive", 0);
  RETURN_IF_NO_JSON(docs);
  json bn = profile("bottleneck --target ch07:transpose", 0);
  for (auto& k : bn) EXPECT_EQ(k["verdict"], k["variant"] == "baseline" ? "uncoalesced" : "memory_bound") << k.dump(2);
  json cmp = profile("compare ch07:transpose", 0);
  ASSERT_EQ(cmp.size(), 1u);
  std::string text = cmp[0]["explanation"].dump();
  EXPECT_NE(text.find("store sectors/request"), std::string::npos) << text;
  EXPECT_GT(cmp[0]["profiled_speedup"].get<double>(), 1.5) << text;
}

}  // namespace
