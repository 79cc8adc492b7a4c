// int8_weight_only: a decode-step Linear layer, Y[M][N] = X[M][K] W[N][K]^T with M = 4 tokens (a small
// decode batch), K = 4096 -> N = 14336 (a Llama-3-8B MLP up-projection: 58.7 M weights). At M = 4 every
// weight is used 4 times: the layer is bound by reading W, not by arithmetic, so storing W in fewer bits is
// the lever (what AWQ/GPTQ-style weight-only quantization exploits in serving).
//   baseline_int8_weight_only.cu    BF16 weights, cuBLAS GEMM (FP32 accumulate): reads 117 MB of W per call
//   optimized_int8_weight_only.cu   int8 weights + one FP32 scale per output row (symmetric, per channel),
//                                   quantized once in setup() from the static BF16 W; a GEMV-style kernel
//                                   dequantizes in registers, FP32 accumulate: reads 58.7 MB of W per call
//   optimized_int8_weight_only_mma.cu  the same int8 W and scales; int8 -> bf16 in registers feeding
//                                   mma.sync m16n8k16 (tokens as the N side), so the 4 FMAs per weight of the
//                                   CUDA-core kernel become tensor-core work (measured 1.49x on the H200)
// X (bf16, dynamic) and Y (bf16) are tiny (32 KiB, 112 KiB). Declared precision: i8 (the weights).
// Tolerance (the pair's): per-row symmetric int8 rounds each weight by up to step/2, step = amax_row/127
// (amax ~ 1 for uniform(-1, 1) weights): error rms step/sqrt(12) = 2.27e-3 per weight. An output sums K
// products with x ~ uniform(-1, 1) (rms 0.577): error rms = sqrt(K) 0.577 2.27e-3 = 1.31e-3 sqrt(K) = 0.084
// at K = 4096, against an output rms of sqrt(K)/3 = 21.3. atol = 9 rms = 0.0118 sqrt(K) = 0.75 keeps a false
// alarm below 1e-18 per element (Gaussian sum of K independent terms); rtol 1e-2 covers the bf16 rounding
// of Y on both sides (half an ulp = 2^-9 relative each).
// Expected on H100 (3.35 TB/s HBM3; cold L2): BF16 ~45 us (117 MB at ~2.6 TB/s), int8 ~25 us: ~1.7x. On the
// H200 (4.8 TB/s) the int8 kernel must also keep its instruction count per weight low (see the variants).
#pragma once
#include <cuda_bf16.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "aisp/aisp.hpp"

inline constexpr int64_t kW8M = 4, kW8N = 14336, kW8K = 4096;

class Int8WeightOnlyBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"m", kW8M}, {"n", kW8N}, {"k", kW8K}};
    w.precision = aisp::DType::i8;
    // Minimum traffic at the declared precision: W once as int8 (+ one fp32 scale per row), X and Y once.
    w.bytes = double(kW8N) * kW8K + 4.0 * kW8N + 2.0 * kW8M * kW8K + 2.0 * kW8M * kW8N;
    w.flops = 2.0 * double(kW8M) * kW8N * kW8K;
    w.items = double(kW8M);
    w.item_unit = "tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    ctx.input("x", aisp::DType::bf16, {m, k});
    ctx.input("w", aisp::DType::bf16, {n, k}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);
    ctx.output("y", aisp::DType::bf16, {m, n});
    prepare(ctx);
  }
  aisp::Tolerance tolerance() const override {
    return aisp::Tolerance::loosened(
        1e-2, 0.0118 * std::sqrt(double(kW8K)),
        "declared int8 weights: per-row symmetric int8 rounds each weight by <= amax/254 (rms 2.27e-3 for "
        "uniform(-1,1) W); over K products with x ~ U(-1,1) the output error is Gaussian, rms 1.31e-3 sqrt(K); "
        "atol = 9 rms; rtol: bf16 rounding of Y on both sides");
  }

 protected:
  virtual void prepare(aisp::Context&) {}
};

// Both int8 variants quantize the static BF16 W the same way, once, in setup(): one warp per row,
// scale = amax/127, q = rint(w / scale) in [-127, 127].
__global__ void quantize_rows_int8(const __nv_bfloat16* __restrict__ w, int8_t* __restrict__ q, float* __restrict__ scale,
                                   int n, int k) {
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= n) return;
  const __nv_bfloat16* r = w + static_cast<int64_t>(row) * k;
  float amax = 0;
  for (int i = lane; i < k; i += 32) amax = fmaxf(amax, fabsf(__bfloat162float(r[i])));
  for (int o = 16; o > 0; o >>= 1) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, o));
  const float s = amax > 0 ? amax / 127.0f : 1.0f;
  if (lane == 0) scale[row] = s;
  for (int i = lane; i < k; i += 32)
    q[static_cast<int64_t>(row) * k + i] =
        static_cast<int8_t>(fmaxf(-127.0f, fminf(127.0f, rintf(__bfloat162float(r[i]) / s))));
}

// The 4 signed bytes of `word` as exact floats: byte b (biased by ^0x80 to 0..255) is placed in the low
// mantissa bits of 2^23 (0x4B000000), which is the float 8388608 + b; subtracting 8388608 + 128 gives w.
// One PRMT and one FADD per weight instead of the quarter-rate I2F.
__device__ __forceinline__ void int8x4_to_float(uint32_t word, float (&f)[4]) {
  const uint32_t biased = word ^ 0x80808080u;
  f[0] = __uint_as_float(__byte_perm(biased, 0x4B000000u, 0x7440)) - 8388736.0f;
  f[1] = __uint_as_float(__byte_perm(biased, 0x4B000000u, 0x7441)) - 8388736.0f;
  f[2] = __uint_as_float(__byte_perm(biased, 0x4B000000u, 0x7442)) - 8388736.0f;
  f[3] = __uint_as_float(__byte_perm(biased, 0x4B000000u, 0x7443)) - 8388736.0f;
}

// The int8 variants' common part: W quantized per row into private scratch (q_, scale_), in setup().
class Int8QuantizedBase : public Int8WeightOnlyBase {
 protected:
  // What the variant's kernel requires of the shape (throws otherwise).
  virtual void check_shape(int64_t m, int64_t n, int64_t k) const = 0;
  void prepare(aisp::Context& ctx) override {
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    check_shape(m, n, k);
    q_ = static_cast<int8_t*>(ctx.scratch("w_int8", n * k));
    scale_ = static_cast<float*>(ctx.scratch("w_scale", n * sizeof(float)));
    quantize_rows_int8<<<static_cast<unsigned>((n + 7) / 8), 256, 0, ctx.stream()>>>(
        ctx.buffer("w").as<const __nv_bfloat16>(), q_, scale_, static_cast<int>(n), static_cast<int>(k));
    AISP_LAUNCH_CHECK();
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  }
  int8_t* q_ = nullptr;
  float* scale_ = nullptr;
};
