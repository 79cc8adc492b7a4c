// A synthetic request trace (issue 24: latency and throughput goals). A pair that serves requests declares
// one in setup() with Context::request_trace(): the harness generates it from the pair's static seed
// (identical for baseline and variants, unchanged by run(): it is a static input like any other, K4), hands
// it over on the host (to plan) and on the device (rows of TraceRequest), and measures each request's
// latency from the moment the timed window opens plus the request's arrival offset to the moment the
// benchmark marks it complete with Context::complete_request() on the stream that finished it.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "aisp/buffer.hpp"

namespace aisp {

struct TraceSpec {
  int32_t requests = 64;
  double mean_interarrival_us = 50;  // Poisson arrivals; 0: every request arrives at once
  int32_t prompt_min = 128, prompt_max = 1024;
  int32_t output_min = 16, output_max = 256;
};

// One row of the device buffer (int32 x 4).
struct TraceRequest {
  int32_t arrival_us;  // after the timed window opens
  int32_t prompt_len, output_len;
  int32_t id;
};

struct RequestTrace {
  Buffer device;                       // int32 [requests, 4]: TraceRequest rows
  std::vector<TraceRequest> requests;  // the same, on the host
  // Device address of the window-open timestamp (%globaltimer, ns) of the current run: a scheduler that
  // must not start a request before it arrives waits until globaltimer >= *window_open_ns + arrival_us*1000.
  const unsigned long long* window_open_ns = nullptr;
  // Device-side completion: a kernel that finishes request i writes %globaltimer to completion_ns[i] (the
  // alternative to Context::complete_request when one kernel serves many requests). The harness clears
  // the slots before every run and refuses a stamp before the request's arrival or after the window closed.
  unsigned long long* completion_ns = nullptr;
};

// Deterministic from the seed (splitmix64): exponential gaps of the given mean, uniform lengths.
inline std::vector<TraceRequest> generate_request_trace(uint64_t seed, const TraceSpec& s) {
  auto next = [&seed] {
    uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  auto unit = [&] { return (static_cast<double>(next() >> 11) + 0.5) / 9007199254740992.0; };  // (0, 1)
  auto between = [&](int32_t lo, int32_t hi) { return lo + static_cast<int32_t>(next() % uint64_t(hi - lo + 1)); };
  std::vector<TraceRequest> out;
  double t = 0;
  for (int32_t i = 0; i < s.requests; ++i) {
    if (i > 0 && s.mean_interarrival_us > 0) t += -std::log(unit()) * s.mean_interarrival_us;
    out.push_back({static_cast<int32_t>(t), between(s.prompt_min, s.prompt_max), between(s.output_min, s.output_max), i});
  }
  return out;
}

}  // namespace aisp
