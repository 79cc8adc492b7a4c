// Error-check helpers for benchmark code. A failed check throws; the worker reports the variant as
// failed with the message (file:line and the CUDA/cuBLAS error name), and the suite goes on.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace aisp {

struct CudaError : std::runtime_error {
  int code;
  CudaError(int c, const std::string& what) : std::runtime_error(what), code(c) {}
};

inline void check_cuda(cudaError_t err, const char* expr, const char* file, int line) {
  if (err != cudaSuccess)
    throw CudaError(static_cast<int>(err), std::string(file) + ":" + std::to_string(line) + ": " + expr + ": " +
                                               cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

inline void check_cublas(cublasStatus_t st, const char* expr, const char* file, int line) {
  if (st != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + expr + ": " +
                             cublasGetStatusName(st));
}

}  // namespace aisp

#define AISP_CUDA_CHECK(expr) ::aisp::check_cuda((expr), #expr, __FILE__, __LINE__)
#define AISP_CUBLAS_CHECK(expr) ::aisp::check_cublas((expr), #expr, __FILE__, __LINE__)
// After a kernel launch: catches bad launch configurations immediately (execution errors surface later).
#define AISP_LAUNCH_CHECK() AISP_CUDA_CHECK(cudaGetLastError())
