// GPU test (label gpu): runs every fixture pair through the real supervisor and checks that each broken
// variant gets the right status and reason while its honest baseline still completes. Skips with a
// visible reason when no GPU is present (CI).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "aisp_command.hpp"

using nlohmann::json;

namespace {

class FixtureStatuses : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    int code = 0;
    shell_output(std::string("'") + aisp_exe() + "' info gpu --json >/dev/null 2>&1", &code);
    if (code != 0) return;
    have_gpu = true;
    std::string dir = std::filesystem::temp_directory_path() / "aisp_fixture_test";
    std::filesystem::remove_all(dir);
    // Short timeouts keep the hang fixtures quick; few iterations: statuses, not timings, are under test.
    std::string out = shell_output(std::string("'") + aisp_exe() +
                                       "' bench run --targets fixtures --iterations 10 --warmup 1 "
                                       "--timeout-multiplier 0.15 --json --artifacts-dir " +
                                       dir + " 2>" + dir + ".stderr",
                                   &code);
    exit_code = code;
    raw_output = out;
    std::ifstream err(dir + ".stderr");
    stderr_text.assign(std::istreambuf_iterator<char>(err), {});
    doc = json::parse(out, nullptr, false);
    if (doc.is_discarded()) return;
    for (auto& ch : doc.value("results", json::array()))
      for (auto& b : ch["benchmarks"]) targets[b["example"].get<std::string>()] = b;
  }
  void SetUp() override {
    if (!have_gpu) GTEST_SKIP() << "no GPU: `aisp info gpu` found no CUDA device";
    ASSERT_FALSE(doc.is_discarded()) << "bench run (exit " << exit_code << ") printed no JSON. stdout:\n"
                                     << raw_output.substr(0, 2000) << "\nstderr (end):\n"
                                     << stderr_text.substr(stderr_text.size() > 3000 ? stderr_text.size() - 3000 : 0);
  }
  static const json& variant(const std::string& example, const std::string& name) {
    static json none;
    auto it = targets.find(example);
    if (it == targets.end()) return none;
    for (auto& o : it->second["optimizations"])
      if (o["name"] == name) return o;
    return none;
  }
  void expect(const std::string& example, const std::string& name, const std::string& status,
              const std::string& kind, const std::string& reason_part = "") {
    const json& v = variant(example, name);
    ASSERT_TRUE(v.is_object()) << example << ":" << name << " missing from results";
    EXPECT_EQ(v["status"], status) << example << ":" << name << " error: " << v["error"];
    if (!kind.empty()) EXPECT_EQ(v["error_kind"], kind) << example << ":" << name << " error: " << v["error"];
    if (!reason_part.empty())
      EXPECT_NE(v["error"].dump().find(reason_part), std::string::npos) << v["error"];
    // The honest baseline of every fixture pair still runs and is timed.
    EXPECT_GT(targets[example]["baseline"]["time_ms"].get<double>(), 0.0) << example << " baseline not timed";
  }
  static inline bool have_gpu = false;
  static inline int exit_code = -1;
  static inline json doc;
  static inline std::string raw_output, stderr_text;
  static inline std::map<std::string, json> targets;
};

TEST_F(FixtureStatuses, SegfaultIsCrashed) { expect("crash_segfault", "crash_segfault", "failed_error", "crashed", "SIGSEGV"); }
TEST_F(FixtureStatuses, IllegalAddressIsCudaError) {
  expect("illegal_address", "illegal_address", "failed_error", "cuda", "cudaErrorIllegalAddress");
}
TEST_F(FixtureStatuses, KernelHangIsTimeout) { expect("hang_kernel", "hang_kernel", "failed_error", "timeout"); }
TEST_F(FixtureStatuses, HostHangIsTimeout) { expect("hang_host", "hang_host", "failed_error", "timeout"); }
TEST_F(FixtureStatuses, ScratchOomIsOom) { expect("oom", "oom", "failed_error", "oom"); }
TEST_F(FixtureStatuses, CudaMallocOomIsOom) { expect("oom", "oom_cudamalloc", "failed_error", "oom"); }
TEST_F(FixtureStatuses, ExitIsCrashedNeverAResult) {
  expect("calls_exit", "calls_exit", "failed_error", "crashed", "exited with code 0");
  expect("calls_exit", "calls_exit_abort", "failed_error", "crashed", "SIGABRT");
  expect("calls_exit", "calls_exit_underscore", "failed_error", "crashed", "exited with code 3");
}
TEST_F(FixtureStatuses, WrongOutputFailsVerification) {
  expect("wrong_output", "wrong_output", "failed_verification", "verification");
}
TEST_F(FixtureStatuses, UnwrittenElementsAreCaughtByPoison) {
  expect("skips_elements", "skips_elements", "failed_verification", "verification", "never written");
}
TEST_F(FixtureStatuses, SetupPrecomputeIsCaughtByFreshInputs) {
  expect("precompute_in_setup", "precompute_in_setup", "failed_verification", "verification");
}
TEST_F(FixtureStatuses, InputMutationIsInvalid) { expect("mutates_input", "mutates_input", "invalid", "validity"); }
TEST_F(FixtureStatuses, WorkloadMismatchIsRejected) {
  expect("workload_mismatch", "workload_mismatch", "failed_error", "workload", "params.n");
}
TEST_F(FixtureStatuses, MissingArchitectureIsSkippedWithReason) {
  expect("needs_sm100", "needs_sm100", "skipped", "requirements", "needs sm_100");
}
TEST_F(FixtureStatuses, PluginWithoutFactoryIsAClearError) {
  expect("no_factory", "no_factory", "failed_error", "symbol", "aisp_plugin_api_version");
}
TEST_F(FixtureStatuses, WrongArchPluginIsAClearError) { expect("wrong_arch", "wrong_arch", "failed_error", "arch"); }
TEST_F(FixtureStatuses, PrintingDoesNotDisturbTheProtocol) {
  const json& v = variant("prints", "prints");
  ASSERT_TRUE(v.is_object());
  EXPECT_TRUE(v["status"] == "succeeded" || v["status"] == "failed_no_speedup") << v["error"];
  EXPECT_TRUE(v["verification"]["passed"].get<bool>());
  std::ifstream log(v["log"].get<std::string>());
  std::string text((std::istreambuf_iterator<char>(log)), {});
  EXPECT_NE(text.find("device printf"), std::string::npos) << "device printf not in the variant log";
}
TEST_F(FixtureStatuses, ExitCodeReportsInvalid) { EXPECT_EQ(exit_code, 3); }

}  // namespace
