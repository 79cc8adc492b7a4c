// mempool_release_threshold: one training-style iteration that allocates its activations from a
// stream-ordered memory pool, runs, frees them, and ends at a host synchronization (a loss.item(), a
// logging step, a data-loader handshake). Per run(): 4 temporaries of 64 MiB each are allocated with
// cudaMallocFromPoolAsync and chained,
//   t0 = x * c0 + x,   t_k = t_{k-1} * c_k + x (k = 1, 2),   y = t2 * c3 + x,
// then freed with cudaFreeAsync. The pair differs only in one pool attribute set in setup():
//   baseline_mempool_release_threshold.cu    cudaMemPoolAttrReleaseThreshold = 0 (the default): at every
//                                            synchronize the pool gives its unused 192 MiB back to the OS
//   optimized_mempool_release_threshold.cu   release threshold = UINT64_MAX: the pool keeps what it has
// The synchronize that opens each run()'s timed window (../common/host_window.hpp) is that iteration-ending
// sync, so the baseline's pool is empty at the start of every run() and must map physical memory again.
// Both run the same kernels on the same elements: outputs match bit for bit.
#pragma once
#include <cstdint>

#include "aisp/aisp.hpp"
#include "../common/host_window.hpp"

namespace mempool_release_threshold {

inline constexpr int64_t kN = int64_t{16} << 20;  // 16 Mi floats = 64 MiB per temporary
inline constexpr int kSteps = 4;  // 3 pooled intermediates, the last step writes y

__global__ void chain_step(const float* __restrict__ prev, const float* __restrict__ x, float* __restrict__ out,
                           int64_t n, const float* __restrict__ coef, int k) {
  const float c = coef[k];
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    out[i] = __fmaf_rn(prev[i], c, x[i]);
}

class Pair : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"n", kN}, {"steps", kSteps}};
    w.precision = aisp::DType::f32;
    // Step 0 reads x (as prev and as x: counted once, the same thread reads the same address) and writes
    // t0; steps 1..3 read the previous intermediate and x and write the next (the last one y).
    w.bytes = (2.0 + 3.0 * (kSteps - 1)) * kN * sizeof(float);
    w.flops = 2.0 * kSteps * kN;
    return w;
  }

  void setup(aisp::Context& ctx) override {
    ctx.input("x", aisp::DType::f32, {ctx.param("n")});
    ctx.input("coef", aisp::DType::f32, {ctx.param("steps")});
    ctx.output("y", aisp::DType::f32, {ctx.param("n")});
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = ctx.device().ordinal;
    AISP_CUDA_CHECK(cudaMemPoolCreate(&pool_, &props));
    uint64_t threshold = release_threshold();
    AISP_CUDA_CHECK(cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &threshold));
  }

  void run(aisp::Context& ctx) override {
    cudaStream_t s = ctx.stream();
    host_window::open(s);  // the iteration-ending synchronize: with threshold 0 the pool is trimmed here
    const int64_t n = ctx.param("n");
    const float* x = ctx.buffer("x").as<const float>();
    const float* coef = ctx.buffer("coef").as<const float>();
    const unsigned blocks = static_cast<unsigned>(ctx.device().sm_count * 8);
    void* t[kSteps - 1] = {};
    const float* prev = x;
    for (int k = 0; k < kSteps; ++k) {
      float* out = ctx.buffer("y").as<float>();
      if (k + 1 < kSteps) {
        AISP_CUDA_CHECK(cudaMallocFromPoolAsync(&t[k], n * sizeof(float), pool_, s));
        out = static_cast<float*>(t[k]);
      }
      chain_step<<<blocks, 256, 0, s>>>(prev, x, out, n, coef, k);
      AISP_LAUNCH_CHECK();
      prev = out;
    }
    for (void* p : t) AISP_CUDA_CHECK(cudaFreeAsync(p, s));
  }

  void teardown(aisp::Context&) override {
    cudaDeviceSynchronize();
    if (pool_) cudaMemPoolDestroy(pool_);
    pool_ = nullptr;
  }

 protected:
  virtual uint64_t release_threshold() const = 0;

 private:
  cudaMemPool_t pool_ = nullptr;
};

}  // namespace mempool_release_threshold
