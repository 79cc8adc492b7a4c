#include "runner/rank_verify.hpp"

#include <stdexcept>

#include "core/worker_replies.hpp"

namespace aisp {

std::vector<std::optional<Verification>> compare_rank_outputs(const std::vector<Reply>& baseline_checks,
                                                              const std::vector<Reply>& variant_checks,
                                                              const ToleranceChoice& tol, const OutputReader& reader) {
  std::vector<std::optional<Verification>> out(variant_checks.size());
  for (size_t r = 0; r < variant_checks.size(); ++r) {
    if (r >= baseline_checks.size() || !baseline_checks[r].ok() || !variant_checks[r].ok()) continue;
    Verification v;
    try {
      std::vector<OutputView> base = reader.views(parse_check_reply(baseline_checks[r].body).outputs, {});
      std::vector<OutputView> cand = reader.views(parse_check_reply(variant_checks[r].body).outputs, {});
      compare_check_outputs(base, cand, tol, reader, v);
    } catch (const std::exception& e) {
      v.passed = false;
      v.output = e.what();
    }
    out[r] = v;
  }
  return out;
}

}  // namespace aisp
