#include "report/expectation_reports.hpp"

#include <fmt/format.h>

#include <map>

namespace aisp {

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

std::string md_cell(std::string s) {
  for (auto& c : s)
    if (c == '|' || c == '\n') c = ' ';
  return s;
}

std::string interval(double point, double low, double high) {
  return fmt::format("{:.3f}x [{:.3f}, {:.3f}]", point, low, high);
}

std::string short_commit(const std::string& c) { return c.substr(0, 10); }

}  // namespace

std::string expectations_check_markdown(const ExpectationCheckReport& r) {
  std::string md = fmt::format("# Expectations check ({})\n\n", r.hardware_key);
  md += fmt::format("A regression is a current speedup CI entirely below the expected CI low by more than {:.0f}% "
                    "(tolerance for session-to-session drift). {}{}\n\n",
                    100 * r.tolerance, r.update ? "Entries updated (--update-expectations). " : "Files not modified. ",
                    r.accept_regressions ? "Regressions accepted (--accept-regressions)." : "");
  md += r.summary_line() + "\n\n";
  if (!r.rows.empty()) {
    md += "| Target | Variant | Expected speedup | Recorded | Current speedup | Status | Stored entry |\n";
    md += "|---|---|---|---|---|---|---|\n";
    for (auto& row : r.rows) {
      const ExpectationComparison& c = row.comparison;
      std::string expected = c.expected_ci_high > 0 ? interval(c.expected_speedup, c.expected_ci_low, c.expected_ci_high) : "-";
      std::string recorded = row.expected_provenance
                                 ? fmt::format("{} {}", row.expected_provenance->timestamp.substr(0, 10),
                                               short_commit(row.expected_provenance->git_commit))
                                 : "-";
      std::string current = c.ci_high > 0 ? interval(c.speedup, c.ci_low, c.ci_high) : "-";
      std::string st = expectation_status_name(c.status);
      if (c.status == ExpectationStatus::regression) st = row.accepted ? "**regression** (accepted)" : "**regression**";
      md += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", row.target, c.variant.empty() ? "-" : c.variant,
                        expected, recorded, current, st, md_cell(row.action));
    }
    md += "\n";
    for (auto& row : r.rows)
      if (row.comparison.status != ExpectationStatus::ok)
        md += fmt::format("- {}: {}\n", row.target, md_cell(row.comparison.message));
  }
  if (!r.notes.empty()) {
    md += "\n## Notes\n\n";
    for (auto& n : r.notes) md += "- " + md_cell(n) + "\n";
  }
  if (!r.files_written.empty()) {
    md += "\n## Files written\n\n";
    for (auto& f : r.files_written) md += "- " + f + "\n";
  }
  return md;
}

double best_improvement(const ExpectationEntry& e) {
  if (e.goal == "memory")
    return e.best_optimized_memory_mb > 0 ? e.baseline_memory_mb / e.best_optimized_memory_mb : 0.0;
  return e.best_speedup;
}

std::string proof_of_benefit_severity(const ExpectationEntry& e, double min_speedup) {
  if (e.status.rfind("failed", 0) == 0 || e.status == "invalid") return "fail";
  if (e.goal == "memory" && e.best_optimized_memory_mb <= 0) return "fail";  // seed: memory goal without metrics
  return best_improvement(e) < min_speedup ? "needs-work" : "ok";
}

namespace {

std::string notes_for(const ExpectationEntry& e, double min_speedup) {
  std::string n = fmt::format("speedup {}; verdict {}; {} samples vs {}", interval(e.best_speedup, e.ci_low, e.ci_high), e.verdict.empty() ? "-" : e.verdict,
                              e.provenance.baseline_samples, e.provenance.optimized_samples);
  if (e.goal != "memory" && e.best_speedup >= min_speedup && e.ci_low < min_speedup)
    n += fmt::format("; CI low below {:.2f}x", min_speedup);
  n += fmt::format("; {} driver {} CUDA {}; commit {}{}; {}", e.provenance.gpu, e.provenance.driver_version,
                   e.provenance.cuda_version, short_commit(e.provenance.git_commit),
                   e.provenance.git_dirty ? " (dirty)" : "", e.provenance.timestamp);
  return n;
}

std::string optimizations_for(const ExpectationEntry& e) {
  std::string s;
  for (auto& [name, v] : e.variants) s += fmt::format("{}{}={:.3f}x", s.empty() ? "" : ";", name, v.speedup);
  return s;
}

}  // namespace

std::string proof_of_benefit_csv(const std::vector<ListedExpectation>& entries, double min_speedup) {
  std::string csv =
      "chapter,example,severity,best_improvement,optimization_goal,baseline_ms,baseline_memory_mb,"
      "optimized_memory_mb,artifact_dir,notes,optimizations\n";
  for (auto& l : entries) {
    const ExpectationEntry& e = l.entry;
    csv += fmt::format("{},{},{},{:.4f},{},{:.6g},{:.6g},{:.6g},{},{},{}\n", csv_field(l.chapter), csv_field(e.example),
                       proof_of_benefit_severity(e, min_speedup), best_improvement(e), e.goal, e.baseline_time_ms,
                       e.baseline_memory_mb, e.best_optimized_memory_mb, csv_field(e.provenance.run_dir),
                       csv_field(notes_for(e, min_speedup)), csv_field(optimizations_for(e)));
  }
  return csv;
}

std::string proof_of_benefit_markdown(const std::vector<ListedExpectation>& entries, double min_speedup) {
  struct Counts {
    int fail = 0, needs_work = 0, skipped = 0, total = 0;
    std::string latest, latest_time;
  };
  std::map<std::string, Counts> by_chapter;
  for (auto& l : entries) {
    Counts& c = by_chapter[l.chapter];
    std::string sev = proof_of_benefit_severity(l.entry, min_speedup);
    c.fail += sev == "fail";
    c.needs_work += sev == "needs-work";
    c.skipped += sev == "skipped";
    c.total++;
    if (l.entry.provenance.timestamp >= c.latest_time) {
      c.latest_time = l.entry.provenance.timestamp;
      c.latest = l.entry.provenance.run_dir;
    }
  }
  std::string md = fmt::format("# Proof of benefit (threshold {:.2f}x)\n\n", min_speedup);
  md += "| Chapter | Fail | Needs Work | Skipped | Total | Latest Artifact |\n|---|---|---|---|---|---|\n";
  for (auto& [chapter, c] : by_chapter)
    md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", chapter, c.fail, c.needs_work, c.skipped, c.total,
                      c.latest.empty() ? "-" : c.latest);
  bool header = false;
  for (auto& l : entries) {
    std::string sev = proof_of_benefit_severity(l.entry, min_speedup);
    if (sev == "ok") continue;
    if (!header) md += "\n## Needs attention\n\n", header = true;
    md += fmt::format("- {}:{} ({}): {:.3f}x; {}\n", l.chapter, l.entry.example, sev, best_improvement(l.entry),
                      md_cell(notes_for(l.entry, min_speedup)));
  }
  return md;
}

}  // namespace aisp
