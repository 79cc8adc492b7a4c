// ch06 bank_conflicts, baseline: a [32][32] shared-memory tile read down its rows by 32 lanes at once.
//
// Technique: each warp loads a 32 x 32 tile (lane = column, so the global loads are coalesced), then
// lane r runs a sequential prefix sum over row r of the tile, reading and writing tile[r][k] for
// k = 0..31, then stores the tile back coalesced.
// Why it is slow: shared memory has 32 banks of 4 bytes; word (r, k) of a [32][32] float tile sits in
// bank (32 r + k) % 32 = k. In step k all 32 lanes access column k - 32 different words in the SAME
// bank - a 32-way bank conflict, replayed as 32 serialized wavefronts. The scan does 32 reads and 32
// writes per lane, so each tile costs 64 x 32 = 2048 shared-memory wavefronts instead of 64.
// Per SM that is 124 tiles x ~2100 cycles ~ 260 k cycles ~ 130 us at 1.98 GHz, against ~45 us for
// moving the 128 MiB through HBM: the kernel is bound by shared-memory replays, not by memory.
// Expected on Hopper: ~120-150 us, i.e. ~0.9-1.1 TB/s of the ~3 TB/s an HBM-bound version reaches.
#include "bank_conflicts.cuh"

namespace {

__global__ void __launch_bounds__(kBankWarpsPerBlock * 32)
row_scan_conflicted_kernel(const float* __restrict__ in, float* __restrict__ out, int64_t rows) {
  __shared__ float tile[kBankWarpsPerBlock][32][32];  // [warp][row][col]: word (r, k) in bank k
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int64_t row0 = (static_cast<int64_t>(blockIdx.x) * kBankWarpsPerBlock + warp) * 32;
  if (row0 >= rows) return;
  float(*t)[32] = tile[warp];

  // Coalesced load: row by row, lane = column (bank = lane: conflict-free).
#pragma unroll
  for (int r = 0; r < 32; ++r)
    if (row0 + r < rows) t[r][lane] = in[(row0 + r) * 32 + lane];
  __syncwarp();

  // Lane r scans row r: in step k every lane touches column k -> all 32 lanes hit bank k.
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < 32; ++k) {
    sum += t[lane][k];
    t[lane][k] = sum;
  }
  __syncwarp();

#pragma unroll
  for (int r = 0; r < 32; ++r)
    if (row0 + r < rows) out[(row0 + r) * 32 + lane] = t[r][lane];
}

class BaselineBankConflicts : public BankConflictsBase {
 public:
  void run(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("rows");
    row_scan_conflicted_kernel<<<bank_conflicts_blocks(rows), kBankWarpsPerBlock * 32, 0, ctx.stream()>>>(
        ctx.buffer("in").as<const float>(), ctx.buffer("out").as<float>(), rows);
    AISP_LAUNCH_CHECK();
  }

  std::string technique() const override { return "[32][32] tile, row scan per lane: 32-way bank conflicts"; }
};

}  // namespace

AISP_BENCHMARK(BaselineBankConflicts)
