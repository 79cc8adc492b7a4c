// LtGemm: one cuBLASLt matmul, planned once in setup() and enqueued in run(). Row-major
// C[M][N] = A[M][K] * B[N][K]^T (B an nn.Linear weight, output-major) is cuBLASLt's column-major
// C^T (N x M) = B (K x N, transposed) * A^T (K x M): the "TN" layout, the only one FP8 accepts on Hopper
// and the fast one for every type. Per-tensor FP8 scales go in as device pointers (dequantization
// multipliers, applied by the GEMM to A and B), so a scale computed on the device in run() needs no host
// round trip.
#pragma once
#include <cublasLt.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "aisp/check.hpp"

#define LT_CHECK(expr)                                                                                   \
  do {                                                                                                   \
    cublasStatus_t st_ = (expr);                                                                         \
    if (st_ != CUBLAS_STATUS_SUCCESS)                                                                    \
      throw std::runtime_error(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " #expr ": " + \
                               cublasLtGetStatusName(st_));                                              \
  } while (0)

struct LtGemmTypes {
  cudaDataType_t ab, cd;  // operand type, output type
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
};

class LtGemm {
 public:
  LtGemm() = default;
  LtGemm(const LtGemm&) = delete;
  LtGemm& operator=(const LtGemm&) = delete;
  ~LtGemm() { release(); }

  // Plans the GEMM; the scale pointers (device floats) are for FP8 operands only (nullptr otherwise). alpha is
  // a host scalar fixed at plan time (C = alpha A B^T): static per-tensor scales folded into one factor, for
  // type combinations that refuse scale pointers (gemm_precision_resident's FP8 -> BF16 on CUDA 13.0).
  void plan(int64_t m, int64_t n, int64_t k, LtGemmTypes t, void* workspace, size_t workspace_bytes,
            const float* scale_a = nullptr, const float* scale_b = nullptr, float alpha = 1) {
    release();
    alpha_ = alpha;
    workspace_ = workspace;
    workspace_bytes_ = workspace_bytes;
    LT_CHECK(cublasLtCreate(&lt_));
    LT_CHECK(cublasLtMatmulDescCreate(&desc_, t.compute, CUDA_R_32F));
    const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    LT_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    LT_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    // cuBLASLt's A is our weight B, its B our activation A (see the header comment).
    if (scale_b) LT_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scale_b, sizeof scale_b));
    if (scale_a) LT_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &scale_a, sizeof scale_a));
    LT_CHECK(cublasLtMatrixLayoutCreate(&a_, t.ab, k, n, k));
    LT_CHECK(cublasLtMatrixLayoutCreate(&b_, t.ab, k, m, k));
    LT_CHECK(cublasLtMatrixLayoutCreate(&c_, t.cd, n, m, n));
    LT_CHECK(cublasLtMatmulPreferenceCreate(&pref_));
    LT_CHECK(cublasLtMatmulPreferenceSetAttribute(pref_, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes,
                                                  sizeof workspace_bytes));
    int found = 0;
    LT_CHECK(cublasLtMatmulAlgoGetHeuristic(lt_, desc_, a_, b_, c_, c_, pref_, 1, &algo_, &found));
    if (found == 0) throw std::runtime_error("cuBLASLt offers no algorithm for this GEMM");
  }

  // C = A * B^T on stream s (A: M x K activation, B: N x K weight, C: M x N, all row-major).
  void run(cudaStream_t s, const void* a, const void* b, void* c) const { LT_CHECK(enqueue(s, a, b, c)); }

  // Whether this cuBLASLt runs the plan: one real call on the given buffers, waited for (setup time only).
  // The heuristic can offer an algorithm for a type combination the matmul then refuses (FP8 operands with
  // an FP32 output did exactly that on the H100 with cuBLAS 13.0: CUBLAS_STATUS_NOT_SUPPORTED), so a caller
  // with a fallback probes before committing to a plan.
  bool runs(cudaStream_t s, const void* a, const void* b, void* c) const {
    const cublasStatus_t st = enqueue(s, a, b, c);
    if (st == CUBLAS_STATUS_NOT_SUPPORTED) return false;
    LT_CHECK(st);
    AISP_CUDA_CHECK(cudaStreamSynchronize(s));
    return true;
  }

 private:
  cublasStatus_t enqueue(cudaStream_t s, const void* a, const void* b, void* c) const {
    const float beta = 0;
    return cublasLtMatmul(lt_, desc_, &alpha_, b, a_, a, b_, &beta, c, c_, c, c_, &algo_.algo, workspace_, workspace_bytes_, s);
  }
  void release() {
    if (pref_) cublasLtMatmulPreferenceDestroy(pref_);
    if (a_) cublasLtMatrixLayoutDestroy(a_);
    if (b_) cublasLtMatrixLayoutDestroy(b_);
    if (c_) cublasLtMatrixLayoutDestroy(c_);
    if (desc_) cublasLtMatmulDescDestroy(desc_);
    if (lt_) cublasLtDestroy(lt_);
    pref_ = nullptr, a_ = b_ = c_ = nullptr, desc_ = nullptr, lt_ = nullptr;
  }

  cublasLtHandle_t lt_ = nullptr;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, c_ = nullptr;
  cublasLtMatmulPreference_t pref_ = nullptr;
  cublasLtMatmulHeuristicResult_t algo_{};
  float alpha_ = 1;
  void* workspace_ = nullptr;
  size_t workspace_bytes_ = 0;
};
