// ch10 setmaxnreg, optimized: producer warpgroup setmaxnreg.dec 24, consumer warpgroups setmaxnreg.inc 240.
//
// Technique: the same kernel with kSetmaxnreg = true (ch10:flash_attention's `wgmma` variant): right after
// the role split the producer releases registers and the consumers claim them, so the consumer code is
// compiled for 240 registers per thread and keeps O, S and P in registers for the whole key loop.
// Why it is faster: no spills in the inner loop; the warp-specialized structure only pays when the warps
// doing the math get the registers the idle producer does not need.
// Expected on Hopper: ~680 TFLOP/s (811 us measured as ch10:flash_attention's wgmma variant, H100 SXM,
// 2026-11-25). Measured as this pair: see the README.
#include "setmaxnreg.cuh"

using OptimizedSetmaxnreg = Fa3Registers<true>;
AISP_BENCHMARK(OptimizedSetmaxnreg)
