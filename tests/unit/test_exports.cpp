// NVBench and Google Benchmark exports of a synthetic run: the field names their comparison tools read
// are present, numbers are in those tools' units, and untrustworthy variants never become timings.
#include <gtest/gtest.h>

#include "core/verdict.hpp"
#include "report/exports.hpp"

namespace aisp {
namespace {

VariantResult variant(const std::string& name, std::vector<double> ms, std::vector<double> wall) {
  VariantResult v;
  v.name = name;
  v.status = status::succeeded;
  v.samples_ms = std::move(ms);
  v.wall_ms = std::move(wall);
  v.timing = summarize(v.samples_ms);
  return v;
}

std::vector<TargetResult> run() {
  TargetResult t;
  t.id = "ch07:copy_scalar";
  t.chapter = "ch07";
  t.example = "copy_scalar";
  t.status = status::succeeded;
  t.mode = "cold";
  t.workload = {{"bytes", 8.0e6}};
  t.baseline = variant("baseline", {2.0, 2.0, 2.0, 2.0, 2.0, 2.0}, {2.1, 2.1, 2.1, 2.1, 2.1, 2.1});
  VariantResult fast = variant("copy_vec4", {1.0, 1.0, 1.0, 1.0, 1.0, 1.0}, {1.1, 1.1, 1.1, 1.1, 1.1, 1.1});
  fast.speedup = 2.0, fast.ci_low = 1.9, fast.ci_high = 2.1, fast.verdict = "FASTER";
  VariantResult cheat = variant("cheat", {0.1, 0.1, 0.1, 0.1, 0.1}, {});
  cheat.status = status::invalid;
  cheat.error = "K3 failed";
  t.optimizations = {fast, cheat};
  t.best_speedup = 2.0;
  t.best_optimization = "copy_vec4";
  return {t};
}

json manifest() {
  return {{"command", "aisp bench run"},
          {"start_time", "2026-11-22T07:36:26+0000"},
          {"mode", "cold"},
          {"hardware", {{"gpu_model", "NVIDIA H100 80GB HBM3"}, {"gpu_uuid", "GPU-1"}, {"hardware_key", "h100_80gb_hbm3"}}},
          {"gpus", json::array({{{"ordinal", 0}, {"name", "NVIDIA H100 80GB HBM3"}, {"uuid", "GPU-1"}, {"cc_major", 9},
                                 {"cc_minor", 0}, {"sm_count", 132}, {"sm_clock_max_mhz", 1980.0},
                                 {"sm_clock_mhz", 345.0}, {"temperature_c", 32.0}, {"mem_clock_max_mhz", 2619.0},
                                 {"memory_bus_width_bits", 5120}, {"l2_bytes", 52428800}, {"ecc_enabled", 1}}})},
          {"environment", {{"hostname", "vm"},
                           {"checks", json::array({{{"name", "numa"}, {"value", {{"allowed_cpus", "0-15"}}}}})}}},
          {"git", {{"commit", "abc"}, {"dirty", false}}},
          {"build", {{"build_type", "Release"}}}};
}

const json* find(const json& benchmarks, const std::string& name) {
  for (auto& b : benchmarks)
    if (b["name"] == name) return &b;
  return nullptr;
}

TEST(Exports, GbenchHasTheFieldsCompareReadsInMicroseconds) {
  json g = to_gbench_json(run(), manifest());
  for (auto key : {"date", "host_name", "executable", "num_cpus", "mhz_per_cpu", "cpu_scaling_enabled", "caches",
                   "load_avg", "library_build_type", "json_schema_version"})
    EXPECT_TRUE(g["context"].contains(key)) << key;
  EXPECT_EQ(g["context"]["num_cpus"], 16);
  EXPECT_EQ(g["context"]["library_build_type"], "release");
  EXPECT_EQ(g["context"]["json_schema_version"], 1);
  const json* it = find(g["benchmarks"], "ch07:copy_scalar/copy_vec4");
  ASSERT_NE(it, nullptr);
  for (auto key : {"name", "run_name", "run_type", "repetitions", "repetition_index", "threads", "iterations",
                   "real_time", "cpu_time", "time_unit", "family_index", "per_family_instance_index"})
    EXPECT_TRUE(it->contains(key)) << key;
  EXPECT_EQ((*it)["run_type"], "iteration");
  EXPECT_EQ((*it)["iterations"], 6);
  EXPECT_EQ((*it)["time_unit"], "us");
  EXPECT_DOUBLE_EQ((*it)["real_time"].get<double>(), 1000.0);  // 1 ms of GPU time
  EXPECT_DOUBLE_EQ((*it)["cpu_time"].get<double>(), 1100.0);   // host wall time
  EXPECT_DOUBLE_EQ((*it)["speedup"].get<double>(), 2.0);
  EXPECT_NEAR((*it)["bytes_per_second"].get<double>(), 8e9, 1);
  const json* med = find(g["benchmarks"], "ch07:copy_scalar/baseline_median");
  ASSERT_NE(med, nullptr);
  EXPECT_EQ((*med)["run_type"], "aggregate");
  EXPECT_EQ((*med)["aggregate_name"], "median");
  EXPECT_EQ((*med)["run_name"], "ch07:copy_scalar/baseline");
  EXPECT_DOUBLE_EQ((*med)["real_time"].get<double>(), 2000.0);
  for (auto agg : {"_mean", "_stddev", "_cv"}) EXPECT_NE(find(g["benchmarks"], "ch07:copy_scalar/baseline" + std::string(agg)), nullptr);
  EXPECT_EQ((*find(g["benchmarks"], "ch07:copy_scalar/baseline_cv"))["aggregate_unit"], "percentage");
}

TEST(Exports, InvalidVariantsAreErrorsNotTimings) {
  json g = to_gbench_json(run(), manifest());
  const json* cheat = find(g["benchmarks"], "ch07:copy_scalar/cheat");
  ASSERT_NE(cheat, nullptr);
  EXPECT_EQ((*cheat)["error_occurred"], true);
  EXPECT_FALSE(cheat->contains("real_time"));
  EXPECT_EQ(find(g["benchmarks"], "ch07:copy_scalar/cheat_mean"), nullptr);
  json n = to_nvbench_json(run(), manifest());
  for (auto& b : n["benchmarks"])
    if (b["name"] == "ch07:copy_scalar/cheat") {
      EXPECT_EQ(b["states"][0]["is_skipped"], true);
      EXPECT_TRUE(b["states"][0]["summaries"].empty());
    }
}

TEST(Exports, GbenchSamplesAsRepetitions) {
  ExportOptions o;
  o.samples_as_repetitions = true;
  json g = to_gbench_json(run(), manifest(), o);
  int reps = 0;
  for (auto& b : g["benchmarks"])
    if (b["name"] == "ch07:copy_scalar/baseline") {
      ++reps;
      EXPECT_EQ(b["iterations"], 1);
      EXPECT_EQ(b["repetitions"], 6);
    }
  EXPECT_EQ(reps, 6);
}

std::string tag_value(const json& state, const std::string& tag) {
  for (auto& s : state["summaries"])
    if (s["tag"] == tag) return s["data"][0]["value"].is_null() ? "null" : s["data"][0]["value"].get<std::string>();
  return "";
}

TEST(Exports, NvbenchHasTheLayoutNvbenchCompareReadsInSeconds) {
  json n = to_nvbench_json(run(), manifest());
  EXPECT_EQ(n["meta"]["version"]["json"]["string"], "1.0.0");
  ASSERT_EQ(n["devices"].size(), 1u);
  const json& d = n["devices"][0];
  EXPECT_EQ(d["id"], 0);
  EXPECT_EQ(d["sm_version"], 900);
  EXPECT_EQ(d["sm_default_clock_rate"], 1980000000);
  EXPECT_FALSE(d.contains("sm_clock_mhz"));  // clocks-now would make two runs' device sections differ
  EXPECT_NEAR(d["global_memory_bus_bandwidth"].get<double>(), 3.352e12, 1e9);
  const json* b = find(n["benchmarks"], "ch07:copy_scalar/baseline");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ((*b)["devices"], json::array({0}));
  EXPECT_TRUE((*b)["axes"].is_null());
  const json& st = (*b)["states"][0];
  EXPECT_EQ(st["name"], "Device=0");
  EXPECT_EQ(st["is_skipped"], false);
  for (auto& s : st["summaries"]) {
    EXPECT_TRUE(s.contains("tag"));
    EXPECT_EQ(s["data"][0]["name"], "value");
  }
  EXPECT_DOUBLE_EQ(std::stod(tag_value(st, "nv/cold/time/gpu/mean")), 0.002);  // seconds
  EXPECT_DOUBLE_EQ(std::stod(tag_value(st, "nv/cold/time/gpu/stdev/relative")), 0.0);
  EXPECT_DOUBLE_EQ(std::stod(tag_value(st, "nv/cold/time/cpu/mean")), 0.0021);
  EXPECT_EQ(tag_value(st, "nv/cold/sample_size"), "6");
  EXPECT_NEAR(std::stod(tag_value(st, "nv/cold/bw/global/bytes_per_second")), 4e9, 1);
  const json* opt = find(n["benchmarks"], "ch07:copy_scalar/copy_vec4");
  ASSERT_NE(opt, nullptr);
  EXPECT_EQ(tag_value((*opt)["states"][0], "aisp/verdict"), "FASTER");
}

TEST(Exports, NvbenchNoiseNeedsFiveSamplesAndHotModeIsBatch) {
  auto targets = run();
  targets[0].baseline = variant("baseline", {1.0, 1.1, 0.9}, {});
  json n = to_nvbench_json(targets, manifest());
  EXPECT_EQ(tag_value((*find(n["benchmarks"], "ch07:copy_scalar/baseline"))["states"][0], "nv/cold/time/gpu/stdev/relative"),
            "null");
  targets[0].mode = "hot";
  n = to_nvbench_json(targets, manifest());
  const json& st = (*find(n["benchmarks"], "ch07:copy_scalar/baseline"))["states"][0];
  EXPECT_EQ(tag_value(st, "nv/cold/time/gpu/mean"), "");
  EXPECT_NE(tag_value(st, "nv/batch/time/gpu/mean"), "");
}

TEST(Exports, CpulistCount) {
  EXPECT_EQ(cpulist_count("0-15"), 16);
  EXPECT_EQ(cpulist_count("0-3,8,10-11"), 7);
  EXPECT_EQ(cpulist_count("garbage"), 0);
}

}  // namespace
}  // namespace aisp
