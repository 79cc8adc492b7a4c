#include "runtime/profiled_run.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>
#include <nvtx3/nvToolsExt.h>  // header-only NVTX3 from the CUDA toolkit: no library to link

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

#include "aisp/check.hpp"
#include "core/schema.hpp"
#include "runtime/buffer_ops.hpp"
#include "runtime/device.hpp"
#include "runtime/plugin.hpp"
#include "runtime/worker_context.hpp"

namespace aisp {
namespace {

void write_result(const ProfiledRunOptions& o, const json& j) {
  if (o.result_file.empty()) {
    std::cout << j.dump() << "\n";
    return;
  }
  std::ofstream f(o.result_file);
  f << j.dump(2) << "\n";
}

}  // namespace

int profiled_run_main(const ProfiledRunOptions& o) {
  json result = {{"ok", false}, {"plugin", o.plugin}, {"nvtx_range", o.nvtx_range}, {"warmup", o.warmup}};
  std::unique_ptr<Plugin> plugin;
  std::unique_ptr<Benchmark> bench;
  std::unique_ptr<WorkerContext> ctx;
  try {
    std::string why;
    if (cuda_device_count(&why) == 0) throw std::runtime_error("no CUDA device: " + why);
    AISP_CUDA_CHECK(cudaSetDevice(0));
    AISP_CUDA_CHECK(cudaFree(nullptr));
    DeviceInfo device = query_device(0);
    result["device"] = to_json(device);
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);  // as the worker: no carve-out unless the benchmark sets one
    cudaGetLastError();
    try {
      plugin = std::make_unique<Plugin>(o.plugin);
      bench = plugin->create();
    } catch (const std::exception& e) {
      result["error_kind"] = "load";
      result["error"] = e.what();
      write_result(o, result);
      return 3;
    }
    Workload w = bench->workload();
    result["workload"] = to_json(w);
    ctx = std::make_unique<WorkerContext>(device, w, o.seed, o.seed + 1);
    bench->setup(*ctx);
    AISP_CUDA_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < o.warmup; ++i) bench->run(*ctx);
    AISP_CUDA_CHECK(cudaDeviceSynchronize());
    // The checked run: fresh inputs and poisoned outputs (both outside the range), then run() alone.
    ctx->refill_dynamic_inputs(o.seed + 2);
    ctx->poison_outputs();
    AISP_CUDA_CHECK(cudaDeviceSynchronize());
    nvtxRangePushA(o.nvtx_range.c_str());
    bench->run(*ctx);
    // Device-wide, inside the range: work the benchmark forked to other streams belongs to the run too.
    cudaError_t sync = cudaDeviceSynchronize();
    nvtxRangePop();
    AISP_CUDA_CHECK(sync);
    AISP_CUDA_CHECK(cudaGetLastError());
    json outputs = json::array();
    for (auto& r : ctx->records())
      if (r.kind == BufferRecord::Kind::output)
        outputs.push_back({{"name", r.buffer.name}, {"unwritten", count_poison(r.buffer, ctx->stream())}});
    result["outputs"] = outputs;
    bench->teardown(*ctx);
    result["ok"] = true;
    write_result(o, result);
    return 0;
  } catch (const CudaError& e) {
    result["error_kind"] = "cuda";
    result["error"] = e.what();
    result["cuda_error"] = cudaGetErrorName(static_cast<cudaError_t>(e.code));
  } catch (const std::exception& e) {
    result["error_kind"] = "exception";
    result["error"] = e.what();
  }
  write_result(o, result);
  std::fflush(nullptr);
  return 4;
}

}  // namespace aisp
