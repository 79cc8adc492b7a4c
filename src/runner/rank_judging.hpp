// Per-rank judging of a multi-rank target (issue 26): what the supervisor decides from every rank's samples
// and every rank's output comparison, as pure functions so each rule is tested on a CPU with scripted ranks.
//
// Two rules carry the weight:
// - A multi-rank step ends when its slowest rank ends (a collective waits for everyone), so the target's time
//   per step is the slowest rank's, never an average: averaging would reward a variant that moves work from
//   one rank to another without finishing sooner.
// - Every rank is verified against the baseline's same rank. A rank that skips its share (a collective
//   short-circuited, a shard never computed) leaves that rank's outputs wrong or missing while rank 0 looks
//   perfect, so checking rank 0 alone would pass it; the variant is INVALID and the finding names the rank.
#pragma once
#include <string>
#include <vector>

#include "core/result.hpp"

namespace aisp {

// One rank's part of one variant, as collected from that rank's worker.
struct RankResult {
  int rank = 0;
  int world_size = 0;              // WORLD_SIZE the worker ran with (what the rank claims the topology is)
  std::vector<double> samples_ms;  // timed samples in order: sample k of every rank is the same step
  bool outputs_compared = false;   // its checked outputs were compared with the baseline's same rank
  Verification verification;       // that comparison (passed, mismatches, unwritten, first output)
};

struct RankFinding {
  std::string check;  // "K2": outputs differ from the baseline's same rank; "ranks": a rank missing or misplaced
  int rank = -1;      // the rank at fault (-1: the set of ranks as a whole)
  std::string detail;
};

struct RankJudgement {
  bool valid = false;
  std::vector<RankFinding> findings;  // empty when valid
  std::vector<double> samples_ms;     // per step: the slowest rank's time (steps every rank timed)
  int slowest_rank = -1;              // the rank with the largest median
  std::string reason() const;         // the findings on one line ("" when valid)
};

// The target's time per step: for each k < the fewest samples any rank has, the largest sample k over ranks.
std::vector<double> slowest_rank_samples(const std::vector<RankResult>& ranks);

// The rank with the largest median sample (-1 when no rank has samples).
int slowest_rank(const std::vector<RankResult>& ranks);

// The structural findings of one variant's ranks against the plan's world size: exactly ranks 0…N-1, each
// once, each claiming WORLD_SIZE N, each with at least one sample. `who` names the variant in the details.
std::vector<RankFinding> rank_set_findings(const std::vector<RankResult>& ranks, int world_size, const std::string& who);

// A variant judged rank by rank: the structural findings, then every rank's output comparison (a rank whose
// outputs were never compared counts as differing: a skipped rank may also skip reporting). Valid only with
// no finding; the time is then the slowest rank's per step.
RankJudgement judge_variant_ranks(const std::vector<RankResult>& variant, int world_size, const std::string& who);

// The baseline's own ranks (structure and samples; its outputs are the reference, so nothing to compare):
// a baseline with a finding makes the whole target invalid, as with one rank.
RankJudgement judge_baseline_ranks(const std::vector<RankResult>& baseline, int world_size);

}  // namespace aisp
