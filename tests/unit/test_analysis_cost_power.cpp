// Cost arithmetic, price lookup, KV-cache sizing, cost per token and energy per run against hand-computed
// values.
#include <gtest/gtest.h>

#include "test_analysis_fixtures.hpp"

namespace an = aisp::analysis;
using namespace aisp::analysis::testing;

namespace {

an::PriceTable prices() {
  return an::price_table_from_json(
      {{"gpus",
        {{{"gpu", "H100"}, {"match", {"h100"}}, {"usd_per_hour", 3.50}, {"source", "test"}},
         {{"gpu", "H100 NVL"}, {"match", {"h100 nvl"}}, {"usd_per_hour", 4.00}, {"source", "test"}},
         {{"gpu", "A100"}, {"match", {"a100"}}, {"usd_per_hour", 2.00}, {"source", "test"}}}}},
      "prices.json");
}

}  // namespace

TEST(AnalysisCost, PricePerOperationAndSaving) {
  // $3.50 per hour = 3.5 / 3.6e6 $ per ms. Variant 1 ms: $9.7222e-7 per run = $0.97222 per 1M runs;
  // baseline 2 ms: $1.94444 per 1M; saving 50% = $0.97222 per 1M runs. With 1e3 items per run, 1M items
  // cost 9.7222e-7 / 1e3 * 1e6 = $9.7222e-4.
  auto t = target("ch01:c", variant("baseline", 2.0, 100), {variant("opt", 1.0, 100, 2.0, "FASTER")}, 0, 0, 1e3);
  an::Cost c = an::cost(an::variant_rows({t}), prices(), "", "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(c.gpu, "H100");
  EXPECT_DOUBLE_EQ(c.usd_per_hour, 3.50);
  ASSERT_EQ(c.rows.size(), 1u);
  const an::CostRow& r = c.rows[0];
  EXPECT_NEAR(r.usd_per_op, 3.5 / 3.6e6, 1e-15);
  EXPECT_NEAR(r.usd_per_million_ops, 0.972222222, 1e-8);
  EXPECT_NEAR(r.baseline_usd_per_million_ops, 1.944444444, 1e-8);
  EXPECT_NEAR(r.saving_pct, 50.0, 1e-9);
  EXPECT_NEAR(r.usd_saved_per_million_ops, 0.972222222, 1e-8);
  EXPECT_NEAR(r.usd_per_million_items, 9.72222222e-4, 1e-12);
  EXPECT_TRUE(c.notes.size() == 1) << "same GPU: no cross-GPU note";
}

TEST(AnalysisCost, RateOverrideAndOtherGpuNote) {
  auto t = target("ch01:c", variant("baseline", 3.0, 100), {variant("opt", 1.0, 100, 3.0, "FASTER")});
  an::Cost c = an::cost(an::variant_rows({t}), prices(), "", "NVIDIA H100 80GB HBM3", 7.2);
  EXPECT_DOUBLE_EQ(c.usd_per_hour, 7.2);
  EXPECT_NEAR(c.rows[0].usd_per_million_ops, 2.0, 1e-12);  // 1 ms at $7.2/h = $2e-6 per run
  EXPECT_NEAR(c.rows[0].saving_pct, 100.0 * (1 - 1.0 / 3.0), 1e-9);
  an::Cost other = an::cost(an::variant_rows({t}), prices(), "A100", "NVIDIA H100 80GB HBM3");
  EXPECT_DOUBLE_EQ(other.usd_per_hour, 2.0);
  EXPECT_EQ(other.notes.size(), 2u);  // says the times come from the H100
  EXPECT_THROW(an::cost(an::variant_rows({t}), prices(), "B200", "x"), std::runtime_error);
  EXPECT_THROW(an::cost(an::variant_rows({t}), prices(), "", "x", -1.0), std::invalid_argument);
}

TEST(AnalysisCost, TopNKeepsTheLargestSavings) {
  auto t = target("ch01:c", variant("baseline", 4.0, 100),
                  {variant("a", 3.0, 100, 4.0 / 3, "FASTER"), variant("b", 1.0, 100, 4.0, "FASTER"),
                   variant("c", 2.0, 100, 2.0, "FASTER")});
  an::Cost c = an::cost(an::variant_rows({t}), prices(), "H100", "", an::kNaN, 2);
  ASSERT_EQ(c.rows.size(), 2u);
  EXPECT_EQ(c.rows[0].variant, "b");
  EXPECT_EQ(c.rows[1].variant, "c");
}

TEST(AnalysisCost, PriceLookupPrefersExactThenLongestMatch) {
  an::PriceTable t = prices();
  EXPECT_EQ(an::find_price(t, "h100")->gpu, "H100");
  EXPECT_EQ(an::find_price(t, "NVIDIA H100 NVL")->gpu, "H100 NVL");
  EXPECT_EQ(an::find_price(t, "NVIDIA A100-SXM4-80GB")->gpu, "A100");
  EXPECT_FALSE(an::find_price(t, "NVIDIA B200").has_value());
  EXPECT_THROW(an::price_table_from_json({{"gpus", {{{"gpu", "X"}, {"usd_per_hour", 0}}}}}, "bad.json"), std::runtime_error);
}

TEST(AnalysisUtils, KvCacheMatchesHandComputedSizes) {
  // Seed example: 80 layers, hidden 8192, 4096 tokens, batch 8, fp8:
  // 2 x 80 x 8192 x 1 B x 4096 x 8 = 42,949,672,960 B = 40 GiB.
  an::KvCache k = an::kv_cache({80, 8192, 4096, 8, 0, 0, "fp8"});
  EXPECT_DOUBLE_EQ(k.total_bytes, 42949672960.0);
  EXPECT_DOUBLE_EQ(k.bytes_per_token, 2.0 * 80 * 8192);
  // Llama-2/3-70B shape with GQA (64 heads, 8 KV heads) in fp16: width 8192/64*8 = 1024,
  // 2 x 80 x 1024 x 2 B = 327,680 B = 320 KiB per token.
  an::KvCache g = an::kv_cache({80, 8192, 1, 1, 64, 8, "bf16"});
  EXPECT_EQ(g.kv_width, 1024);
  EXPECT_DOUBLE_EQ(g.bytes_per_token, 327680.0);
  EXPECT_DOUBLE_EQ(an::kv_cache({1, 16, 1, 1, 0, 0, "fp4"}).total_bytes, 16.0);  // 2 x 16 x 0.5 B
  EXPECT_THROW(an::kv_cache({0, 8192, 1, 1, 0, 0, "fp16"}), std::invalid_argument);
  EXPECT_THROW(an::kv_cache({1, 8192, 1, 1, 0, 0, "fp7"}), std::invalid_argument);
  EXPECT_THROW(an::kv_cache({1, 8192, 1, 1, 64, 80, "fp16"}), std::invalid_argument);
}

TEST(AnalysisUtils, CostPerTokenMatchesHandComputedValues) {
  // Seed example: 800 W at 1500 tokens/s, $0.16/kWh: 0.5333 J/token; 1e6 tokens = 533,333 J = 0.148148 kWh
  // = $0.0237037. With $3.50/GPU-hour: 1e6 / 1500 s = 666.67 s = 0.185185 h = $0.648148.
  an::CostPerToken c = an::cost_per_token({800, 1500, 0.16, 3.50});
  EXPECT_NEAR(c.joules_per_token, 0.533333333, 1e-9);
  EXPECT_NEAR(c.kwh_per_million_tokens, 0.148148148, 1e-9);
  EXPECT_NEAR(c.energy_usd_per_million_tokens, 0.0237037037, 1e-10);
  EXPECT_NEAR(c.rental_usd_per_million_tokens, 0.648148148, 1e-9);
  EXPECT_NEAR(c.total_usd_per_million_tokens, 0.671851852, 1e-9);
  EXPECT_FALSE(an::known(an::cost_per_token({800, 1500, 0.16}).rental_usd_per_million_tokens));
  EXPECT_THROW(an::cost_per_token({800, 0, 0.16}), std::invalid_argument);
}

TEST(AnalysisPower, EnergyFromTheHarnessSummary) {
  an::Energy e = an::energy_from_summary({{"joules", 10.0}, {"wall_s", 2.0}, {"gpu_busy_s", 1.5}, {"mean_power_w", 500.0},
                                          {"joules_per_run", 0.5}, {"method", "mean power x median"}});
  ASSERT_TRUE(e.present);
  EXPECT_DOUBLE_EQ(e.joules_per_run, 0.5);
  EXPECT_DOUBLE_EQ(e.avg_power_w, 500.0);
  EXPECT_DOUBLE_EQ(e.gpu_busy_fraction, 0.75);
  EXPECT_NE(e.source.find("mean power x median"), std::string::npos);
  EXPECT_FALSE(an::energy_from_summary(nullptr).present);
}

TEST(AnalysisPower, EnergyPerRunFromBlockTelemetryAndAbsence) {
  an::Telemetry t;
  // Three blocks of 100 runs: 50, 60, 55 J -> 0.5, 0.6, 0.55 J per run; median 0.55 J; at 1 ms that is 550 W.
  t["ch1:x"]["opt"]["energy_j"] = {50, 60, 55};
  t["ch1:x"]["opt"]["energy_runs"] = {100, 100, 100};
  an::Energy e = an::energy_of(t, "ch1:x", "opt", 1.0);
  ASSERT_TRUE(e.present);
  EXPECT_DOUBLE_EQ(e.joules_per_run, 0.55);
  EXPECT_DOUBLE_EQ(e.avg_power_w, 550.0);
  // Counter readings without run counts are not turned into a per-run figure.
  t["ch1:x"]["raw"]["energy_mj"] = {1000, 2000};
  an::Energy raw = an::energy_of(t, "ch1:x", "raw", 1.0);
  EXPECT_FALSE(raw.present);
  EXPECT_NE(raw.why.find("without the number of runs"), std::string::npos);
  EXPECT_FALSE(an::energy_of(t, "ch1:x", "missing", 1.0).present);
}

TEST(AnalysisPower, WorkPerJouleAndSavingVsBaseline) {
  an::DerivationInputs ctx;
  // Baseline 1 J/run, variant 0.25 J/run; 1e9 FLOP and 1e6 items per run.
  ctx.telemetry["ch1:p"]["baseline"]["energy_per_run_j"] = {1.0};
  ctx.telemetry["ch1:p"]["opt"]["energy_per_run_j"] = {0.25};
  auto t = target("ch1:p", variant("baseline", 2.0, 100), {variant("opt", 0.5, 100, 4.0, "FASTER")}, 1e8, 1e9, 1e6);
  an::Power p = an::power(an::variant_rows({t}, ctx));
  ASSERT_TRUE(p.any_energy);
  ASSERT_EQ(p.rows.size(), 2u);
  EXPECT_EQ(p.rows[0].variant, "opt");  // least energy per run first
  EXPECT_DOUBLE_EQ(p.rows[0].ops_per_joule, 4e9);
  EXPECT_DOUBLE_EQ(p.rows[0].items_per_joule, 4e6);
  EXPECT_DOUBLE_EQ(p.rows[0].energy_saving_pct, 75.0);
  an::Power none = an::power(an::variant_rows({t}));
  EXPECT_FALSE(none.any_energy);
  EXPECT_NE(none.notes.front().find("no energy data"), std::string::npos);
}

TEST(AnalysisPower, HarnessEnergySummaryReachesTheRowsThroughTheResultJson) {
  // A variant as the results file stores it, with the harness's per-variant energy summary.
  nlohmann::json v = aisp::to_json(variant("opt", 0.5, 100, 4.0, "FASTER"));
  v["energy"] = {{"joules", 40.0}, {"wall_s", 0.2}, {"gpu_busy_s", 0.15}, {"mean_power_w", 200.0},
                 {"joules_per_run", 0.1}, {"method", "mean board power over the timed blocks x median"}};
  aisp::VariantResult parsed = aisp::variant_from_json(v);
  if (!aisp::to_json(parsed).contains("energy"))
    GTEST_SKIP() << "this result model does not carry the harness's energy summary";
  auto t = target("ch1:e", variant("baseline", 2.0, 100), {parsed}, 1e8, 1e9, 1e6);
  auto rows = an::variant_rows({t});
  ASSERT_TRUE(rows[1].energy.present);
  EXPECT_DOUBLE_EQ(rows[1].energy.joules_per_run, 0.1);
  EXPECT_DOUBLE_EQ(rows[1].energy.gpu_busy_fraction, 0.75);
  EXPECT_FALSE(rows[0].energy.present);  // the baseline's run recorded none
  EXPECT_DOUBLE_EQ(an::power(rows).rows[0].ops_per_joule, 1e10);
}
