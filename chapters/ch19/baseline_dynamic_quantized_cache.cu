// ch19 dynamic_quantized_cache, baseline: a bf16 KV cache.
//
// Technique: the cache lives in bf16, [row][8193][128] with row = sequence x head (setup() copies the
// 8192 tokens of the static input in, leaving slot 8192 for the step's token). run() appends k_new and
// v_new with one 2D memcpy each, then the split-KV attention (decode_attention.cuh) reads 8 B per lane per
// K and V row and the splits are merged.
// Why it is slow(er): a decode step is a pure read of the cache: 2 x 128 rows x 8193 x 256 B = 537 MB,
// ~180 us at ~3 TB/s. Nothing in the math can be made cheaper; only the bytes.
// Expected on Hopper: ~180-200 us.
// Measured (H100 SXM, harness cold mode, 2026-11-25, 14 checks passed): 210.0 us
// (2.56 TB/s on its 537 MB).
#include "dynamic_quantized_cache.cuh"

namespace {

using namespace quant_cache;

struct LoadBf16 {
  const __nv_bfloat16* k;
  const __nv_bfloat16* v;
  __device__ __forceinline__ void operator()(int64_t token_row, float4& kf, float4& vf) const {
    const int64_t off = token_row * decode::kD + 4 * (threadIdx.x % 32);
    kf = decode::bf16x4_to_float4(*reinterpret_cast<const uint2*>(k + off));
    vf = decode::bf16x4_to_float4(*reinterpret_cast<const uint2*>(v + off));
  }
};

__global__ void __launch_bounds__(decode::kThreads)
    attend_bf16(const __nv_bfloat16* q, LoadBf16 load, int64_t len, float q_scale, float* part_o, float2* part_ml) {
  attend_split(q, len, q_scale, load, part_o, part_ml);
}

class BaselineDynamicQuantizedCache : public DynamicQuantizedCacheBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t len = ctx.param("context"), r = rows(ctx);
    const size_t row_pitch = static_cast<size_t>(len + 1) * decode::kD * 2, token = decode::kD * 2;
    // Append: row i's new token goes to slot `len` of row i.
    AISP_CUDA_CHECK(cudaMemcpy2DAsync(k_ + len * decode::kD, row_pitch, ctx.buffer("k_new").data, token, token, r,
                                      cudaMemcpyDeviceToDevice, ctx.stream()));
    AISP_CUDA_CHECK(cudaMemcpy2DAsync(v_ + len * decode::kD, row_pitch, ctx.buffer("v_new").data, token, token, r,
                                      cudaMemcpyDeviceToDevice, ctx.stream()));
    attend_bf16<<<dim3(kSplits, static_cast<unsigned>(r)), decode::kThreads, 0, ctx.stream()>>>(
        ctx.buffer("q").as<const __nv_bfloat16>(), LoadBf16{k_, v_}, len + 1, decode::q_scale_log2(), ws_.part_o,
        ws_.part_ml);
    AISP_LAUNCH_CHECK();
    combine(ctx);
  }
  std::string technique() const override { return "bf16 KV cache, split-KV decode attention"; }

 protected:
  void prepare(aisp::Context& ctx) override {
    const int64_t len = ctx.param("context"), r = rows(ctx);
    const size_t row_pitch = static_cast<size_t>(len + 1) * decode::kD * 2, src_pitch = static_cast<size_t>(len) * decode::kD * 2;
    k_ = static_cast<__nv_bfloat16*>(ctx.scratch("k_store", row_pitch * r));
    v_ = static_cast<__nv_bfloat16*>(ctx.scratch("v_store", row_pitch * r));
    // On the harness stream, after the inputs' fills and the scratch zeroing enqueued there.
    AISP_CUDA_CHECK(cudaMemcpy2DAsync(k_, row_pitch, ctx.buffer("k_cache").data, src_pitch, src_pitch, r,
                                      cudaMemcpyDeviceToDevice, ctx.stream()));
    AISP_CUDA_CHECK(cudaMemcpy2DAsync(v_, row_pitch, ctx.buffer("v_cache").data, src_pitch, src_pitch, r,
                                      cudaMemcpyDeviceToDevice, ctx.stream()));
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  }

 private:
  __nv_bfloat16* k_ = nullptr;
  __nv_bfloat16* v_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(BaselineDynamicQuantizedCache)
