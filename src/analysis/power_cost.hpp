// `bench power` and `bench cost`: energy efficiency from measured energy, and cost per operation from a GPU
// price table.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "analysis/variant_metrics.hpp"

namespace aisp::analysis {

struct PowerRow {
  std::string target, variant;
  Energy energy;
  double ops_per_joule = kNaN;    // FLOP per joule (= FLOP/s per W) when FLOPs are declared
  double items_per_joule = kNaN;
  double bytes_per_joule = kNaN;
  double energy_saving_pct = kNaN;  // vs the baseline's energy per run
};
struct Power {
  std::vector<PowerRow> rows;     // with energy first (by items per joule), then the rest
  bool any_energy = false;
  std::vector<std::string> notes;
};
Power power(const std::vector<VariantRow>& rows);

// A GPU price file (data/gpu_prices.json): prices per GPU-hour with their source and date.
struct GpuPrice {
  std::string gpu, source, as_of;
  std::vector<std::string> match;  // lower-case substrings of a GPU model name
  double usd_per_hour = kNaN;
};
struct PriceTable {
  std::vector<GpuPrice> prices;
  std::string source;
};
PriceTable price_table_from_json(const json& doc, const std::string& source);
// The entry for a GPU name ("H100", "NVIDIA H100 80GB HBM3"): exact name first, then the longest match.
std::optional<GpuPrice> find_price(const PriceTable& t, const std::string& gpu);

struct CostRow {
  std::string target, variant;
  double median_ms = kNaN;
  double usd_per_op = kNaN, usd_per_million_ops = kNaN;
  double usd_per_million_items = kNaN;
  double baseline_usd_per_million_ops = kNaN;
  double saving_pct = kNaN;  // 1 - optimized/baseline cost = 1 - 1/speedup
  double usd_saved_per_million_ops = kNaN;
  std::string item_unit;
};
struct Cost {
  std::string gpu, rate_source, measured_on;
  double usd_per_hour = kNaN;
  std::vector<CostRow> rows;  // optimized variants, largest saving per million ops first
  std::vector<std::string> notes;
};
// `gpu` empty: the measured GPU's entry. `rate_override` (USD/GPU-hour) wins over the file when known().
Cost cost(const std::vector<VariantRow>& rows, const PriceTable& prices, const std::string& gpu,
          const std::string& measured_gpu, double rate_override = kNaN, size_t top_n = 0);

}  // namespace aisp::analysis
