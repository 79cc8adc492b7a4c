// template_specialization: softmax over the last dimension of a [65536][1024] FP32 tensor (256 MiB in,
// 256 MiB out), one warp per row: the attention-probability and classifier shape.
//
//   baseline_template_specialization.cu    one kernel for every row length (a runtime argument):
//                                          online softmax, the row read twice (row_softmax.cuh)
//   optimized_template_specialization.cu   kernels instantiated at compile time for the common row lengths
//                                          (128 ... 4096) and chosen on the host: the row lives in registers
//                                          and is read once (PyTorch's and Apex's softmax dispatch)
//
// This is the ahead-of-time form of specialization (C++ templates, one binary per supported size);
// nvrtc_specialization is the just-in-time form (any shape, compiled when seen).
#pragma once
#include <cstdint>

#include "aisp/aisp.hpp"
#include "row_softmax.cuh"

inline constexpr int64_t kSoftmaxRows = 65536, kSoftmaxCols = 1024;
inline constexpr int kSoftmaxWarpsPerBlock = 8;

class TemplateSpecializationBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"rows", kSoftmaxRows}, {"cols", kSoftmaxCols}};
    w.precision = aisp::DType::f32;
    w.bytes = 2.0 * kSoftmaxRows * kSoftmaxCols * sizeof(float);
    w.flops = 5.0 * kSoftmaxRows * kSoftmaxCols;
    w.items = double(kSoftmaxRows);
    w.item_unit = "rows";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    ctx.input("x", aisp::DType::f32, {ctx.param("rows"), ctx.param("cols")}, aisp::Fill::uniform(-8, 8));
    ctx.output("y", aisp::DType::f32, {ctx.param("rows"), ctx.param("cols")});
  }

 protected:
  static unsigned softmax_blocks(aisp::Context& ctx) {
    return static_cast<unsigned>((ctx.param("rows") + kSoftmaxWarpsPerBlock - 1) / kSoftmaxWarpsPerBlock);
  }
};
