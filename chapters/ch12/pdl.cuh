// Programmatic dependent launch (PDL, sm_90+) from inside a kernel, as PTX so no device runtime is needed.
// Both instructions are no-ops in a grid that was not launched with the programmatic-stream-serialization
// attribute, so a kernel using them behaves exactly as before under plain stream order.
#pragma once

namespace {

// Waits until the previous grid in the stream has completed and its writes are visible.
__device__ __forceinline__ void wait_for_previous_grid() { asm volatile("griddepcontrol.wait;" ::: "memory"); }
// Lets the next grid in the stream start launching (its blocks then run up to their own wait).
__device__ __forceinline__ void allow_next_grid() { asm volatile("griddepcontrol.launch_dependents;" ::: "memory"); }

}  // namespace
