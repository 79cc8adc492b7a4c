// Which timed samples represent the GPU's steady state, from the SM clock and NVML's clocks-event reasons
// read with each sample. Three outcomes:
//   kept          clocks unaffected;
//   power_capped  the only reason is the software power cap and the SM clock stayed >= 75% of its max:
//                 kept and counted. Sustained tensor-core work on an H200 sits at its power limit (labs/gemm's
//                 baseline, long flash attention: every block flagged in call C of 2026-11-28), so that *is*
//                 the kernel's steady state; discarding it made such kernels unmeasurable. NVBench applies
//                 only the clock rule, which this keeps;
//   discarded     the clock fell below 75% of max (NVBench's rule), or a thermal / hardware slowdown /
//                 power-brake reason: a disturbance, not the kernel's own state.
// Kept power-capped samples are reported per variant (power_capped_samples) and named in the timing note,
// so a reader sees that the number was taken at the power limit.
#pragma once
#include <cstdint>

namespace aisp {

enum class SampleClockClass { kept, power_capped, discarded };

// Below this fraction of the max SM clock a sample is discarded whatever the reason.
inline constexpr double kThrottleClockFraction = 0.75;

// `sm_mhz` / `max_sm_mhz` <= 0 mean unknown (no NVML): the clock rule is then not applied.
SampleClockClass classify_sample_clock(uint64_t reasons, double sm_mhz, double max_sm_mhz);

}  // namespace aisp
