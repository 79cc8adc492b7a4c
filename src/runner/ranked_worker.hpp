// The N ranks of one variant seen by the target phases as one worker (issue 26). The phases were written for
// one worker per variant; rather than teach each of them about ranks, this VariantWorker sends every request to
// every rank at once (runner/rank_group.hpp: a collective blocks until all ranks have entered it, so one rank
// at a time would deadlock) and answers with one reply that speaks for all of them:
// - outputs: every rank's outputs, rank r >= 1's renamed `<name>@rank<r>`, so every check that compares
//   outputs with the baseline's (K1-K3, K5, K10, K21) compares each rank with the baseline's same rank through
//   the one-rank code; the files come from each rank's own directory (<dir>/rank<r>), since the supervisor's
//   IPC mapping reaches one GPU only;
// - time: sample k is the slowest rank's sample k (a collective step ends when its last rank does; an average
//   would reward moving work from one rank to another), so the statistics and the verdict use it;
// - findings: every rank's, those of rank r >= 1 prefixed "rank r: ".
// Each rank's own replies stay available for the per-rank judging (runner/rank_judging.hpp): its claimed
// RANK/WORLD_SIZE from the ready message, its own samples, its check replies for compare_rank_outputs.
#pragma once
#include <string>
#include <vector>

#include "runner/rank_group.hpp"

namespace aisp {

// A rank's output renamed for the merged reply: rank 0 keeps its name, rank r >= 1 gets "<name>@rank<r>".
std::string rank_output_name(const std::string& name, int rank);

// The reply to `op` that speaks for every rank (the rules in the header comment). `replies` are all ok, in
// rank order; rank 0's body is the base.
json merge_rank_replies(const std::string& op, const std::vector<Reply>& replies);

// What rank r must be sent for `req`: the same, except that a warm-up runs a fixed count (its adaptive end
// would let one rank stop earlier than its peers, which then wait in a collective that never comes).
json rank_request(const json& req);

class RankedWorker final : public VariantWorker {
 public:
  explicit RankedWorker(RankGroup group) : group_(std::move(group)) {}
  Reply wait_ready(double timeout_s) override;
  Reply request(json req, double timeout_s) override;
  void shutdown(double timeout_s) override { group_.shutdown(timeout_s); }

  int world_size() const { return static_cast<int>(group_.size()); }
  // Each rank's ready message (its claimed "rank" and "world_size" among them).
  const std::vector<json>& ready() const { return ready_; }
  // Each rank's replies to the last request (all ok when the merged reply was ok).
  const std::vector<Reply>& last_replies() const { return last_; }
  // Every timed sample of each rank, in order (audited ones included): rank r's sample k is step k.
  const std::vector<std::vector<double>>& rank_samples() const { return samples_; }

 private:
  RankGroup group_;
  std::vector<json> ready_;
  std::vector<Reply> last_;
  std::vector<std::vector<double>> samples_;
};

}  // namespace aisp
