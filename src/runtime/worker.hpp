// `aisp worker`: loads one plugin and answers the supervisor's line-delimited JSON requests on fds 3
// (in) and 4 (out). Requests: setup, check, warmup, time, memory, exit. The worker measures and reports
// raw numbers only; every statistic and verdict is the supervisor's.
#pragma once
#include <string>

namespace aisp {

struct WorkerOptions {
  std::string plugin;
  bool validity = true;  // CUPTI audit, fresh inputs per sample, drain/fingerprint checks
  int in_fd = 3, out_fd = 4;
};

int worker_main(const WorkerOptions& options);

}  // namespace aisp
