// Technique stacking, the scaling fit, history, and the report/CSV renderers on synthetic data.
#include <gtest/gtest.h>

#include <regex>

#include "report/analysis_report.hpp"
#include "test_analysis_fixtures.hpp"

namespace an = aisp::analysis;
using namespace aisp::analysis::testing;

namespace {

an::TagVocabulary vocab() {
  return an::vocabulary_from_json(
      {{"tags",
        {{"alpha", {{"keywords", {"alpha"}}}}, {"beta", {{"keywords", {"beta", "b-trick"}}}}, {"gamma", {{"keywords", {"gamma"}}}}}},
       {"conflicts", {{{"tags", {"alpha", "gamma"}}, {"reason", "alternatives"}}}}},
      "tags.json");
}

const an::StackingCell& cell(const an::Stacking& s, const std::string& a, const std::string& b) {
  for (auto& c : s.cells)
    if ((c.a == a && c.b == b) || (c.a == b && c.b == a)) return c;
  throw std::runtime_error("no cell " + a + "/" + b);
}

}  // namespace

TEST(AnalysisStacking, MatrixOfMeasuredConflictAndUntested) {
  auto t = target("ch1:s", variant("baseline", 4.0, 100),
                  {variant("ab", 1.0, 100, 4.0, "FASTER", "Alpha loads with the B-trick"),
                   variant("g", 2.0, 100, 2.0, "FASTER", "gamma schedule"),
                   variant("plain", 3.0, 100, 1.3, "FASTER", "nothing we know")});
  an::Stacking s = an::stacking(an::variant_rows({t}), vocab());
  EXPECT_EQ(s.tags, (std::vector<std::string>{"alpha", "beta", "gamma"}));
  EXPECT_EQ(cell(s, "alpha", "beta").state, "measured");
  EXPECT_DOUBLE_EQ(cell(s, "alpha", "beta").best_speedup, 4.0);
  EXPECT_EQ(cell(s, "alpha", "gamma").state, "conflict");
  EXPECT_EQ(cell(s, "alpha", "gamma").reason, "alternatives");
  EXPECT_EQ(cell(s, "beta", "gamma").state, "untested");
  EXPECT_EQ(cell(s, "gamma", "gamma").state, "measured");
  EXPECT_EQ(s.cells.size(), 6u);  // upper triangle with the diagonal of 3 tags
  ASSERT_EQ(s.untagged.size(), 1u);
  EXPECT_NE(s.untagged[0].find("plain"), std::string::npos);
  EXPECT_THROW(an::vocabulary_from_json({{"tags", {{"a", {{"keywords", {"a"}}}}}}, {"conflicts", {{{"tags", {"a", "zzz"}}}}}}, "x"),
               std::runtime_error);
}

TEST(AnalysisScaling, FitsSpeedupPerDoublingAndTimeExponents) {
  // n = 1024, 2048, 4096 in three runs: baseline 1, 2, 4 ms (exponent 1); speedup 1.0, 1.5, 2.0 (+0.5 per doubling).
  std::vector<an::RunData> runs;
  double speedups[] = {1.0, 1.5, 2.0};
  for (int i = 0; i < 3; ++i) {
    double base = 1 << i;
    an::RunData r;
    r.key = "run" + std::to_string(i);
    r.targets.push_back(target("ch1:s", variant("baseline", base, 100),
                               {variant("opt", base / speedups[i], 100, speedups[i], "FASTER")}, 0, 0, 0, "f32",
                               {{"n", 1024 << i}, {"batch", 8}}));
    runs.push_back(r);
  }
  an::Scaling s = an::scaling(runs);
  ASSERT_EQ(s.series.size(), 1u);
  const an::ScalingSeries& x = s.series[0];
  EXPECT_EQ(x.axis, "n");
  EXPECT_EQ(x.fixed_params, nlohmann::json({{"batch", 8}}));
  ASSERT_EQ(x.points.size(), 3u);
  EXPECT_NEAR(x.speedup_per_doubling, 0.5, 1e-12);
  EXPECT_NEAR(x.speedup_r2, 1.0, 1e-12);
  EXPECT_NEAR(x.baseline_exponent, 1.0, 1e-12);
  EXPECT_EQ(x.trend, "grows");
  EXPECT_TRUE(s.single_point.empty());
}

TEST(AnalysisScaling, AxisPointsOfOneRunFormOneSeries) {
  // `bench run --axis n=...` names each point "ch1:s[n=...]" inside a single run.
  an::RunData r;
  r.key = "run";
  for (int i = 0; i < 3; ++i) {
    int64_t n = int64_t{1024} << i;
    r.targets.push_back(target("ch1:s[n=" + std::to_string(n) + "]", variant("baseline", 1.0 * (1 << i), 100),
                               {variant("opt", 0.5 * (1 << i), 100, 2.0, "FASTER")}, 0, 0, 0, "f32", {{"n", n}}));
  }
  an::Scaling s = an::scaling({r});
  ASSERT_EQ(s.series.size(), 1u);
  EXPECT_EQ(s.series[0].target, "ch1:s");
  EXPECT_EQ(s.series[0].points.size(), 3u);
  EXPECT_EQ(s.series[0].trend, "flat");
}

TEST(AnalysisScaling, OneSizeOnlySaysSo) {
  an::RunData r;
  r.targets.push_back(target("ch1:s", variant("baseline", 2.0, 100), {variant("opt", 1.0, 100, 2.0, "FASTER")}, 0, 0, 0,
                             "f32", {{"n", 1024}}));
  an::Scaling s = an::scaling({r, r});
  EXPECT_TRUE(s.series.empty());
  ASSERT_EQ(s.single_point.size(), 1u);
  EXPECT_NE(s.notes.front().find("no workload axis"), std::string::npos);
}

TEST(AnalysisHistory, OnePointPerRunOldestFirst) {
  an::RunData a, b;
  a.key = "20260101_000000__bench__a";
  b.key = "20260102_000000__bench__b";
  a.targets.push_back(target("ch1:h", variant("baseline", 2.0, 100), {variant("opt", 1.0, 100, 2.0, "FASTER")}));
  b.targets.push_back(target("ch1:h", variant("baseline", 2.0, 100), {variant("opt", 0.8, 100, 2.5, "FASTER")}));
  auto h = an::speedup_history({a, b});
  ASSERT_EQ(h.count("ch1:h opt"), 1u);
  ASSERT_EQ(h["ch1:h opt"].size(), 2u);
  EXPECT_DOUBLE_EQ(h["ch1:h opt"][1].speedup, 2.5);
}

TEST(AnalysisReport, HtmlIsSelfContainedWithLabelledCharts) {
  an::Dataset d;
  an::RunData r;
  r.key = "20260101_000000__bench__test";
  r.targets.push_back(target("ch7:copy", variant("baseline", 1.0, 1000), {variant("vec", 0.5, 600, 2.0, "FASTER", "float4 loads")},
                             1e9));
  r.targets.push_back(target("ch1:gemm", variant("baseline", 2.0, 300), {variant("batched", 0.1, 200, 20.0, "FASTER")}, 5e7, 1e9));
  d.runs.push_back(r);
  d.hardware = h100();
  d.source = "test <data>";
  aisp::report::ReportOptions o;
  o.vocabulary = an::vocabulary_from_json({{"tags", {{"vectorized", {{"keywords", {"float4"}}}}}}}, "v.json");
  std::string html = aisp::report::render_html(d, o);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_FALSE(std::regex_search(html, std::regex(R"((src|href)\s*=)"))) << "no external resource";
  // The only URL is the SVG namespace identifier, which is never fetched.
  std::string rest = std::regex_replace(html, std::regex(R"(xmlns="http://www\.w3\.org/2000/svg")"), "");
  EXPECT_EQ(rest.find("http"), std::string::npos);
  EXPECT_NE(html.find("test &lt;data&gt;"), std::string::npos) << "text is escaped";
  for (const char* label : {"speedup = baseline median / variant median (log scale)", "peak-memory saving vs baseline (%)",
                            "arithmetic intensity (FLOP per DRAM byte", "achieved FLOP/s, log scale",
                            "achieved bandwidth = declared bytes / median time (GB/s)"})
    EXPECT_NE(html.find(label), std::string::npos) << label;
  size_t svgs = 0;
  for (size_t p = html.find("<svg"); p != std::string::npos; p = html.find("<svg", p + 1)) ++svgs;
  EXPECT_GE(svgs, 4u);  // speedup bars, Pareto, roofline, bandwidth (+ sparklines)
  EXPECT_NE(html.find("Technique stacking"), std::string::npos);
}

TEST(AnalysisReport, CsvQuotesFieldsAndLeavesMissingEmpty) {
  auto t = target("ch1:c", variant("baseline", 2.0, 100), {variant("v,1", 1.0, 100, 2.0, "FASTER", "say \"hi\"")});
  std::string csv = aisp::report::render_csv(an::variant_rows({t}));
  EXPECT_NE(csv.find("\"v,1\""), std::string::npos);
  EXPECT_NE(csv.find("\"say \"\"hi\"\"\""), std::string::npos);
  size_t lines = std::count(csv.begin(), csv.end(), '\n');
  EXPECT_EQ(lines, 3u);
  // The baseline's missing throughput (no items declared) is an empty field, never 0.
  EXPECT_EQ(csv.find(",0,elements"), std::string::npos);
}
