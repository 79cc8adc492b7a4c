// staged_h2d: moving a 32 MiB fp32 tensor from *pageable* host memory (memory you cannot pin: a
// framework's heap, a buffer a library hands you, a memory-mapped dataset) to the GPU, then
//   out = host_data + in
// on the device, so the output checks every byte that crossed and follows the harness's fresh inputs.
// The host data is a fixed pattern made in setup().
//
// Two pairs share this file:
//   pageable_copy  baseline: one cudaMemcpyAsync from the pageable source (the driver stages it)
//                  optimized: our own staging pipeline (StagedUploader): host threads copy chunks into a
//                  ring of pinned slots while the copy engine drains the filled ones
//   numa_affinity  baseline: the same pipeline, NUMA-unaware (threads float, slots wherever they land)
//                  optimized: threads bound to the GPU's local CPUs, slots on the GPU's NUMA node
#pragma once
#include <cstdint>
#include <memory>

#include "aisp/aisp.hpp"
#include "../common/staging_ring.hpp"

// 8 Mi floats = 32 MiB: ~0.65 ms of DMA at ~50 GB/s, 16 chunks of 2 MiB for the pipeline (StagedUploader's
// default geometry: 4 threads, 6 slots of 2 MiB).
inline constexpr int64_t kStagedN = int64_t{1} << 23;

inline aisp::Workload staged_h2d_workload() {
  const double bytes = static_cast<double>(kStagedN) * sizeof(float);
  aisp::Workload w;
  w.params = {{"n", kStagedN}};
  w.precision = aisp::DType::f32;
  // Device memory: the uploaded tensor written once and read once by the add, `in` read, `out` written.
  w.bytes = 4.0 * bytes;
  w.flops = static_cast<double>(kStagedN);
  w.items = bytes;  // bytes that cross PCIe
  w.item_unit = "PCIe bytes";
  return w;
}

// The pageable source: ordinary heap memory, filled (and so faulted in) by the thread calling setup().
inline std::unique_ptr<float[]> make_pageable_source(int64_t n) {
  auto src = std::make_unique<float[]>(n);
  for (int64_t i = 0; i < n; ++i) src[i] = host_pipeline::pattern_value(i);
  return src;
}

__global__ void staged_add_kernel(const float4* __restrict__ uploaded, const float4* __restrict__ in,
                                  float4* __restrict__ out, int64_t n4) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4; i += int64_t(gridDim.x) * blockDim.x) {
    const float4 a = uploaded[i], b = in[i];
    out[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
  }
}

// out = uploaded + in on the harness stream, after the upload's copies (same stream, so ordered).
inline void launch_staged_add(aisp::Context& ctx, const float* uploaded) {
  const int64_t n = ctx.param("n");
  if (n % 4 != 0) throw std::runtime_error("staged_h2d: n must be a multiple of 4");
  const aisp::DeviceInfo& dev = ctx.device();
  const unsigned grid = static_cast<unsigned>((dev.sm_count > 0 ? dev.sm_count : 132) * 8);
  staged_add_kernel<<<grid, 256, 0, ctx.stream()>>>(reinterpret_cast<const float4*>(uploaded),
                                                    ctx.buffer("in").as<const float4>(),
                                                    ctx.buffer("out").as<float4>(), n / 4);
  AISP_LAUNCH_CHECK();
}

// The base of both pairs (pageable_copy, numa_affinity): workload, buffers, the pageable source and the
// device tensor it is uploaded into; each variant adds only how it uploads (run()).
class StagedH2dBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return staged_h2d_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("in", aisp::DType::f32, {n});
    ctx.output("out", aisp::DType::f32, {n});
    src_ = make_pageable_source(ctx.param("n"));
    uploaded_ = static_cast<float*>(ctx.scratch("uploaded", ctx.param("n") * sizeof(float)));
  }
  void teardown(aisp::Context&) override { src_.reset(); }

 protected:
  std::unique_ptr<float[]> src_;
  float* uploaded_ = nullptr;
};

// The three variants that upload through a StagedUploader (pageable_copy's optimized variant and both
// numa_affinity variants): they differ only in where the uploader's threads and slots are placed
// (make_uploader(), called once at the end of setup()).
class StagedPipelineBase : public StagedH2dBase {
 public:
  void setup(aisp::Context& ctx) override {
    StagedH2dBase::setup(ctx);
    uploader_ = make_uploader(ctx);
  }
  void teardown(aisp::Context& ctx) override {
    uploader_.reset();
    StagedH2dBase::teardown(ctx);
  }

 protected:
  virtual std::unique_ptr<StagedUploader> make_uploader(aisp::Context& ctx) = 0;

  // The timed work: wait for the harness stream to start (so the host copies are inside the timed window,
  // host_pipeline.hpp), stage the source through the ring, then the add on the uploaded tensor.
  void upload_and_add(aisp::Context& ctx, const char* pair) {
    cudaStream_t s = ctx.stream();
    host_pipeline::open_host_window(s, pair);
    uploader_->upload_from(reinterpret_cast<char*>(uploaded_), reinterpret_cast<const char*>(src_.get()),
                           ctx.param("n") * sizeof(float), s);
    launch_staged_add(ctx, uploaded_);
  }

 private:
  std::unique_ptr<StagedUploader> uploader_;
};
