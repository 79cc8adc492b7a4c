// ch19 vectorization_memory, optimized: 16 FP8 elements per thread, 16-byte loads and stores.
//
// Technique: each thread loads one uint4 (16 e4m3 values, one 16-byte transaction per thread, 512 B per
// warp), converts them pairwise with the hardware fp8x2 -> half2 conversion (__nv_cvt_fp8x2_to_halfraw2,
// one instruction for two values on sm_89+), scales in fp32 and writes 16 bf16 as two uint4 stores. 16
// elements never straddle a 128-element scale block, so one scale load serves all 16.
// Why it is faster: 16x fewer load instructions and 16x more bytes in flight per thread, so the resident
// threads keep enough requests outstanding to cover HBM latency; conversion cost per element halves.
// Expected on Hopper: close to a device copy (~85-90% of 3.35 TB/s counting 3 B per element), a 2-4x
// speedup over the scalar kernel.
// Measured (H100 SXM, harness cold mode, 2026-11-25, 19 checks
// passed): 360.1 us, 2.26 TB/s, 2.08x [2.05, 2.12]; outputs bit-identical.
#include "vectorization_memory.cuh"

namespace {

__device__ __forceinline__ __nv_bfloat162 dequant2(uint16_t two_fp8, float s) {
  const __half2_raw h = __nv_cvt_fp8x2_to_halfraw2(static_cast<__nv_fp8x2_storage_t>(two_fp8), __NV_E4M3);
  const float2 f = __half22float2(*reinterpret_cast<const __half2*>(&h));  // exact: e4m3 fits in half
  return __floats2bfloat162_rn(f.x * s, f.y * s);
}

__global__ void dequant_vec16(const uint4* __restrict__ x, const float* __restrict__ scale,
                              uint4* __restrict__ y, int64_t chunks) {
  for (int64_t c = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; c < chunks; c += int64_t(gridDim.x) * blockDim.x) {
    const uint4 v = x[c];
    const float s = scale[c * 16 / kDequantBlock];
    const uint32_t words[4] = {v.x, v.y, v.z, v.w};
    __nv_bfloat162 out[8];
#pragma unroll
    for (int w = 0; w < 4; ++w) {
      out[2 * w] = dequant2(static_cast<uint16_t>(words[w] & 0xFFFFu), s);
      out[2 * w + 1] = dequant2(static_cast<uint16_t>(words[w] >> 16), s);
    }
    y[2 * c] = *reinterpret_cast<const uint4*>(&out[0]);
    y[2 * c + 1] = *reinterpret_cast<const uint4*>(&out[4]);
  }
}

class OptimizedVectorizationMemory : public VectorizationMemoryBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t chunks = ctx.param("n") / 16;
    const int threads = 256;
    // Enough blocks for full occupancy (8 x 256 threads per SM) and a short grid-stride loop.
    const int64_t want = (chunks + threads - 1) / threads;
    const unsigned blocks = static_cast<unsigned>(std::min<int64_t>(want, int64_t{ctx.device().sm_count} * 8 * 4));
    dequant_vec16<<<blocks, threads, 0, ctx.stream()>>>(ctx.buffer("x").as<const uint4>(),
                                                        ctx.buffer("scale").as<const float>(),
                                                        ctx.buffer("y").as<uint4>(), chunks);
    AISP_LAUNCH_CHECK();
  }
  std::string technique() const override { return "16 fp8 per thread: 16-byte loads/stores, fp8x2->half2 cvt"; }
};

}  // namespace

AISP_BENCHMARK(OptimizedVectorizationMemory)
