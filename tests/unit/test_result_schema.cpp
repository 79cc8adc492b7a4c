// Result schema: seed field names present, and JSON -> model -> JSON is lossless.
#include <gtest/gtest.h>

#include "core/result.hpp"
#include "core/schema.hpp"
#include "core/verdict.hpp"

namespace aisp {
namespace {

TargetResult sample_target() {
  TargetResult t;
  t.id = "ch07:copy_scalar";
  t.chapter = "ch07";
  t.example = "copy_scalar";
  t.status = status::succeeded;
  t.mode = "cold";
  t.workload = {{"params", {{"n", 1024}}}};
  t.baseline.name = "baseline";
  t.baseline.file = "ch07/baseline_copy_scalar.so";
  t.baseline.status = status::succeeded;
  t.baseline.samples_ms = {1.0, 1.1, 0.9};
  t.baseline.timing = summarize(t.baseline.samples_ms);
  t.baseline.memory = {10, 8, 9};
  t.baseline.checks = {{"K4", "inputs unchanged by run()", true, ""}};
  VariantResult o;
  o.name = "copy_scalar";
  o.file = "ch07/optimized_copy_scalar.so";
  o.status = status::succeeded;
  o.samples_ms = {0.5, 0.55, 0.45};
  o.timing = summarize(o.samples_ms);
  o.speedup = 2.0;
  o.ci_low = 1.8;
  o.ci_high = 2.2;
  o.p_value = 0.01;
  o.verdict = "FASTER";
  Verification v;
  v.passed = true;
  v.compared = 1024;
  v.rtol = 1e-5;
  v.atol = 1e-8;
  o.verification = v;
  o.checks = {{"K2", "outputs match", true, "1024 elements"}, {"K1", "poison", false, "3 unwritten"}};
  t.optimizations = {o};
  t.best_speedup = 2.0;
  t.best_optimization = "copy_scalar";
  t.seeds = {1, 2, 3, 4};
  return t;
}

TEST(ResultSchema, UsesTheSeedFieldNames) {
  json j = to_json(sample_target());
  for (auto key : {"example", "baseline_time_ms", "baseline_file", "optimizations", "best_speedup", "status",
                   "optimization_goal", "minimum_required_speedup"})
    EXPECT_TRUE(j.contains(key)) << key;
  auto& o = j["optimizations"][0];
  for (auto key : {"time_ms", "speedup", "status", "verification", "memory_mb", "ci_low", "ci_high", "verdict", "checks"})
    EXPECT_TRUE(o.contains(key)) << key;
  EXPECT_DOUBLE_EQ(j["baseline_time_ms"].get<double>(), 1.0);
  EXPECT_EQ(o["verification"]["passed"], true);
}

TEST(ResultSchema, RoundTripsThroughTheDocument) {
  TargetResult t = sample_target();
  json doc = results_document({t}, "2026-11-22T00:00:00");
  EXPECT_EQ(doc["results"][0]["chapter"], "ch07");
  EXPECT_EQ(doc["results"][0]["summary"]["successful"], 1);
  auto back = targets_from_document(json::parse(doc.dump()));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(to_json(back[0]), to_json(t));
  EXPECT_EQ(back[0].optimizations[0].checks[1].passed, false);
  EXPECT_EQ(back[0].optimizations[0].verification->compared, 1024);
}

TEST(Schema, WorkloadRoundTripAndDifference) {
  Workload a;
  a.params = {{"n", 1 << 20}, {"batch", 8}};
  a.precision = DType::bf16;
  a.bytes = 1e6;
  Workload b = workload_from_json(to_json(a));
  EXPECT_EQ(workload_difference(a, b), "");
  b.params["n"] = 1 << 21;
  b.precision = DType::f32;
  std::string d = workload_difference(a, b);
  EXPECT_NE(d.find("params.n: 1048576 vs 2097152"), std::string::npos) << d;
  EXPECT_NE(d.find("precision: bf16 vs f32"), std::string::npos) << d;
}

TEST(Verdict, DecidesFromTheInterval) {
  EXPECT_EQ(decide_verdict({1.3, 1.2, 1.4}, 1.05, false), Verdict::faster);
  EXPECT_EQ(decide_verdict({0.8, 0.7, 0.9}, 1.05, false), Verdict::slower);
  EXPECT_EQ(decide_verdict({1.0, 0.99, 1.01}, 1.05, false), Verdict::same);
  EXPECT_EQ(decide_verdict({1.05, 1.0, 1.1}, 1.05, false), Verdict::inconclusive);
  EXPECT_EQ(decide_verdict({3.0, 2.9, 3.1}, 1.05, true), Verdict::invalid);  // a failed check beats any speedup
  // A/A on the H100 put two processes running the same copy 0.03% apart with a CI of [0.9996, 0.9999]:
  // SAME, with or without a floor (the band is symmetric: a slowdown must clear 1/1.05 as a win clears 1.05).
  EXPECT_EQ(decide_verdict({0.9997, 0.9996, 0.9999}, 1.05, false), Verdict::same);
  EXPECT_EQ(decide_verdict({0.9997, 0.9996, 0.9999}, 1.05, false, 0.0004), Verdict::same);
  EXPECT_EQ(decide_verdict({0.9, 0.89, 0.91}, 1.05, false, 0.0004), Verdict::slower);
}

TEST(Verdict, TargetStatusAndExitCodes) {
  EXPECT_EQ(target_status({status::succeeded, status::failed_no_speedup}), status::succeeded);
  EXPECT_EQ(target_status({status::succeeded, status::failed_verification}), status::failed_verification);
  EXPECT_EQ(target_status({status::skipped}), status::skipped);
  EXPECT_EQ(target_status({status::failed_error, status::invalid}), status::invalid);
  EXPECT_EQ(exit_code_for({status::succeeded, status::skipped}), 0);
  EXPECT_EQ(exit_code_for({status::succeeded, status::failed_error}), 1);
  EXPECT_EQ(exit_code_for({status::failed_error, status::invalid}), 3);
}

}  // namespace
}  // namespace aisp
