// vectorization_memory: dequantize a block-scaled FP8 tensor to BF16, y[i] = fp8(x[i]) * scale[i / 128],
// 2^28 elements by default (`--axis n=...`): 256 MiB of e4m3 in, 512 MiB of bf16 out, 8 MiB of scales.
// The operation every low-precision inference path runs (dequantizing weights or a KV cache before a
// bf16 kernel); it is pure memory traffic, so how the bytes move is all that matters.
//   baseline_vectorization_memory.cu   one element per thread: a 1-byte load, a 2-byte store
//   optimized_vectorization_memory.cu  16 elements per thread: one 16-byte load, paired fp8x2 -> half2
//                                      conversions, two 16-byte stores
// Both compute bf16(float(x) * scale) from the same exact values (fp8 -> float is exact), so the outputs
// agree bit for bit and the bf16 default tolerance holds.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"

inline constexpr int64_t kDequantBlock = 128;  // elements sharing one float scale

inline int64_t vectorization_memory_n() { return aisp::axis("n", int64_t{1} << 28); }

class VectorizationMemoryBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t n = vectorization_memory_n();
    aisp::Workload w;
    w.params = {{"n", n}};
    w.precision = aisp::DType::fp8_e4m3;
    w.bytes = double(n) * (1 + 2) + double(n / kDequantBlock) * 4;  // x read, y written, scales read
    w.flops = double(n);                                               // one multiply per element
    w.items = double(n);
    w.item_unit = "elements";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    if (n % (16 * kDequantBlock)) throw std::runtime_error("vectorization_memory: n must be a multiple of 2048");
    // e4m3 holds +-448; U(-4, 4) spans normals and subnormals (below 2^-6), so both conversions paths run.
    ctx.input("x", aisp::DType::fp8_e4m3, {n}, aisp::Fill::uniform(-4, 4));
    ctx.input("scale", aisp::DType::f32, {n / kDequantBlock}, aisp::Fill::uniform(0.5, 2));
    ctx.output("y", aisp::DType::bf16, {n});
  }
};
