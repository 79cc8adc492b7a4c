// ch09 cublaslt_gemm_fp8, optimized: FP8 E4M3 cuBLASLt GEMM with per-tensor scales (Hopper, sm_90).
//
// Technique: the weights are quantized once in setup() (static input): amax over w, w8 = fp8(w x 448 /
// amax), dequantization factor amax / 448 kept on the device. Every run() quantizes the activations the
// same way - one kernel for per-block partial amax values, one that reduces them and writes x8 and
// x's factor (no host round trip, no atomics, deterministic) - and calls cublasLtMatmul with E4M3 A/B,
// BF16 output, FP32 accumulation and the two factors as CUBLASLT_MATMUL_DESC_A/B_SCALE_POINTER, so
// y = scale_w x scale_x x (w8 . x8). Layout TN (A = w transposed, B = x), which cuBLASLt's FP8 kernels
// require on Hopper. Fast accumulation stays off: cuBLASLt then promotes the tensor cores' partial sums
// to FP32 periodically, which keeps the accumulation error far below the quantization error.
// Why it is faster: FP8 MMA runs at twice the BF16 rate (~1980 vs ~990 TFLOP/s dense on H100 SXM), and
// operand tiles are half the bytes (more reuse per shared-memory byte). The activation quantization costs
// one 32 MiB read, a mostly-L2 re-read and a 16 MiB write (~15-25 us), paid every run because x changes.
// Expected on Hopper: GEMM ~90-100 us (`aisp hw tc` measured cuBLASLt FP8 at ~1500 TFLOP/s), ~110-125 us
// with the quantization, ~1.4-1.6x over BF16. Accuracy: ~0.8 rms error on outputs of rms ~21 (see the
// tolerance in cublaslt_gemm_fp8.cuh).
// Measured: 176.7 -> 132.7 us, 1.33x [1.329, 1.333]; 1035 TFLOP/s effective including the quantization
// (52% of the dense FP8 peak). The first device run hit CUBLAS_STATUS_NOT_SUPPORTED at cublasLtMatmul with
// the heuristic's first candidate and both scale factors in one 8-byte allocation (the second at a 4-byte
// offset); giving each factor its own allocation and trial-selecting the candidate in setup() fixed it
// (which of the two mattered was not isolated).
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include <stdexcept>

#include "cublaslt_gemm_fp8.cuh"
#include "cublaslt_linear.cuh"

namespace {

constexpr int kThreads = 256;
constexpr int kBlocksPerSm = 4;
constexpr float kE4m3Max = 448.0f;  // largest finite E4M3 value

__device__ __forceinline__ float block_max(float v) {
  __shared__ float warp_max[kThreads / 32];
  for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
  if ((threadIdx.x & 31) == 0) warp_max[threadIdx.x >> 5] = v;
  __syncthreads();
  float m = 0.0f;
  for (int w = 0; w < kThreads / 32; ++w) m = fmaxf(m, warp_max[w]);
  return m;
}

// Per-block max |v| over 8-element (16 B) vectors of BF16, one value per block into `partials`.
__global__ void __launch_bounds__(kThreads) amax_partial_kernel(const uint4* __restrict__ v, int64_t n8,
                                                                 float* __restrict__ partials) {
  float m = 0.0f;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n8;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const uint4 raw = v[i];
    const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&raw);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const float2 f = __bfloat1622float2(h[j]);
      m = fmaxf(m, fmaxf(fabsf(f.x), fabsf(f.y)));
    }
  }
  const float block = block_max(m);
  if (threadIdx.x == 0) partials[blockIdx.x] = block;
}

// Reduces the partial maxima (every block does it: a few hundred floats from L2), then writes
// q = e4m3(v x 448 / amax), saturating, and (block 0) the dequantization factor amax / 448.
__global__ void __launch_bounds__(kThreads)
    quantize_e4m3_kernel(const uint4* __restrict__ v, int64_t n8, const float* __restrict__ partials, int num_partials,
                         uint2* __restrict__ q, float* __restrict__ dequant_scale) {
  float m = 0.0f;
  for (int i = threadIdx.x; i < num_partials; i += blockDim.x) m = fmaxf(m, partials[i]);
  const float amax = block_max(m);
  const float scale = amax > 0.0f ? kE4m3Max / amax : 1.0f;
  if (blockIdx.x == 0 && threadIdx.x == 0) *dequant_scale = amax > 0.0f ? amax / kE4m3Max : 1.0f;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n8;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const uint4 raw = v[i];
    const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&raw);
    uint32_t packed[2];
#pragma unroll
    for (int j = 0; j < 4; j += 2) {
      const float2 a = __bfloat1622float2(h[j]), b = __bfloat1622float2(h[j + 1]);
      const __nv_fp8x2_storage_t qa =
          __nv_cvt_float2_to_fp8x2(make_float2(a.x * scale, a.y * scale), __NV_SATFINITE, __NV_E4M3);
      const __nv_fp8x2_storage_t qb =
          __nv_cvt_float2_to_fp8x2(make_float2(b.x * scale, b.y * scale), __NV_SATFINITE, __NV_E4M3);
      packed[j / 2] = static_cast<uint32_t>(qa) | (static_cast<uint32_t>(qb) << 16);
    }
    q[i] = make_uint2(packed[0], packed[1]);
  }
}

class OptimizedCublasltGemmFp8 : public CublasltGemmFp8Base {
 public:
  void setup(aisp::Context& ctx) override {
    CublasltGemmFp8Base::setup(ctx);
    const int64_t m = ctx.param("m"), n = ctx.param("n"), k = ctx.param("k");
    if (k % 16 != 0) throw std::runtime_error("cublaslt_gemm_fp8: k must be a multiple of 16 (FP8 alignment)");
    blocks_ = (ctx.device().sm_count > 0 ? ctx.device().sm_count : 132) * kBlocksPerSm;
    x8_ = ctx.scratch("x_e4m3", static_cast<size_t>(m * k));
    w8_ = ctx.scratch("w_e4m3", static_cast<size_t>(n * k));
    partials_ = static_cast<float*>(ctx.scratch("amax_partials", static_cast<size_t>(blocks_) * sizeof(float)));
    // One allocation per factor: cuBLASLt reads them through descriptor pointers, and separate cudaMalloc
    // blocks keep each one 256-byte aligned whatever alignment a kernel variant may assume.
    w_scale_ = static_cast<float*>(ctx.scratch("w_dequant_scale", sizeof(float)));
    x_scale_ = static_cast<float*>(ctx.scratch("x_dequant_scale", sizeof(float)));

    // Weights: quantized once, here (a static input, filled before setup(), so this is legitimate prepacking).
    quantize(ctx.stream(), ctx.buffer("w").data, n * k, w8_, w_scale_);

    AISP_CUBLAS_CHECK(cublasLtCreate(&handle_));
    gemm_.create(handle_, {m, n, k}, CUDA_R_8F_E4M3, CUDA_R_16BF, ctx.scratch("lt_workspace", kLtWorkspaceBytes),
                 kLtWorkspaceBytes, w_scale_, x_scale_);
    // Trial call on the zero-filled x8 scratch (x itself is quantized only in run(), every run).
    gemm_.select(ctx.stream(), x8_, w8_, ctx.buffer("y").data);
  }

  void run(aisp::Context& ctx) override {
    quantize(ctx.stream(), ctx.buffer("x").data, ctx.param("m") * ctx.param("k"), x8_, x_scale_);
    gemm_.run(ctx.stream(), x8_, w8_, ctx.buffer("y").data);
  }

  void teardown(aisp::Context&) override {
    gemm_.destroy();
    if (handle_) cublasLtDestroy(handle_);
    handle_ = nullptr;
  }

  aisp::Requirements requirements() const override { return {.min_compute_capability = 90}; }
  std::string technique() const override { return "FP8 E4M3 cuBLASLt GEMM, per-tensor scales, x quantized per run"; }

 private:
  void quantize(cudaStream_t s, const void* bf16_values, int64_t count, void* e4m3_out, float* dequant_scale) const {
    if (count % 8 != 0) throw std::runtime_error("cublaslt_gemm_fp8: element count must be a multiple of 8");
    const int64_t n8 = count / 8;
    amax_partial_kernel<<<blocks_, kThreads, 0, s>>>(static_cast<const uint4*>(bf16_values), n8, partials_);
    AISP_LAUNCH_CHECK();
    quantize_e4m3_kernel<<<blocks_, kThreads, 0, s>>>(static_cast<const uint4*>(bf16_values), n8, partials_, blocks_,
                                                      static_cast<uint2*>(e4m3_out), dequant_scale);
    AISP_LAUNCH_CHECK();
  }

  cublasLtHandle_t handle_ = nullptr;
  LtLinear gemm_;
  int blocks_ = 0;
  void* x8_ = nullptr;
  void* w8_ = nullptr;
  float* partials_ = nullptr;
  float* w_scale_ = nullptr;
  float* x_scale_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(OptimizedCublasltGemmFp8)
