// ch10 setmaxnreg, optimized: producer warpgroup setmaxnreg.dec 24, consumer warpgroups setmaxnreg.inc 240.
//
// Technique: the same kernel with kSetmaxnreg = true (ch10:flash_attention's `wgmma` variant): right after
// the role split the producer releases registers and the consumers claim them, so the consumer code is
// compiled for 240 registers per thread and keeps O, S and P in registers for the whole key loop.
// Why it is faster: no spills in the inner loop; the warp-specialized structure only pays when the warps
// doing the math get the registers the idle producer does not need.
// Expected on Hopper: ~680 TFLOP/s (811 us measured as ch10:flash_attention's wgmma variant, H100 SXM,
// 2026-11-25). Measured (H100 SXM, harness cold mode, 2026-11-25 10:44 UTC, all checks passed): 805.4 us, 683 TFLOP/s,
// 1.686x [1.656, 1.717] over the same kernel without setmaxnreg (1.691x in a probe run).
#include "setmaxnreg.cuh"

using OptimizedSetmaxnreg = Fa3Registers<true>;
AISP_BENCHMARK(OptimizedSetmaxnreg)
