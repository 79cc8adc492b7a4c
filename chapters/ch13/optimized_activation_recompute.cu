// ch13 activation_recompute, optimized: activation checkpointing, every 4th activation kept.
//
// Technique: gradient checkpointing (Chen et al. 2016, torch.utils.checkpoint) with segments of 4 layers.
// The forward pass keeps only a_4, a_8, a_12 (a_16 is y, a_0 is x); the layers in between are written
// to a 3-buffer segment workspace and overwritten. The backward pass walks the segments from the last:
// it recomputes the segment's 3 inner activations from its checkpoint, then runs the segment's 4
// backward layers from them. Memory: 3 checkpoints + 3 segment buffers = 6 x 16 MiB instead of 15 x 16 MiB
// (sqrt(L)-style: L/k + k - 1 buffers for segments of k).
// Why it costs time: 12 of the 16 forward GEMMs run twice (44 GEMMs instead of 32): ~1.35x slower.
// Expected on Hopper: peak memory ~ -36% (the harness's buffers included), time ~1.3-1.4x the baseline.
// Measured (H100 SXM VM, 2026-11-25, cold mode, every check passed): peak 348 vs 510 MiB (-31.8%), 8.426 ms vs 6.176
// ms (0.733x: the time the saving costs).
#include <array>

#include "activation_recompute.cuh"

namespace {

constexpr int64_t kSegment = 4;

class OptimizedActivationRecompute : public ActivationRecomputeBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t layers = ctx.param("layers");
    const float* in = ctx.buffer("x").as<const float>();
    for (int64_t l = 1; l <= layers; ++l) {
      float* out = stored(ctx, l);
      forward_layer(ctx, in, out, l);
      in = out;
    }
    const float* g = ctx.buffer("dy").as<const float>();
    for (int64_t top = layers; top > 0; top -= kSegment) {
      const int64_t base = top - kSegment;  // the segment's checkpoint: a_base (x when base == 0)
      for (int64_t l = base + 1; l < top; ++l)  // recompute a_{base+1} .. a_{top-1} into the segment workspace
        forward_layer(ctx, activation(ctx, l - 1), stored(ctx, l), l);
      g = backward_range(ctx, top, base + 1, g, [&](int64_t l) { return activation(ctx, l); });
    }
  }
  std::string technique() const override { return "activation checkpointing: keep every 4th, recompute the rest"; }

 protected:
  void prepare(aisp::Context& ctx) override {
    if (ctx.param("layers") % kSegment) throw std::runtime_error("activation_recompute: layers % 4 != 0");
    for (int64_t i = 0; i + 1 < ctx.param("layers") / kSegment; ++i)
      checkpoints_[i] = static_cast<float*>(ctx.scratch("ckpt" + std::to_string(i), activation_bytes(ctx)));
    for (int64_t i = 0; i < kSegment - 1; ++i)
      segment_[i] = static_cast<float*>(ctx.scratch("seg" + std::to_string(i), activation_bytes(ctx)));
  }

 private:
  // Where the forward pass writes a_l: a checkpoint, y, or the segment workspace (overwritten later).
  float* stored(aisp::Context& ctx, int64_t l) {
    if (l == ctx.param("layers")) return ctx.buffer("y").as<float>();
    if (l % kSegment == 0) return checkpoints_[l / kSegment - 1];
    return segment_[(l - 1) % (kSegment - 1)];
  }
  // a_l during the backward pass of its segment (after the segment was recomputed).
  const float* activation(aisp::Context& ctx, int64_t l) {
    if (l == 0) return ctx.buffer("x").as<const float>();
    return stored(ctx, l);
  }

  std::array<float*, kRecomputeLayers / kSegment> checkpoints_{};
  std::array<float*, kSegment - 1> segment_{};
};

}  // namespace

AISP_BENCHMARK(OptimizedActivationRecompute)
