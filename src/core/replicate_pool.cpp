#include "core/replicate_pool.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace aisp {

namespace {
constexpr double kZ95 = 1.959963984540054;  // each replicate's interval is a 95% one

double within_se_log(const Interval& r) { return (std::log(r.high) - std::log(r.low)) / (2 * kZ95); }
}  // namespace

PooledInterval pool_replicates(const std::vector<Interval>& replicates, double confidence) {
  PooledInterval out;
  for (const Interval& r : replicates)
    if (!(r.point > 0 && r.low > 0 && r.high >= r.low))
      throw std::invalid_argument("pool_replicates: every replicate needs a positive point and interval");
  if (replicates.empty()) return out;
  const double n = static_cast<double>(replicates.size());
  if (replicates.size() == 1) {
    out.interval = replicates[0];
    out.se_log = within_se_log(replicates[0]);
    return out;
  }
  double mean = 0, within_var = 0;
  for (const Interval& r : replicates) {
    mean += std::log(r.point) / n;
    within_var += within_se_log(r) * within_se_log(r) / n;
  }
  double ss = 0;
  for (const Interval& r : replicates) ss += (std::log(r.point) - mean) * (std::log(r.point) - mean);
  out.between_sd = std::sqrt(ss / (n - 1));
  out.se_log = std::sqrt(std::max(out.between_sd * out.between_sd, within_var) / n);
  const double df = n - 1;
  const double t = student_t_quantile(0.5 + confidence / 2, df);
  out.interval = {std::exp(mean), std::exp(mean - t * out.se_log), std::exp(mean + t * out.se_log)};
  out.p_value = out.se_log > 0 ? 2 * (1 - student_t_cdf(std::fabs(mean) / out.se_log, df)) : (mean == 0 ? 1 : 0);
  return out;
}

}  // namespace aisp
