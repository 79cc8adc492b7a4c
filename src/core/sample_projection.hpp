// K21, every timed sample verified: after each timed sample the worker reduces every output to a few
// random ±1 projections (coefficients from a key the supervisor draws after the plugins are loaded) plus
// the sums the bound needs; the supervisor compares a variant's projections with the baseline's for the
// same inputs (both variants run one shared sequence of per-sample seeds). CUDA-free: the device side
// lives in runtime/output_projection.cu, the comparison here, where it is unit-tested.
//
// Why the bound holds for honest rounding: if every element of the variant's output y' is within the
// pair's tolerance of the baseline's y, |e_j| = |y'_j - y_j| <= t_j = atol + rtol |y_j|. A projection's
// difference D = sum_j c_j e_j with independent random signs c_j (unknown to the plugin when it ran) is a
// sum of bounded zero-mean terms, so Hoeffding gives P(|D| >= L sqrt(sum t_j^2)) <= 2 exp(-L^2 / 2).
// With L = 8 that is 2.5e-14 per projection: a million samples with four projections each would see a
// false alarm with probability ~1e-7. A cheat that leaves a fraction f of elements wrong by ~their own
// size moves D by ~sqrt(f n) |y|, far outside a bound of 8 sqrt(n) rtol |y| once f >> 64 rtol^2 (a
// tenth of a percent of the elements at bf16's rtol 1e-3); an element left poisoned (NaN) is counted.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace aisp {

inline constexpr int kProjections = 4;
// Hoeffding multiplier of the bound (see above).
inline constexpr double kProjectionSigmas = 8.0;
// Relative slack for the double-precision reductions themselves (atomic accumulation order varies).
inline constexpr double kReductionSlack = 1e-12;

// One output of one sample, reduced on the device. Sums run over the finite elements only.
struct OutputProjection {
  std::array<double, kProjections> proj{};  // sum_j c_k(j) x_j, c_k(j) = +-1
  double abs_sum = 0, sq_sum = 0;           // sum |x_j|, sum x_j^2
  double nonfinite = 0;                     // elements that are NaN or +-Inf (poison survives as NaN)
};
using SampleProjection = std::vector<OutputProjection>;  // one per output, in declaration order

// Per output: the pair's effective tolerance, already resolved against the output dtype's default.
struct ProjectionTolerance {
  double rtol = 0, atol = 0;
  int64_t count = 0;  // elements of this output
};

// Why `got` cannot be the baseline's output `ref` within tolerance, or nullopt when it can.
std::optional<std::string> projection_mismatch(const SampleProjection& ref, const SampleProjection& got,
                                               const std::vector<ProjectionTolerance>& tol,
                                               const std::vector<std::string>& output_names);

// The wire form: [[p0, p1, p2, p3, abs_sum, sq_sum, nonfinite], ...] per output.
nlohmann::json to_json(const SampleProjection& p);
SampleProjection sample_projection_from_json(const nlohmann::json& j);

// The per-sample seed both variants use for timed sample `index` (shared sequence, drawn from `base`).
uint64_t sample_seed(uint64_t base, int64_t index);

}  // namespace aisp
