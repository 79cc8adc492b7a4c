// ch20 bf16_mlp, baseline: the SwiGLU MLP as separate layers, each result through HBM.
//
// Technique: gate = x Wg^T and up = x Wu^T by the pair's persistent wgmma GEMM (bf16_mlp_gemm.cuh: ch10's
// main loop; weights' rows permuted in setup() so each thread stores 16-byte runs), a SwiGLU kernel
// h = silu(gate) * up (16-byte loads), the down GEMM d = h W2^T, and a residual kernel y = x + d
// (bf16_mlp_variants.cuh, UnfusedMlp). The GEMM schedule is the one of the fused variants' that is fastest
// for this unfused pipeline (BF16_MLP_BASELINE_SCHEDULE, chosen by measurement; see README), so the pair
// compares equally good GEMMs and differs only in the fusion.
// Why it is slow(er): gate and up (2 x 147 MB at 8192 tokens x 8960) are written and read back, h takes
// another pass, and d another read + write: ~0.6 GB of extra traffic (~0.12 ms at ~4.5 TB/s on the H200)
// and three extra launches around ~1 ms of tensor-core work (Qwen2.5-1.5B's FFN, see bf16_mlp.cuh).
// Expected on Hopper: ~1.05 ms. Earlier baseline (ch10's GEMM and two-column epilogue, now the control
// optimized_bf16_mlp_unfused_ch10.cu): 1.114 ms on the H200 (2026-11-28).
// Measured (H200, harness cold mode, 2026-11-28 (b), `aisp bench run -t ch20:bf16_mlp --time-limit 5`, first
// run / confirmation run): 972.6 / 990.9 us (schedule 0). The same pipeline on the other schedules, built with
// BF16_MLP_BASELINE_SCHEDULE 1 and 2 and run as the baseline in the same call: 1.015 ms (ping-pong), 1.069 ms
// (ping-pong + multicast); on ch10's kernel (the control): 1.108 / 1.129 ms. So 0 stays.
#include "bf16_mlp_variants.cuh"

// 0: cooperative (both consumer warpgroups on one 128 x 256 tile), 1: ping-pong, 2: ping-pong + 2-CTA multicast.
#ifndef BF16_MLP_BASELINE_SCHEDULE
#define BF16_MLP_BASELINE_SCHEDULE 0
#endif

namespace {
class BaselineBf16Mlp : public bf16_mlp::UnfusedMlp<BF16_MLP_BASELINE_SCHEDULE != 0, BF16_MLP_BASELINE_SCHEDULE == 2 ? 2 : 1> {
};
}  // namespace

AISP_BENCHMARK(BaselineBf16Mlp)
