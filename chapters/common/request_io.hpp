// The inputs of a serving pair whose requests carry state (ch17's dynamic_routing, early_rejection and
// prefill_decode_disagg): the request trace (Poisson arrivals of the given mean gap, prompt and output
// lengths uniform in the given ranges, deterministic from the seed) and the per-request state x
// [requests][width] f32 (dynamic) with its output y of the same shape. Host code only.
#pragma once
#include <cstdint>

#include "aisp/aisp.hpp"

namespace request_io {

struct Lengths {
  int32_t prompt_min, prompt_max;  // tokens, uniform
  int32_t output_min, output_max;  // tokens, uniform
};

// Declares the trace ("trace"), x and y in setup(); returns the trace.
inline aisp::RequestTrace trace_with_state(aisp::Context& ctx, int32_t requests, double mean_gap_us, const Lengths& len,
                                           int64_t width) {
  aisp::TraceSpec spec;
  spec.requests = requests;
  spec.mean_interarrival_us = mean_gap_us;
  spec.prompt_min = len.prompt_min, spec.prompt_max = len.prompt_max;
  spec.output_min = len.output_min, spec.output_max = len.output_max;
  aisp::RequestTrace trace = ctx.request_trace("trace", spec);
  ctx.input("x", aisp::DType::f32, {requests, width});
  ctx.output("y", aisp::DType::f32, {requests, width});
  return trace;
}

}  // namespace request_io
