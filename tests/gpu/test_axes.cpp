// GPU test (label gpu): `--axis` reaches the workers. ch07:copy_scalar reads axis n (aisp::axis), so each
// value becomes its own verified, timed target whose declared workload carries the value; a fixture pair
// that does not read the axis must fail with that reason rather than re-measure its default size.
// Skips with a visible reason when no GPU is present (CI).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

using nlohmann::json;

namespace {

std::string aisp_exe() {
  if (const char* e = std::getenv("AISP_EXE")) return e;
  auto beside = std::filesystem::read_symlink("/proc/self/exe").parent_path().parent_path() / "aisp";
  return std::filesystem::exists(beside) ? beside.string() : AISP_EXE;
}

json bench_run_json(const std::string& args, int* code) {
  std::string dir = std::filesystem::temp_directory_path() / "aisp_axes_test";
  std::string cmd = "'" + aisp_exe() + "' bench run " + args + " --iterations 10 --warmup 1 --no-db --json " +
                    "--artifacts-dir " + dir + " 2>/dev/null";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int st = pclose(p);
  *code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return json::parse(out, nullptr, false);
}

std::vector<json> benchmarks(const json& doc) {
  std::vector<json> out;
  for (auto& ch : doc.value("results", json::array()))
    for (auto& b : ch["benchmarks"]) out.push_back(b);
  return out;
}

bool have_gpu() {
  std::string cmd = "'" + aisp_exe() + "' info gpu --json >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

TEST(Axes, EachValueIsItsOwnVerifiedTargetWithThatWorkload) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU: `aisp info gpu` found no CUDA device";
  int code = 0;
  json doc = bench_run_json("-t ch07:copy_scalar --axis n=2^16,2^20", &code);
  ASSERT_FALSE(doc.is_discarded()) << "no JSON (exit " << code << ")";
  auto b = benchmarks(doc);
  ASSERT_EQ(b.size(), 2u);
  int64_t expected[] = {int64_t{1} << 16, int64_t{1} << 20};
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(b[i]["example"], "copy_scalar");
    EXPECT_EQ(b[i]["workload"]["params"]["n"].get<int64_t>(), expected[i]) << b[i]["workload"].dump();
    EXPECT_DOUBLE_EQ(b[i]["workload"]["bytes"].get<double>(), 8.0 * static_cast<double>(expected[i]));
    for (auto& o : b[i]["optimizations"]) EXPECT_TRUE(o["verification"]["passed"].get<bool>()) << o.dump();
    EXPECT_GT(b[i]["baseline"]["time_ms"].get<double>(), 0.0);
  }
  // 16x the elements: the larger point must take longer (it is not the default size twice).
  EXPECT_GT(b[1]["baseline"]["time_ms"].get<double>(), b[0]["baseline"]["time_ms"].get<double>());
}

TEST(Axes, APairThatDoesNotReadTheAxisFailsWithTheReason) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU: `aisp info gpu` found no CUDA device";
  int code = 0;
  json doc = bench_run_json("-t fixtures:prints --axis n=1024", &code);
  ASSERT_FALSE(doc.is_discarded()) << "no JSON (exit " << code << ")";
  auto b = benchmarks(doc);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(code, 1);
  EXPECT_NE(b[0]["error"].dump().find("does not read this axis"), std::string::npos) << b[0].dump(1);
}

}  // namespace
