// ch19 dynamic_precision, optimized: per-token int8 or bf16, chosen by the token's measured rounding error.
//
// Technique: (setup) W is quantized once per output row to int8 with scale amax / 127. (run) One block per
// token loads its 8192 values into registers, takes amax and the sum of squares, rounds to int8 with
// scale amax / 127, and measures the rounding's relative rms error r = ||x - deq(q(x))|| / ||x||. Tokens
// with r <= 1.1% keep their int8 row; tokens above it claim a slot (atomic counter) in a 256-row bf16
// gather buffer. Then cuBLAS runs the int8 GEMM over all tokens (int32 accumulation, IMMA tensor cores)
// and a bf16 GEMM over the 256 gathered rows; an epilogue writes y = C * sx[token] * sw[col] for int8
// tokens and copies the bf16 result for gathered ones. (A token beyond the 256 slots - never seen with
// these inputs, ~15 sigma away - is computed directly from bf16 x and W in the epilogue, slowly but right.)
// Why it is faster: the GEMM's 1.1 TFLOP run at the int8 tensor-core rate (2x bf16's on Hopper); the cost
// is the quantization pass (x read once), the int32 C round trip (256 MiB written and read) and a 256-row
// bf16 GEMM (3% of the work).
// Expected on Hopper: ~1.2x (int8 GEMM ~0.85 ms + ~0.25 ms of passes vs ~1.45 ms), if cuBLAS's int8 GEMM
// reaches ~1.3 POPS.
// Measured (H100 SXM, harness cold mode, 2026-11-25, 19 checks passed): 1.066 ms
// (1031 TOPS effective), 1.32x [1.30, 1.34] over bf16; max |y - y_bf16| 0.0625 (atol 0.08). 41 samples kept,
// 120 discarded as power-capped.
#include "dynamic_precision.cuh"

namespace {

using namespace dyn_precision;

constexpr int kThreads = 256, kK = 8192, kPerThread = kK / 8 / kThreads;  // 16-byte chunks per thread: 4

__device__ float block_reduce(float v, bool is_max, float* red) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) {
    const float u = __shfl_xor_sync(0xffffffffu, v, o);
    v = is_max ? fmaxf(v, u) : v + u;
  }
  __syncthreads();  // red[] may still be read from the previous reduction
  if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = v;
  __syncthreads();
  v = red[0];
  for (int w = 1; w < kThreads / 32; ++w) v = is_max ? fmaxf(v, red[w]) : v + red[w];
  return v;
}

// Loads this thread's 32 values of a row (chunks tid + 256 i) as floats.
__device__ void load_row(const __nv_bfloat16* row, uint4 (&raw)[kPerThread], float (&f)[kPerThread * 8]) {
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    raw[i] = reinterpret_cast<const uint4*>(row)[threadIdx.x + kThreads * i];
    const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&raw[i]);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const float2 t = __bfloat1622float2(h[j]);
      f[8 * i + 2 * j] = t.x, f[8 * i + 2 * j + 1] = t.y;
    }
  }
}

// Rounds the row to int8 with scale s (stored as 8-byte words), returns this thread's squared error.
__device__ float store_int8(const float (&f)[kPerThread * 8], float s, int8_t* out) {
  const float inv = 1.0f / s;
  float err = 0.0f;
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    char4 q[2];
    signed char* qc = reinterpret_cast<signed char*>(q);
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int v = max(-127, min(127, __float2int_rn(f[8 * i + j] * inv)));
      qc[j] = static_cast<signed char>(v);
      const float d = f[8 * i + j] - v * s;
      err = fmaf(d, d, err);
    }
    reinterpret_cast<uint2*>(out)[threadIdx.x + kThreads * i] = *reinterpret_cast<const uint2*>(q);
  }
  return err;
}

// Setup: W row n -> int8 with scale amax / 127.
__global__ void __launch_bounds__(kThreads) quantize_weight_rows(const __nv_bfloat16* __restrict__ w, int8_t* __restrict__ wq,
                                                                 float* __restrict__ sw) {
  __shared__ float red[kThreads / 32];
  const int64_t n = blockIdx.x;
  uint4 raw[kPerThread];
  float f[kPerThread * 8];
  load_row(w + n * kK, raw, f);
  float amax = 0.0f;
  for (float v : f) amax = fmaxf(amax, fabsf(v));
  amax = block_reduce(amax, true, red);
  const float s = amax > 0.0f ? amax / 127.0f : 1.0f;
  store_int8(f, s, wq + n * kK);
  if (threadIdx.x == 0) sw[n] = s;
}

// Run: token m -> int8 (scale sx[m]) and its measured error; over the bound -> a bf16 gather slot.
// slot_of[m]: -1 int8 path, >= 0 gather slot, -2 no slot left (computed directly in the epilogue).
__global__ void __launch_bounds__(kThreads)
    quantize_tokens(const __nv_bfloat16* __restrict__ x, int8_t* __restrict__ xq, float* __restrict__ sx,
                    int* __restrict__ slot_of, int* __restrict__ count, __nv_bfloat16* __restrict__ gathered) {
  __shared__ float red[kThreads / 32];
  __shared__ int slot;
  const int64_t m = blockIdx.x;
  uint4 raw[kPerThread];
  float f[kPerThread * 8];
  load_row(x + m * kK, raw, f);
  float amax = 0.0f, ss = 0.0f;
  for (float v : f) amax = fmaxf(amax, fabsf(v)), ss = fmaf(v, v, ss);
  amax = block_reduce(amax, true, red);
  ss = block_reduce(ss, false, red);
  const float s = amax > 0.0f ? amax / 127.0f : 1.0f;
  const float err = block_reduce(store_int8(f, s, xq + m * kK), false, red);
  if (threadIdx.x == 0) {
    const bool wide = ss > 0.0f && err > kErrorBound * kErrorBound * ss;  // r^2 = err / ss
    slot = -1;
    if (wide) {
      const int claimed = atomicAdd(count, 1);
      slot = claimed < kFallbackRows ? claimed : -2;
    }
    slot_of[m] = slot;
    sx[m] = s;
  }
  __syncthreads();
  if (slot >= 0) {
#pragma unroll
    for (int i = 0; i < kPerThread; ++i)
      reinterpret_cast<uint4*>(gathered + int64_t(slot) * kK)[threadIdx.x + kThreads * i] = raw[i];
  }
}

// y[m][4c..4c+3]: int8 path rescaled, gathered rows copied, slotless rows computed directly.
__global__ void finish_rows(const int* __restrict__ c, const float* __restrict__ sx, const float* __restrict__ sw,
                            const int* __restrict__ slot_of, const __nv_bfloat16* __restrict__ y_gathered,
                            const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ w, int64_t m_rows,
                            int n, __nv_bfloat16* __restrict__ y) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  const int per_row = n / 4;
  if (i >= m_rows * per_row) return;
  const int64_t m = i / per_row;
  const int col = static_cast<int>(i % per_row) * 4;
  const int slot = slot_of[m];
  float out[4];
  if (slot == -1) {
    const int4 acc = reinterpret_cast<const int4*>(c)[i];
    const float4 s = reinterpret_cast<const float4*>(sw)[col / 4];
    const float a = sx[m];
    out[0] = acc.x * a * s.x, out[1] = acc.y * a * s.y, out[2] = acc.z * a * s.z, out[3] = acc.w * a * s.w;
  } else if (slot >= 0) {
    reinterpret_cast<uint2*>(y)[i] = *reinterpret_cast<const uint2*>(y_gathered + int64_t(slot) * n + col);
    return;
  } else {
    for (int j = 0; j < 4; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < kK; ++k)
        acc = fmaf(__bfloat162float(x[m * kK + k]), __bfloat162float(w[int64_t(col + j) * kK + k]), acc);
      out[j] = acc;
    }
  }
  __nv_bfloat162 o2[2] = {__floats2bfloat162_rn(out[0], out[1]), __floats2bfloat162_rn(out[2], out[3])};
  reinterpret_cast<uint2*>(y)[i] = *reinterpret_cast<const uint2*>(o2);
}

class OptimizedDynamicPrecision : public DynamicPrecisionBase {
 public:
  void run(aisp::Context& ctx) override {
    const int m = static_cast<int>(ctx.param("tokens")), n = static_cast<int>(ctx.param("n"));
    cudaStream_t st = ctx.stream();
    AISP_CUDA_CHECK(cudaMemsetAsync(count_, 0, sizeof(int), st));
    quantize_tokens<<<m, kThreads, 0, st>>>(ctx.buffer("x").as<const __nv_bfloat16>(), xq_, sx_, slot_of_, count_,
                                            gathered_);
    AISP_LAUNCH_CHECK();
    const int32_t one = 1, zero = 0;
    AISP_CUBLAS_CHECK(cublasGemmEx(ctx.cublas(), CUBLAS_OP_T, CUBLAS_OP_N, n, m, kK, &one, wq_, CUDA_R_8I, kK, xq_,
                                   CUDA_R_8I, kK, &zero, c_, CUDA_R_32I, n, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
    const float alpha = 1.0f, beta = 0.0f;
    AISP_CUBLAS_CHECK(cublasGemmEx(ctx.cublas(), CUBLAS_OP_T, CUBLAS_OP_N, n, kFallbackRows, kK, &alpha,
                                   ctx.buffer("w").data, CUDA_R_16BF, kK, gathered_, CUDA_R_16BF, kK, &beta, y_gathered_,
                                   CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    const int64_t threads = int64_t(m) * n / 4;
    finish_rows<<<static_cast<unsigned>((threads + 255) / 256), 256, 0, st>>>(
        c_, sx_, sw_, slot_of_, y_gathered_, ctx.buffer("x").as<const __nv_bfloat16>(),
        ctx.buffer("w").as<const __nv_bfloat16>(), m, n, ctx.buffer("y").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override {
    return "per-token int8 (measured rounding error <= 1.1%) via int8 GEMM, bf16 for the rest";
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t m = ctx.param("tokens"), n = ctx.param("n");
    xq_ = static_cast<int8_t*>(ctx.scratch("x_int8", static_cast<size_t>(m) * kK));
    wq_ = static_cast<int8_t*>(ctx.scratch("w_int8", static_cast<size_t>(n) * kK));
    sx_ = static_cast<float*>(ctx.scratch("x_scale", static_cast<size_t>(m) * 4));
    sw_ = static_cast<float*>(ctx.scratch("w_scale", static_cast<size_t>(n) * 4));
    slot_of_ = static_cast<int*>(ctx.scratch("slot_of", static_cast<size_t>(m) * 4));
    count_ = static_cast<int*>(ctx.scratch("count", 4));
    gathered_ = static_cast<__nv_bfloat16*>(ctx.scratch("x_bf16_rows", static_cast<size_t>(kFallbackRows) * kK * 2));
    y_gathered_ = static_cast<__nv_bfloat16*>(ctx.scratch("y_bf16_rows", static_cast<size_t>(kFallbackRows) * n * 2));
    c_ = static_cast<int*>(ctx.scratch("c_int32", static_cast<size_t>(m) * n * 4));
    quantize_weight_rows<<<static_cast<unsigned>(n), kThreads, 0, ctx.stream()>>>(ctx.buffer("w").as<const __nv_bfloat16>(),
                                                                                  wq_, sw_);
    AISP_LAUNCH_CHECK();
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  }

 private:
  int8_t *xq_ = nullptr, *wq_ = nullptr;
  float *sx_ = nullptr, *sw_ = nullptr;
  int *slot_of_ = nullptr, *count_ = nullptr, *c_ = nullptr;
  __nv_bfloat16 *gathered_ = nullptr, *y_gathered_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(OptimizedDynamicPrecision)
