// quantization_ilp: per-row symmetric FP32 -> INT8 quantization, the activation/weight quantizer in front
// of an INT8 GEMM. For each row r of x (rows x 4096 floats):
//   amax[r]  = max_i |x[r][i]|
//   scale[r] = amax[r] / 127                      (dequantize: x ~ q * scale)
//   q[r][i]  = clamp(round_to_nearest_even(x[r][i] * 127 / amax[r]), -127, 127)
// Shared by baseline_quantization_ilp.cu (one element per thread per step, scalar accesses, a shared-memory
// tree reduction, then a second pass over the row) and optimized_quantization_ilp.cu (the row held in
// registers as 16-byte vectors, warp-shuffle reduction, packed char4 stores).
// Both compute amax exactly (max is order-independent) and then apply the same IEEE operations below to
// each element, so q and scale are identical bit for bit; the harness compares integers exactly.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "aisp/aisp.hpp"

static_assert(sizeof(char4) == sizeof(int32_t), "q packs 4 int8 codes per 32-bit word");

// 16384 rows x 4096 floats = 256 MiB of input (5x H100's 50 MB L2), 64 MiB of int8 out: the quantizer
// streams from HBM whatever the cache state, ~110 us at ~3 TB/s.
inline constexpr int64_t kQuantRows = 16384;
inline constexpr int64_t kQuantCols = 4096;  // a hidden size; the optimized kernel is specialised to it
static_assert(kQuantCols % 4 == 0, "rows are whole int8x4 words");

inline aisp::Workload quantization_ilp_workload() {
  const double elements = static_cast<double>(kQuantRows) * kQuantCols;
  aisp::Workload w;
  w.params = {{"rows", kQuantRows}, {"cols", kQuantCols}};
  w.precision = aisp::DType::f32;
  // Minimum DRAM traffic: x read once (4 B/element), q written once (1 B/element), one float scale per row.
  w.bytes = elements * (sizeof(float) + sizeof(int8_t)) + static_cast<double>(kQuantRows) * sizeof(float);
  w.flops = 3.0 * elements;  // |x| + max for amax, multiply for q (rounding/clamp not counted)
  w.items = elements;
  w.item_unit = "elements";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class QuantizationIlpBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return quantization_ilp_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols");
    // Normal(0, 1) rather than uniform: each row then has its own amax (~3.5-4.5 for 4096 samples), so a
    // kernel that mixed up rows' scales would be caught by the comparison.
    ctx.input("x", aisp::DType::f32, {rows, cols}, aisp::Fill::normal(0.0, 1.0));
    // q is declared as packed int8x4 words (4 consecutive int8 codes per i32, little-endian: the layout dp4a
    // and the INT8 tensor-core loaders read), not as i8. The harness marks unwritten integer outputs with
    // 0xA5 bytes and counts elements still equal to that after run() (K1); 0xA5 is the int8 code -91, which
    // a correct quantizer writes tens of thousands of times per run here (a first run with an i8 buffer was
    // rejected for exactly that). A 32-bit word reads as poison only if 4 neighbouring codes are all -91
    // (p ~ 1e-4 each, ~1e-8 per run). The bytes, and the exact comparison, are unchanged.
    ctx.output("q", aisp::DType::i32, {rows, cols / 4});
    ctx.output("scale", aisp::DType::f32, {rows});
  }
};

// The per-row constants, computed the same way in both variants. amax == 0 (an all-zero row) gives scale 0
// and q = 0 instead of a division by zero.
__device__ __forceinline__ float quant_scale(float amax) { return amax / 127.0f; }
__device__ __forceinline__ float quant_inverse_scale(float amax) { return amax > 0.0f ? 127.0f / amax : 0.0f; }

// One element: multiply by 127 / amax, round half to even (cvt.rni), clamp to the symmetric range.
// |x| <= amax, so the product is <= 127 up to one rounding; the clamp only guards that last ulp.
__device__ __forceinline__ signed char quantize_element(float x, float inverse_scale) {
  const int q = __float2int_rn(x * inverse_scale);
  return static_cast<signed char>(max(-127, min(127, q)));
}
