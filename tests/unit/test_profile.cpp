// src/profile on CPU: the ncu CSV parser, presets and thresholds, the bottleneck decision tree, roofline
// placement, compare explanations and the compute-sanitizer parser, on output recorded from an H100
// (tests/data/profile/README.md says how), plus synthetic kernels for the tree's other branches.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "profile/bottleneck.hpp"
#include "profile/metrics_catalog.hpp"
#include "profile/ncu_csv.hpp"
#include "profile/profile_compare.hpp"
#include "profile/profile_run.hpp"
#include "profile/roofline_place.hpp"
#include "profile/sanitizer_output.hpp"
#include "profile/tools.hpp"
#include "store/store.hpp"

namespace pf = aisp::profile;
namespace fs = std::filesystem;

namespace {

std::string data(const std::string& rel) {
  std::ifstream in(fs::path(AISP_TEST_DATA_DIR) / "profile" / rel);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const pf::NcuCsv& recorded() {
  static pf::NcuCsv csv = pf::parse_ncu_csv(data("ncu_raw_h100_ch07_kernels.csv"));
  return csv;
}

const pf::KernelProfile& kernel(const std::string& short_name) {
  for (auto& k : recorded().kernels)
    if (k.short_name() == short_name) return k;
  throw std::runtime_error("no kernel " + short_name);
}

pf::KernelProfile synthetic(std::map<std::string, double> metrics) {
  pf::KernelProfile k;
  k.name = "synthetic_kernel(float*)";
  for (auto& [name, v] : metrics) k.metrics[name] = {v, name.find("pct") != std::string::npos ? "%" : "", ""};
  return k;
}

bool has_finding(const pf::Diagnosis& d, const std::string& id) {
  for (auto& f : d.findings)
    if (f.id == id) return true;
  return false;
}

}  // namespace

TEST(NcuCsv, ParsesRecordedRawPage) {
  const auto& csv = recorded();
  ASSERT_EQ(csv.kernels.size(), 4u);  // the warm-up and post-range launches were filtered out by NVTX
  EXPECT_EQ(csv.kernels[0].short_name(), "copy_scalar");
  EXPECT_EQ(csv.kernels[2].short_name(), "transpose_naive");
  EXPECT_EQ(csv.kernels[0].block, "(256, 1, 1)");
  EXPECT_NE(csv.kernels[0].nvtx.find("aisp_timed"), std::string::npos);
  // Thousands separators and base units.
  EXPECT_DOUBLE_EQ(csv.kernels[0].get(pf::m::duration), 220512);
  EXPECT_EQ(csv.kernels[0].metrics.at(pf::m::duration).unit, "ns");
  EXPECT_DOUBLE_EQ(csv.kernels[0].get(pf::m::dram_read), 268462848);
  EXPECT_DOUBLE_EQ(csv.kernels[2].get(pf::m::st_efficiency), 12.5);
  // Device/profiler columns are dropped; launch facts kept.
  for (auto& [name, v] : csv.kernels[0].metrics) EXPECT_NE(name.rfind("device__attribute_", 0), 0u) << name;
  EXPECT_DOUBLE_EQ(csv.kernels[0].get(pf::m::registers), 16);
  EXPECT_FALSE(csv.kernels[0].has("no_such__metric.sum"));
}

TEST(NcuCsv, ScalesSiUnitsToBase) {
  auto csv = pf::parse_ncu_csv(data("ncu_raw_h100_default_units.csv"));
  ASSERT_EQ(csv.kernels.size(), 4u);
  const auto& k = csv.kernels[0];
  EXPECT_EQ(k.metrics.at(pf::m::duration).unit, "ns");           // printed as ms
  EXPECT_NEAR(k.get(pf::m::duration), 220544, 1);
  EXPECT_EQ(k.metrics.at(pf::m::dram_read).unit, "byte");        // printed as Mbyte
  EXPECT_NEAR(k.get(pf::m::dram_read), 268463872, 1);
}

TEST(NcuCsv, SkipsProfilerLinesAndRejectsTextWithoutTable) {
  std::string text = "==PROF== Connected to process 1\napp output\n\"ID\",\"Kernel Name\",\"a__b.sum\"\n\"\",\"\",\"byte\"\n"
                     "\"0\",\"k(int)\",\"1,024\"\n==PROF== Disconnected\n";
  auto csv = pf::parse_ncu_csv(text);
  ASSERT_EQ(csv.kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(csv.kernels[0].get("a__b.sum"), 1024);
  EXPECT_EQ(csv.messages.size(), 2u);
  EXPECT_THROW(pf::parse_ncu_csv("==ERROR== Failed to profile\n"), std::runtime_error);
  EXPECT_TRUE(std::isnan(pf::parse_number("n/a")));
  EXPECT_EQ(pf::split_csv_line(R"("a,b","c""d",e)"), (std::vector<std::string>{"a,b", "c\"d", "e"}));
}

TEST(Catalog, PresetsNestAndThresholdsJudge) {
  const auto* minimal = pf::find_preset("minimal");
  const auto* roofline = pf::find_preset("roofline");
  const auto* deep = pf::find_preset("deep_dive");
  ASSERT_TRUE(minimal && roofline && deep);
  EXPECT_EQ(minimal->metrics.size(), 5u);  // the seed's five
  for (auto& m : minimal->metrics) EXPECT_NE(std::find(roofline->metrics.begin(), roofline->metrics.end(), m), roofline->metrics.end());
  for (auto& m : roofline->metrics) EXPECT_NE(std::find(deep->metrics.begin(), deep->metrics.end(), m), deep->metrics.end());
  EXPECT_TRUE(pf::preset_covers("deep_dive", "roofline"));
  EXPECT_FALSE(pf::preset_covers("minimal", "roofline"));
  EXPECT_NE(pf::metric_list("minimal").find("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"), std::string::npos);
  EXPECT_THROW(pf::metric_list("everything"), std::invalid_argument);
  const pf::Threshold* dram = nullptr;
  const pf::Threshold* spill = nullptr;
  for (auto& t : pf::thresholds()) {
    if (t.metric == pf::m::dram_throughput) dram = &t;
    if (t.metric == pf::m::local_ld) spill = &t;
  }
  ASSERT_TRUE(dram && spill);
  EXPECT_EQ(pf::judge(*dram, 84), pf::Level::good);      // > 70
  EXPECT_EQ(pf::judge(*dram, 55), pf::Level::warning);   // 40-70
  EXPECT_EQ(pf::judge(*dram, 14), pf::Level::critical);  // < 40
  EXPECT_EQ(pf::judge(*spill, 0), pf::Level::good);
  EXPECT_EQ(pf::judge(*spill, 8), pf::Level::critical);  // any spill
  EXPECT_EQ(pf::judge(*dram, pf::kNaN), pf::Level::unknown);
  for (auto& p : pf::optimization_patterns()) EXPECT_FALSE(p.fixes.empty()) << p.bottleneck;
}

// The acceptance classifications, on the H100 recording.
TEST(Bottleneck, CoalescedCopiesAreMemoryBound) {
  for (auto* name : {"copy_scalar", "copy_float4", "transpose_tiled"}) {
    pf::Diagnosis d = pf::diagnose(kernel(name));
    EXPECT_EQ(d.verdict, "memory_bound") << name;
    EXPECT_FALSE(has_finding(d, "uncoalesced")) << name;
    ASSERT_FALSE(d.findings.front().fixes.empty());
    bool dram_evidence = false;
    for (auto& e : d.findings.front().evidence) dram_evidence |= e.metric == pf::m::dram_throughput && e.value > 60;
    EXPECT_TRUE(dram_evidence) << name;
  }
}

TEST(Bottleneck, NaiveTransposeIsUncoalesced) {
  pf::Diagnosis d = pf::diagnose(kernel("transpose_naive"));
  EXPECT_EQ(d.verdict, "uncoalesced");
  const auto& f = d.findings.front();
  EXPECT_NE(f.why.find("store"), std::string::npos) << f.why;
  EXPECT_NE(f.why.find("12.5%"), std::string::npos) << f.why;
  EXPECT_NE(f.why.find("32.0 sectors per request"), std::string::npos) << f.why;
  // DRAM 14% and SM 5%: both low, and the dominant stall (long scoreboard 34%) is reported too.
  EXPECT_TRUE(has_finding(d, "stall_long_scoreboard"));
}

TEST(Bottleneck, BankConflictsNeedToMatterAgainstTheWork) {
  pf::KernelProfile k = kernel("transpose_tiled");  // 60,055 "conflicts" with the +1 padding
  EXPECT_TRUE(has_finding(pf::diagnose(k), "bank_conflicts"));  // wavefronts unknown: the seed's count rule
  k.metrics[pf::m::shared_ld_wavefronts] = {2.1e6, "", ""};     // 3% extra: not worth a finding
  EXPECT_FALSE(has_finding(pf::diagnose(k), "bank_conflicts"));
  EXPECT_EQ(pf::diagnose(k).verdict, "memory_bound");
}

TEST(Bottleneck, OtherBranchesOfTheTree) {
  using namespace pf::m;
  EXPECT_EQ(pf::diagnose(synthetic({{sm_throughput, 85}, {dram_throughput, 10}})).verdict, "compute_bound");
  EXPECT_EQ(pf::diagnose(synthetic({{sm_throughput, 70}, {dram_throughput, 75}})).verdict, "balanced");
  EXPECT_EQ(pf::diagnose(synthetic({{sm_throughput, 10}, {dram_throughput, 12}, {occupancy, 15}})).verdict,
            "occupancy_limited");
  EXPECT_EQ(pf::diagnose(synthetic({{sm_throughput, 10}, {dram_throughput, 12}, {occupancy, 60},
                                    {pf::stall_metric("barrier"), 45}, {pf::stall_metric("long_scoreboard"), 20}}))
                .verdict, "stall_barrier");
  EXPECT_EQ(pf::diagnose(synthetic({{sm_throughput, 10}, {dram_throughput, 12}, {occupancy, 60}})).verdict, "latency_bound");
  EXPECT_EQ(pf::diagnose(synthetic({{sm_throughput, 30}, {dram_throughput, 50}})).verdict, "memory_bound");  // leaning
  pf::Diagnosis spills = pf::diagnose(synthetic({{sm_throughput, 50}, {dram_throughput, 30}, {local_ld, 4096}, {local_st, 0}}));
  EXPECT_EQ(spills.verdict, "register_spills");
  EXPECT_EQ(spills.findings.front().severity, "critical");
  EXPECT_TRUE(has_finding(pf::diagnose(synthetic({{sm_throughput, 50}, {dram_throughput, 30}, {threads_per_inst, 12}})),
                          "warp_divergence"));
  // A minimal-preset profile says what it could not evaluate instead of guessing.
  pf::Diagnosis minimal = pf::diagnose(synthetic({{sm_throughput, 20}, {dram_throughput, 70}}));
  EXPECT_EQ(minimal.verdict, "memory_bound");
  EXPECT_GE(minimal.not_evaluated.size(), 3u);
  EXPECT_EQ(pf::diagnose(synthetic({})).verdict, "unknown");
}

TEST(Roofline, CopyNearTheDramRoof) {
  // Round fixture ceilings: 3.0 TB/s, 60 TFLOP/s. copy_float4 moved 518.7 MB in 183.7 us = 2.82 TB/s.
  pf::RooflinePoint p = pf::place_on_roofline(kernel("copy_float4"), 3.0e12, 60e12);
  EXPECT_EQ(p.bound, "memory");
  EXPECT_NEAR(p.bytes_per_s / 1e12, 2.824, 0.01);
  EXPECT_NEAR(p.pct_of_roof, 94.1, 0.5);
  EXPECT_DOUBLE_EQ(p.flops, 0);  // a copy does no FP math
  pf::RooflinePoint naive = pf::place_on_roofline(kernel("transpose_naive"), 3.0e12, 60e12);
  EXPECT_LT(naive.pct_of_roof, 20);
  // FFMA-heavy synthetic kernel: 1e12 FLOPs over 1e9 bytes in 20 ms is compute bound at 50 TFLOP/s.
  pf::RooflinePoint c = pf::place_on_roofline(
      synthetic({{pf::m::duration, 2e7}, {pf::m::dram_read, 5e8}, {pf::m::dram_write, 5e8},
                 {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 5e11}}), 3.0e12, 60e12);
  EXPECT_EQ(c.bound, "compute");
  EXPECT_EQ(c.precision, "f32");
  EXPECT_NEAR(c.pct_of_roof, 83.3, 0.1);
  EXPECT_FALSE(pf::place_on_roofline(synthetic({{pf::m::duration, 1e5}}), 3e12, 6e13).note.empty());
}

TEST(Compare, ExplainsTheCopyAndTransposeSpeedups) {
  pf::ProfileComparison copy = pf::compare_profiles("baseline", kernel("copy_scalar"), "copy_scalar", kernel("copy_float4"));
  EXPECT_NEAR(copy.speedup, 220512.0 / 183712.0, 1e-9);
  std::string text;
  for (auto& e : copy.explanation) text += e + "\n";
  EXPECT_NE(text.find("global load requests \u221275%"), std::string::npos) << text;
  EXPECT_NE(text.find("4.0 -> 16.0 sectors per request"), std::string::npos) << text;
  EXPECT_NE(text.find("DRAM bytes unchanged"), std::string::npos) << text;
  EXPECT_NE(text.find("DRAM throughput 70.5% -> 84.2%"), std::string::npos) << text;

  pf::ProfileComparison tr = pf::compare_profiles("baseline", kernel("transpose_naive"), "transpose", kernel("transpose_tiled"));
  text.clear();
  for (auto& e : tr.explanation) text += e + "\n";
  EXPECT_NEAR(tr.speedup, 6.38, 0.01);
  EXPECT_NE(text.find("global stores use 12% -> 100% of each sector"), std::string::npos) << text;
  EXPECT_NE(text.find("store sectors/request 32.0 -> 4.0"), std::string::npos) << text;
  EXPECT_NE(text.find("DRAM bytes \u221210%"), std::string::npos) << text;
  bool st_better = false;
  for (auto& d : tr.deltas) st_better |= d.label == "global store sectors/request" && d.better == "b";
  EXPECT_TRUE(st_better);
}

TEST(Compare, AggregatesSeveralKernels) {
  auto agg = pf::aggregate({kernel("copy_scalar"), kernel("copy_float4")});
  EXPECT_DOUBLE_EQ(agg.get(pf::m::duration), 220512 + 183712);
  EXPECT_DOUBLE_EQ(agg.get(pf::m::dram_read), 268462848.0 + 268457728.0);
  double w = (70.47 * 220512 + 84.24 * 183712) / (220512 + 183712);  // duration-weighted percentage
  EXPECT_NEAR(agg.get(pf::m::dram_throughput), w, 1e-9);
}

TEST(Sanitizer, ParsesTheRecordedOutOfBoundsWrite) {
  auto r = pf::parse_sanitizer_output(data("sanitizer_memcheck_oob.txt"), "memcheck");
  EXPECT_EQ(r.error_summary, 2);
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].kind, "Invalid __global__ write of size 4 bytes");
  EXPECT_EQ(r.findings[0].kernel, "oob_write_kernel(const float *, float *, long)+0x120 in p.cu:4");
  EXPECT_NE(r.findings[0].address.find("is out of bounds"), std::string::npos) << r.findings[0].address;
  EXPECT_NE(r.findings[0].address.find("1 bytes after the nearest allocation"), std::string::npos);
  EXPECT_EQ(r.findings[0].where, "by thread (0,0,0) in block (4096,0,0)");
  for (auto& l : r.findings[0].lines) EXPECT_EQ(l.find("Host Frame"), std::string::npos);
  EXPECT_NE(r.findings[1].kind.find("Program hit cudaErrorLaunchFailure"), std::string::npos);
  EXPECT_FALSE(r.clean());
  // The same run without --padding: memcheck saw nothing (the reason aisp pads).
  EXPECT_TRUE(pf::parse_sanitizer_output(data("sanitizer_memcheck_oob_nopadding.txt"), "memcheck").clean());
}

TEST(Sanitizer, ParsesEveryToolsRecordedOutput) {
  auto clean = pf::parse_sanitizer_output(data("sanitizer_clean.txt"), "memcheck");
  EXPECT_TRUE(clean.clean());
  EXPECT_EQ(clean.errors(), 0);
  auto race_clean = pf::parse_sanitizer_output(data("sanitizer_racecheck_clean.txt"), "racecheck");
  EXPECT_EQ(race_clean.error_summary, 0);  // from RACECHECK SUMMARY: racecheck prints no ERROR SUMMARY
  EXPECT_TRUE(race_clean.clean());
  auto race = pf::parse_sanitizer_output(data("sanitizer_racecheck_race.txt"), "racecheck");
  EXPECT_EQ(race.errors(), 1);
  ASSERT_EQ(race.findings.size(), 1u);
  EXPECT_EQ(race.findings[0].kind.rfind("Error: Race reported between Write access at race_kernel(float *)", 0), 0u);
  EXPECT_EQ(race.findings[0].lines.size(), 3u);
  auto init = pf::parse_sanitizer_output(data("sanitizer_initcheck_uninit.txt"), "initcheck");
  EXPECT_EQ(init.error_summary, 32);
  ASSERT_FALSE(init.findings.empty());
  EXPECT_EQ(init.findings[0].kind, "Uninitialized __global__ memory read of size 4 bytes");
  EXPECT_EQ(init.findings[0].address, "Address 0x7f3677000000");
  auto sync = pf::parse_sanitizer_output(data("sanitizer_synccheck_divergent.txt"), "synccheck");
  EXPECT_EQ(sync.error_summary, 16);
  ASSERT_FALSE(sync.findings.empty());
  EXPECT_EQ(sync.findings[0].kind, "Barrier error detected. Divergent thread(s) in warp.");
  EXPECT_EQ(sync.findings[0].kernel, "sync_kernel(float *)+0x70 in p.cu:8");
  auto broken = pf::parse_sanitizer_output("========= COMPUTE-SANITIZER\n========= Error: Device not supported\n", "memcheck");
  EXPECT_EQ(broken.error_summary, -1);  // no summary: the tool failed, not the program
}

TEST(Tools, MissingToolNamesWhereItLooked) {
  setenv("AISP_TEST_TOOL", "/nonexistent/ncu", 1);
  pf::ToolLocation t = pf::find_tool("ncu", "AISP_TEST_TOOL");
  unsetenv("AISP_TEST_TOOL");
  EXPECT_FALSE(t.found());  // an explicit path that does not exist is final
  EXPECT_NE(t.missing_message().find("ncu not found"), std::string::npos);
  EXPECT_NE(t.missing_message().find("/nonexistent/ncu"), std::string::npos);
  pf::ToolLocation none = pf::find_tool("aisp-no-such-tool", "AISP_TEST_TOOL_UNSET");
  EXPECT_FALSE(none.found());
  EXPECT_GE(none.looked_in.size(), 3u);  // the variable, PATH, the CUDA toolkit's bin
  pf::ToolLocation sh = pf::find_tool("sh", "AISP_TEST_TOOL_UNSET");
  ASSERT_TRUE(sh.found());
  pf::ToolRun r = pf::run_tool({sh.path, "-c", "echo out; echo err >&2; exit 7"}, "", 10);
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_NE(r.output.find("out"), std::string::npos);
  EXPECT_NE(r.output.find("err"), std::string::npos);
  pf::ToolRun slow = pf::run_tool({sh.path, "-c", "sleep 30"}, "", 0.3);
  EXPECT_TRUE(slow.timed_out);
}

TEST(ProfileDoc, KernelsRoundTripThroughJsonAndTheStore) {
  auto j = pf::kernels_to_json(recorded().kernels);
  auto back = pf::kernels_from_json(j);
  ASSERT_EQ(back.size(), 4u);
  EXPECT_DOUBLE_EQ(back[2].get(pf::m::st_efficiency), 12.5);
  EXPECT_EQ(pf::diagnose(back[2]).verdict, "uncoalesced");

  fs::path db = fs::temp_directory_path() / ("aisp_profile_store_" + std::to_string(getpid()) + ".db");
  fs::remove(db);
  {
    aisp::Store s = aisp::Store::open(db);
    EXPECT_EQ(s.schema_version(), aisp::kStoreSchemaVersion);
    nlohmann::json doc = {{"schema", pf::kProfileSchema}, {"tool", "ncu"}, {"preset", "deep_dive"}, {"target", "ch07:transpose"},
                          {"variant", "baseline"}, {"created_at", "2026-11-23T00:00:00Z"},
                          {"hardware", {{"hardware_key", "h100_80gb_hbm3"}}}, {"kernels", nlohmann::json::array({j[2]})}};
    s.add_profile(doc.dump(), "/tmp/x");
    doc["variant"] = "transpose";
    doc["kernels"] = nlohmann::json::array({j[3]});
    s.add_profile(doc.dump(), "/tmp/x", "20261123_000000__bench__x");
    nlohmann::json failed = doc;
    failed["error"] = "ncu exited with 1";
    s.add_profile(failed.dump(), "/tmp/x");
    auto rows = s.profiles("ch07:transpose", "", "ncu", 10, true);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].variant, "transpose");  // newest first
    EXPECT_EQ(rows[0].bench_run, "20261123_000000__bench__x");
    EXPECT_EQ(rows[1].hardware_key, "h100_80gb_hbm3");
    EXPECT_EQ(s.profiles("ch07:transpose").size(), 3u);
    auto k = pf::kernels_from_json(nlohmann::json::parse(rows[1].doc)["kernels"]);
    EXPECT_EQ(pf::diagnose(k[0]).verdict, "uncoalesced");
  }
  fs::remove(db);
  fs::remove(db.string() + "-wal");
  fs::remove(db.string() + "-shm");
}
