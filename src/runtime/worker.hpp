// `aisp worker`: loads one plugin and answers the supervisor's line-delimited JSON requests on fds 3
// (in) and 4 (out). Requests: setup, check, warmup, time, memory, exit. The worker measures and reports
// raw numbers only; every statistic and verdict is the supervisor's.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "aisp/benchmark.hpp"

namespace aisp {

struct WorkerOptions {
  std::string plugin;
  bool validity = true;  // CUPTI audit, fresh inputs per sample, drain/fingerprint checks
  int in_fd = 3, out_fd = 4;
  // When set, the benchmark comes from this factory instead of dlopen'ing `plugin` (a host process that
  // supplies the benchmark itself, e.g. the Python worker through the C ABI); `plugin` then only names it.
  std::function<std::unique_ptr<Benchmark>()> factory;
};

int worker_main(const WorkerOptions& options);

}  // namespace aisp
