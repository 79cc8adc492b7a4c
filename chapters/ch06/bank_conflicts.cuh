// bank_conflicts: running (prefix) sums along the rows of a rows x 32 float matrix - e.g. cumulative
// sums over 32 features per token. Each warp stages a 32 x 32 tile in shared memory with coalesced
// loads, then lane r scans row r sequentially, then the warp stores the tile coalesced again. Shared by
// baseline_bank_conflicts.cu (tile laid out [32][32]) and optimized_bank_conflicts.cu (XOR-swizzled
// layout); both add in the same order, so their outputs are identical bit for bit.
#pragma once
#include "aisp/aisp.hpp"

// 2^19 rows x 32 floats = 64 MiB per buffer, 128 MiB moved per run (2.5x H100's 50 MB L2).
inline constexpr int64_t kBankRows = int64_t{1} << 19;
inline constexpr int kBankCols = 32;           // one float per bank: a row is exactly one 128 B line
inline constexpr int kBankWarpsPerBlock = 8;   // each warp owns one 32 x 32 tile (4 KiB of shared memory)

inline aisp::Workload bank_conflicts_workload() {
  const double n = static_cast<double>(kBankRows) * kBankCols;
  aisp::Workload w;
  w.params = {{"rows", kBankRows}, {"cols", kBankCols}};
  w.precision = aisp::DType::f32;
  w.bytes = 2.0 * n * sizeof(float);  // read once, write once
  w.flops = n;                        // one add per element
  w.items = n;
  w.item_unit = "elements";
  return w;
}

// The pair's base: its workload and buffers; each variant adds only its kernels and run().
class BankConflictsBase : public aisp::Benchmark {
 public:
  aisp::Workload workload() const override { return bank_conflicts_workload(); }
  void setup(aisp::Context& ctx) override {
    const int64_t rows = ctx.param("rows"), cols = ctx.param("cols");
    ctx.input("in", aisp::DType::f32, {rows, cols});
    ctx.output("out", aisp::DType::f32, {rows, cols});
  }
};

// One 32 x 32 tile per warp: 2^19 / 32 = 16384 tiles, 2048 blocks of 8 warps.
inline unsigned bank_conflicts_blocks(int64_t rows) {
  const int64_t tiles = (rows + 31) / 32;
  return static_cast<unsigned>((tiles + kBankWarpsPerBlock - 1) / kBankWarpsPerBlock);
}
