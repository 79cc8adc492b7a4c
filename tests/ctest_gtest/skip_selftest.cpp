// A googletest binary whose outcome is chosen by AISP_SKIP_SELFTEST (all_skip, skip_and_fail,
// skip_and_pass), driven by selftest.sh to prove run_gtest.sh reports skipped only when every test skipped.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

std::string mode() {
  const char* m = std::getenv("AISP_SKIP_SELFTEST");
  return m ? m : "";
}

TEST(SkipSelftest, First) { GTEST_SKIP() << "skipped on purpose (" << mode() << ")"; }

TEST(SkipSelftest, Second) {
  if (mode() == "all_skip") GTEST_SKIP() << "skipped on purpose";
  EXPECT_NE(mode(), "skip_and_fail") << "failed on purpose";
}

}  // namespace
