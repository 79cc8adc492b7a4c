// labs/decode, step 2 (the optimized step): fused GEMVs around split-KV paged attention, 6 launches.
//
// Technique: at 8 tokens every projection is a weight stream (2 FLOP per weight per token: far left of the
// ridge), so each one becomes a persistent GEMV kernel whose prologue stages the 8 activation rows in
// shared memory and whose epilogue does the elementwise work the baseline runs as separate kernels:
//   1. fused_norm_qkv       prologue RMSNorm(x) (same code as the baseline's kernel: identical xn) -> QKV
//                           rows -> q (bf16) and kv_new
//   2-3. split_paged_attention + merge_with_new_token (split_attention.cuh, step 1)
//   4. fused_o_residual     prologue o -> Wo rows -> h1 = x + o Wo^T (fp32)
//   5. fused_norm_gate_up   prologue RMSNorm(h1) -> gate row n and up row n together -> a = silu(g) * u
//   6. fused_down_residual  prologue a (96 KB, 16 warps per CTA) -> Wd rows -> y = h1 + a Wd^T (bf16)
// Each warp owns one weight row at a time: 16-byte loads, 4 in flight per lane, the 8 token dot products
// in fp32 from shared memory, a warp reduction, lane m writes token m's value.
// Why it should be faster than step 1: no fp32 intermediates (qkv, attn, gate/up, down: ~0.7 MB written and
// read back), 5 fewer launches with their ramps and tails, and no library GEMM tuned for larger M.
// Expected on Hopper: ~377 MB at ~80-85% of the measured 3166 GB/s read bandwidth: ~140-150 us per step,
// ~55k tokens/s for this layer, ~1.1-1.2x over step 1. Measured (2026-11-28, all checks passed,
// docs/measurements/closing_calls_20261128.md): H100 80GB HBM3 238.0 us, 4.321x [4.243, 4.400] over the
// baseline, 33.6k tokens/s (50% of roofline); H200 210.3 us, 4.686x [4.602, 4.772], 38.0k tokens/s.
// SLOWER than step 1 on both GPUs (186.5 / 147.9 us): the attention kernels are the same, so these fused
// persistent projections stream the 109 MB of weights more slowly than cuBLAS plus the separate
// elementwise kernels. Not profiled; likely too few bytes in flight per SM (4 x 16-byte loads per lane, one
// row per warp), as in ch18 tiny_gemm_fused before its double buffering.
#include <algorithm>

#include "split_attention.cuh"

namespace {

using namespace decode_lab;

constexpr int kUnroll = 4;

// acc[r][m] = w[r][0..K) . xs[m][0..K) (fp32) for the NW weight rows w[r] and the 8 activation rows in shared
// memory (bf16 [8][K] as 16-byte chunks), summed over the warp: every lane returns every sum.
template <int K, int NW>
__device__ __forceinline__ void dot_rows(const __nv_bfloat16* const (&w)[NW], const uint4* xs, float (&acc)[NW][kBatch]) {
  constexpr int kChunks = K / 8 / 32;  // 16-byte chunks of a row per lane
  static_assert(K % 256 == 0 && kChunks % kUnroll == 0, "a row must split into whole unrolled chunk groups");
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int r = 0; r < NW; ++r)
#pragma unroll
    for (int m = 0; m < kBatch; ++m) acc[r][m] = 0.0f;
#pragma unroll 1
  for (int j0 = 0; j0 < kChunks; j0 += kUnroll) {
    uint4 raw[NW][kUnroll];
#pragma unroll
    for (int r = 0; r < NW; ++r)
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) raw[r][u] = __ldg(reinterpret_cast<const uint4*>(w[r]) + lane + 32 * (j0 + u));
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int c = lane + 32 * (j0 + u);
      float fw[NW][8];
#pragma unroll
      for (int r = 0; r < NW; ++r) ch18::bf16x8_to_float(raw[r][u], fw[r]);
#pragma unroll
      for (int m = 0; m < kBatch; ++m) {
        float fx[8];
        ch18::bf16x8_to_float(xs[m * (K / 8) + c], fx);
#pragma unroll
        for (int r = 0; r < NW; ++r)
#pragma unroll
          for (int i = 0; i < 8; ++i) acc[r][m] = fmaf(fw[r][i], fx[i], acc[r][m]);
      }
    }
  }
#pragma unroll
  for (int r = 0; r < NW; ++r)
#pragma unroll
    for (int m = 0; m < kBatch; ++m) acc[r][m] = warp_sum(acc[r][m]);
}

// Copies the bf16 [8][K] activations into shared memory (16-byte loads, the whole CTA).
template <int K>
__device__ __forceinline__ void stage_rows(const __nv_bfloat16* __restrict__ src, uint4* xs) {
  for (int i = threadIdx.x; i < kBatch * K / 8; i += blockDim.x) xs[i] = reinterpret_cast<const uint4*>(src)[i];
  __syncthreads();
}

// Every warp normalizes token rows warp, warp + W, ... into shared memory.
template <class T>
__device__ __forceinline__ void stage_normalized(const T* __restrict__ src, const __nv_bfloat16* __restrict__ gamma,
                                                 uint4* xs) {
  __nv_bfloat16* xn = reinterpret_cast<__nv_bfloat16*>(xs);
  for (int m = threadIdx.x / 32; m < kBatch; m += blockDim.x / 32)
    rms_norm_row(src + int64_t(m) * kHidden, gamma, kHidden, xn + int64_t(m) * kHidden);
  __syncthreads();
}

// First row of this warp and the stride over rows (a whole warp owns a row).
__device__ __forceinline__ int first_row() { return blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; }
__device__ __forceinline__ int row_stride() { return gridDim.x * (blockDim.x / 32); }

constexpr int kWarps = 8, kDownWarps = 16;

__global__ void __launch_bounds__(kWarps * 32)
    fused_norm_qkv(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ gamma,
                   const __nv_bfloat16* __restrict__ w, __nv_bfloat16* __restrict__ q, __nv_bfloat16* __restrict__ kv_new) {
  extern __shared__ uint4 xs[];
  stage_normalized(x, gamma, xs);
  const int lane = threadIdx.x % 32;
  for (int n = first_row(); n < 3 * kHidden; n += row_stride()) {
    const __nv_bfloat16* rows[1] = {w + int64_t(n) * kHidden};
    float acc[1][kBatch];
    dot_rows<kHidden, 1>(rows, xs, acc);
#pragma unroll
    for (int m = 0; m < kBatch; ++m)
      if (lane == m) {
        const __nv_bfloat16 v = __float2bfloat16_rn(acc[0][m]);
        if (n < kHidden) q[m * kHidden + n] = v;
        else kv_new[m * 2 * kHidden + (n - kHidden)] = v;
      }
  }
}

__global__ void __launch_bounds__(kWarps * 32)
    fused_o_residual(const __nv_bfloat16* __restrict__ o, const __nv_bfloat16* __restrict__ x,
                     const __nv_bfloat16* __restrict__ w, float* __restrict__ h1) {
  extern __shared__ uint4 xs[];
  stage_rows<kHidden>(o, xs);
  const int lane = threadIdx.x % 32;
  for (int n = first_row(); n < kHidden; n += row_stride()) {
    const __nv_bfloat16* rows[1] = {w + int64_t(n) * kHidden};
    float acc[1][kBatch];
    dot_rows<kHidden, 1>(rows, xs, acc);
#pragma unroll
    for (int m = 0; m < kBatch; ++m)
      if (lane == m) h1[m * kHidden + n] = __bfloat162float(x[m * kHidden + n]) + acc[0][m];
  }
}

__global__ void __launch_bounds__(kWarps * 32)
    fused_norm_gate_up(const float* __restrict__ h1, const __nv_bfloat16* __restrict__ gamma,
                       const __nv_bfloat16* __restrict__ w, __nv_bfloat16* __restrict__ a) {
  extern __shared__ uint4 xs[];
  stage_normalized(h1, gamma, xs);
  const int lane = threadIdx.x % 32;
  for (int n = first_row(); n < kInter; n += row_stride()) {
    const __nv_bfloat16* rows[2] = {w + int64_t(n) * kHidden, w + int64_t(kInter + n) * kHidden};
    float acc[2][kBatch];
    dot_rows<kHidden, 2>(rows, xs, acc);
#pragma unroll
    for (int m = 0; m < kBatch; ++m)
      if (lane == m) a[m * kInter + n] = __float2bfloat16_rn(silu_mul(acc[0][m], acc[1][m]));
  }
}

__global__ void __launch_bounds__(kDownWarps * 32)
    fused_down_residual(const __nv_bfloat16* __restrict__ a, const float* __restrict__ h1, const __nv_bfloat16* __restrict__ w,
                        __nv_bfloat16* __restrict__ y) {
  extern __shared__ uint4 xs[];
  stage_rows<kInter>(a, xs);
  const int lane = threadIdx.x % 32;
  for (int n = first_row(); n < kHidden; n += row_stride()) {
    const __nv_bfloat16* rows[1] = {w + int64_t(n) * kInter};
    float acc[1][kBatch];
    dot_rows<kInter, 1>(rows, xs, acc);
#pragma unroll
    for (int m = 0; m < kBatch; ++m)
      if (lane == m) y[m * kHidden + n] = __float2bfloat16_rn(h1[m * kHidden + n] + acc[0][m]);
  }
}

constexpr size_t kSmemHidden = size_t{kBatch} * kHidden * 2;  // 32 KB
constexpr size_t kSmemInter = size_t{kBatch} * kInter * 2;    // 96 KB

// Resident CTAs x SMs (occupancy API, this kernel, this shared memory), but no more CTAs than rows need.
template <class Kernel>
unsigned persistent_grid(Kernel kernel, int warps, size_t smem, int sm_count, int rows) {
  AISP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  int per_sm = 0;
  AISP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, warps * 32, smem));
  const int grid = std::max(1, per_sm) * sm_count, needed = (rows + warps - 1) / warps;
  return static_cast<unsigned>(std::min(grid, needed));
}

class OptimizedDecodeStep : public DecodeStepBase {
 public:
  std::string technique() const override {
    return "fused persistent GEMVs (RMSNorm prologues, SiLU/residual epilogues) + split-KV paged attention: 6 launches";
  }
  void run(aisp::Context& ctx) override {
    const auto* x = ctx.buffer("x").as<const __nv_bfloat16>();
    auto* kv_new = ctx.buffer("kv_new").as<__nv_bfloat16>();
    fused_norm_qkv<<<grid_qkv_, kWarps * 32, kSmemHidden, ctx.stream()>>>(
        x, ctx.buffer("gamma1").as<const __nv_bfloat16>(), ctx.buffer("w_qkv").as<const __nv_bfloat16>(), act_.q, kv_new);
    AISP_LAUNCH_CHECK();
    attention_.launch(ctx, act_.q, kv_new, act_.o);
    fused_o_residual<<<grid_o_, kWarps * 32, kSmemHidden, ctx.stream()>>>(act_.o, x,
                                                                          ctx.buffer("w_o").as<const __nv_bfloat16>(), act_.h1);
    AISP_LAUNCH_CHECK();
    fused_norm_gate_up<<<grid_gate_up_, kWarps * 32, kSmemHidden, ctx.stream()>>>(
        act_.h1, ctx.buffer("gamma2").as<const __nv_bfloat16>(), ctx.buffer("w_gate_up").as<const __nv_bfloat16>(), act_.a);
    AISP_LAUNCH_CHECK();
    fused_down_residual<<<grid_down_, kDownWarps * 32, kSmemInter, ctx.stream()>>>(
        act_.a, act_.h1, ctx.buffer("w_down").as<const __nv_bfloat16>(), ctx.buffer("y").as<__nv_bfloat16>());
    AISP_LAUNCH_CHECK();
  }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int sms = ctx.device().sm_count;
    grid_qkv_ = persistent_grid(fused_norm_qkv, kWarps, kSmemHidden, sms, 3 * kHidden);
    grid_o_ = persistent_grid(fused_o_residual, kWarps, kSmemHidden, sms, kHidden);
    grid_gate_up_ = persistent_grid(fused_norm_gate_up, kWarps, kSmemHidden, sms, kInter);
    grid_down_ = persistent_grid(fused_down_residual, kDownWarps, kSmemInter, sms, kHidden);
    attention_.prepare(ctx);
  }

 private:
  unsigned grid_qkv_ = 1, grid_o_ = 1, grid_gate_up_ = 1, grid_down_ = 1;
  SplitAttention attention_;
};

}  // namespace

AISP_BENCHMARK(OptimizedDecodeStep)
