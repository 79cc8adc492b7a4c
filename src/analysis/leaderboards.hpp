// `bench analyze`: leaderboards, the speed/memory Pareto frontier, trade-offs and per-goal recommendations.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "analysis/variant_metrics.hpp"

namespace aisp::analysis {

struct LeaderboardEntry {
  std::string target, variant, technique, verdict;
  double value = kNaN, low = kNaN, high = kNaN;  // the ranked figure (and its CI where it has one)
  std::string unit, detail;
};
struct Leaderboards {
  std::vector<LeaderboardEntry> speed;       // speedup, ranked by the CI's lower end (a defensible order)
  std::vector<LeaderboardEntry> memory;      // peak-memory saving vs the baseline, %
  std::vector<LeaderboardEntry> throughput;  // items/s per item unit, baselines included
  std::vector<LeaderboardEntry> roofline;    // % of the attainable roofline, baselines included
  std::vector<std::string> excluded;         // "<target> <variant>: <why>"
};
Leaderboards leaderboards(const std::vector<VariantRow>& rows, size_t top_n = 10);

// Generic 2-D Pareto frontier: indices of the points no other point dominates when both coordinates are
// maximised (a point dominates when it is >= in both and > in one). Ties are all kept. Order: by x.
std::vector<size_t> pareto_indices(const std::vector<std::pair<double, double>>& points);

struct ParetoPoint {
  std::string target, variant, technique;
  double speedup = kNaN, memory_savings_pct = kNaN, peak_mb = kNaN;
  bool on_frontier = false;
};
// Optimized variants on (speedup, memory saving); all usable ones are returned, the frontier flagged.
std::vector<ParetoPoint> pareto(const std::vector<VariantRow>& rows);

struct Tradeoff {
  std::string target, variant, kind;  // "faster, more memory" | "less memory, slower"
  double speedup = kNaN, memory_savings_pct = kNaN;
  std::string text;
};
std::vector<Tradeoff> tradeoffs(const std::vector<VariantRow>& rows);

struct Recommendation {
  std::string goal, target, variant, why;
};
// Per target, the variant to pick for a goal. goal: "speed" (highest CI lower end among FASTER variants),
// "latency" (lowest p99), "memory" (lowest peak memory among variants that are not SLOWER), "" (all three).
std::vector<Recommendation> recommendations(const std::vector<VariantRow>& rows, const std::string& goal = "");

struct Analysis {
  std::vector<VariantRow> rows;
  Leaderboards boards;
  std::vector<ParetoPoint> pareto;
  std::vector<Tradeoff> tradeoffs;
  std::vector<Recommendation> recommendations;
  RooflineCeilings ceilings_note;  // of the first precision seen, for the header line
  std::vector<std::string> notes;
};
Analysis analyze(const std::vector<TargetResult>& targets, const DerivationInputs& ctx = {}, size_t top_n = 10);

}  // namespace aisp::analysis
