// nvrtc_specialization: a head split, the permute every attention layer does: in [B][S][H][D] ->
// out [B][H][S][D] with B = 16, S = 2048, H = 12, D = 64 (24 Mi floats, 96 MiB each way). The shape is
// known only when the model is loaded, so a library kernel takes it as arguments.
//
//   baseline_nvrtc_specialization.cu    generic permute: rank, output dims and input strides are kernel
//                                       arguments; 64-bit index math, a runtime loop over the dimensions
//   optimized_nvrtc_specialization.cu   the same permute generated as source with the shape baked in and
//                                       compiled with NVRTC in setup(): constant dims and strides, the
//                                       dimension loop unrolled, 32-bit indices, 16-byte moves along D
//
// A permute moves each element once, unchanged: outputs are bit-identical and the default fp32
// tolerance applies. The specialization depends on shapes only (the workload), never on values.
#pragma once
#include <array>
#include <cstdint>

#include "aisp/aisp.hpp"

inline constexpr int kPermuteRank = 4;
inline constexpr std::array<int64_t, kPermuteRank> kPermuteIn = {16, 2048, 12, 64};  // B, S, H, D
inline constexpr std::array<int, kPermuteRank> kPermuteOrder = {0, 2, 1, 3};          // out = B, H, S, D

// The permute's geometry: for each output dimension (outermost first) its extent and the stride of the
// input element that moves along it.
struct PermuteGeometry {
  int rank = kPermuteRank;
  int64_t out_dims[kPermuteRank];
  int64_t in_strides[kPermuteRank];
};

inline PermuteGeometry permute_geometry() {
  PermuteGeometry g;
  int64_t in_stride[kPermuteRank];
  in_stride[kPermuteRank - 1] = 1;
  for (int d = kPermuteRank - 2; d >= 0; --d) in_stride[d] = in_stride[d + 1] * kPermuteIn[d + 1];
  for (int d = 0; d < kPermuteRank; ++d) {
    g.out_dims[d] = kPermuteIn[kPermuteOrder[d]];
    g.in_strides[d] = in_stride[kPermuteOrder[d]];
  }
  return g;
}

inline int64_t permute_count() {
  int64_t n = 1;
  for (int64_t d : kPermuteIn) n *= d;
  return n;
}

class NvrtcSpecializationBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override {
    aisp::Workload w;
    w.params = {{"n", permute_count()}, {"b", kPermuteIn[0]}, {"s", kPermuteIn[1]}, {"h", kPermuteIn[2]}, {"d", kPermuteIn[3]}};
    w.precision = aisp::DType::f32;
    w.bytes = 2.0 * permute_count() * sizeof(float);
    w.items = double(permute_count());
    w.item_unit = "elements";
    return w;
  }
  void setup(aisp::Context& ctx) override {
    ctx.input("x", aisp::DType::f32, {kPermuteIn[0], kPermuteIn[1], kPermuteIn[2], kPermuteIn[3]});
    const PermuteGeometry g = permute_geometry();
    ctx.output("y", aisp::DType::f32, {g.out_dims[0], g.out_dims[1], g.out_dims[2], g.out_dims[3]});
    prepare(ctx);
  }

 protected:
  virtual void prepare(aisp::Context&) {}
};
