// ch20 bf16_mlp, CONTROL (not a fusion): the baseline's unfused pipeline on the ping-pong GEMM schedule
// (bf16_mlp_variants.cuh, UnfusedMlp<true, 1>). It measures what the schedule alone is worth, so that the
// fused ping-pong variant can be compared with an unfused pipeline on the same GEMM (fused / this).
// Measured (H200, harness cold mode, 2026-11-28 (b), `aisp bench run -t ch20:bf16_mlp --time-limit 5 --update-expectations`,
// first run / confirmation run, 19 checks passed each): 1.017 / 1.043 ms (baseline 972.6 / 990.9 us).
#include "bf16_mlp_variants.cuh"

namespace {
class OptimizedBf16MlpUnfusedPingpong : public bf16_mlp::UnfusedMlp<true, 1> {};
}  // namespace

AISP_BENCHMARK(OptimizedBf16MlpUnfusedPingpong)
