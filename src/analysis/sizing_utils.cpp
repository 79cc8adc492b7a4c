// `bench utils --tool kv-cache | cost-per-token`: back-of-envelope sizing that needs no GPU.
#include <fmt/format.h>

#include <stdexcept>

#include "analysis/sizing_utils.hpp"

namespace aisp::analysis {
namespace {

double bytes_per_element(const std::string& dtype) {
  if (dtype == "fp32" || dtype == "f32" || dtype == "float32") return 4;
  if (dtype == "fp16" || dtype == "f16" || dtype == "bf16" || dtype == "float16" || dtype == "bfloat16") return 2;
  if (dtype == "fp8" || dtype == "fp8_e4m3" || dtype == "fp8_e5m2" || dtype == "int8" || dtype == "i8") return 1;
  if (dtype == "fp4" || dtype == "nvfp4" || dtype == "int4") return 0.5;  // scale factors not counted
  throw std::invalid_argument("unknown --dtype '" + dtype + "' (fp32, fp16, bf16, fp8, int8, fp4, int4)");
}

}  // namespace

KvCache kv_cache(const KvCacheInput& in) {
  if (in.layers <= 0 || in.hidden <= 0 || in.tokens <= 0 || in.batch <= 0)
    throw std::invalid_argument("--layers, --hidden, --tokens and --batch must be positive");
  KvCache k;
  k.bytes_per_element = bytes_per_element(in.dtype);
  // Grouped-query attention stores K and V for kv_heads heads only: the width shrinks by kv_heads/heads.
  if (in.heads > 0 || in.kv_heads > 0) {
    if (in.heads <= 0 || in.kv_heads <= 0 || in.kv_heads > in.heads || in.hidden % in.heads != 0)
      throw std::invalid_argument("--heads and --kv-heads: both positive, kv-heads <= heads, hidden divisible by heads");
    k.kv_width = in.hidden / in.heads * in.kv_heads;
  } else {
    k.kv_width = in.hidden;
  }
  k.bytes_per_token = 2.0 * static_cast<double>(in.layers) * static_cast<double>(k.kv_width) * k.bytes_per_element;
  k.total_bytes = k.bytes_per_token * static_cast<double>(in.tokens) * static_cast<double>(in.batch);
  k.formula = fmt::format("2 (K and V) x {} layers x {} width x {} B x {} tokens x {} batch", in.layers, k.kv_width,
                          k.bytes_per_element, in.tokens, in.batch);
  return k;
}

CostPerToken cost_per_token(const CostPerTokenInput& in) {
  if (!(in.avg_power_w > 0) || !(in.tokens_per_s > 0) || !(in.usd_per_kwh >= 0))
    throw std::invalid_argument("--avg-power and --throughput must be positive, --electricity-cost >= 0");
  CostPerToken c;
  c.joules_per_token = in.avg_power_w / in.tokens_per_s;
  c.kwh_per_million_tokens = c.joules_per_token * 1e6 / 3.6e6;  // 1 kWh = 3.6e6 J
  c.energy_usd_per_million_tokens = c.kwh_per_million_tokens * in.usd_per_kwh;
  if (known(in.usd_per_gpu_hour)) {
    if (in.usd_per_gpu_hour < 0) throw std::invalid_argument("--gpu-hour-cost must be >= 0");
    c.rental_usd_per_million_tokens = in.usd_per_gpu_hour / 3600.0 / in.tokens_per_s * 1e6;
  }
  c.total_usd_per_million_tokens =
      c.energy_usd_per_million_tokens + (known(c.rental_usd_per_million_tokens) ? c.rental_usd_per_million_tokens : 0.0);
  return c;
}

}  // namespace aisp::analysis
