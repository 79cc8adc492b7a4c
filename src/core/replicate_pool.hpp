// Pooling independent replicates of one comparison into one interval. A request trace is one draw from its
// spec: a p50 or p99 over a few dozen requests moves with the draw far more than with timing noise
// (ch16:runtime_scheduler measured 1.25x to 3.83x over seven runs on one H200), so a latency verdict is
// decided over several traces, each a complete run, and its interval must cover the choice of trace.
//
// The model is random effects on the log scale: replicate j estimates log(effect) + u_j + e_j, with u_j the
// trace's own shift and e_j its timing error. The pooled point is the geometric mean of the replicates'
// points; its standard error is the larger of the replicates' spread / sqrt(R) (which contains both parts)
// and their mean within-replicate error / sqrt(R) (a floor: a few replicates can agree by chance); the
// interval uses Student's t with R - 1 degrees of freedom, since the spread is estimated from R values.
#pragma once
#include <vector>

#include "core/stats.hpp"

namespace aisp {

struct PooledInterval {
  Interval interval;      // point = geometric mean; 95% (or `confidence`) interval
  double se_log = 0;      // standard error of the pooled log point
  double between_sd = 0;  // standard deviation of the replicates' log points
  double p_value = 1;     // two-sided, against no effect (log point 0), t with R - 1 degrees of freedom
};

// Each replicate as (point, low, high) of its own 95% interval; every value must be > 0. One replicate
// returns its own interval; none returns an empty result.
PooledInterval pool_replicates(const std::vector<Interval>& replicates, double confidence = 0.95);

}  // namespace aisp
