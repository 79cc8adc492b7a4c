// The ranks of one variant as the supervisor talks to them (issue 26): every request goes to every rank at
// once and the replies come back in rank order. At once, not one rank after another: a multi-rank run() meets
// its peers in collectives (all-reduce, barrier), so rank 0 alone would block in its first collective until
// its request timed out. Each rank's worker is used by one thread only, so VariantWorker needs no locking.
// Built and tested on a CPU with scripted ranks that block until all have entered (tests/unit/
// test_rank_group.cpp); not yet called by the target phases (docs/multi-gpu.md, "What is left").
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/worker_replies.hpp"
#include "runner/rank_judging.hpp"
#include "runner/rank_plan.hpp"
#include "runner/variant_worker.hpp"

namespace aisp {

class RankGroup {
 public:
  explicit RankGroup(std::vector<std::unique_ptr<VariantWorker>> ranks);
  size_t size() const { return ranks_.size(); }
  // Every rank's first message, waited for concurrently.
  std::vector<Reply> wait_ready(double timeout_s);
  // `req` sent to every rank concurrently (with request_for_rank's per-rank directory), replies in rank order.
  std::vector<Reply> request(const json& req, double timeout_s);
  void shutdown(double timeout_s);

 private:
  template <class F>
  std::vector<Reply> each_rank(F&& f);
  std::vector<std::unique_ptr<VariantWorker>> ranks_;
};

// Starts one worker per rank of the plan (rank_spawns) through `factory`.
RankGroup start_rank_group(const RankPlan& plan, const WorkerSpawn& base, const WorkerFactory& factory);

// The request rank r gets: the same, except that a "dir" (where check, replay and time dump outputs) becomes
// <dir>/rank<r>, so two ranks' dumped outputs never overwrite each other.
json request_for_rank(const json& req, int rank);

// The first reply that failed, named by its rank ("rank 1: worker died during request 'time': …"); nullopt
// when every rank answered.
std::optional<std::string> first_rank_failure(const std::vector<Reply>& replies);

// Rank r's part of a variant for the judging (runner/rank_judging.hpp): its GPU time per sample over its
// time replies in order, and its outputs' comparison with the baseline's same rank when there was one.
RankResult rank_result(int rank, int world_size, const std::vector<TimeReply>& blocks,
                       const std::optional<Verification>& comparison);

}  // namespace aisp
