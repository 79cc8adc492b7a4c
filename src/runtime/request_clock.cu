#include "runtime/request_clock.hpp"

#include "aisp/check.hpp"

namespace aisp {
namespace {

__global__ void stamp_kernel(unsigned long long* slot) {
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  *slot = now;
}

}  // namespace

void stamp_globaltimer_async(unsigned long long* slot, cudaStream_t stream) {
  stamp_kernel<<<1, 1, 0, stream>>>(slot);
  AISP_LAUNCH_CHECK();
}

}  // namespace aisp
