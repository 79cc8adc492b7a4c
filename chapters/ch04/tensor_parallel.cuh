// tensor_parallel (seed ch04 tensor_parallel, allgather variant): one linear layer Y = X W, X of m = 2048
// tokens x k = 16384 features, W of k x n = 16384 outputs, fp16 in, fp32 accumulate and out, spread over R
// ranks the way sequence parallelism holds it: each rank owns m/R tokens of X and the n/R columns of W it is
// responsible for (its own random streams). Every rank must end with the whole Y.
// - replicated (baseline): every rank holds all of W (gathered once in setup, a model replica), all-gathers
//   X, and computes the whole m x n x k GEMM itself;
// - tensor parallel (optimized): every rank all-gathers X, computes only its n/R columns of Y with its own W
//   shard (1/R of the FLOPs), and the column blocks are all-gathered into Y.
// Both gather X (m x k fp16 = 64 MiB); TP adds Y's all-gather (m x n fp32 = 128 MiB, half of it received per
// rank) and saves half the GEMM. The saving grows with k (the GEMM) while Y's gather does not, hence k = 16384.
//
// Expected on 2 H100s: replicated GEMM 1.1e12 FLOP ≈ 1.5 ms at ~750 TFLOP/s; TP 0.75 ms + ~0.25 ms for Y's
// gather, with X's gather (~0.15 ms) in both: ~1.4x. Measured on 2 H200s (2026-11-28, m 4096, k 8192, n 8192,
// in a run made INVALID by a K16 false positive since fixed): 901 us vs 866 us, Y's gather eating most of
// the saving at that k.
// Tolerance: the two variants multiply with different cuBLAS shapes (n vs n/R columns), so cuBLAS may pick
// another kernel and fp32 summation order over k; 1e-4 relative / 1e-3 absolute covers that (|Y| ~ 40) while
// an error of one fp16 rounding of Y (~2e-2 at |Y| ~ 40) fails it.
#pragma once
#include <cublas_v2.h>
#include <cuda_fp16.h>

#include "nccl_ranks.cuh"

namespace tensor_parallel {

inline constexpr int64_t kM = 2048, kK = 16384, kN = 16384;

struct Base : ch04::RankedBenchmark {
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"m", kM}, {"k", kK}, {"n", kN}};
    w.precision = aisp::DType::f16;
    const double r = std::max(ch04::world(), 1);
    w.flops = 2.0 * kM * kN * kK / r;  // a rank's share of the layer: the least any variant must compute
    w.bytes = (kM * kK * 2.0) + (kK * kN * 2.0 / r) + kM * kN * 4.0;  // X gathered, its W shard, Y written
    return w;
  }
  aisp::Tolerance tolerance() const override {
    return aisp::Tolerance::loosened(1e-4, 1e-3,
                                     "fp16 inputs, fp32 accumulation over k = 16384: the replicated and sharded GEMMs "
                                     "have different shapes, so cuBLAS may choose kernels that sum in another order");
  }
  void setup(aisp::Context& ctx) override {
    const int64_t r = ch04::world();
    ctx.input("x", aisp::DType::f16, {kM / r, kK});  // this rank's tokens (row-major tokens x features)
    ctx.input("w", aisp::DType::f16, {kN / r, kK}, aisp::Fill::uniform(-1, 1), aisp::Role::static_);  // its W columns
    ctx.output("y", aisp::DType::f32, {kN, kM});     // Y column-major: n columns of m
    x_full_ = static_cast<__half*>(ctx.scratch("x_full", kM * kK * sizeof(__half)));
    connect(ctx);
  }

 protected:
  // X from every rank's tokens: rank r's m/R tokens are columns r*m/R.. of the column-major k x m matrix.
  void gather_x(aisp::Context& ctx) {
    nccl().check(nccl().all_gather(ctx.buffer("x").as<__half>(), x_full_, kM / ch04::world() * kK, ncclHalf, comm_,
                                   ctx.stream()),
                 "ncclAllGather(X)");
  }
  // out (m x cols, column-major, ld m) = X^T W_cols, fp32 accumulate.
  static void gemm(aisp::Context& ctx, const __half* x_full, const __half* w, float* out, int64_t cols) {
    const float one = 1.0f, zero = 0.0f;
    cublasStatus_t s = cublasGemmEx(ctx.cublas(), CUBLAS_OP_T, CUBLAS_OP_N, kM, static_cast<int>(cols), kK, &one, x_full,
                                    CUDA_R_16F, kK, w, CUDA_R_16F, kK, &zero, out, CUDA_R_32F, kM, CUBLAS_COMPUTE_32F,
                                    CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasGemmEx failed: " + std::to_string(int(s)));
  }
  __half* x_full_ = nullptr;
};

}  // namespace tensor_parallel
