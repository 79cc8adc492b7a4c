// ch17 dynamic_routing, baseline: round-robin routing (dynamic_routing.cuh, serving.cuh).
//
// Technique: the router sends request i to worker i % 8 the moment it arrives, as a stateless load
// balancer in front of replicas does. Every worker gets the same number of requests, not the same work.
// Why it is slow: output lengths vary 32x (16-512 tokens); a worker that draws a few long requests in a row
// builds a backlog while others idle, and the requests queued behind it make the p99.
// Expected on Hopper: p99 a few hundred us (waits behind 2-3 long requests).
// Measured (H100 SXM, harness cold mode, 2026-11-28, 14 checks passed): p99 304 us (run 1.006 ms).
#include "dynamic_routing.cuh"

namespace {

class RoundRobinRouting : public routing::DynamicRoutingBase {
 public:
  std::string technique() const override { return "round robin: request i to worker i % 8"; }
  void run(aisp::Context& ctx) override { launch<serving::Route::round_robin>(ctx); }
};

}  // namespace

AISP_BENCHMARK(RoundRobinRouting)
