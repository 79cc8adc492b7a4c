// A cuBLASLt plan for the linear-layer GEMM y[M][N] = x[M][K] * w[N][K]^T with row-major x, w, y (the
// nn.Linear layout: weights stored output-major). Shared by the cublaslt_gemm and cublaslt_gemm_fp8 pairs.
//
// cuBLASLt is column-major, and a row-major R x C matrix is the column-major C x R matrix, so the call is
// y^T (N x M) = op(w^T) * x^T with w^T seen as the col-major K x N matrix "A" taken transposed and x^T
// as the col-major K x M matrix "B" taken as is: TN, the one layout cuBLASLt's FP8 kernels accept on
// Hopper (A transposed, B not), and a fast one for 16-bit types too.
//
// Everything that allocates or searches (descriptors, layouts, the heuristic query, a trial call that
// picks a candidate the library accepts) happens in create() and select(), called from setup(); run() is
// one cublasLtMatmul on the harness stream, capturable into a graph.
#pragma once
#include <cublasLt.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "aisp/aisp.hpp"

class LtLinear {
 public:
  struct Shape {
    int64_t m, n, k;
  };
  // `w_scale` / `x_scale`: device pointers to FP32 dequantization factors (FP8 only; null = 1).
  void create(cublasLtHandle_t handle, Shape s, cudaDataType_t in_type, cudaDataType_t out_type, void* workspace,
              size_t workspace_bytes, const float* w_scale = nullptr, const float* x_scale = nullptr) {
    handle_ = handle;
    workspace_ = workspace;
    workspace_bytes_ = workspace_bytes;
    AISP_CUBLAS_CHECK(cublasLtMatmulDescCreate(&op_, CUBLAS_COMPUTE_32F, CUDA_R_32F));  // FP32 accumulate
    const cublasOperation_t transa = CUBLAS_OP_T, transb = CUBLAS_OP_N;
    AISP_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSA, &transa, sizeof(transa)));
    AISP_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSB, &transb, sizeof(transb)));
    // cuBLASLt's "A" is w, its "B" is x: the scale pointers follow that naming.
    if (w_scale)
      AISP_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &w_scale,
                                                       sizeof(w_scale)));
    if (x_scale)
      AISP_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &x_scale,
                                                       sizeof(x_scale)));
    AISP_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&a_, in_type, s.k, s.n, s.k));   // w: col-major K x N
    AISP_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&b_, in_type, s.k, s.m, s.k));   // x: col-major K x M
    AISP_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&d_, out_type, s.n, s.m, s.n));  // y: col-major N x M

    cublasLtMatmulPreference_t pref = nullptr;
    AISP_CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
    AISP_CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                           &workspace_bytes_, sizeof(workspace_bytes_)));
    found_ = 0;
    const cublasStatus_t st =
        cublasLtMatmulAlgoGetHeuristic(handle_, op_, a_, b_, d_, d_, pref, kCandidates, candidates_, &found_);
    cublasLtMatmulPreferenceDestroy(pref);
    AISP_CUBLAS_CHECK(st);
    if (found_ == 0) throw std::runtime_error("cuBLASLt: no algorithm for this GEMM on this device");
  }

  // Picks the first heuristic candidate that cublasLtMatmul accepts with these very buffers, by running it
  // once on `stream` (from setup(), untimed; it writes y, which the harness poisons before checked runs).
  // The heuristic judges descriptors only; an argument check at call time (pointer alignment, in-place
  // C == D) can still refuse a candidate, and that must surface here, not in a timed run.
  void select(cudaStream_t stream, const void* x, const void* w, void* y) {
    std::string refused;
    for (const bool c_is_d : {true, false}) {  // second pass: C = nullptr (beta = 0 never reads C)
      for (int i = 0; i < found_; ++i) {
        algo_ = candidates_[i].algo;
        c_is_d_ = c_is_d;
        const cublasStatus_t st = call(stream, x, w, y);
        if (st == CUBLAS_STATUS_SUCCESS) return;
        refused += std::string(" [") + (c_is_d ? "C=D" : "C=null") + " #" + std::to_string(i) + ": " +
                   cublasGetStatusName(st) + "]";
      }
    }
    throw std::runtime_error("cuBLASLt refused every heuristic candidate:" + refused);
  }

  // y = x * w^T (beta = 0: C is not read; D is y).
  void run(cudaStream_t stream, const void* x, const void* w, void* y) const {
    AISP_CUBLAS_CHECK(call(stream, x, w, y));
  }

  void destroy() {
    if (d_) cublasLtMatrixLayoutDestroy(d_);
    if (b_) cublasLtMatrixLayoutDestroy(b_);
    if (a_) cublasLtMatrixLayoutDestroy(a_);
    if (op_) cublasLtMatmulDescDestroy(op_);
    d_ = b_ = a_ = nullptr;
    op_ = nullptr;
  }

 private:
  cublasStatus_t call(cudaStream_t stream, const void* x, const void* w, void* y) const {
    const float alpha = 1.0f, beta = 0.0f;
    return cublasLtMatmul(handle_, op_, &alpha, w, a_, x, b_, &beta, c_is_d_ ? y : nullptr, d_, y, d_, &algo_,
                          workspace_, workspace_bytes_, stream);
  }

  cublasLtHandle_t handle_ = nullptr;
  cublasLtMatmulDesc_t op_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, d_ = nullptr;
  cublasLtMatmulAlgo_t algo_{};
  static constexpr int kCandidates = 8;
  cublasLtMatmulHeuristicResult_t candidates_[kCandidates]{};
  int found_ = 0;
  bool c_is_d_ = true;
  void* workspace_ = nullptr;
  size_t workspace_bytes_ = 0;
};

// 32 MiB: what cuBLAS recommends for Hopper (its default workspace there), enough for split-K and
// stream-K algorithms.
inline constexpr size_t kLtWorkspaceBytes = size_t{32} << 20;

// The BF16 layer y = x w^T on cuBLASLt, as a whole benchmark body: ch09:cublaslt_gemm's optimized variant
// and ch09:cublaslt_gemm_fp8's baseline time exactly this, each on its own pair's buffers ("x", "w",
// "y" and params m, n, k). Handle, descriptors and the algorithm choice live in setup(), outside timing.
class LtBf16Layer {
 public:
  void setup(aisp::Context& ctx) {
    AISP_CUBLAS_CHECK(cublasLtCreate(&handle_));
    gemm_.create(handle_, {ctx.param("m"), ctx.param("n"), ctx.param("k")}, CUDA_R_16BF, CUDA_R_16BF,
                 ctx.scratch("lt_workspace", kLtWorkspaceBytes), kLtWorkspaceBytes);
    gemm_.select(ctx.stream(), ctx.buffer("x").data, ctx.buffer("w").data, ctx.buffer("y").data);
  }
  void run(aisp::Context& ctx) {
    gemm_.run(ctx.stream(), ctx.buffer("x").data, ctx.buffer("w").data, ctx.buffer("y").data);
  }
  void teardown() {
    gemm_.destroy();
    if (handle_) cublasLtDestroy(handle_);
    handle_ = nullptr;
  }

 private:
  cublasLtHandle_t handle_ = nullptr;
  LtLinear gemm_;
};
