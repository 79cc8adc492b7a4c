// managed_prefetch: a step whose input was produced on the CPU in unified (managed) memory and is
// consumed by a GPU kernel,
//   out = data + in        (data: 16 MiB in cudaMallocManaged memory, in/out: ordinary device buffers)
// Shared by baseline_managed_prefetch.cu (the kernel touches `data` and the driver migrates it page
// fault by page fault) and optimized_managed_prefetch.cu (cudaMemPrefetchAsync moves it to the GPU in
// bulk before the kernel). `data` is a fixed pattern written by the CPU in setup(); `in` is the
// harness's dynamic input, so the output follows fresh inputs.
//
// Every run starts the same way in both variants: a prefetch of `data` to host memory, i.e. the state a
// CPU producer leaves it in at the start of each step (the previous step's kernel pulled it to the GPU).
// That reset is inside the timed window for both variants and costs the same in both (~16 MiB D2H), so
// the speedup understates the migration gain a little; the README reports both components.
#pragma once
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "aisp/aisp.hpp"
#include "../common/host_pipeline.hpp"

// 4 Mi floats = 16 MiB = 256 pages of 64 KiB (the granularity UVM migrates on x86 by default), or
// 4096 OS pages of 4 KiB.
inline constexpr int64_t kManagedN = int64_t{1} << 22;

inline aisp::Workload managed_prefetch_workload() {
  const double bytes = static_cast<double>(kManagedN) * sizeof(float);
  aisp::Workload w;
  w.params = {{"n", kManagedN}};
  w.precision = aisp::DType::f32;
  w.bytes = 3.0 * bytes;  // device memory: data read (after migration), in read, out written
  w.flops = static_cast<double>(kManagedN);
  w.items = 2.0 * bytes;  // migrated per run: 16 MiB to the host (reset) and 16 MiB to the GPU
  w.item_unit = "migrated bytes";
  return w;
}

// The managed buffer, written by the CPU (so its pages start in host memory).
inline float* make_managed_data(aisp::Context& ctx) {
  int concurrent = 0;
  AISP_CUDA_CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, ctx.device().ordinal));
  if (!concurrent)
    throw std::runtime_error("managed_prefetch: this GPU/OS lacks concurrentManagedAccess (on-demand page migration)");
  float* data = nullptr;
  const int64_t n = ctx.param("n");
  AISP_CUDA_CHECK(cudaMallocManaged(&data, n * sizeof(float), cudaMemAttachGlobal));
  for (int64_t i = 0; i < n; ++i) data[i] = host_pipeline::pattern_value(i);
  return data;
}

// The pair's base: its workload, buffers and the managed data (allocated and written by the CPU in setup(),
// freed in teardown()); each variant adds only its run().
class ManagedPrefetchBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return managed_prefetch_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("in", aisp::DType::f32, {n});
    ctx.output("out", aisp::DType::f32, {n});
    data_ = make_managed_data(ctx);
  }
  void teardown(aisp::Context&) override {
    if (data_) AISP_CUDA_CHECK(cudaFree(data_));
    data_ = nullptr;
  }

 protected:
  float* data_ = nullptr;
};

inline cudaMemLocation host_location() {
  cudaMemLocation loc{};
  loc.type = cudaMemLocationTypeHost;
  loc.id = 0;  // ignored for the host type
  return loc;
}

inline cudaMemLocation device_location(int ordinal) {
  cudaMemLocation loc{};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = ordinal;
  return loc;
}

__global__ void managed_add_kernel(const float4* __restrict__ data, const float4* __restrict__ in,
                                   float4* __restrict__ out, int64_t n4) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n4; i += int64_t(gridDim.x) * blockDim.x) {
    const float4 a = data[i], b = in[i];
    out[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
  }
}

// The step both variants share after their own preparation: out = data + in on the harness stream.
inline void launch_managed_add(aisp::Context& ctx, const float* data) {
  const int64_t n = ctx.param("n");
  const aisp::DeviceInfo& dev = ctx.device();
  const unsigned grid = static_cast<unsigned>((dev.sm_count > 0 ? dev.sm_count : 132) * 8);
  managed_add_kernel<<<grid, 256, 0, ctx.stream()>>>(reinterpret_cast<const float4*>(data),
                                                     ctx.buffer("in").as<const float4>(),
                                                     ctx.buffer("out").as<float4>(), n / 4);
  AISP_LAUNCH_CHECK();
}

// The common start of every step: `data` back in host memory, where the CPU producer left it.
inline void reset_managed_to_host(aisp::Context& ctx, const float* data) {
  AISP_CUDA_CHECK(cudaMemPrefetchAsync(data, ctx.param("n") * sizeof(float), host_location(), 0, ctx.stream()));
}
