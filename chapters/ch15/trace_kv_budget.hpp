// Does a request trace's KV cache fit on the device? (issue 24, "bad input")
//
// A trace-driven pair serves a request trace that the harness generates from a seed and a declared spec
// (aisp/request_trace.hpp: request count, arrivals, prompt and output lengths), and its KV cache grows
// with that trace: one row of K and V per token held. Sweeping the trace with `--axis` can therefore ask
// for more KV cache than the GPU has. Left alone, that ends in a cudaMalloc failure in setup() ("out of
// memory", no word about which input was too big), or worse, in a pair that sizes its cache to what fits and
// silently serves a different workload. This header is the decision instead: the footprint arithmetic of a
// trace and the comparison with the device's free memory, as pure host functions (no CUDA) so a CPU test
// proves both. A pair calls them in setup(), before it allocates anything sized by the trace, and throws
// the message; the harness reports a throwing setup() as that target's failure (status failed_error, the
// message as the reason in the report, exit code 1) and goes on with the other targets.
//
// The rule: the trace needs (sum over requests of the tokens whose K/V the pair keeps) x (bytes per
// token), plus the pair's other buffers; it fits when that is at most the free device memory at setup()
// (cudaMemGetInfo). Free, not total: the context, the trace itself and anything else on the GPU are
// already taken. The harness's own later allocations (guard bands, comparison copies) are not counted, so
// a trace that fits by a few MiB may still fail later - with a CUDA out-of-memory error that names the
// allocation; this check is for the trace that cannot fit at all, which is what a size sweep produces.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "aisp/request_trace.hpp"

namespace trace_kv {

// Which tokens of a request have K/V rows in the pair's cache: the prompt only (a pair whose decode keeps
// its state elsewhere, ch15 inference_monolithic), or the prompt and every generated token (an engine
// that appends each decoded token's K/V, as vLLM does).
enum class Rows { prompt, prompt_and_output };

struct Footprint {
  int64_t requests = 0;
  int64_t tokens = 0;           // K/V rows the trace needs, summed over its requests
  int64_t bytes_per_token = 0;  // one token's row (K and V of every head) in the pair's layout
  double other_bytes = 0;       // the pair's other device buffers sized by the trace (inputs, outputs, scratch)
  Rows rows = Rows::prompt;
  double kv_bytes() const { return static_cast<double>(tokens) * static_cast<double>(bytes_per_token); }
  double total_bytes() const { return kv_bytes() + other_bytes; }
};

// The trace's footprint. Doubles hold byte counts exactly up to 2^53 (8 PiB), so the decision below is
// exact for every trace a device could hold and cannot overflow for the ones it cannot.
inline Footprint footprint(const std::vector<aisp::TraceRequest>& trace, int64_t bytes_per_token, Rows rows,
                           double other_bytes) {
  Footprint f;
  f.requests = static_cast<int64_t>(trace.size());
  f.bytes_per_token = bytes_per_token;
  f.other_bytes = other_bytes;
  f.rows = rows;
  for (const auto& r : trace) f.tokens += int64_t{r.prompt_len} + (rows == Rows::prompt_and_output ? r.output_len : 0);
  return f;
}

inline double gib(double bytes) { return bytes / 1073741824.0; }

// Empty when the trace fits in `free_bytes`; otherwise the reason, naming every number behind it and the
// axes (`knobs`, e.g. "--axis requests / --axis prompt_max") that make the trace smaller.
inline std::string shortfall(const Footprint& f, double free_bytes, double total_bytes, const std::string& knobs) {
  if (f.total_bytes() <= free_bytes) return {};
  const char* what = f.rows == Rows::prompt ? "prompt" : "prompt + output";
  const double mean = f.requests > 0 ? static_cast<double>(f.tokens) / static_cast<double>(f.requests) : 0;
  char buf[640];
  std::snprintf(buf, sizeof buf,
                "the request trace needs %.1f GiB of KV cache (%lld requests x %.1f %s tokens on average = %lld "
                "tokens x %lld B per token) + %.1f GiB of other buffers = %.1f GiB; the device has %.1f GiB free "
                "of %.1f GiB. This trace cannot be served from one GPU's memory: declare a smaller one (%s)",
                gib(f.kv_bytes()), static_cast<long long>(f.requests), mean, what, static_cast<long long>(f.tokens),
                static_cast<long long>(f.bytes_per_token), gib(f.other_bytes), gib(f.total_bytes()), gib(free_bytes),
                gib(total_bytes), knobs.c_str());
  return buf;
}

}  // namespace trace_kv
