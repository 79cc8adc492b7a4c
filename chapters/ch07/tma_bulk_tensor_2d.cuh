// tma_bulk_tensor_2d: a 3x3 binomial blur (the separable [1 2 1] x [1 2 1] / 16 smoothing filter) over a
// row-major 8192 x 8192 bf16 image, zero outside the image - the shape of an image/feature-map filter in
// 16-bit storage with fp32 arithmetic. Both variants cut the image into 128 x 32 output tiles and compute
// each tile from a shared-memory copy of its input box, the tile plus a 1-pixel halo: 34 rows whose
// 130 needed pixels (260 B) are contiguous only within a row (consecutive rows are 16 KiB apart). They
// differ only in how the box gets into shared memory:
//   baseline_tma_bulk_tensor_2d.cu:  every thread computes addresses, bounds-checks and loads ~17 pixels,
//                                    2 bytes each (one tile per block: load -> barrier -> compute)
//   optimized_tma_bulk_tensor_2d.cu: one thread issues one cp.async.bulk.tensor.2d per tile; the Tensor
//                                    Memory Accelerator walks the 2D box, zero-fills what lies outside
//                                    the image and signals an mbarrier; a 4-stage ring keeps 3 boxes
//                                    in flight per block while its threads compute on the 4th
// The compute (blur_tile_from_box below) is one function both call on the same box layout, so the outputs
// are identical bit for bit.
// Why bf16 and not fp32: with 4-byte pixels the per-thread baseline already ran at 2.63 TB/s on the H100
// (~88% of the ~3.0 TB/s a copy reaches; 8 resident blocks per SM overlap their load phases), leaving too
// little room for any loader to win clearly. A 2-byte thread load moves half as much per instruction, and that cost is
// exactly what a box-at-a-time engine removes.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "aisp/aisp.hpp"

// 8192 x 8192 bf16 = 128 MiB in and 128 MiB out per run (5x H100's 50 MB L2): ~90 us at ~3 TB/s.
inline constexpr int64_t kBlurHeight = 8192;
inline constexpr int64_t kBlurWidth = 8192;

// Output tile and its input box, in pixels. The box must start on a 16-byte boundary in global memory (a
// TMA rule: the bounding box address is 16-byte aligned), so it starts 8 pixels left of the tile, not 1,
// and is 144 pixels (288 B, a whole number of 16-byte units) wide: box[r][c] = in[y0 - 1 + r][x0 - 8 + c].
// The blur reads columns 7 .. 136 of it (x0 - 1 .. x0 + 128); the other 14 are loaded by TMA and unused.
// Both variants use this exact layout.
inline constexpr int kTileW = 128, kTileH = 32;
inline constexpr int kBoxLeft = 8;                  // pixels of the box left of the tile
inline constexpr int kBoxW = kTileW + 2 * kBoxLeft;  // 144
inline constexpr int kBoxH = kTileH + 2;            // 34
inline constexpr int kBlurThreads = 256;            // 64 column pairs x 4 row groups
inline constexpr int kRowsPerThread = kTileH / (kBlurThreads / (kTileW / 2));  // 8 rows of 2 outputs
static_assert(kBoxW * 2 % 16 == 0, "TMA box rows are whole 16-byte units");
static_assert(kBlurHeight % kTileH == 0 && kBlurWidth % kTileW == 0, "whole tiles");

inline aisp::Workload tma_bulk_tensor_2d_workload() {
  const double pixels = static_cast<double>(kBlurHeight) * kBlurWidth;
  aisp::Workload w;
  w.params = {{"height", kBlurHeight}, {"width", kBlurWidth}};
  w.precision = aisp::DType::bf16;
  w.bytes = 2.0 * pixels * sizeof(__nv_bfloat16);  // every input pixel read once, every output written once
  w.flops = 18.0 * pixels;                         // 9 taps x (multiply + add), ch07:async_prefetch's convention
  w.items = pixels;
  w.item_unit = "pixels";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class TmaBulkTensor2dBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return tma_bulk_tensor_2d_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t h = ctx.param("height"), w = ctx.param("width");
    ctx.input("in", aisp::DType::bf16, {h, w});
    ctx.output("out", aisp::DType::bf16, {h, w});
  }
};

// Two bf16 pixels packed in one 32-bit shared-memory word -> fp32 (exact: bf16 is the top half of fp32).
__device__ __forceinline__ float bf16_lo(uint32_t pair) { return __uint_as_float(pair << 16); }
__device__ __forceinline__ float bf16_hi(uint32_t pair) { return __uint_as_float(pair & 0xffff0000u); }

// This thread's 8 x 2 outputs of the tile at (x0, y0), from a staged box (34 x 144 bf16, row pitch 288 B).
// Thread t owns output columns 2p, 2p + 1 (p = t % 64) and rows 8 (t / 64) .. +7. Per box row it reads
// the three aligned 32-bit words holding box columns 2p + 6 .. 2p + 11 (a warp: 32 consecutive words, no
// bank conflict) and forms the horizontal sums h = a + 2b + c for both columns. The blur is separable and
// walking down the column reuses two of the three rows, so 8 rows of outputs cost 10 rows of loads. The
// two results are rounded to bf16 and stored as one 32-bit word: a warp writes one aligned 128 B line.
__device__ __forceinline__ void blur_tile_from_box(const uint32_t* box_words, uint32_t* __restrict__ out_words,
                                                   int64_t width, int x0, int y0) {
  constexpr int kPitchWords = kBoxW / 2;
  const int p = threadIdx.x % (kTileW / 2);
  const int row0 = (threadIdx.x / (kTileW / 2)) * kRowsPerThread;
  struct Pair { float left, right; };
  auto hsum = [&](int r) {
    const uint32_t* word = box_words + r * kPitchWords + p + kBoxLeft / 2 - 1;  // box column 2p + 6
    const uint32_t w67 = word[0], w89 = word[1], w1011 = word[2];
    const float c7 = bf16_hi(w67), c8 = bf16_lo(w89), c9 = bf16_hi(w89), c10 = bf16_lo(w1011);
    return Pair{fmaf(2.0f, c8, c7 + c9), fmaf(2.0f, c9, c8 + c10)};  // image columns x0+2p, x0+2p+1
  };
  Pair above = hsum(row0), centre = hsum(row0 + 1);
  uint32_t* dst = out_words + (static_cast<int64_t>(y0 + row0) * width + x0) / 2 + p;
#pragma unroll
  for (int k = 0; k < kRowsPerThread; ++k) {
    const Pair below = hsum(row0 + k + 2);
    const float left = fmaf(2.0f, centre.left, above.left + below.left) * (1.0f / 16.0f);
    const float right = fmaf(2.0f, centre.right, above.right + below.right) * (1.0f / 16.0f);
    const __nv_bfloat162 v = __floats2bfloat162_rn(left, right);
    dst[k * width / 2] = *reinterpret_cast<const uint32_t*>(&v);
    above = centre;
    centre = below;
  }
}
