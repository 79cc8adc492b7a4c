#include "runner/sample_clock_rule.hpp"

#include "runtime/nvml.hpp"  // clocks-event reason bits only (header constants, no CUDA)

namespace aisp {

SampleClockClass classify_sample_clock(uint64_t reasons, double sm_mhz, double max_sm_mhz) {
  if (sm_mhz > 0 && max_sm_mhz > 0 && sm_mhz < kThrottleClockFraction * max_sm_mhz) return SampleClockClass::discarded;
  const uint64_t disturbances = throttle::slowdown_mask & ~throttle::sw_power_cap;
  if (reasons & disturbances) return SampleClockClass::discarded;
  // The power cap with an unknown clock cannot be told apart from a deep cap: not kept.
  if (reasons & throttle::sw_power_cap)
    return sm_mhz > 0 && max_sm_mhz > 0 ? SampleClockClass::power_capped : SampleClockClass::discarded;
  return SampleClockClass::kept;
}

}  // namespace aisp
