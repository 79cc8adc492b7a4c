// ch10 setmaxnreg, baseline: the FA3-scheduled attention kernel without register reallocation.
//
// Technique: flash_attention_wgmma.cuh with kSetmaxnreg = false. __launch_bounds__(384, 1) gives every
// thread at most 168 registers, and ptxas must fit the consumer code (O, S, P and the overlapped next S)
// into that: what does not fit is spilled to local memory (L1, then L2) and reloaded inside the softmax and
// around every wgmma. The producer warpgroup, which needs ~24, sits on 128 x 144 unused registers.
// Why it is slow: spill traffic in the inner loop, and wgmma accumulators that must be materialized in
// registers cannot be spilled cheaply - the compiler serializes around them.
// Expected on Hopper: clearly slower than with setmaxnreg (the reason the instruction exists); how much is
// what the pair measures. ptxas (-v): 168 registers, 224 bytes of spill stores and loads, 144-byte stack frame.
// Measured (H100 SXM, harness cold mode, 2026-11-25 10:44 UTC, all checks passed): 1.358 ms, 405 TFLOP/s.
#include "setmaxnreg.cuh"

using BaselineSetmaxnreg = Fa3Registers<false>;
AISP_BENCHMARK(BaselineSetmaxnreg)
