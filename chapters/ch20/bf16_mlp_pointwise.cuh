// bf16_mlp_pointwise: the two elementwise kernels of the bf16_mlp pair's unfused pipelines (the baseline over
// bf16_mlp_gemm.cuh's GEMM, the ch10-GEMM control): h = silu(g) * u and y = x + d, 8 bf16 (one 16-byte chunk)
// per thread, fp32 math; and the unfused pipeline itself over any of the pair's GEMM types (run_unfused).
// Declared once so that every unfused variant runs the same pointwise code in the same launch sequence.
#pragma once
#include "bf16_mlp.cuh"

namespace bf16_mlp {

__global__ void swiglu_kernel(const __nv_bfloat16* __restrict__ g, const __nv_bfloat16* __restrict__ u, int64_t chunks,
                              __nv_bfloat16* __restrict__ h) {
  using namespace block;
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= chunks) return;
  float fg[8], fu[8];
  unpack8(reinterpret_cast<const uint4*>(g)[i], fg);
  unpack8(reinterpret_cast<const uint4*>(u)[i], fu);
#pragma unroll
  for (int j = 0; j < 8; ++j) fg[j] = silu(fg[j]) * fu[j];
  reinterpret_cast<uint4*>(h)[i] = pack8(fg);
}

__global__ void residual_kernel(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ d, int64_t chunks,
                                __nv_bfloat16* __restrict__ y) {
  using namespace block;
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= chunks) return;
  float fx[8], fd[8];
  unpack8(reinterpret_cast<const uint4*>(x)[i], fx);
  unpack8(reinterpret_cast<const uint4*>(d)[i], fd);
#pragma unroll
  for (int j = 0; j < 8; ++j) fx[j] += fd[j];
  reinterpret_cast<uint4*>(y)[i] = pack8(fx);
}

// The unfused MLP: gate = x Wg^T, up = x Wu^T (plain stores), h = silu(gate) * up (in place of gate), down = h W2^T,
// y = x + down; 5 launches on stream st. G is a GEMM with launch(stream, a, b, Store{c, ldc}, m, n, k) (the
// baseline's mlp_gemm::Gemm with RowStore and permuted weights, the control's ws_gemm::WsGemm with StoreC).
template <class Store, class G>
void run_unfused(cudaStream_t st, G& gate, G& up, G& down, const __nv_bfloat16* x, const void* wg, const void* wu,
                 const void* w2, __nv_bfloat16* g, __nv_bfloat16* u, __nv_bfloat16* dn, __nv_bfloat16* y, int64_t t, int64_t d,
                 int64_t f) {
  gate.launch(st, x, wg, Store{g, static_cast<int>(f)}, t, f, d);
  up.launch(st, x, wu, Store{u, static_cast<int>(f)}, t, f, d);
  swiglu_kernel<<<static_cast<unsigned>((t * f / 8 + 255) / 256), 256, 0, st>>>(g, u, t * f / 8, g);
  AISP_LAUNCH_CHECK();
  down.launch(st, g, w2, Store{dn, static_cast<int>(d)}, t, d, f);
  residual_kernel<<<static_cast<unsigned>((t * d / 8 + 255) / 256), 256, 0, st>>>(x, dn, t * d / 8, y);
  AISP_LAUNCH_CHECK();
}

}  // namespace bf16_mlp
