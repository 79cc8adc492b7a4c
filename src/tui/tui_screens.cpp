#include "tui/tui_screens.hpp"

#include <fmt/format.h>

#include "runner/progress_line.hpp"

namespace aisp {

std::string speedup_with_ci(double speedup, double low, double high) {
  if (speedup <= 0) return "-";
  if (low <= 0 || high <= 0) return fmt::format("{:.2f}x", speedup);
  return fmt::format("{:.2f}x [{:.2f}, {:.2f}]", speedup, low, high);
}

std::string progress_bar(size_t completed, size_t total, int width) {
  int filled = total > 0 ? static_cast<int>(width * static_cast<double>(completed) / static_cast<double>(total)) : 0;
  if (filled > width) filled = width;
  return fmt::format("[{}{}] {}/{}", std::string(filled, '#'), std::string(width - filled, '.'), completed, total);
}

std::vector<std::string> targets_table(const TuiData& d) {
  std::vector<std::string> out;
  out.push_back(fmt::format("{:<40} {:<16} {:<22} {:>10} {:>10} {:<24} {}", "target", "hardware", "best variant",
                            "base ms", "best ms", "speedup [95% CI]", "verdict"));
  for (auto& t : d.targets)
    out.push_back(fmt::format("{:<40} {:<16} {:<22} {:>10.4f} {:>10.4f} {:<24} {}", t.target.substr(0, 40),
                              t.hardware_key.substr(0, 16), t.best_variant.substr(0, 22), t.baseline_ms, t.best_ms,
                              speedup_with_ci(t.speedup, t.ci_low, t.ci_high), t.verdict.empty() ? t.status : t.verdict));
  return out;
}

std::vector<std::string> runs_table(const TuiData& d) {
  std::vector<std::string> out;
  out.push_back(fmt::format("{:>4} {:<44} {:<16} {:<6} {:>7} {:<9} {}", "id", "run", "hardware", "mode", "targets",
                            "commit", "complete"));
  for (auto it = d.runs.rbegin(); it != d.runs.rend(); ++it)  // newest first: the one a person looks for
    out.push_back(fmt::format("{:>4} {:<44} {:<16} {:<6} {:>7} {:<9} {}", it->id, it->key.substr(0, 44),
                              it->hardware_key.substr(0, 16), it->mode, it->targets,
                              it->git_commit.substr(0, 8) + (it->git_dirty ? "*" : ""), it->complete ? "yes" : "no"));
  return out;
}

std::vector<std::string> history_table(const std::string& target, const std::vector<HistoryRow>& rows) {
  std::vector<std::string> out;
  out.push_back(fmt::format("{:<16} {:<16} {:<20} {:>10} {:>10} {:<24} {:<12} {}", "run", "hardware", "variant",
                            "base ms", "var ms", "speedup [95% CI]", "verdict", "level change"));
  for (auto& r : rows) {
    std::string change;
    if (r.baseline_change) change += fmt::format("<< baseline {:+.1f}% ", 100 * r.baseline_change->rel_shift);
    if (r.variant_change) change += fmt::format("<< variant {:+.1f}%", 100 * r.variant_change->rel_shift);
    out.push_back(fmt::format("{:<16} {:<16} {:<20} {:>10.4f} {:>10.4f} {:<24} {:<12} {}", r.run.stamp,
                              r.run.hardware_key.substr(0, 16), r.variant.substr(0, 20), r.baseline_ms, r.variant_ms,
                              speedup_with_ci(r.speedup, r.ci_low, r.ci_high), r.verdict.empty() ? r.status : r.verdict,
                              change));
  }
  if (rows.empty()) out.push_back("no stored runs of " + target);
  return out;
}

std::vector<std::string> live_panel(const std::vector<LiveRun>& live) {
  std::vector<std::string> out;
  if (live.empty()) {
    out.push_back("no run in progress (a `aisp bench run` writes <run>/progress/run_progress.json)");
    return out;
  }
  for (auto& r : live) {
    out.push_back(fmt::format("{}  [{}]{}", r.run_key, r.state,
                              r.age_s > 600 ? fmt::format("  (no update for {}: killed?)", short_duration(r.age_s)) : ""));
    out.push_back(fmt::format("  {}  now: {}", progress_bar(r.completed, r.total, 30), r.target.empty() ? "-" : r.target));
    out.push_back("  " + (r.estimate.empty() ? elapsed_and_remaining(r.elapsed_s, r.completed, r.total) : r.estimate));
  }
  return out;
}

}  // namespace aisp
