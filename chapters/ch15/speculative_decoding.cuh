// speculative_decoding: greedy generation of 128 tokens from a tiny synthetic target model, one token per
// target pass (baseline) vs draft-then-verify (optimized). Both produce the target's greedy sequence
// exactly (speculative decoding with greedy acceptance is lossless), so the int32 outputs match.
//
// Target model (static weights, bf16): a bigram LM, next = argmax_v W[v] . E[prev] (ties to the lower v),
// vocabulary V = 16384, width d = 2048: W and E are 64 MiB each, so one target pass streams W from HBM
// (50 MB of L2 cannot hold it) - the memory-bound decode step of a real LLM in miniature.
// Draft model: simulated, with a declared acceptance. setup() distills the target into a bigram table
// (next token for every prev token, one cuBLAS GEMM E W^T in chunks + argmax; static weights only) and then
// deliberately replaces the entry of 20% of the prev tokens (a fixed hash) by another token: the draft
// proposes the target's token with probability 0.8 per position, the seed's declared acceptance. A draft
// token costs one table lookup. The speedup of speculative decoding is a function of the acceptance rate
// and of the draft's cost; both are declared here rather than emerging from an unknowable model pair.
// The prompt (one token, the dynamic input) decides the path through the vocabulary.
//
//   baseline_speculative_decoding.cu    plain decode: 128 target passes (one per token)
//   optimized_speculative_decoding.cu   gamma = 4 draft tokens per round, verified in ONE target pass that
//                                       dots each row of W with all 5 query vectors; the longest agreeing
//                                       prefix plus the target's own next token are emitted (1..5 per round)
// Both are one persistent cooperative kernel (grid.sync between passes), sharing the pass code below, so a
// logit is computed with the same instructions in the same order in both: identical argmaxes.
// Expected on H100: a pass ~25 us (64 MiB at ~2.7 TB/s); plain ~128 passes ~3.3 ms; speculative: expected
// tokens per round (1 - 0.8^5)/(1 - 0.8) = 3.36, ~38 rounds of ~27 us ~1.0 ms: ~3x.
#pragma once
#include <cooperative_groups.h>
#include <cuda_bf16.h>

#include <cstdint>

#include "aisp/aisp.hpp"

inline constexpr int kSpecVocab = 16384, kSpecDim = 2048, kSpecTokens = 128, kSpecGamma = 4;
inline constexpr int kSpecAcceptPct = 80;  // declared draft acceptance per position
inline constexpr int kSpecThreads = 256;

namespace spec {

namespace cg = cooperative_groups;

// (logit, token) as one orderable 64-bit key: larger logit first, then the smaller token.
__device__ __forceinline__ unsigned long long pack(float logit, int token) {
  const unsigned bits = __float_as_uint(logit);
  const unsigned ordered = (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
  return (static_cast<unsigned long long>(ordered) << 32) | (0xFFFFFFFFu - static_cast<unsigned>(token));
}
__device__ __forceinline__ int token_of(unsigned long long key) {
  return static_cast<int>(0xFFFFFFFFu - static_cast<unsigned>(key));
}

// Copies E[token] (bf16, 4 KiB) into q (shared memory), all threads of the block.
__device__ __forceinline__ void load_query(const __nv_bfloat16* __restrict__ e, int token, __nv_bfloat16* q) {
  const uint4* from = reinterpret_cast<const uint4*>(e + int64_t(token) * kSpecDim);
  for (int i = threadIdx.x; i < kSpecDim / 8; i += blockDim.x) reinterpret_cast<uint4*>(q)[i] = from[i];
}

__device__ __forceinline__ void bf16x8_to_float(const uint4& raw, float (&f)[8]) {
  const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&raw);
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    const float2 p = __bfloat1622float2(h[e]);
    f[2 * e] = p.x, f[2 * e + 1] = p.y;
  }
}

constexpr int kRowsPerWarp = 8;  // rows a warp carries through one sweep of the 8 column chunks

// One target pass for kQ query vectors q[kQ][d] (bf16, shared memory): every warp of the grid takes
// kRowsPerWarp rows of W at a time (grid-strided) and walks their 8 column chunks together: per chunk a lane
// loads its 16 bytes of each row (8 loads in flight) and its slice of each query once, for all 8 rows - so
// a query slice is read from shared memory once per 8 rows (reading it per row made the 5-query pass bound
// by shared-memory bandwidth: 40 KiB of q per 4 KiB row of W). Each logit is the same sequence of FMAs in
// both variants: chunk by chunk, element by element, then the same warp reduction. The block's best key
// per query goes to partial[blockIdx.x * kQ + j]; then the grid synchronizes and every block reduces all
// partials, so every block knows the kQ argmax tokens (tok[kQ] in shared memory).
template <int kQ>
__device__ void target_pass(const __nv_bfloat16* __restrict__ w, const __nv_bfloat16* q, unsigned long long* partial,
                            unsigned long long (*warp_best)[kQ], int* tok, cg::grid_group& grid) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const int all_warps = gridDim.x * warps;
  unsigned long long best[kQ];
#pragma unroll
  for (int j = 0; j < kQ; ++j) best[j] = 0;
  for (int base = blockIdx.x * warps + warp; base < kSpecVocab; base += all_warps * kRowsPerWarp) {
    float acc[kRowsPerWarp][kQ];
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r)
#pragma unroll
      for (int j = 0; j < kQ; ++j) acc[r][j] = 0;
#pragma unroll 1
    for (int i = 0; i < kSpecDim / 256; ++i) {
      const int col = (lane + 32 * i) * 8;
      uint4 wv[kRowsPerWarp];
#pragma unroll
      for (int r = 0; r < kRowsPerWarp; ++r) {
        const int v = base + r * all_warps;
        wv[r] =
            v < kSpecVocab ? __ldcs(reinterpret_cast<const uint4*>(w + int64_t(v) * kSpecDim + col)) : make_uint4(0, 0, 0, 0);
      }
      uint4 qv[kQ];
#pragma unroll
      for (int j = 0; j < kQ; ++j) qv[j] = *reinterpret_cast<const uint4*>(q + j * kSpecDim + col);
#pragma unroll
      for (int r = 0; r < kRowsPerWarp; ++r) {
        float wf[8];
        bf16x8_to_float(wv[r], wf);
#pragma unroll
        for (int j = 0; j < kQ; ++j) {
          float qf[8];
          bf16x8_to_float(qv[j], qf);
#pragma unroll
          for (int e = 0; e < 8; ++e) acc[r][j] = __fmaf_rn(wf[e], qf[e], acc[r][j]);
        }
      }
    }
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r) {
      const int v = base + r * all_warps;
#pragma unroll
      for (int j = 0; j < kQ; ++j) {
        float s = acc[r][j];
        for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
        const unsigned long long key = pack(s, v);
        if (v < kSpecVocab && key > best[j]) best[j] = key;
      }
    }
  }
  if (lane == 0)
#pragma unroll
    for (int j = 0; j < kQ; ++j) warp_best[warp][j] = best[j];
  __syncthreads();
  if (threadIdx.x < kQ) {
    unsigned long long b = 0;
    for (int i = 0; i < warps; ++i) b = warp_best[i][threadIdx.x] > b ? warp_best[i][threadIdx.x] : b;
    partial[blockIdx.x * kQ + threadIdx.x] = b;
  }
  __threadfence();
  grid.sync();
  // Every block reduces every partial: warp j takes query j.
  if (warp < kQ) {
    unsigned long long b = 0;
    for (int i = lane; i < static_cast<int>(gridDim.x); i += 32) {
      const unsigned long long k = partial[i * kQ + warp];
      b = k > b ? k : b;
    }
    for (int o = 16; o > 0; o >>= 1) {
      const unsigned long long k = __shfl_xor_sync(0xffffffffu, b, o);
      b = k > b ? k : b;
    }
    if (lane == 0) tok[warp] = token_of(b);
  }
  __syncthreads();
}

}  // namespace spec

class SpeculativeDecodingBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"vocab", kSpecVocab},
                {"dim", kSpecDim},
                {"tokens", kSpecTokens},
                {"gamma", kSpecGamma},
                {"accept_pct", kSpecAcceptPct}};
    w.precision = aisp::DType::bf16;
    // A lower bound only (W and the used rows of E read at least once, the tokens written): how often W is
    // read depends on the technique, which is the point of the pair.
    w.bytes = 2.0 * kSpecVocab * kSpecDim + 2.0 * kSpecTokens * kSpecDim + 4.0 * kSpecTokens;
    w.flops = 2.0 * kSpecTokens * double(kSpecVocab) * kSpecDim;  // one target logit row per emitted token
    w.items = kSpecTokens;
    w.item_unit = "tokens";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    ctx.input("prompt", aisp::DType::i32, {1}, aisp::Fill::int_range(0, kSpecVocab - 1));
    ctx.input("w", aisp::DType::bf16, {kSpecVocab, kSpecDim}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);
    ctx.input("e", aisp::DType::bf16, {kSpecVocab, kSpecDim}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);
    ctx.output("tokens", aisp::DType::i32, {kSpecTokens});
    prepare(ctx);
  }

 protected:
  virtual void prepare(aisp::Context&) = 0;
  // A cooperative grid of `blocks_per_sm` blocks per SM (2 by default), capped by what can be co-resident.
  template <class Kernel>
  int cooperative_grid(aisp::Context& ctx, Kernel kernel, int blocks_per_sm = 2) {
    int fit = 0;
    AISP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, kSpecThreads, 0));
    if (fit < 1) throw std::runtime_error("speculative_decoding: the kernel cannot run one block per SM");
    return ctx.device().sm_count * (fit < blocks_per_sm ? fit : blocks_per_sm);
  }
};
