// ch09 fused_l2norm, baseline: three kernels, as an eager framework runs x / x.pow(2).sum(-1).sqrt().
//
// Technique: (1) square: sq = x * x, elementwise, to a scratch matrix; (2) row sum: one block per row
// reduces sq to sum_sq[r]; (3) normalize: out = x * 1 / sqrt(sum_sq[r] + eps), elementwise. Each kernel
// is itself well written (float4 accesses, coalesced, full occupancy); only the fusion is missing.
// Why it is slow: the intermediate round-trips through HBM. Traffic per run: square reads x and writes sq
// (128 MiB), row sum reads sq (64 MiB), normalize reads x and writes out (128 MiB): 320 MiB against the
// 128 MiB minimum, 2.5x. At ~0.05 FLOP per byte every kernel is bandwidth-bound, so time follows bytes.
// (L2 keeps a little of sq between kernels - 50 MB of a 64 MiB matrix at best - so the real ratio is
// somewhat below 2.5.) Plus two extra launches and the tail of each kernel's last wave.
// Expected on Hopper: ~115-130 us per run on H100 SXM (~2.6-2.9 TB/s on the 320 MiB actually moved,
// ~1.1 TB/s counted against the 128 MiB the workload needs).
#include "fused_l2norm.cuh"

namespace {

__global__ void square_kernel(const float4* __restrict__ x, float4* __restrict__ sq, int64_t n4) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n4) {
    const float4 v = x[i];
    sq[i] = make_float4(__fmul_rn(v.x, v.x), __fmul_rn(v.y, v.y), __fmul_rn(v.z, v.z), __fmul_rn(v.w, v.w));
  }
}

__global__ void __launch_bounds__(kL2NormThreads)
    row_sum_kernel(const float4* __restrict__ sq, float* __restrict__ sum_sq, int64_t cols4) {
  const float4* row = sq + blockIdx.x * cols4;
  float acc = 0.0f;
#pragma unroll
  for (int u = 0; u < kL2NormVecPerThread; ++u) {
    const float4 v = row[threadIdx.x + u * kL2NormThreads];
    acc = __fadd_rn(__fadd_rn(__fadd_rn(__fadd_rn(acc, v.x), v.y), v.z), v.w);
  }
  const float total = l2norm_block_sum(acc);
  if (threadIdx.x == 0) sum_sq[blockIdx.x] = total;
}

__global__ void normalize_kernel(const float4* __restrict__ x, const float* __restrict__ sum_sq,
                                 float4* __restrict__ out, int64_t n4, int64_t cols4) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n4) out[i] = scale4(x[i], l2norm_inverse(sum_sq[i / cols4]));
}

class BaselineFusedL2norm : public FusedL2normBase {
 public:
  void setup(aisp::Context& ctx) override {
    FusedL2normBase::setup(ctx);
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols");
    sq_ = static_cast<float4*>(ctx.scratch("sq", static_cast<size_t>(rows * cols) * sizeof(float)));
    sum_sq_ = static_cast<float*>(ctx.scratch("sum_sq", static_cast<size_t>(rows) * sizeof(float)));
  }

  void run(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols");
    check_fused_l2norm_shape(cols);
    const int64_t n4 = rows * cols / 4, cols4 = cols / 4;
    const auto* x = ctx.buffer("x").as<const float4>();
    auto* out = ctx.buffer("out").as<float4>();
    constexpr int kThreads = 256;
    const auto blocks = static_cast<unsigned>((n4 + kThreads - 1) / kThreads);
    square_kernel<<<blocks, kThreads, 0, ctx.stream()>>>(x, sq_, n4);
    AISP_LAUNCH_CHECK();
    row_sum_kernel<<<static_cast<unsigned>(rows), kL2NormThreads, 0, ctx.stream()>>>(sq_, sum_sq_, cols4);
    AISP_LAUNCH_CHECK();
    normalize_kernel<<<blocks, kThreads, 0, ctx.stream()>>>(x, sum_sq_, out, n4, cols4);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "unfused: square, row-sum and normalize kernels"; }

 private:
  float4* sq_ = nullptr;
  float* sum_sq_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineFusedL2norm)
