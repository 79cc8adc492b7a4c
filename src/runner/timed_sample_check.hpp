// K21, every timed sample verified (core/sample_projection.hpp has the bound and why it holds). After
// timing, each variant's per-sample output projections are compared with the baseline's for the same
// sample index, hence the same inputs. Samples the baseline did not run itself (a faster variant takes
// more samples in the same time) are referenced by asking the baseline for them untimed, within a budget
// of baseline GPU time; beyond it, a random subset chosen after sampling, so a variant cannot know which
// of its samples go unreferenced. The evidence line says how many samples were verified.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "runner/live_variant.hpp"
#include "runner/verify_outputs.hpp"

namespace aisp {

struct TimedSampleCheck {
  uint64_t sample_seed = 0;     // base of the shared per-sample seed sequence
  uint64_t projection_key = 0;  // the projections' coefficients, drawn after the plugins loaded
  ToleranceChoice tolerance;    // the pair's
  // Baseline GPU time the reference runs may take, and the sample count they get whatever it costs.
  double reference_budget_s = 2.0;
  int64_t min_references = 64;
  double timeout_multiplier = 1.0;
};

void verify_timed_samples(std::vector<LiveVariant>& live, const TimedSampleCheck& check, std::mt19937_64& rng);

}  // namespace aisp
