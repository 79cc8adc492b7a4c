// Row softmax by one warp per row, in two forms shared by template_specialization and persistent_tiles:
//
//   softmax_row_generic            any row length (a multiple of 4): online softmax (running max and
//                                  rescaled sum in one pass), then a second pass that reads the row
//                                  again to write it: 2 reads + 1 write of the row
//   softmax_row_registers<kCols>   row length known at compile time: each lane holds kCols / 32 values in
//                                  registers (an array the compiler can keep there only because its size
//                                  and every index are constants), so the row is read once: 1 read + 1 write
//
// Lane l owns the float4 groups at l*4 + 128 k in both, so the exponentials are the same; the sums are
// accumulated in different orders (online rescaling vs. a plain sum), a few ulps apart: the pairs use the
// default fp32 tolerance (rtol 1e-5), ~100x that difference.
#pragma once
#include <cstdint>

namespace {

__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__device__ void softmax_row_generic(const float* __restrict__ in, float* __restrict__ out, int cols) {
  const int lane = threadIdx.x % 32;
  float m = -INFINITY, s = 0;
  for (int c = lane * 4; c < cols; c += 128) {
    const float4 v = *reinterpret_cast<const float4*>(in + c);
    const float mv = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
    if (mv > m) {
      s *= expf(m - mv);
      m = mv;
    }
    s += expf(v.x - m) + expf(v.y - m) + expf(v.z - m) + expf(v.w - m);
  }
  const float row_max = warp_max(m);
  const float inv = 1.0f / warp_sum(s * expf(m - row_max));
  for (int c = lane * 4; c < cols; c += 128) {
    const float4 v = *reinterpret_cast<const float4*>(in + c);
    *reinterpret_cast<float4*>(out + c) = {expf(v.x - row_max) * inv, expf(v.y - row_max) * inv,
                                           expf(v.z - row_max) * inv, expf(v.w - row_max) * inv};
  }
}

template <int kCols>
__device__ void softmax_row_registers(const float* __restrict__ in, float* __restrict__ out) {
  static_assert(kCols % 128 == 0, "a lane holds whole float4 groups");
  constexpr int kGroups = kCols / 128;
  const int lane = threadIdx.x % 32;
  float4 v[kGroups];
  float m = -INFINITY;
#pragma unroll
  for (int k = 0; k < kGroups; ++k) {
    v[k] = *reinterpret_cast<const float4*>(in + lane * 4 + 128 * k);
    m = fmaxf(m, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
  }
  const float row_max = warp_max(m);
  float s = 0;
#pragma unroll
  for (int k = 0; k < kGroups; ++k) {
    v[k] = {expf(v[k].x - row_max), expf(v[k].y - row_max), expf(v[k].z - row_max), expf(v[k].w - row_max)};
    s += v[k].x + v[k].y + v[k].z + v[k].w;
  }
  const float inv = 1.0f / warp_sum(s);
#pragma unroll
  for (int k = 0; k < kGroups; ++k)
    *reinterpret_cast<float4*>(out + lane * 4 + 128 * k) = {v[k].x * inv, v[k].y * inv, v[k].z * inv, v[k].w * inv};
}

}  // namespace
