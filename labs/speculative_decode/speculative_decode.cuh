// labs/speculative_decode: how many draft tokens to verify per target pass. Greedy generation of 128 tokens
// from ch15's tiny synthetic target model (chapters/ch15/speculative_decoding.cuh, included: a bigram LM,
// next = argmax_v W[v] . E[prev], vocabulary 16384, width 2048, W and E 64 MiB each in bf16, so a target
// pass streams W from HBM) with a draft of declared acceptance 0.8 per position (the target distilled into
// a next-token table in setup(), 20% of its entries replaced by a fixed hash: ch15's construction).
// One kernel template, speculate<gamma>, runs every variant: per round the draft proposes gamma tokens
// after the last accepted one (gamma dependent table lookups), one target pass (ch15's target_pass<gamma+1>:
// every row of W dotted with all gamma + 1 queries, W read once) gives the target's next token after each
// prefix, the longest agreeing prefix plus the target's own next token are emitted. gamma = 0 is plain
// greedy decode (one pass, one token). Every logit is computed by the same FMAs in the same order whatever
// gamma is, so every variant emits exactly the baseline's tokens (greedy speculation is lossless).
//   baseline_speculative_decode.cu              gamma 0: plain decode, 128 passes
//   optimized_speculative_decode_gamma1.cu      gamma 1: 1.80 tokens per pass expected
//   optimized_speculative_decode_gamma2.cu      gamma 2: 2.44
//   optimized_speculative_decode.cu             gamma 4: 3.36
//   optimized_speculative_decode_gamma6.cu      gamma 6: 3.95
// Expected tokens per round with acceptance a: (1 - a^(gamma+1)) / (1 - a). The pass cost grows with gamma
// only through FMAs and shared-memory reads of the queries (W is read once either way), so the curve
// flattens: the lab measures where.
#pragma once
#include "../../chapters/ch15/speculative_decoding.cuh"

namespace spec_lab {

constexpr int kMaxGamma = 6;

// Persistent cooperative kernel: all rounds of the generation. tok[j] = the target's token after prefix
// d0..dj; accepted n = the longest j-prefix with d_{j+1} == tok[j].
template <int kGamma>
__global__ void __launch_bounds__(kSpecThreads, 2)
    speculate(const int* __restrict__ prompt, const __nv_bfloat16* __restrict__ w, const __nv_bfloat16* __restrict__ e,
              const int* __restrict__ draft, unsigned long long* partial, int* __restrict__ out) {
  constexpr int kQ = kGamma + 1;  // queries per target pass
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  __shared__ __align__(16) __nv_bfloat16 q[kQ * kSpecDim];
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
    for (int j = 0; j < kQ; ++j) spec::load_query(e, proposal[j], q + j * kSpecDim);
    __syncthreads();
    // Alternate partial buffers: a block still reducing round r's partials is never overwritten by round r+1's.
    spec::target_pass<kQ>(w, q, partial + (round % 2) * gridDim.x * kQ, warp_best, tok, grid);
    int n = 0;  // accepted draft tokens
    while (n < kGamma && proposal[n + 1] == tok[n]) ++n;
    if (blockIdx.x == 0 && threadIdx.x == 0)
      for (int i = 0; i <= n && produced + i < kSpecTokens; ++i) out[produced + i] = tok[i];
    produced += n + 1;
    last = tok[n];
    __syncthreads();  // proposal, tok and q are rewritten next round
  }
}

// Draft table from the static weights: for prev tokens p0..p0+C-1, logits[c][v] (cuBLAS) -> argmax, then
// the declared corruption: 20% of the prev tokens (a fixed hash) get another token. ch15's construction.
__global__ void distill_argmax(const float* __restrict__ logits, int p0, int* __restrict__ draft) {
  const int c = blockIdx.x;
  unsigned long long best = 0;
  for (int v = threadIdx.x; v < kSpecVocab; v += blockDim.x) {
    const unsigned long long k = spec::pack(logits[int64_t(c) * kSpecVocab + v], v);
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
    int t = spec::token_of(best);
    unsigned h = static_cast<unsigned>(p) * 2654435761u;  // Knuth's multiplicative hash
    h ^= h >> 16;
    if (static_cast<int>(h % 100) >= kSpecAcceptPct) t = (t + 1 + static_cast<int>((h / 100) % (kSpecVocab - 1))) % kSpecVocab;
    draft[p] = t;
  }
}

class SpecLabBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"vocab", kSpecVocab}, {"dim", kSpecDim}, {"tokens", kSpecTokens}, {"accept_pct", kSpecAcceptPct}};
    w.precision = aisp::DType::bf16;
    // A lower bound (W and the used rows of E read once, the tokens written): how often W is read is what
    // gamma changes.
    w.bytes = 2.0 * kSpecVocab * kSpecDim + 2.0 * kSpecTokens * kSpecDim + 4.0 * kSpecTokens;
    w.flops = 2.0 * kSpecTokens * double(kSpecVocab) * kSpecDim;  // one target logit row per emitted token
    w.items = kSpecTokens;
    w.item_unit = "tokens";
    return w;
  }
  aisp::Goal goal() const override { return aisp::Goal::throughput; }
  void setup(aisp::Context& ctx) override {
    ctx.input("prompt", aisp::DType::i32, {1}, aisp::Fill::int_range(0, kSpecVocab - 1));
    ctx.input("w", aisp::DType::bf16, {kSpecVocab, kSpecDim}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);
    ctx.input("e", aisp::DType::bf16, {kSpecVocab, kSpecDim}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);
    ctx.output("tokens", aisp::DType::i32, {kSpecTokens});
    prepare(ctx);
  }
  // Token ids: exact (the integer default). Speculation is lossless here by construction.

 protected:
  virtual void prepare(aisp::Context& ctx) = 0;

  // Launches speculate<kGamma> as one cooperative grid (2 blocks per SM, capped by residency).
  template <int kGamma>
  void launch(aisp::Context& ctx) {
    const int* prompt = ctx.buffer("prompt").as<const int>();
    const __nv_bfloat16* w = ctx.buffer("w").as<const __nv_bfloat16>();
    const __nv_bfloat16* e = ctx.buffer("e").as<const __nv_bfloat16>();
    const int* draft = draft_;
    int* out = ctx.buffer("tokens").as<int>();
    void* args[] = {&prompt, &w, &e, &draft, &partial_, &out};
    AISP_CUDA_CHECK(
        cudaLaunchCooperativeKernel(reinterpret_cast<void*>(speculate<kGamma>), grid_, kSpecThreads, args, 0, ctx.stream()));
  }

  template <int kGamma>
  void prepare_gamma(aisp::Context& ctx) {
    static_assert(kGamma >= 0 && kGamma <= kMaxGamma, "the target pass keeps (gamma + 1) x 8 sums in registers");
    int fit = 0;
    AISP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, speculate<kGamma>, kSpecThreads, 0));
    if (fit < 1) throw std::runtime_error("labs/speculative_decode: the kernel cannot run one block per SM");
    grid_ = ctx.device().sm_count * (fit < 2 ? fit : 2);
    partial_ =
        static_cast<unsigned long long*>(ctx.scratch("partial", 2 * size_t(grid_) * (kGamma + 1) * sizeof(unsigned long long)));
    draft_ = static_cast<int*>(ctx.scratch("draft", kSpecVocab * sizeof(int)));
    if (kGamma > 0) distill(ctx);
  }

 private:
  // logits = E[p0 .. p0+C) W^T, 1024 prev tokens at a time, then argmax + declared corruption.
  void distill(aisp::Context& ctx) {
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
      distill_argmax<<<kChunk, 256, 0, ctx.stream()>>>(logits, p0, draft_);
      AISP_LAUNCH_CHECK();
    }
    AISP_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  }
  int grid_ = 0;
  unsigned long long* partial_ = nullptr;
  int* draft_ = nullptr;
};

// A variant is its gamma.
template <int kGamma>
class Speculate : public SpecLabBase {
 public:
  void run(aisp::Context& ctx) override { launch<kGamma>(ctx); }

 protected:
  void prepare(aisp::Context& ctx) override { prepare_gamma<kGamma>(ctx); }
};

}  // namespace spec_lab
