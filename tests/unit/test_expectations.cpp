// Expectation files: round trip, corrupt files (clear error, never overwritten), the CI-based
// comparison, and the update/accept rules of a run.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "core/expectation_check.hpp"
#include "core/json_io.hpp"
#include "core/verdict.hpp"
#include "expectation_test_targets.hpp"
#include "report/expectation_reports.hpp"

namespace aisp {
namespace {
namespace fs = std::filesystem;

// A measured ch07 target; a speedup under 1.05 is a failed_no_speedup one.
TargetResult target(const std::string& example, double speedup, double low, double high) {
  return measured_target("ch07", example, speedup, low, high, speedup >= 1.05 ? status::succeeded : status::failed_no_speedup);
}

ExpectationProvenance prov() {
  ExpectationProvenance p;
  p.hardware_key = "h100_80gb_hbm3";
  p.gpu = "NVIDIA H100 80GB HBM3";
  p.driver_version = "580.159.04";
  p.cuda_version = "13.0";
  p.git_commit = "abc123";
  p.timestamp = "2026-11-22T07:36:26+0000";
  p.mode = "cold";
  return p;
}

ExpectationEntry expected(double speedup, double low, double high, const std::string& example = "copy") {
  return *entry_from_result(target(example, speedup, low, high), prov());
}

TEST(Expectations, RoundTripKeepsEveryField) {
  ExpectationFile f{"h100_80gb_hbm3", {{"copy", expected(2.0, 1.9, 2.1)}}};
  json j = to_json(f);
  EXPECT_EQ(j["schema_version"], kExpectationsSchemaVersion);
  const json& e = j["examples"]["copy"];
  for (auto key : {"baseline_time_ms", "best_optimized_time_ms", "best_speedup", "best_speedup_ci_low", "best_speedup_ci_high"})
    EXPECT_TRUE(e["metrics"].contains(key)) << key;
  for (auto key : {"gpu", "driver_version", "cuda_version", "git_commit", "timestamp", "baseline_samples", "optimized_samples"})
    EXPECT_TRUE(e["provenance"].contains(key)) << key;
  EXPECT_EQ(e["provenance"]["optimized_samples"], 3);
  ExpectationFile back = expectation_file_from_json(json::parse(j.dump()), "test");
  EXPECT_EQ(to_json(back), j);
}

TEST(Expectations, CorruptOrTruncatedFileIsAClearErrorAndNeverOverwritten) {
  ChapterTree d("ch07");
  fs::path file = d.expectations_file("h100_80gb_hbm3");
  ExpectationFile f{"h100_80gb_hbm3", {{"copy", expected(2.0, 1.9, 2.1)}}};
  std::string full = to_json(f).dump(2);
  write_file_atomic(file, full.substr(0, full.size() / 2));  // truncated
  try {
    load_expectations(file, "h100_80gb_hbm3");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
  }
  write_file_atomic(file, R"({"schema_version": 1, "examples": {"copy": {"metrics": {"best_speedup": "fast"}}}})");
  EXPECT_THROW(load_expectations(file, "h100_80gb_hbm3"), std::runtime_error);
  std::string before = read_file(file);
  std::vector<TargetResult> results{target("copy", 2.0, 1.9, 2.1)};
  ExpectationCheckOptions o = d.check_options();
  o.update = o.accept_regressions = true;
  ExpectationCheckReport r = check_expectations(results, "h100_80gb_hbm3", prov(), o);
  EXPECT_EQ(read_file(file), before);  // untouched
  EXPECT_TRUE(r.files_written.empty());
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(results[0].expectation["status"], "error");
  EXPECT_EQ(results[0].status, status::succeeded);
}

TEST(Expectations, MissingFileIsEmptyAndForeignKeyIsRejected) {
  ChapterTree d("ch07");
  fs::path file = d.expectations_file("h200");
  EXPECT_TRUE(load_expectations(file, "h200").examples.empty());
  save_expectations(file, ExpectationFile{"h100_80gb_hbm3", {}});
  EXPECT_THROW(load_expectations(file, "h200"), std::runtime_error);
}

TEST(Expectations, CompareUsesTheConfidenceIntervals) {
  ExpectationEntry e = expected(2.0, 1.9, 2.1);
  // Same CI: ok.
  EXPECT_EQ(compare_expectation(target("copy", 2.0, 1.9, 2.1), &e).status, ExpectationStatus::ok);
  // Point estimate 15% lower but the CI reaches within 5% of the expected low: not a supported regression.
  EXPECT_EQ(compare_expectation(target("copy", 1.7, 1.5, 1.82), &e).status, ExpectationStatus::ok);
  // Whole CI below 1.9 x 0.95 = 1.805: regression.
  auto c = compare_expectation(target("copy", 1.7, 1.6, 1.8), &e);
  EXPECT_EQ(c.status, ExpectationStatus::regression);
  EXPECT_DOUBLE_EQ(c.expected_ci_low, 1.9);
  EXPECT_NE(c.message.find("below"), std::string::npos);
  // Whole CI above 2.1 x 1.05 = 2.205: improvement.
  EXPECT_EQ(compare_expectation(target("copy", 2.5, 2.3, 2.7), &e).status, ExpectationStatus::improvement);
  // A looser tolerance forgives the same slowdown.
  EXPECT_EQ(compare_expectation(target("copy", 1.7, 1.6, 1.8), &e, 0.2).status, ExpectationStatus::ok);
  // Nothing stored: new. A failed target: not comparable. Another timing mode: not comparable.
  EXPECT_EQ(compare_expectation(target("copy", 2.0, 1.9, 2.1), nullptr).status, ExpectationStatus::new_entry);
  TargetResult bad = target("copy", 2.0, 1.9, 2.1);
  bad.status = status::invalid;
  EXPECT_EQ(compare_expectation(bad, &e).status, ExpectationStatus::not_comparable);
  TargetResult hot = target("copy", 2.0, 1.9, 2.1);
  hot.mode = "hot";
  EXPECT_EQ(compare_expectation(hot, &e).status, ExpectationStatus::not_comparable);
}

TEST(Expectations, WriteRules) {
  EXPECT_TRUE(may_write_expectation(ExpectationStatus::new_entry, false));
  EXPECT_TRUE(may_write_expectation(ExpectationStatus::improvement, false));
  EXPECT_FALSE(may_write_expectation(ExpectationStatus::regression, false));
  EXPECT_TRUE(may_write_expectation(ExpectationStatus::regression, true));
  EXPECT_FALSE(may_write_expectation(ExpectationStatus::not_comparable, true));
  TargetResult unvalidated = target("copy", 2.0, 1.9, 2.1);
  unvalidated.optimizations[0].validity_enabled = false;
  std::string why;
  EXPECT_FALSE(entry_from_result(unvalidated, prov(), &why));
  EXPECT_NE(why.find("validity"), std::string::npos);
}

std::vector<TargetResult> two_targets(double copy_speedup, double copy_low, double copy_high) {
  return {target("copy", copy_speedup, copy_low, copy_high), target("transpose", 3.0, 2.8, 3.2)};
}

TEST(Expectations, RunCheckFailsRegressionsAndUpdatesOnlyWhenAsked) {
  ChapterTree d("ch07");
  fs::path file = d.expectations_file("h100_80gb_hbm3");
  ExpectationCheckOptions o = d.check_options();
  // 1. No file, no --update-expectations: everything new, nothing written.
  auto results = two_targets(2.0, 1.9, 2.1);
  auto r = check_expectations(results, "h100_80gb_hbm3", prov(), o);
  EXPECT_EQ(r.count(ExpectationStatus::new_entry), 2);
  EXPECT_FALSE(fs::exists(file));
  // 2. --update-expectations records both.
  o.update = true;
  r = check_expectations(results, "h100_80gb_hbm3", prov(), o);
  ASSERT_EQ(r.files_written.size(), 1u);
  EXPECT_EQ(load_expectations(file, "h100_80gb_hbm3").examples.size(), 2u);
  EXPECT_EQ(results[0].expectation["persisted"], true);
  // 3. A regression fails the target (seed word failed_regression, exit code 1) and is not written.
  results = two_targets(1.5, 1.4, 1.6);
  r = check_expectations(results, "h100_80gb_hbm3", prov(), o);
  EXPECT_EQ(r.count(ExpectationStatus::regression), 1);
  EXPECT_EQ(results[0].status, status::failed_regression);
  EXPECT_EQ(results[0].expectation["status"], "regression");
  EXPECT_EQ(results[0].expectation["expected_ci_low"], 1.9);
  EXPECT_EQ(results[1].status, status::succeeded);
  EXPECT_EQ(exit_code_for({results[0].status, results[1].status}), 1);
  EXPECT_DOUBLE_EQ(load_expectations(file, "h100_80gb_hbm3").examples["copy"].best_speedup, 2.0);
  // 4. --accept-regressions: reported, not failed, and (with --update-expectations) replaced.
  o.accept_regressions = true;
  results = two_targets(1.5, 1.4, 1.6);
  r = check_expectations(results, "h100_80gb_hbm3", prov(), o);
  EXPECT_EQ(results[0].status, status::succeeded);
  EXPECT_EQ(results[0].expectation["accepted"], true);
  EXPECT_DOUBLE_EQ(load_expectations(file, "h100_80gb_hbm3").examples["copy"].best_speedup, 1.5);
  std::string md = expectations_check_markdown(r);
  EXPECT_NE(md.find("regression"), std::string::npos);
}

// An axis point is another workload: compared with its own entry (none yet: new), never with the default
// point's, and recorded under "<example>[axis=value]" beside it (device call of 2026-11-28: copy_scalar at
// --axis n=1M failed as a "regression" of the default point's 1.9x).
TEST(Expectations, AnAxisPointHasItsOwnEntry) {
  ChapterTree d("ch07");
  fs::path file = d.expectations_file("h100_80gb_hbm3");
  ExpectationCheckOptions o = d.check_options();
  o.update = true;
  std::vector<TargetResult> results{target("copy", 2.0, 1.9, 2.1)};
  check_expectations(results, "h100_80gb_hbm3", prov(), o);
  std::vector<TargetResult> point{target("copy", 1.08, 1.06, 1.10)};
  point[0].id = "ch07:copy[n=1048576]";
  auto r = check_expectations(point, "h100_80gb_hbm3", prov(), o);
  EXPECT_EQ(r.count(ExpectationStatus::regression), 0);
  EXPECT_EQ(r.count(ExpectationStatus::new_entry), 1);
  EXPECT_EQ(point[0].status, status::succeeded);
  auto stored = load_expectations(file, "h100_80gb_hbm3").examples;
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_DOUBLE_EQ(stored["copy"].best_speedup, 2.0);
  EXPECT_DOUBLE_EQ(stored["copy[n=1048576]"].best_speedup, 1.08);
  EXPECT_EQ(stored["copy[n=1048576]"].example, "copy[n=1048576]");
}

// A pair whose default workload changed (ch20:transformer_block's seq 6144 -> 16384, 2026-11-28) measures
// another workload under the same key: its entry records the params it was measured at, a run at other params
// is not compared (neither a regression nor an "improvement" of a different problem), and
// --update-expectations replaces the entry. Entries recorded before the field existed compare as before.
TEST(Expectations, AnEntryMeasuredAtOtherWorkloadParamsIsNotComparedAndIsReplacedOnUpdate) {
  ChapterTree d("ch07");
  fs::path file = d.expectations_file("h100_80gb_hbm3");
  ExpectationCheckOptions o = d.check_options();
  o.update = true;
  auto at = [](double seq, double speedup) {
    TargetResult t = target("copy", speedup, speedup * 0.98, speedup * 1.02);
    t.workload = {{"params", {{"seq", seq}, {"heads", 16}}}, {"flops", 1e12}};
    return t;
  };
  std::vector<TargetResult> first{at(6144, 2.4)};
  check_expectations(first, "h100_80gb_hbm3", prov(), o);
  auto stored = load_expectations(file, "h100_80gb_hbm3").examples;
  ASSERT_EQ(stored["copy"].provenance.workload_params.size(), 2u);
  EXPECT_DOUBLE_EQ(stored["copy"].provenance.workload_params["seq"], 6144);
  // The same params: compared as usual (a 1.2x run is a regression of the 2.4x entry).
  EXPECT_EQ(compare_expectation(at(6144, 1.2), &stored["copy"]).status, ExpectationStatus::regression);
  // Other params: not compared, the change named.
  ExpectationComparison c = compare_expectation(at(16384, 4.3), &stored["copy"]);
  EXPECT_EQ(c.status, ExpectationStatus::not_comparable);
  EXPECT_TRUE(c.workload_changed);
  EXPECT_NE(c.message.find("seq 6144 -> 16384"), std::string::npos) << c.message;
  // Without --update-expectations the entry is kept; with it, replaced by the new workload's.
  o.update = false;
  std::vector<TargetResult> second{at(16384, 4.3)};
  check_expectations(second, "h100_80gb_hbm3", prov(), o);
  EXPECT_EQ(second[0].status, status::succeeded);
  EXPECT_DOUBLE_EQ(load_expectations(file, "h100_80gb_hbm3").examples["copy"].best_speedup, 2.4);
  o.update = true;
  auto r = check_expectations(second, "h100_80gb_hbm3", prov(), o);
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].action, "replaced (other workload)");
  stored = load_expectations(file, "h100_80gb_hbm3").examples;
  EXPECT_DOUBLE_EQ(stored["copy"].best_speedup, 4.3);
  EXPECT_DOUBLE_EQ(stored["copy"].provenance.workload_params["seq"], 16384);
  // An entry without recorded params (older files) is compared whatever the run's params.
  ExpectationEntry old = stored["copy"];
  old.provenance.workload_params.clear();
  EXPECT_EQ(compare_expectation(at(6144, 2.0), &old).status, ExpectationStatus::regression);
}

TEST(Expectations, ChaptersWithoutSourcesAreSkippedWithANote) {
  ChapterTree d("ch07");
  std::vector<TargetResult> results{target("copy", 2.0, 1.9, 2.1)};
  results[0].chapter = "validity";
  ExpectationCheckOptions o = d.check_options();
  o.update = true;
  auto r = check_expectations(results, "h100_80gb_hbm3", prov(), o);
  EXPECT_TRUE(r.rows.empty());
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("validity"), std::string::npos);
  EXPECT_TRUE(results[0].expectation.is_null());
}

TEST(Expectations, ListingAndProofOfBenefit) {
  ChapterTree d("ch07");
  fs::path dir = d.path / "chapters" / "ch07";
  save_expectations(expectations_path(dir, "h100_80gb_hbm3"),
                    ExpectationFile{"h100_80gb_hbm3", {{"copy", expected(2.0, 1.9, 2.1)}, {"slow", expected(1.01, 0.98, 1.04, "slow")}}});
  save_expectations(expectations_path(dir, "b200"), ExpectationFile{"b200", {{"copy", expected(3.0, 2.9, 3.1)}}});
  auto listed = list_expectations(d.path, "h100");
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].hardware_key, "h100_80gb_hbm3");
  EXPECT_EQ(list_expectations(d.path, "").size(), 3u);
  EXPECT_EQ(list_expectations(d.path, "h1").size(), 0u);  // prefixes stop at a '_' boundary
  std::string csv = proof_of_benefit_csv(listed, 1.05);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "chapter,example,severity,best_improvement,optimization_goal,baseline_ms,baseline_memory_mb,"
            "optimized_memory_mb,artifact_dir,notes,optimizations");
  EXPECT_NE(csv.find("ch07,copy,ok,2.0000"), std::string::npos) << csv;
  EXPECT_NE(csv.find("ch07,slow,fail"), std::string::npos) << csv;  // failed_no_speedup: a failed status
  std::string md = proof_of_benefit_markdown(listed, 1.05);
  EXPECT_NE(md.find("| ch07 | 1 | 0 | 0 | 2 |"), std::string::npos) << md;
}

}  // namespace
}  // namespace aisp
