// Sizing calculators that need no run: KV-cache memory and cost per token.
#pragma once
#include <cstdint>
#include <string>

#include "analysis/measured_number.hpp"

namespace aisp::analysis {

struct KvCacheInput {
  int64_t layers = 0, hidden = 0, tokens = 0, batch = 1;
  int64_t heads = 0, kv_heads = 0;  // grouped-query attention: K/V width = hidden * kv_heads / heads
  std::string dtype = "fp16";
};
struct KvCache {
  int64_t kv_width = 0;        // per layer, per token, for K (and again for V)
  double bytes_per_element = 0;
  double bytes_per_token = 0;  // all layers, K and V
  double total_bytes = 0;
  std::string formula;
};
// Throws std::invalid_argument on a non-positive size or an unknown dtype.
KvCache kv_cache(const KvCacheInput& in);

struct CostPerTokenInput {
  double avg_power_w = kNaN, tokens_per_s = kNaN, usd_per_kwh = kNaN;
  double usd_per_gpu_hour = kNaN;  // optional rental rate
};
struct CostPerToken {
  double joules_per_token = kNaN, kwh_per_million_tokens = kNaN;
  double energy_usd_per_million_tokens = kNaN, rental_usd_per_million_tokens = kNaN, total_usd_per_million_tokens = kNaN;
};
CostPerToken cost_per_token(const CostPerTokenInput& in);

}  // namespace aisp::analysis
