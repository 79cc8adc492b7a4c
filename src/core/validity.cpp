#include "core/validity.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/checks.hpp"
#include "core/stats.hpp"

namespace aisp {

void FindingLog::add(const std::string& check, const std::string& detail) {
  ++count_[check];
  auto& list = details_[check];
  if (list.size() < kMaxPerCheck && std::find(list.begin(), list.end(), detail) == list.end()) list.push_back(detail);
}

void FindingLog::add_json(const json& findings) {
  if (!findings.is_array()) return;
  for (auto& f : findings) add(f.value("check", "K?"), f.value("detail", ""));
}

void FindingLog::add_all(const std::vector<WorkerFinding>& findings) {
  for (auto& f : findings) add(f.check, f.detail);
}

std::string FindingLog::details(const std::string& check) const {
  auto it = details_.find(check);
  if (it == details_.end()) return "";
  std::string out;
  for (auto& d : it->second) out += (out.empty() ? "" : "; ") + d;
  int64_t n = count_.at(check);
  if (n > static_cast<int64_t>(it->second.size())) out += fmt::format(" [{} findings in all]", n);
  return out;
}

std::string FindingLog::summary() const {
  std::string out;
  for (auto& [check, list] : details_) out += (out.empty() ? "" : "; ") + check + ": " + list.front();
  return out;
}

void check_drain_residual(const std::vector<double>& gpu_ms, const std::vector<double>& drain_us, FindingLog& log) {
  size_t n = std::min(gpu_ms.size(), drain_us.size()), measured = 0, flagged = 0;
  double worst = 0;
  for (size_t i = 0; i < n; ++i) {
    if (drain_us[i] < 0) continue;
    ++measured;
    if (drain_us[i] > kDrainAbsoluteUs + kDrainRelative * gpu_ms[i] * 1000.0) {
      ++flagged;
      worst = std::max(worst, drain_us[i]);
    }
  }
  if (measured >= 3 && flagged > kDrainFlaggedFraction * static_cast<double>(measured))
    log.add("K6", fmt::format("{} of {} samples left work on the device after the harness stream finished "
                              "(device-wide sync took up to {:.1f} us; honest residuals are < {:.0f} us)",
                              flagged, measured, worst, kDrainAbsoluteUs));
}

void check_clocks(const std::vector<double>& gpu_ms, const std::vector<double>& wall_ms,
                  const std::vector<BlockClocks>& blocks, FindingLog& log) {
  // 10 us covers the timer's rounding and the event sync's own latency.
  constexpr double kSlackMs = 0.01;
  size_t bad = 0, n = std::min(gpu_ms.size(), wall_ms.size());
  for (size_t i = 0; i < n; ++i)
    if (wall_ms[i] > 0 && gpu_ms[i] > wall_ms[i] + kSlackMs) ++bad;
  if (bad)
    log.add("K7", fmt::format("{} samples claim more GPU time than the worker's own wall clock measured around them", bad));
  for (auto& b : blocks)
    if (b.supervisor_wall_ms > 0 && b.claimed_ms > b.supervisor_wall_ms * 1.001 + 1.0)
      log.add("K7", fmt::format("a block claimed {:.3f} ms of GPU time but the supervisor's wall clock saw the whole "
                                "request take {:.3f} ms", b.claimed_ms, b.supervisor_wall_ms));
}

std::vector<CheckResult> assemble_checks(const FindingLog& log, const std::map<std::string, std::string>& evidence) {
  std::vector<CheckResult> out;
  for (auto& c : kChecks) {
    auto it = evidence.find(std::string(c.id));
    bool failed = log.failed(std::string(c.id));
    if (it == evidence.end() && !failed) continue;
    out.push_back({std::string(c.id), std::string(c.name), !failed,
                   failed ? log.details(std::string(c.id)) : it->second});
  }
  return out;
}

}  // namespace aisp
