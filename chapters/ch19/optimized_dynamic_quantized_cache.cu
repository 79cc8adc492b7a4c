// ch19 dynamic_quantized_cache, optimized: an int8 KV cache with dynamic per-token-head scales.
//
// Technique: each cached K or V row (one token of one head, 128 values) is stored as 128 int8 values and
// one fp32 scale amax / 127, computed from that row when it is written: dynamic quantization, no
// calibration. setup() quantizes the static cache once (what earlier steps would have written); run()
// quantizes the new token's K and V into slot 8192 (one warp per row) and attends: each lane loads 4 bytes
// per K and V row (a warp reads the 128-byte row in one transaction) plus the row's scale, dequantizes in
// registers and runs the same online softmax as the baseline.
// Why it is faster: a decode step is bound by the bytes of the cache it reads; 132 B per row instead of
// 256 B is 1.94x fewer. The extra work (4 int8 -> float conversions and a multiply per lane per row) is
// far below what the SMs can issue at 3 TB/s.
// Expected on Hopper: ~1.7-1.9x over the bf16 cache.
// Measured (H100 SXM, harness cold mode, 2026-11-25, 19 checks
// passed): 136.4 us (2.03 TB/s on 277 MB), 1.54x [1.51, 1.57]; max |o - o_bf16| 9.8e-4 (atol 2e-3). Below the
// byte ratio: at 4 bytes per lane per row the int8 kernel has half the bytes in flight of the bf16 one.
#include "dynamic_quantized_cache.cuh"

namespace {

using namespace quant_cache;

// One warp per row of 128 values: scale = amax / 127 (1 for an all-zero row), q = round(x / scale).
// Source row r of `per_group` rows per (sequence, head) goes to slot first_slot + r % per_group of group
// r / per_group in a store of `slots` slots per group.
__global__ void quantize_rows(const __nv_bfloat16* __restrict__ src, int64_t count, int64_t per_group,
                              int64_t first_slot, int64_t slots, int8_t* __restrict__ dst, float* __restrict__ scale) {
  const int64_t r = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (r >= count) return;
  const float4 x = decode::bf16x4_to_float4(*reinterpret_cast<const uint2*>(src + r * decode::kD + 4 * lane));
  float amax = fmaxf(fmaxf(fabsf(x.x), fabsf(x.y)), fmaxf(fabsf(x.z), fabsf(x.w)));
#pragma unroll
  for (int o = 16; o > 0; o /= 2) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, o));
  const float s = amax > 0.0f ? amax / 127.0f : 1.0f;
  const float inv = 1.0f / s;
  const int64_t slot = (r / per_group) * slots + first_slot + r % per_group;
  char4 q;
  q.x = static_cast<signed char>(__float2int_rn(x.x * inv));
  q.y = static_cast<signed char>(__float2int_rn(x.y * inv));
  q.z = static_cast<signed char>(__float2int_rn(x.z * inv));
  q.w = static_cast<signed char>(__float2int_rn(x.w * inv));
  reinterpret_cast<char4*>(dst + slot * decode::kD)[lane] = q;
  if (lane == 0) scale[slot] = s;
}

struct LoadInt8 {
  const int8_t* k;
  const int8_t* v;
  const float* ks;
  const float* vs;
  __device__ __forceinline__ void operator()(int64_t token_row, float4& kf, float4& vf) const {
    const int lane = threadIdx.x % 32;
    const char4 kq = reinterpret_cast<const char4*>(k + token_row * decode::kD)[lane];
    const char4 vq = reinterpret_cast<const char4*>(v + token_row * decode::kD)[lane];
    const float a = ks[token_row], b = vs[token_row];
    kf = make_float4(a * kq.x, a * kq.y, a * kq.z, a * kq.w);
    vf = make_float4(b * vq.x, b * vq.y, b * vq.z, b * vq.w);
  }
};

__global__ void __launch_bounds__(decode::kThreads)
    attend_int8(const __nv_bfloat16* q, LoadInt8 load, int64_t len, float q_scale, float* part_o, float2* part_ml) {
  attend_split(q, len, q_scale, load, part_o, part_ml);
}

class OptimizedDynamicQuantizedCache : public DynamicQuantizedCacheBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t len = ctx.param("context"), r = rows(ctx);
    quantize(ctx, "k_new", r, 1, len, k_, ks_);
    quantize(ctx, "v_new", r, 1, len, v_, vs_);
    attend_int8<<<dim3(kSplits, static_cast<unsigned>(r)), decode::kThreads, 0, ctx.stream()>>>(
        ctx.buffer("q").as<const __nv_bfloat16>(), LoadInt8{k_, v_, ks_, vs_}, len + 1, decode::q_scale_log2(),
        ws_.part_o, ws_.part_ml);
    AISP_LAUNCH_CHECK();
    combine(ctx);
  }
  std::string technique() const override { return "int8 KV cache, per-token-head scales quantized on write"; }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t len = ctx.param("context"), r = rows(ctx), slots = r * (len + 1);
    k_ = static_cast<int8_t*>(ctx.scratch("k_store", static_cast<size_t>(slots) * decode::kD));
    v_ = static_cast<int8_t*>(ctx.scratch("v_store", static_cast<size_t>(slots) * decode::kD));
    ks_ = static_cast<float*>(ctx.scratch("k_scale", static_cast<size_t>(slots) * 4));
    vs_ = static_cast<float*>(ctx.scratch("v_scale", static_cast<size_t>(slots) * 4));
    quantize(ctx, "k_cache", r * len, len, 0, k_, ks_);
    quantize(ctx, "v_cache", r * len, len, 0, v_, vs_);
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  }

 private:
  void quantize(aisp::Context& ctx, const char* src, int64_t count, int64_t per_group, int64_t first_slot,
                int8_t* dst, float* scale) {
    const int threads = 256;
    const unsigned blocks = static_cast<unsigned>((count * 32 + threads - 1) / threads);
    quantize_rows<<<blocks, threads, 0, ctx.stream()>>>(ctx.buffer(src).as<const __nv_bfloat16>(), count, per_group,
                                                        first_slot, ctx.param("context") + 1, dst, scale);
    AISP_LAUNCH_CHECK();
  }

  int8_t* k_ = nullptr;
  int8_t* v_ = nullptr;
  float* ks_ = nullptr;
  float* vs_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(OptimizedDynamicQuantizedCache)
