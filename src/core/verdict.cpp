#include "core/verdict.hpp"

#include <algorithm>

namespace aisp {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::faster: return "FASTER";
    case Verdict::slower: return "SLOWER";
    case Verdict::same: return "SAME";
    case Verdict::inconclusive: return "INCONCLUSIVE";
    case Verdict::invalid: return "INVALID";
  }
  return "?";
}

Verdict decide_verdict(const Interval& s, double min_speedup, bool any_check_failed, double noise_floor) {
  if (any_check_failed) return Verdict::invalid;
  // One band for both directions (symmetric on the log scale): a slowdown must be as clear as a win.
  const double band = std::max(min_speedup, 1.0 + noise_floor);
  if (s.low > band) return Verdict::faster;
  if (s.high < 1.0 / band) return Verdict::slower;
  if (s.low >= 1.0 / band && s.high <= band) return Verdict::same;
  return Verdict::inconclusive;
}

int status::severity(const std::string& s) {
  static const char* order[] = {succeeded, skipped, failed_no_speedup, failed_regression,
                                failed_error, failed_verification, invalid};
  for (int i = 0; i < 7; ++i)
    if (s == order[i]) return i;
  return 4;  // unknown words count as errors
}

std::string target_status(const std::vector<std::string>& v) {
  if (v.empty()) return status::skipped;
  auto worst = *std::max_element(v.begin(), v.end(),
                                 [](auto& a, auto& b) { return status::severity(a) < status::severity(b); });
  bool any_success = std::find(v.begin(), v.end(), status::succeeded) != v.end();
  // One variant not beating the baseline is fine if another does (the seed picks the best optimization).
  if (any_success && status::severity(worst) <= status::severity(status::failed_no_speedup)) return status::succeeded;
  if (std::all_of(v.begin(), v.end(), [](auto& s) { return s == status::skipped; })) return status::skipped;
  if (worst == status::skipped) return any_success ? status::succeeded : status::skipped;
  return worst;
}

int exit_code_for(const std::vector<std::string>& statuses) {
  int code = 0;
  for (auto& s : statuses) {
    if (s == status::invalid) return 3;
    if (s != status::succeeded && s != status::skipped) code = 1;
  }
  return code;
}

}  // namespace aisp
