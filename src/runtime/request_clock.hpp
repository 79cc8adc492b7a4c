// Device timestamps for request latencies (Goal::latency): %globaltimer written by a one-thread kernel when
// the stream reaches it, so the moment is the device's, not the host's enqueue time.
#pragma once
#include <cuda_runtime.h>

namespace aisp {

// *slot = %globaltimer (ns) when `stream` reaches this point.
void stamp_globaltimer_async(unsigned long long* slot, cudaStream_t stream);

}  // namespace aisp
