// The validity checks the harness runs, by id. One list, used by the runner (ids and names in results),
// by docs/VALIDITY.md (a unit test keeps the two consistent) and by reports. An id here means: code in the
// harness enforces it and a fixture under tests/validity (or tests/fixtures) cheats in exactly that way and
// is caught; K18 alone is a policy with nothing to cheat (docs/VALIDITY.md says which fixture proves which).
#pragma once
#include <array>
#include <string_view>

namespace aisp {

struct CheckInfo {
  std::string_view id;
  std::string_view name;
  std::string_view how;  // one line: what the harness does
};

inline constexpr std::array kChecks = {
    CheckInfo{"K1", "outputs fully written", "outputs poisoned (NaN payload / 0xA5 bytes) before every verified run; surviving poison counted"},
    CheckInfo{"K2", "outputs match the baseline", "full element-wise comparison with the baseline on the same seed, per-dtype tolerance, NaN-aware"},
    CheckInfo{"K3", "outputs follow fresh inputs", "dynamic inputs refilled with fresh seeds after setup and before every timed sample; random timed samples verified"},
    CheckInfo{"K5", "outputs follow every input", "each input filled from its own random stream (seed mixed with the buffer name); each dynamic input refilled alone: outputs must change wherever the baseline's do"},
    CheckInfo{"K4", "inputs unchanged by run()", "device fingerprint of every input before and after run()"},
    CheckInfo{"K6", "no work left after the window", "drain residual: a device-wide sync after the harness stream is done must be ~free"},
    CheckInfo{"K7", "clocks agree", "event time <= worker wall time per sample; sum of sample times <= supervisor wall time per block; audited GPU busy span <= event time"},
    CheckInfo{"K8", "all GPU work inside the timed window", "CUPTI activity in audited samples: every kernel/memcpy/memset of run() on the declared device, inside the window, >= 1 per run, same kernels as in verification"},
    CheckInfo{"K9", "no escaping API calls", "CUPTI callbacks in audited samples: no stream creation, host functions, device/limit changes, or CUDA calls from other threads"},
    CheckInfo{"K10", "capture-replay reproduces the outputs", "one run() captured into a CUDA graph, replayed on fresh inputs, outputs verified"},
    CheckInfo{"K11", "no deferred writes", "output fingerprint right after the window vs after device quiescence"},
    CheckInfo{"K12", "CUDA errors surface", "every harness call checked; pending errors after each request; sticky errors end the worker"},
    CheckInfo{"K13", "L2 hygiene", "persisting-L2 limit and the harness stream's access-policy window checked after run(); reset before every sample"},
    CheckInfo{"K14", "isolation", "one process per variant, own process group, one visible GPU, statistics in the supervisor"},
    CheckInfo{"K16", "process state unchanged", "thread count, current device, device limits and cuBLAS math mode before/after run(); for Python variants also PyTorch's precision flags (TF32, reduced-precision reductions) against the process defaults"},
    CheckInfo{"K17", "plausible throughput", "achieved bytes/s and FLOP/s of the median below ceilings derived from device properties (memory clock x bus width; SMs x clock x tensor FLOP/clk)"},
    CheckInfo{"K21", "every timed sample verified", "outputs poisoned before every timed sample and reduced after it to random +-1 projections; compared with the baseline's for the same per-sample seed within a Hoeffding bound from the pair's tolerance"},
    CheckInfo{"K22", "no writes outside buffers", "4 KiB canary guard bands before and after every harness buffer, checked after setup, every verified run and every timed block"},
    CheckInfo{"K23", "the pair's tolerance", "one tolerance per pair (every variant declares the baseline's); a loosened tolerance that accepts the baseline's own fp32 output rounded to bf16 is refused unless the workload declares that precision"},
    CheckInfo{"K24", "no recompilation after warm-up", "Python variants: torch._dynamo's graph counters taken after setup()'s warm-up calls and compared after every benchmark_fn(); a new graph (a failed guard, or lazy compilation) in a verified or timed run is reported by the worker"},
    CheckInfo{"K18", "fixed sample policy", "stopping rule, sample counts and median are the harness's; audited samples chosen at random"},
};

inline const CheckInfo* find_check(std::string_view id) {
  for (const auto& c : kChecks)
    if (c.id == id) return &c;
  return nullptr;
}

}  // namespace aisp
