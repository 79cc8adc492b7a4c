// Shared honest workloads of the validity fixtures (tests/validity). Each optimized_<case>.cu either
// cheats in exactly one way (its header names the exploit it mimics and the check that must catch it) or
// is an honest control that must pass every check; each baseline_<case>.cu is one of the honest classes
// here or fixture::HonestCopy. tests/gpu/test_validity_fixtures.cpp holds the expected outcome per case.
#pragma once
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "../fixtures/fixture_copy.cuh"

namespace validity {

using fixture::kN;

inline const float* in_ptr(aisp::Context& ctx) { return ctx.buffer("in").as<const float>(); }
inline float* out_ptr(aisp::Context& ctx) { return ctx.buffer("out").as<float>(); }
inline unsigned blocks_for(int64_t n, int threads = 256) { return static_cast<unsigned>((n + threads - 1) / threads); }

// Copies `count` floats on stream `s`; returns the launch status instead of throwing, so helper threads
// (which must not throw) can use it too. On the harness thread: AISP_CUDA_CHECK(copy_async(...)).
inline cudaError_t copy_async(cudaStream_t s, const float* in, float* out, int64_t count) {
  fixture::copy_kernel<<<blocks_for(count), 256, 0, s>>>(in, out, count);
  return cudaGetLastError();
}

// True while the harness captures run() into a CUDA graph (capture-replay check, K10).
inline bool capturing(cudaStream_t s) {
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  AISP_CUDA_CHECK(cudaStreamIsCapturing(s, &st));
  return st != cudaStreamCaptureStatusNone;
}

namespace {  // one copy per plugin, as in fixture_copy.cuh

__device__ __forceinline__ unsigned long long globaltimer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// One thread per row, left to right: the reference summation order of the row-sum workload.
__global__ void rowsum_sequential(const float* __restrict__ x, float* __restrict__ y, int64_t rows, int64_t cols) {
  const int64_t r = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int64_t c = 0; c < cols; ++c) s += x[r * cols + c];
  y[r] = s;
}

}  // namespace

// ---- SGEMM: C[M,N] = A[M,K] B[K,N], fp32, row-major, on the harness's cuBLAS handle -------------------
inline constexpr int64_t kGemm = 512;

inline aisp::Workload sgemm_workload() {
  aisp::Workload w;
  w.params = {{"m", kGemm}, {"n", kGemm}, {"k", kGemm}};
  w.precision = aisp::DType::f32;
  w.flops = 2.0 * kGemm * kGemm * kGemm;
  w.bytes = 3.0 * kGemm * kGemm * sizeof(float);
  w.items = static_cast<double>(kGemm) * kGemm;
  w.item_unit = "outputs";
  return w;
}

inline void declare_sgemm_buffers(aisp::Context& ctx) {
  ctx.input("a", aisp::DType::f32, {kGemm, kGemm});
  ctx.input("b", aisp::DType::f32, {kGemm, kGemm});
  ctx.output("c", aisp::DType::f32, {kGemm, kGemm});
  ctx.cublas();  // create the handle in setup, not inside the first timed run()
}

// Row-major C = A B is column-major C^T = B^T A^T: pass B first, leading dimensions are the row lengths.
inline void sgemm(aisp::Context& ctx) {
  const float one = 1.f, zero = 0.f;
  const int m = static_cast<int>(kGemm), n = m, k = m;
  AISP_CUBLAS_CHECK(cublasSgemm(ctx.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one,
                                ctx.buffer("b").as<const float>(), n, ctx.buffer("a").as<const float>(), k, &zero,
                                ctx.buffer("c").as<float>(), n));
}

// Honest: plain fp32 SGEMM in the handle's pinned (default) math mode.
class HonestSgemm : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return sgemm_workload(); }
  void setup(aisp::Context& ctx) override { declare_sgemm_buffers(ctx); }
  void run(aisp::Context& ctx) override { sgemm(ctx); }
  std::string technique() const override { return "validity: cuBLAS SGEMM 512^3, default math mode"; }
};

// ---- Row sum: y[r] = sum_c x[r, c], 4096 x 256 floats ---------------------------------------------------
// Inputs in [0, 1): no cancellation, so any summation order stays within the default fp32 tolerance
// (rtol 1e-5). A host simulation of sequential vs warp-tree order over 20 x 4096 rows: max rel diff 9.5e-7.
inline constexpr int64_t kRows = 4096, kCols = 256;

inline aisp::Workload rowsum_workload() {
  aisp::Workload w;
  w.params = {{"rows", kRows}, {"cols", kCols}};
  w.precision = aisp::DType::f32;
  w.flops = static_cast<double>(kRows) * kCols;
  w.bytes = (static_cast<double>(kRows) * kCols + kRows) * sizeof(float);
  w.items = static_cast<double>(kRows);
  w.item_unit = "rows";
  return w;
}

inline void declare_rowsum_buffers(aisp::Context& ctx) {
  ctx.input("x", aisp::DType::f32, {kRows, kCols}, aisp::Fill::uniform(0, 1));
  ctx.output("y", aisp::DType::f32, {kRows});
}

class SequentialRowSum : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return rowsum_workload(); }
  void setup(aisp::Context& ctx) override { declare_rowsum_buffers(ctx); }
  void run(aisp::Context& ctx) override {
    rowsum_sequential<<<blocks_for(kRows), 256, 0, ctx.stream()>>>(ctx.buffer("x").as<const float>(),
                                                                    ctx.buffer("y").as<float>(), kRows, kCols);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "validity: row sum, one thread per row, sequential order"; }
};

// ---- The honest copy with a workload that claims 1000x the bytes it moves (cheat_implausible_bytes) ----
// Both variants of the pair declare it, so they are comparable; only the plausibility check (K17) can object.
class InflatedBytesCopy : public fixture::HonestCopy {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w = fixture::copy_workload();
    w.bytes *= 1000;
    return w;
  }
  std::string technique() const override { return "validity: honest copy, declared bytes inflated 1000x"; }
};

// ---- SGEMM on bf16 tensor cores (the tolerance fixtures) ------------------------------------------------
// A and B converted to bf16 in scratch on every call, then cublasGemmEx with fp32 accumulation: ~6x the
// fp32 SGEMM's speed at 512^3, with errors of ~1e-2 relative that only a loosened tolerance accepts.
namespace {
__global__ void to_bf16(const float* __restrict__ x, __nv_bfloat16* __restrict__ y, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2bfloat16_rn(x[i]);
}
}  // namespace

class Bf16Sgemm : public HonestSgemm {
 public:
  void setup(aisp::Context& ctx) override {
    declare_sgemm_buffers(ctx);
    const size_t bytes = kGemm * kGemm * sizeof(__nv_bfloat16);
    a16_ = static_cast<__nv_bfloat16*>(ctx.scratch("a16", bytes));
    b16_ = static_cast<__nv_bfloat16*>(ctx.scratch("b16", bytes));
  }
  void run(aisp::Context& ctx) override {
    const int64_t count = kGemm * kGemm;
    to_bf16<<<blocks_for(count), 256, 0, ctx.stream()>>>(ctx.buffer("a").as<const float>(), a16_, count);
    AISP_LAUNCH_CHECK();
    to_bf16<<<blocks_for(count), 256, 0, ctx.stream()>>>(ctx.buffer("b").as<const float>(), b16_, count);
    AISP_LAUNCH_CHECK();
    const float one = 1.f, zero = 0.f;
    const int n = static_cast<int>(kGemm);
    AISP_CUBLAS_CHECK(cublasGemmEx(ctx.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b16_, CUDA_R_16BF, n, a16_,
                                   CUDA_R_16BF, n, &zero, ctx.buffer("c").data, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                                   CUBLAS_GEMM_DEFAULT));
  }
  std::string technique() const override { return "validity: SGEMM from bf16 copies of A and B on tensor cores"; }

 private:
  __nv_bfloat16* a16_ = nullptr;
  __nv_bfloat16* b16_ = nullptr;
};

// The loosened tolerance of the outside review's cheat: wide enough for bf16 inputs.
inline aisp::Tolerance bf16_gemm_tolerance() {
  return aisp::Tolerance::loosened(1e-1, 1.0, "bf16 inputs and accumulation order");
}

// ---- Two-input elementwise: c = a + kSmall * b ------------------------------------------------------------
// a in [1, 2) and b in [-1, 1): b moves every output by up to 8 fp32 ulps, inside the fp32 tolerance, so
// only the sensitivity round (K5) notices a variant that drops it. Both inputs have the same shape and
// fill, so before per-input seeds they held identical values.
inline constexpr int64_t kAdd = int64_t{1} << 20;
inline constexpr float kSmall = 1e-6f;

inline aisp::Workload add_workload() {
  aisp::Workload w;
  w.params = {{"n", kAdd}};
  w.precision = aisp::DType::f32;
  w.flops = 2.0 * kAdd;
  w.bytes = 3.0 * kAdd * sizeof(float);
  w.items = kAdd;
  w.item_unit = "elements";
  return w;
}

namespace {
__global__ void add_small(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + kSmall * b[i];
}
}  // namespace

class AddSmall : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return add_workload(); }
  void setup(aisp::Context& ctx) override {
    ctx.input("a", aisp::DType::f32, {kAdd}, aisp::Fill::uniform(1, 2));
    ctx.input("b", aisp::DType::f32, {kAdd}, aisp::Fill::uniform(1, 2));
    ctx.output("c", aisp::DType::f32, {kAdd});
  }
  void run(aisp::Context& ctx) override {
    add_small<<<blocks_for(kAdd), 256, 0, ctx.stream()>>>(ctx.buffer("a").as<const float>(),
                                                         ctx.buffer("b").as<const float>(), ctx.buffer("c").as<float>(), kAdd);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "validity: c = a + 1e-6 b"; }
};

// ---- Partial work on some timed samples (K21 fixtures) -----------------------------------------------------
// Copies only the first eighth of "in" to "out": the rest keeps whatever the harness left there (its
// poison). 8x less traffic than the honest copy.
inline void copy_eighth(aisp::Context& ctx) { fixture::launch_copy(ctx, fixture::kN / 8); }

// ---- Copy of 2^20 + 3 floats (cheat_oob_slack_write) ------------------------------------------------------
// A size that is not a multiple of the float4 width, so a vector copy without a scalar tail runs past the end.
inline constexpr int64_t kOdd = (int64_t{1} << 20) + 3;

class OddCopyBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w = fixture::copy_workload();
    w.params = {{"n", kOdd}};
    w.bytes = 2.0 * kOdd * sizeof(float);
    w.items = kOdd;
    return w;
  }
  void setup(aisp::Context& ctx) override {
    ctx.input("in", aisp::DType::f32, {kOdd});
    ctx.output("out", aisp::DType::f32, {kOdd});
  }
};

}  // namespace validity
