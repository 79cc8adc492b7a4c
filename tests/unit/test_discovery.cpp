#include <gtest/gtest.h>

#include <algorithm>

#include "core/discovery.hpp"

namespace aisp {
namespace {

std::vector<std::string> tree() {
  return {
      "ch07/baseline_copy.so",
      "ch07/optimized_copy.so",
      "ch07/optimized_copy_v2.so",
      "ch07/baseline_copy_async.so",          // more specific: claims copy_async*
      "ch07/optimized_copy_async_tma.so",
      "ch07/optimized_copyx.so",              // not "copy" + "_suffix": no baseline owns it
      "ch07/baseline_lonely.so",              // no optimized: dropped
      "ch07/optimized_copy.cu",               // other extension
      "ch07/copy_common.so",                  // neither prefix
      "ch07/README.md",
      "ch07/baseline_submission.so",          // seed's template stems
      "ch07/optimized_submission.so",
      "ch07/optimized_submission_fast.so",
      "ch07/baseline_copy.so.tmp",
      "labs/moe/baseline_router.so",
      "labs/moe/optimized_router_v2.so",
      "labs/moe/optimized_router_fused.so",
      "ch01/baseline_gemm.so",
      "ch01/optimized_gemm.so",
      "baseline_top.so",                      // no chapter directory
      "ch02/baseline_only.cu",
      "ch02/optimized_only.cu",
  };
}

std::vector<std::string> ids(const std::vector<Target>& ts) {
  std::vector<std::string> out;
  for (const auto& t : ts) out.push_back(t.id);
  return out;
}

std::vector<std::string> names(const std::vector<Variant>& vs) {
  std::vector<std::string> out;
  for (const auto& v : vs) out.push_back(v.name);
  return out;
}

using Strings = std::vector<std::string>;

TEST(Discovery, PairsSuffixVariantsAndMoreSpecificBaselines) {
  auto ts = discover_targets(tree(), ".so");
  ASSERT_EQ(ids(ts), (Strings{"ch01:gemm", "ch07:copy", "ch07:copy_async", "labs/moe:router"}));

  const Target& copy = ts[1];
  EXPECT_EQ(copy.chapter, "ch07");
  EXPECT_EQ(copy.example, "copy");
  EXPECT_EQ(copy.baseline.name, "baseline");
  EXPECT_EQ(copy.baseline.file, "ch07/baseline_copy.so");
  EXPECT_EQ(names(copy.optimized), (Strings{"copy", "copy_v2"}));
  EXPECT_EQ(copy.optimized[1].file, "ch07/optimized_copy_v2.so");

  EXPECT_EQ(names(ts[2].optimized), (Strings{"copy_async_tma"}));
  EXPECT_EQ(ts[2].baseline.file, "ch07/baseline_copy_async.so");

  const Target& router = ts[3];
  EXPECT_EQ(router.chapter, "labs/moe");
  EXPECT_EQ(router.example, "router");
  EXPECT_EQ(names(router.optimized), (Strings{"router_fused", "router_v2"}));
}

TEST(Discovery, LongestBaselinePrefixWinsEvenForDeeperSuffixes) {
  auto ts = discover_targets({"c/baseline_a.so", "c/baseline_a_b.so", "c/optimized_a_b_c.so", "c/optimized_a_c.so",
                              "c/optimized_a_b.so"},
                             ".so");
  ASSERT_EQ(ids(ts), (Strings{"c:a", "c:a_b"}));
  EXPECT_EQ(names(ts[0].optimized), (Strings{"a_c"}));
  EXPECT_EQ(names(ts[1].optimized), (Strings{"a_b", "a_b_c"}));
}

TEST(Discovery, ExtensionFilter) {
  auto ts = discover_targets(tree(), ".cu");
  ASSERT_EQ(ids(ts), (Strings{"ch02:only"}));
  EXPECT_EQ(ts[0].optimized.at(0).file, "ch02/optimized_only.cu");
  EXPECT_TRUE(discover_targets({}, ".so").empty());
}

TEST(Select, ChaptersTargetsAllAndUnknown) {
  auto all = discover_targets(tree(), ".so");
  EXPECT_EQ(ids(select_targets(all, {"ch07"}).targets), (Strings{"ch07:copy", "ch07:copy_async"}));
  // Discovery order, not selector order.
  EXPECT_EQ(ids(select_targets(all, {"labs/moe", "ch01:gemm"}).targets), (Strings{"ch01:gemm", "labs/moe:router"}));
  EXPECT_EQ(ids(select_targets(all, {"labs/moe/"}).targets), (Strings{"labs/moe:router"}));

  Selection dup = select_targets(all, {"all", "ch07", "ch07:copy"});
  EXPECT_EQ(ids(dup.targets), ids(all));
  EXPECT_TRUE(dup.unknown.empty());

  Selection bad = select_targets(all, {"ch99", "ch07:nope", "ch07:copy", "ch99", "labs"});
  EXPECT_EQ(ids(bad.targets), (Strings{"ch07:copy"}));
  EXPECT_EQ(bad.unknown, (Strings{"ch99", "ch07:nope", "labs"}));
}

TEST(Select, VariantAliasNarrowsTheTarget) {
  auto all = discover_targets(tree(), ".so");
  Selection s = select_targets(all, {"ch07:copy_v2"});
  ASSERT_EQ(ids(s.targets), (Strings{"ch07:copy"}));
  EXPECT_EQ(names(s.targets[0].optimized), (Strings{"copy_v2"}));

  Selection whole = select_targets(all, {"ch07:copy_v2", "ch07:copy"});
  ASSERT_EQ(whole.targets.size(), 1u);
  EXPECT_EQ(names(whole.targets[0].optimized), (Strings{"copy", "copy_v2"}));

  Selection two = select_targets(all, {"labs/moe:router_v2", "labs/moe:router_fused"});
  ASSERT_EQ(two.targets.size(), 1u);
  EXPECT_EQ(names(two.targets[0].optimized), (Strings{"router_fused", "router_v2"}));
}

TEST(Closest, SuggestsNearIdsAndChapters) {
  auto all = discover_targets(tree(), ".so");
  EXPECT_EQ(closest_names(all, "ch07:copi"), (Strings{"ch07:copy"}));
  EXPECT_EQ(closest_names(all, "ch7"), (Strings{"ch07", "ch01"}));
  EXPECT_EQ(closest_names(all, "ch7", 1), (Strings{"ch07"}));
  EXPECT_EQ(closest_names(all, "LABS/MOE"), (Strings{"labs/moe"}));
  // The chapter is 7 edits away, within half the query's 15 characters, so it is suggested second.
  EXPECT_EQ(closest_names(all, "labs/moe:rooter"), (Strings{"labs/moe:router", "labs/moe"}));
  EXPECT_TRUE(closest_names(all, "zzzzzzzzzzzz").empty());
}

}  // namespace
}  // namespace aisp
