// ch16 runtime_scheduler, baseline: first come, first served (runtime_scheduler.cuh): each free slot takes
// the earliest-arrived waiting request - the default policy of vLLM's scheduler. Under overload every
// request waits for all work queued before it. Expected on H100: median latency ~0.4 ms. Measured (H100 80GB HBM3, 2026-11-28,
// docs/measurements/ch15_ch16_h100_20261128.md): p50 latency 0.266 ms.
#include "runtime_scheduler.cuh"

class FcfsScheduler : public RuntimeSchedulerBase {
 public:
  std::string technique() const override { return "first come, first served: earliest arrival first"; }
  void run(aisp::Context& ctx) override { serve<runtime_scheduler::Policy::fcfs>(ctx); }
};

AISP_BENCHMARK(FcfsScheduler)
