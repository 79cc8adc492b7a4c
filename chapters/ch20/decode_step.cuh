// The split-KV decode attention kernel of the ch20 KV-cache pairs, with the split count a run-time
// parameter (ch19's kernels fix it at compile time). Built from ch19's decode_attention.cuh: each CTA of
// 4 warps owns one contiguous range of a row's tokens, each warp loads U K/V rows before it scores any
// (bytes in flight), online softmax per warp, one fp32 partial per split, combine_splits() merges them.
// `Load(row, t, k, v)` returns this lane's 4 dims of token t's K and V rows as floats.
#pragma once
#include "../ch19/decode_attention.cuh"
#include "aisp/aisp.hpp"

namespace decode_step {

template <int U, class Load>
__global__ void __launch_bounds__(decode::kThreads)
    attend(const __nv_bfloat16* __restrict__ q, Load load, int64_t tokens, int splits, float q_scale,
           float* __restrict__ part_o, float2* __restrict__ part_ml) {
  const int64_t row = blockIdx.y;
  const int warp = threadIdx.x / 32;
  const int64_t chunk = (tokens + splits - 1) / splits, begin = blockIdx.x * chunk;
  const int64_t end = begin + chunk < tokens ? begin + chunk : tokens;
  const float4 qv = decode::load_q(q + row * decode::kD, q_scale);
  decode::WarpState st;
  for (int64_t base = begin + warp * U; base < end; base += decode::kWarps * U) {
    float4 k[U], v[U];
    float s[U];
#pragma unroll
    for (int u = 0; u < U; ++u) load(row, base + u < end ? base + u : end - 1, k[u], v[u]);
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const float d = decode::warp_sum(decode::dot4(qv, k[u]));
      s[u] = base + u < end ? d : -INFINITY;
    }
    st.update<U>(s, v);
  }
  decode::write_split_partial(st, part_o, part_ml, row * splits + blockIdx.x);
}

// A bf16 cache of `stride` token slots per row (row = sequence x head), [row][stride][128].
struct LoadCache {
  const __nv_bfloat16* k;
  const __nv_bfloat16* v;
  int64_t stride;
  __device__ __forceinline__ void operator()(int64_t row, int64_t t, float4& kf, float4& vf) const {
    const int64_t off = (row * stride + t) * decode::kD + 4 * (threadIdx.x % 32);
    kf = decode::bf16x4_to_float4(*reinterpret_cast<const uint2*>(k + off));
    vf = decode::bf16x4_to_float4(*reinterpret_cast<const uint2*>(v + off));
  }
};

// Enqueues attend<U> over `rows` rows and the merge into o [rows][128].
template <int U, class Load>
void launch(cudaStream_t st, const __nv_bfloat16* q, Load load, int64_t rows, int64_t tokens, int splits,
            const decode::SplitWorkspace& ws, __nv_bfloat16* o) {
  attend<U, Load><<<dim3(static_cast<unsigned>(splits), static_cast<unsigned>(rows)), decode::kThreads, 0, st>>>(
      q, load, tokens, splits, decode::q_scale_log2(), ws.part_o, ws.part_ml);
  AISP_LAUNCH_CHECK();
  decode::combine_splits<<<static_cast<unsigned>(rows), decode::kD, 0, st>>>(ws.part_o, ws.part_ml, splits, o);
  AISP_LAUNCH_CHECK();
}

}  // namespace decode_step
