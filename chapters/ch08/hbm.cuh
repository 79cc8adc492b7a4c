// hbm: a bf16 affine transform y = bf16(x * scale + shift) over n bf16 values - the shape of a
// dequantize/rescale pass, pure streaming at 2 bytes per element each way. Shared by baseline_hbm.cu
// (one bf16, a 2-byte access, per thread) and optimized_hbm.cu (16 bf16 per thread in two 16-byte
// vectors). Both convert to fp32, apply one FMA and round back to bf16 with round-to-nearest-even, so
// their outputs are identical bit for bit (the pair changes access width, not precision).
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "aisp/aisp.hpp"

inline constexpr int64_t kHbmN = int64_t{1} << 25;  // 32 Mi bf16 = 64 MiB in, 64 MiB out
inline constexpr float kHbmScale = 0.75f, kHbmShift = 0.125f;

inline aisp::Workload hbm_workload() {
  aisp::Workload w;
  w.params = {{"n", kHbmN}};
  w.precision = aisp::DType::bf16;
  w.bytes = 2.0 * static_cast<double>(kHbmN) * sizeof(__nv_bfloat16);
  w.flops = 2.0 * static_cast<double>(kHbmN);
  w.items = static_cast<double>(kHbmN);
  w.item_unit = "elements";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class HbmBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return hbm_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t n = ctx.param("n");
    ctx.input("x", aisp::DType::bf16, {n});
    ctx.output("y", aisp::DType::bf16, {n});
  }
};

__device__ __forceinline__ __nv_bfloat16 hbm_affine(__nv_bfloat16 v) {
  return __float2bfloat16_rn(fmaf(__bfloat162float(v), kHbmScale, kHbmShift));
}
