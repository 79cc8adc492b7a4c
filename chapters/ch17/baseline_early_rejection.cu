// ch17 early_rejection, baseline: late rejection (early_rejection.cuh, serving.cuh).
//
// Technique: the router queues every request at the least-loaded worker; the worker runs the prefill and
// only then checks the admission decision, dropping a rejected request before its decode (zero row,
// completion stamped then).
// Why it is slow: under overload ~20-35% of requests are rejected (a host replay of the rule on 3 traces:
// 23-42 of 128), and each still costs its prefill and a place in a queue: admitted requests wait behind
// work that is thrown away, and rejected ones learn their fate only after waiting their turn.
// Expected on Hopper: p99 a few hundred us.
// Measured (H100 SXM, harness cold mode, 2026-11-28, 14 checks passed): p99 134.5 us.
#include "early_rejection.cuh"

namespace {

class LateRejection : public rejection::EarlyRejectionBase {
 public:
  std::string technique() const override { return "late rejection: dropped by the worker after its prefill"; }
  void run(aisp::Context& ctx) override { launch<false>(ctx); }
};

}  // namespace

AISP_BENCHMARK(LateRejection)
