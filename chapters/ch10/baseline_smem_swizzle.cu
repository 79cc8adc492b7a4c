// ch10 smem_swizzle, baseline: K-tile rows packed in shared memory, ldmatrix with 4-way bank conflicts.
//
// Technique: the 4-stage cp.async mma.sync GEMM of gemm_mma_sync.cuh with Smem::plain: each 32-element
// BF16 row of a K-tile takes 64 B, rows back to back. One ldmatrix 8x8 matrix reads the same 16-byte chunk
// of 8 consecutive rows: addresses r * 64 + c * 16, i.e. only two distinct positions (r even, r odd) within
// a 128-byte line, so rows r, r + 2, r + 4, r + 6 hit the same banks and each matrix takes 4 wavefronts
// instead of 1.
// Why it is slow: per 16-deep k-step a warp issues 6 ldmatrix.x4 for 16 mma; conflict-free that is 192
// shared-memory wavefronts per k-step for the CTA's 8 warps against ~256 clocks of tensor work, 4-way it is
// 768: the kernel becomes bound by shared-memory bandwidth instead of the tensor cores.
// Expected on Hopper: ~2-3x slower than the conflict-free layouts (which run at ~270 TFLOP/s, ch10 gemm_tiled's
// mma_sync step). Measured (H100 SXM, harness cold mode, 2026-11-25 10:44 UTC, all checks passed): 969.5 us, 141.8
// TFLOP/s
// (964.6 us in a probe run the same hour).
#include "smem_swizzle.cuh"

namespace {

class BaselineSmemSwizzle : public SmemSwizzleVariant<mma_gemm::Smem::plain> {
 public:
  std::string technique() const override {
    return "mma.sync GEMM, K-tile rows packed at 64 B (4-way ldmatrix bank conflicts)";
  }
};

}  // namespace

AISP_BENCHMARK(BaselineSmemSwizzle)
