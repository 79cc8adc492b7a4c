// speculative_rounds: the draft model and the draft-then-verify kernel of speculative decoding, shared by
// ch15's optimized speculative_decoding (gamma 4) and every variant of labs/speculative_decode (gamma 0..6).
// The target model, its pass (spec::target_pass) and the pair's base class are in speculative_decoding.cuh.
//
// Draft model: setup() distills the target into a next-token table (one cuBLAS GEMM E W^T per 1024 prev
// tokens + an argmax; static weights only), then replaces the entry of 20% of the prev tokens (a fixed hash)
// by another token: the draft proposes the target's token with the declared acceptance 0.8 per position.
// Round kernel, speculate<gamma>: per round the draft proposes gamma tokens after the last accepted one
// (gamma dependent table lookups), one target pass (target_pass<gamma+1>: every row of W dotted with all
// gamma + 1 queries, W read once) gives the target's next token after each prefix, and the longest agreeing
// prefix plus the target's own next token are emitted. gamma = 0 is plain greedy decode.
#pragma once
#include <cublas_v2.h>

#include <stdexcept>

#include "speculative_decoding.cuh"

namespace spec {

// Persistent cooperative kernel: all rounds of the generation. tok[j] = the target's token after prefix
// d0..dj; accepted n = the longest j-prefix with d_{j+1} == tok[j].
template <int kGamma>
__global__ void __launch_bounds__(kSpecThreads, 2)
    speculate(const int* __restrict__ prompt, const __nv_bfloat16* __restrict__ w, const __nv_bfloat16* __restrict__ e,
              const int* __restrict__ draft, unsigned long long* partial, int* __restrict__ out) {
  constexpr int kQ = kGamma + 1;  // queries per target pass
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  __shared__ __align__(16) __nv_bfloat16 q[kQ * kSpecDim];  // 20 KiB at gamma 4
  __shared__ unsigned long long warp_best[kSpecThreads / 32][kQ];
  __shared__ int tok[kQ];
  __shared__ int proposal[kQ];  // d0 (the last accepted token), then the draft's d1..d_gamma
  int last = *prompt, produced = 0;
  for (int round = 0; produced < kSpecTokens; ++round) {
    if (threadIdx.x == 0) {  // the draft model: gamma dependent lookups
      int d = last;
      proposal[0] = d;
      for (int i = 1; i < kQ; ++i) proposal[i] = d = draft[d];
    }
    __syncthreads();
    for (int j = 0; j < kQ; ++j) load_query(e, proposal[j], q + j * kSpecDim);
    __syncthreads();
    // Alternate partial buffers: a block still reducing round r's partials is never overwritten by round r+1's.
    target_pass<kQ>(w, q, partial + (round % 2) * gridDim.x * kQ, warp_best, tok, grid);
    int n = 0;  // accepted draft tokens
    while (n < kGamma && proposal[n + 1] == tok[n]) ++n;
    if (blockIdx.x == 0 && threadIdx.x == 0)
      for (int i = 0; i <= n && produced + i < kSpecTokens; ++i) out[produced + i] = tok[i];
    produced += n + 1;
    last = tok[n];
    __syncthreads();  // proposal, tok and q are rewritten next round
  }
}

// Draft table: for prev tokens p0..p0+C-1, logits[c][v] (from cuBLAS) -> the argmax, then the
// declared corruption: 20% of the prev tokens (a fixed hash) get another token.
__global__ void distill_argmax(const float* __restrict__ logits, int p0, int* __restrict__ draft) {
  const int c = blockIdx.x;
  unsigned long long best = 0;
  for (int v = threadIdx.x; v < kSpecVocab; v += blockDim.x) {
    const unsigned long long k = pack(logits[int64_t(c) * kSpecVocab + v], v);
    best = k > best ? k : best;
  }
  for (int o = 16; o > 0; o >>= 1) {
    const unsigned long long k = __shfl_xor_sync(0xffffffffu, best, o);
    best = k > best ? k : best;
  }
  __shared__ unsigned long long warp_best[32];
  if (threadIdx.x % 32 == 0) warp_best[threadIdx.x / 32] = best;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int i = 1; i < static_cast<int>(blockDim.x / 32); ++i) best = warp_best[i] > best ? warp_best[i] : best;
    const int p = p0 + c;
    int t = token_of(best);
    unsigned h = static_cast<unsigned>(p) * 2654435761u;  // Knuth's multiplicative hash
    h ^= h >> 16;
    if (static_cast<int>(h % 100) >= kSpecAcceptPct) t = (t + 1 + static_cast<int>((h / 100) % (kSpecVocab - 1))) % kSpecVocab;
    draft[p] = t;
  }
}

// Fills draft[kSpecVocab] (device) from the static weights: logits = E[p0 .. p0+C) W^T, 1024 prev tokens at a
// time (scratch "distill_logits", 64 MiB), then distill_argmax. Synchronizes the stream.
inline void distill_draft(aisp::Context& ctx, int* draft) {
  constexpr int kChunk = 1024;
  float* logits = static_cast<float*>(ctx.scratch("distill_logits", size_t(kChunk) * kSpecVocab * sizeof(float)));
  const auto* w = ctx.buffer("w").as<const __nv_bfloat16>();
  const auto* e = ctx.buffer("e").as<const __nv_bfloat16>();
  const float one = 1.0f, zero = 0.0f;
  for (int p0 = 0; p0 < kSpecVocab; p0 += kChunk) {
    // Column-major: logits^T (V x C) = W (V x d, i.e. the row-major [V][d] transposed) * E_chunk^T (d x C).
    AISP_CUBLAS_CHECK(cublasGemmEx(ctx.cublas(), CUBLAS_OP_T, CUBLAS_OP_N, kSpecVocab, kChunk, kSpecDim, &one, w, CUDA_R_16BF,
                                   kSpecDim, e + int64_t(p0) * kSpecDim, CUDA_R_16BF, kSpecDim, &zero, logits, CUDA_R_32F,
                                   kSpecVocab, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    distill_argmax<<<kChunk, 256, 0, ctx.stream()>>>(logits, p0, draft);
    AISP_LAUNCH_CHECK();
  }
  AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
}

// Launches speculate<kGamma> as one cooperative grid of `grid` blocks on the harness stream.
template <int kGamma>
void launch_speculate(aisp::Context& ctx, int grid, const int* draft, unsigned long long* partial) {
  const int* prompt = ctx.buffer("prompt").as<const int>();
  const __nv_bfloat16* w = ctx.buffer("w").as<const __nv_bfloat16>();
  const __nv_bfloat16* e = ctx.buffer("e").as<const __nv_bfloat16>();
  int* out = ctx.buffer("tokens").as<int>();
  void* args[] = {&prompt, &w, &e, &draft, &partial, &out};
  AISP_CUDA_CHECK(
      cudaLaunchCooperativeKernel(reinterpret_cast<void*>(speculate<kGamma>), grid, kSpecThreads, args, 0, ctx.stream()));
}

}  // namespace spec
