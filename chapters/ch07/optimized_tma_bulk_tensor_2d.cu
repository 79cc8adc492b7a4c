// ch07 tma_bulk_tensor_2d, optimized: the Tensor Memory Accelerator fetches each 2D box, 4-stage ring.
//
// Technique: the host describes the image once as a 2D bf16 tensor (cuTensorMapEncodeTiled: base, 8192 x
// 8192 extents, 16 KiB row pitch, a 144 x 34 box, zero fill out of bounds). The kernel is persistent (2
// blocks per SM, each walking tiles blockIdx.x, + gridDim.x, ...). Thread 0 of a block issues
//   cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// with just the box's top-left coordinate (x0 - 8, y0 - 1), which is negative at the image's left and top
// edges; the TMA unit generates the 34 row addresses, fetches 288 B per row, writes the box densely into
// shared memory, fills the part outside the image with zeros and counts the bytes into the stage's
// mbarrier. All 256 threads wait on that barrier (phase parity), blur the box with the same code as the
// baseline, meet at a __syncthreads (the stage is free again) and thread 0 re-arms the stage with the tile
// 4 steps ahead.
// Why it is faster: (1) the bytes in flight no longer depend on threads or element size: one instruction
// asks for 9.8 KB, and the next three boxes are in flight while a block computes this one, so a block never
// sits through a DRAM round trip: 2 blocks x 3 boxes x 9.8 KB = 59 KB outstanding per SM against the
// ~16 KB per SM Little's law asks of HBM3; (2) one instruction per box instead of ~4420 bounds-checked
// 2-byte loads with their index arithmetic, so the threads' issue slots go to the blur and the stores;
// (3) halos and image borders cost nothing: negative or past-the-end coordinates are zero-filled by the
// hardware, no branch in the kernel.
// The box starts 8 pixels (16 B) left of the tile rather than 1 because a bulk-tensor bounding box must
// start on a 16-byte boundary (the PTX ISA's tiled-mode rule); a first version with the box at x0 - 1
// stopped with cudaErrorIllegalInstruction. (A cp.async ring of 16-byte copies would recover (1) too -
// ch07:async_prefetch is that idea in 1D - but needs the same aligned superset and its own border logic.)
// Expected on Hopper: ~85-90% of the H100 SXM's ~3 TB/s streaming ceiling (~90-100 us for 256 MiB),
// ~1.3-1.8x over the per-thread staging.
// Measured on the H100 (harness, cold, every check passed): 104.7 us vs 120.9 us, 1.155x [1.153, 1.156];
// 2.56 TB/s, short of that expectation. The ring is not what limits it: 3 or 4 blocks per SM, or 6
// stages, measured within 1% of this configuration (one-off runs, 110.8-111.7 us in a plain event loop).
// What does was not profiled; the candidates are the traffic the box shape adds (144 x 34 pixels fetched
// per 128 x 32 tile, 1.2x the tile, the extra through L2) and the output, still written by 8 per-thread
// 4-byte stores per tile through the LSU - a TMA store of the tile from shared memory is the next thing
// to try. The per-thread
// baseline is a strong one (8 blocks per SM overlap their load phases), so the honest gain of TMA on a
// memory-bound stencil is this ~15%, not the multiples it gives GEMM mainloops.
#include <cuda.h>           // CUtensorMap and its enums (types only: nothing here links libcuda)
#include <cudaTypedefs.h>   // PFN_cuTensorMapEncodeTiled_v12000

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "tma_bulk_tensor_2d.cuh"
#include "mbarrier.cuh"

namespace {

constexpr int kStages = 4;
constexpr int kBlocksPerSm = 2;
// One box as TMA writes it (34 rows x 288 B = 9792 B), rounded up to the 128 B alignment a bulk-tensor
// destination needs.
constexpr unsigned kBoxBytes = kBoxH * kBoxW * 2;  // what complete_tx counts per box, zero-filled parts included
constexpr int kStageBytes = (kBoxBytes + 127) / 128 * 128;
constexpr int kSmemBytes = 128 + kStages * kStageBytes + kStages * 8;  // align slack + ring + mbarriers

// One 2D box of the tensor `map`, top-left corner (x, y) in elements, into shared memory at `dst`.
__device__ __forceinline__ void tma_load_box(void* dst, const CUtensorMap* map, int x, int y, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(smem_addr(dst)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(smem_addr(bar))
      : "memory");
}

// The tensor map is a 128-byte kernel parameter (__grid_constant__: it stays in parameter space, where the
// TMA unit can read it, instead of being copied to registers/local memory).
__global__ void __launch_bounds__(kBlurThreads)
blur_tma_kernel(const __grid_constant__ CUtensorMap in_map, uint32_t* __restrict__ out_words, int width,
                int tiles_x, int tiles) {
  extern __shared__ unsigned char smem_raw[];
  unsigned char* ring =
      reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(smem_raw) + 127) & ~uintptr_t{127});
  uint64_t* full = reinterpret_cast<uint64_t*>(ring + kStages * kStageBytes);  // "box s has landed"

  // Tiles of this block: blockIdx.x + i * gridDim.x, row-major over the tile grid, so the tiles that all
  // blocks work on at one moment are neighbours and their shared halo rows/columns come from L2.
  const int count = tiles > static_cast<int>(blockIdx.x) ? (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
  auto tile = [&](int i) { return static_cast<int>(blockIdx.x) + i * static_cast<int>(gridDim.x); };
  auto tile_x0 = [&](int i) { return tile(i) % tiles_x * kTileW; };
  auto tile_y0 = [&](int i) { return tile(i) / tiles_x * kTileH; };
  auto issue = [&](int i) {  // thread 0 only
    const int s = i % kStages;
    mbarrier_arrive_expect_tx(&full[s], kBoxBytes);
    tma_load_box(ring + s * kStageBytes, &in_map, tile_x0(i) - kBoxLeft, tile_y0(i) - 1, &full[s]);
  };

  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) mbarrier_init(&full[s], 1);
    // Make the initialized barriers visible to the async proxy (the TMA unit) before it signals them.
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    for (int i = 0; i < count && i < kStages; ++i) issue(i);
  }
  __syncthreads();  // the other threads must not poll a barrier before it is initialized

  for (int i = 0; i < count; ++i) {
    const int s = i % kStages;
    mbarrier_wait_parity(&full[s], static_cast<unsigned>((i / kStages) & 1));  // the stage's (i/4)-th fill
    blur_tile_from_box(reinterpret_cast<const uint32_t*>(ring + s * kStageBytes), out_words, width, tile_x0(i),
                       tile_y0(i));
    __syncthreads();  // every thread is done reading stage s
    if (threadIdx.x == 0 && i + kStages < count) issue(i + kStages);
  }
}

class OptimizedTmaBulkTensor2d : public TmaBulkTensor2dBase {
 public:
  void setup(aisp::Context& ctx) override {
    TmaBulkTensor2dBase::setup(ctx);
    // The driver API entry point through the runtime, so the plugin needs no -lcuda. ByVersion pins the
    // ABI we were compiled against (the 12.0 signature of cuTensorMapEncodeTiled).
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    AISP_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || fn == nullptr)
      throw std::runtime_error("tma_bulk_tensor_2d: the driver has no cuTensorMapEncodeTiled");
    encode_ = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
    AISP_CUDA_CHECK(cudaFuncSetAttribute(blur_tma_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  }

  void run(aisp::Context& ctx) override {
    const int64_t height = ctx.param("height"), width = ctx.param("width");
    const aisp::Buffer in = ctx.buffer("in");
    if (height % kTileH != 0 || width % kTileW != 0)
      throw std::runtime_error("tma_bulk_tensor_2d: the image must be a whole number of 128 x 32 tiles");
    // Encoding is a host-only computation (no GPU work, nothing on the stream); redo it only if the harness
    // ever hands us a different input allocation.
    if (in.data != encoded_for_) encode(in.data, height, width);

    const int tiles_x = static_cast<int>(width / kTileW);
    const int tiles = static_cast<int>(tiles_x * (height / kTileH));
    const int sms = ctx.device().sm_count > 0 ? ctx.device().sm_count : 132;
    const int blocks = std::min(tiles, sms * kBlocksPerSm);
    blur_tma_kernel<<<blocks, kBlurThreads, kSmemBytes, ctx.stream()>>>(map_, ctx.buffer("out").as<uint32_t>(),
                                                                         static_cast<int>(width), tiles_x, tiles);
    AISP_LAUNCH_CHECK();
  }

  aisp::Requirements requirements() const override { return {.min_compute_capability = 90}; }
  std::string technique() const override {
    return "TMA 2D box loads (cp.async.bulk.tensor.2d + mbarrier), HW zero-fill for halos, 4-stage ring";
  }

 private:
  void encode(void* base, int64_t height, int64_t width) {
    // Dimension 0 is the contiguous one (x, along a row), dimension 1 the rows; strides are given for
    // dimensions 1.. only, in bytes, and must be multiples of 16 (8192 x 2 B is).
    const cuuint64_t dims[2] = {static_cast<cuuint64_t>(width), static_cast<cuuint64_t>(height)};
    const cuuint64_t strides[1] = {static_cast<cuuint64_t>(width) * sizeof(__nv_bfloat16)};
    const cuuint32_t box[2] = {kBoxW, kBoxH};
    const cuuint32_t element_strides[2] = {1, 1};
    const CUresult r = encode_(&map_, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, base, dims, strides, box, element_strides,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                               CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);  // NONE: out-of-bounds pixels read as 0
    if (r != CUDA_SUCCESS)
      throw std::runtime_error("tma_bulk_tensor_2d: cuTensorMapEncodeTiled failed, CUresult " + std::to_string(r));
    encoded_for_ = base;
  }

  PFN_cuTensorMapEncodeTiled_v12000 encode_ = nullptr;
  CUtensorMap map_{};
  const void* encoded_for_ = nullptr;
};

}  // namespace

AISP_BENCHMARK(OptimizedTmaBulkTensor2d)
