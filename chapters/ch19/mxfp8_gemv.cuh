// mxfp8_gemv: the decode-time linear layer with block-scaled FP8 weights, y = W x for one token, W
// [16384][8192] (an FFN up-projection), x [8192] bf16, y [16384] bf16, fp32 accumulation. Batch-1 decode
// is a pure read of the weights, so the weight format decides the time.
//   baseline_mxfp8_gemv.cu   bf16 weights: 2 B per weight, 256 MiB per call
//   optimized_mxfp8_gemv.cu  MXFP8 weights (OCP Microscaling: e4m3 elements, one power-of-two E8M0 scale
//                            per 32 consecutive weights along K), dequantized in registers: 1.03 B per
//                            weight. Hopper has no block-scaled tensor cores (Blackwell's tcgen05 reads
//                            MX formats natively); this emulates the format with CUDA-core math, which
//                            is enough where the bytes, not the FLOPs, are the bound.
// W is a static input (weights): setup() quantizes it once, as a checkpoint converter would.
// Declared precision fp8_e4m3 (the pair's lowest), declared bytes the MXFP8 weights' (the minimum read).
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <stdexcept>

#include "aisp/aisp.hpp"
#include "aisp/axes.hpp"

namespace mxfp8 {

constexpr int kBlock = 32;        // weights per E8M0 scale (the MX block size)
constexpr int kRowsPerCta = 8;    // one warp per output row
constexpr int kUnroll = 4;        // 16-byte weight loads a lane has in flight

inline int64_t rows() { return aisp::axis("n", 16384); }
inline int64_t cols() { return aisp::axis("k", 8192); }

__device__ __forceinline__ float warp_sum(float x) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) x += __shfl_xor_sync(0xffffffffu, x, o);
  return x;
}

// 8 bf16 of x as floats.
__device__ __forceinline__ void load_x8(const __nv_bfloat16* x, float (&f)[8]) {
  const uint4 v = __ldg(reinterpret_cast<const uint4*>(x));
  const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&v);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const float2 t = __bfloat1622float2(h[i]);
    f[2 * i] = t.x, f[2 * i + 1] = t.y;
  }
}

class Mxfp8GemvBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    const int64_t n = rows(), k = cols();
    aisp::Workload w;
    w.params = {{"n", n}, {"k", k}};
    w.precision = aisp::DType::fp8_e4m3;
    w.bytes = double(n) * k + double(n) * k / kBlock + 2.0 * k + 2.0 * n;  // MXFP8 W, scales, x, y
    w.flops = 2.0 * n * k;
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n"), k = ctx.param("k");
    if (n % kRowsPerCta || k % (16 * 32 * kUnroll)) throw std::runtime_error("mxfp8_gemv: needs n % 8 == 0, k % 2048 == 0");
    ctx.input("x", aisp::DType::bf16, {1, k});
    ctx.input("w", aisp::DType::bf16, {n, k}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);
    ctx.output("y", aisp::DType::bf16, {1, n});
    prepare(ctx);
  }
  // Error of e4m3 rounding under a power-of-two block scale: the block max lands in (224, 448], every
  // weight is rounded to half an e4m3 ulp (3 mantissa bits); for weights uniform in the block that is an
  // rms of 0.0147 x the block max (~0.97 for U(-1, 1) blocks of 32). Over k = 8192 products with x ~ U(-1, 1)
  // (rms 0.577) the output error has sigma = sqrt(8192) x 0.577 x 0.0147 x 0.97 = 0.745 (2.5% of the
  // outputs' rms, 30.2). atol 4.5 = 6 sigma: the largest of 16384 errors stays inside (p ~ 3e-5 for one to
  // exceed it), while a dropped 1/16 of the weights (error rms ~7.5) or a wrong scale does not fit.
  // rtol 1e-2 covers the final bf16 rounding (<= 2^-8 apart).
  aisp::Tolerance tolerance() const override {
    return aisp::Tolerance::loosened(
        1e-2, 4.5,
        "MXFP8 (e4m3 + E8M0 per 32) weights: rounding rms 0.0147 x block max, output error sigma 0.745 at "
        "k = 8192 (2.5% of rms |y| = 30.2); atol = 6 sigma; rtol 1e-2 for the bf16 output rounding");
  }

 protected:
  virtual void prepare(aisp::Context&) {}
  static unsigned blocks(aisp::Context& ctx) { return static_cast<unsigned>(ctx.param("n") / kRowsPerCta); }
};

}  // namespace mxfp8
