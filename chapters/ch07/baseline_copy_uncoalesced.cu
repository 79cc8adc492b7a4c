// ch07 copy_uncoalesced, baseline: consecutive threads walk down a column (stride = one row, 32 KiB).
//
// Technique (the anti-pattern): thread (r, c) copies element r * cols + c, but threadIdx.x walks r, the
// row. Lanes of a warp therefore touch addresses cols * 4 B = 32 KiB apart: every load and every store
// instruction of a warp needs 32 separate 32-byte sectors in 32 different lines, of which it uses 4 bytes
// each. Every element is still read and written exactly once, and the other 28 bytes of each sector are
// used by lanes of later blocks (same rows, next columns), usually while the sector still sits in L2, so
// DRAM traffic stays near the minimum.
// Why it is slow: the cost moves from DRAM to the request path. Each warp instruction generates 32 L1/L2
// sector transactions instead of 4 (8x), so SM<->L2 traffic is 8x the useful 512 MiB and the LSU/L1
// replay 32 address groups per instruction; partial-sector stores additionally need L2 byte masks.
// Expected on Hopper: a small fraction of HBM bandwidth, several times slower than the coalesced copy
// (the same 8x transaction blow-up hits both the loads and the stores).
#include <stdexcept>

#include "copy_uncoalesced.cuh"

namespace {

// grid = (ceil(rows / 256), cols): x walks rows (the slow, strided dimension), y picks the column.
__global__ void copy_column_walk_kernel(const float* __restrict__ in, float* __restrict__ out, int64_t rows,
                                        int64_t cols) {
  const int64_t r = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t c = blockIdx.y;
  if (r >= rows) return;
  const int64_t i = r * cols + c;  // lane k and lane k+1 are `cols` elements apart
  out[i] = in[i];
}

class BaselineCopyUncoalesced : public CopyUncoalescedBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols");
    if (cols > 65535) throw std::runtime_error("copy_uncoalesced: cols must fit grid.y (<= 65535)");
    constexpr int kThreads = 256;
    const dim3 grid(static_cast<unsigned>((rows + kThreads - 1) / kThreads), static_cast<unsigned>(cols));
    copy_column_walk_kernel<<<grid, kThreads, 0, ctx.stream()>>>(ctx.buffer("in").as<const float>(),
                                                                 ctx.buffer("out").as<float>(), rows, cols);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "strided: adjacent lanes 32 KiB apart (column walk)"; }
};

}  // namespace

AISP_BENCHMARK(BaselineCopyUncoalesced)
