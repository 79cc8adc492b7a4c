#include "core/expectation_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/json_io.hpp"
#include "core/verdict.hpp"

namespace aisp {
namespace fs = std::filesystem;

fs::path chapter_source_dir(const fs::path& root, const std::string& chapter) {
  if (root.empty() || chapter.empty()) return {};
  for (fs::path cand : {root / "chapters" / chapter, root / chapter}) {
    std::error_code ec;
    if (fs::is_directory(cand, ec)) return cand;
  }
  return {};
}

ExpectationProvenance provenance_from_manifest(const json& m, const fs::path& run_dir) {
  auto text = [](const json& j, const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
  };
  json hw = m.value("hardware", json::object()), git = m.value("git", json::object()),
       sw = m.value("software", json::object());
  ExpectationProvenance p;
  p.hardware_key = text(hw, "hardware_key");
  p.gpu = text(hw, "gpu_model");
  p.driver_version = text(hw, "driver_version");
  p.cuda_version = text(hw, "cuda_version");
  p.git_commit = text(git, "commit");
  p.git_dirty = git.is_object() && git.contains("dirty") && git["dirty"].is_boolean() && git["dirty"].get<bool>();
  p.timestamp = text(m, "start_time");
  p.mode = text(m, "mode");
  p.aisp_version = text(sw, "aisp_version");
  p.run_dir = run_dir.string();
  return p;
}

int ExpectationCheckReport::count(ExpectationStatus s) const {
  return static_cast<int>(std::count_if(rows.begin(), rows.end(), [&](auto& r) { return r.comparison.status == s; }));
}

json ExpectationCheckReport::to_json() const {
  json counts = json::object();
  for (auto s : {ExpectationStatus::ok, ExpectationStatus::regression, ExpectationStatus::improvement,
                 ExpectationStatus::new_entry, ExpectationStatus::not_comparable})
    counts[expectation_status_name(s)] = count(s);
  return {{"hardware_key", hardware_key}, {"tolerance", tolerance},          {"update", update},
          {"accept_regressions", accept_regressions}, {"counts", counts}, {"files_written", files_written},
          {"notes", notes}};
}

std::string ExpectationCheckReport::summary_line() const {
  std::string s = fmt::format("expectations ({}): {} ok, {} regression, {} improvement, {} new, {} not compared",
                              hardware_key, count(ExpectationStatus::ok), count(ExpectationStatus::regression),
                              count(ExpectationStatus::improvement), count(ExpectationStatus::new_entry),
                              count(ExpectationStatus::not_comparable));
  if (!files_written.empty()) s += fmt::format("; {} file(s) updated", files_written.size());
  else if (!update && (count(ExpectationStatus::new_entry) || count(ExpectationStatus::improvement)))
    s += " (record them with --update-expectations)";
  return s;
}

MachineSpread machine_spread_for(const json& raw, const TargetResult& t, const ExpectationEntry* expected) {
  MachineSpread m;
  if (raw.is_object()) {
    if (auto it = raw.find("between_machine_spread"); it != raw.end() && it->is_number() && it->get<double>() > 0) {
      // Beyond ±400% a band says nothing at all; a larger value is a typo, capped rather than trusted.
      m.relative = std::min(it->get<double>(), 4.0);
      m.source = "between_machine_spread";
      return m;
    }
    if (auto it = raw.find("host_bound"); it != raw.end() && it->is_boolean() && it->get<bool>()) {
      m.relative = kHostBoundSpread;
      m.source = "host_bound";
      return m;
    }
  }
  for (const VariantResult& v : t.optimizations) {
    bool compared = (expected && v.name == expected->best_optimization) || v.name == t.best_optimization;
    if (compared && !v.informational.empty()) {
      m.relative = kHostBoundSpread;
      m.source = "informational: " + v.informational;
      return m;
    }
  }
  return m;
}

ExpectationComparison compare_between_machines(const TargetResult& t, const ExpectationEntry* expected,
                                               double tolerance, const MachineSpread& spread) {
  if (!expected || spread.relative <= 0) return compare_expectation(t, expected, tolerance);
  ExpectationEntry widened = *expected;
  widened.ci_low = expected->ci_low / (1 + spread.relative);
  widened.ci_high = expected->ci_high * (1 + spread.relative);
  ExpectationComparison c = compare_expectation(t, &widened, tolerance);
  if (c.expected_ci_high > 0 && c.status != ExpectationStatus::not_comparable) {
    c.expected_ci_low = expected->ci_low;
    c.expected_ci_high = expected->ci_high;
    c.message += fmt::format("; checked against the between-machine band [{:.3f}, {:.3f}] (recorded CI ±{:.0f}%, {})",
                             widened.ci_low, widened.ci_high, 100 * spread.relative, spread.source);
  }
  return c;
}

namespace {

// The example objects of an expectations file as written, for the keys aisp's own reader does not keep
// (between_machine_spread, host_bound). Null when the file is missing or unreadable (the typed load reports
// that).
json raw_examples(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return nullptr;
  try {
    json j = read_json(file);
    return j.is_object() && j.contains("examples") && j["examples"].is_object() ? j["examples"] : json(nullptr);
  } catch (const std::exception&) {
    return nullptr;
  }
}

// The file aisp writes, with the hand-written between-machine keys of `raw` carried over for every example
// still in it: an --update-expectations run must not silently drop what a person recorded.
json with_machine_keys(json doc, const json& raw) {
  if (!raw.is_object()) return doc;
  for (auto& [name, entry] : doc["examples"].items()) {
    if (!raw.contains(name) || !raw[name].is_object()) continue;
    for (const char* key : {"between_machine_spread", "between_machine_spread_from", "host_bound"})
      if (raw[name].contains(key)) entry[key] = raw[name][key];
  }
  return doc;
}

// The `expectation` block written into a target result (seed: expectation{status, message, persisted}).
json expectation_json(const ExpectationCheckRow& r) {
  const ExpectationComparison& c = r.comparison;
  json j = {{"status", expectation_status_name(c.status)},
            {"message", c.message},
            {"variant", c.variant},
            {"speedup", c.speedup},
            {"ci_low", c.ci_low},
            {"ci_high", c.ci_high},
            {"tolerance", c.tolerance},
            {"file", r.file},
            {"persisted", r.written},
            {"accepted", r.accepted}};
  if (c.status != ExpectationStatus::new_entry && c.expected_ci_high > 0) {
    j["expected_speedup"] = c.expected_speedup;
    j["expected_ci_low"] = c.expected_ci_low;
    j["expected_ci_high"] = c.expected_ci_high;
  }
  if (r.spread.relative > 0) j["between_machine"] = {{"spread", r.spread.relative}, {"source", r.spread.source}};
  if (r.expected_provenance)
    j["expected_provenance"] = {{"timestamp", r.expected_provenance->timestamp},
                                {"git_commit", r.expected_provenance->git_commit},
                                {"driver_version", r.expected_provenance->driver_version},
                                {"cuda_version", r.expected_provenance->cuda_version}};
  return j;
}

}  // namespace

ExpectationCheckReport check_expectations(std::vector<TargetResult>& results, const std::string& hardware_key,
                                          const ExpectationProvenance& provenance, const ExpectationCheckOptions& o) {
  ExpectationCheckReport rep;
  rep.hardware_key = hardware_key;
  rep.tolerance = o.tolerance;
  rep.update = o.update;
  rep.accept_regressions = o.accept_regressions;
  if (hardware_key.empty() || hardware_key == "unknown") {
    rep.notes.push_back("no hardware key for this GPU: expectations not checked");
    return rep;
  }
  std::map<std::string, std::vector<TargetResult*>> by_chapter;
  for (auto& t : results) by_chapter[t.chapter].push_back(&t);
  for (auto& [chapter, targets] : by_chapter) {
    fs::path dir = chapter_source_dir(o.source_root, chapter);
    if (dir.empty()) {
      rep.notes.push_back(fmt::format("{}: no source directory under {}: expectations not checked", chapter,
                                      o.source_root.empty() ? "(unknown project root)" : o.source_root.string()));
      continue;
    }
    fs::path file = expectations_path(dir, hardware_key);
    ExpectationFile stored;
    try {
      stored = load_expectations(file, hardware_key);
    } catch (const std::exception& e) {
      // Corrupt: compare nothing, write nothing; the user's file stays exactly as it is.
      rep.notes.push_back(e.what());
      for (auto* t : targets)
        t->expectation = {{"status", "error"}, {"message", e.what()}, {"file", file.string()}, {"persisted", false}};
      continue;
    }
    const json raw = raw_examples(file);
    bool changed = false;
    std::vector<std::pair<size_t, TargetResult*>> done;  // rows of this chapter, filled in after the write
    for (TargetResult* t : targets) {
      ExpectationCheckRow row;
      row.target = t->id;
      row.chapter = chapter;
      row.file = file.string();
      const std::string key = expectation_key(*t);
      auto it = stored.examples.find(key);
      const ExpectationEntry* expected = it == stored.examples.end() ? nullptr : &it->second;
      if (expected) row.expected_provenance = expected->provenance;
      row.spread = machine_spread_for(raw.is_object() && raw.contains(key) ? raw[key] : json(nullptr), *t, expected);
      row.comparison = compare_between_machines(*t, expected, o.tolerance, row.spread);
      ExpectationStatus s = row.comparison.status;
      if (s == ExpectationStatus::regression) {
        row.accepted = o.accept_regressions;
        if (!row.accepted) {
          t->status = status::failed_regression;
          std::string why = "expectation regression: " + row.comparison.message;
          t->error = t->error.empty() ? why : t->error + "; " + why;
        }
      }
      if (!o.update) {
        row.action = s == ExpectationStatus::not_comparable ? "-"
                     : expected ? "kept"
                                : "not recorded (no --update-expectations)";
      } else if (!may_write_expectation(row.comparison, o.accept_regressions)) {
        row.action = s == ExpectationStatus::regression ? "kept: regression (--accept-regressions to replace)"
                                                        : "kept: not comparable";
      } else {
        std::string why;
        auto entry = entry_from_result(*t, provenance, &why);
        if (entry) {
          stored.examples[key] = *entry;
          row.written = changed = true;
          row.action = !expected ? "added" : row.comparison.workload_changed ? "replaced (other workload)" : "updated";
        } else {
          row.action = "not written: " + why;
        }
      }
      done.emplace_back(rep.rows.size(), t);
      rep.rows.push_back(std::move(row));
    }
    if (changed) {
      try {
        write_json_atomic(file, with_machine_keys(to_json(stored), raw));  // save_expectations, keys kept
        rep.files_written.push_back(file.string());
      } catch (const std::exception& e) {  // e.g. a read-only checkout: the run's results still stand
        rep.notes.push_back(fmt::format("could not write {}: {}", file.string(), e.what()));
        for (auto& [i, t] : done)
          if (rep.rows[i].written) rep.rows[i].written = false, rep.rows[i].action = "write failed";
      }
    }
    for (auto& [i, t] : done) t->expectation = expectation_json(rep.rows[i]);
  }
  return rep;
}

std::vector<ListedExpectation> list_expectations(const fs::path& root, const std::string& hardware,
                                                 std::vector<std::string>* errors) {
  std::vector<ListedExpectation> out;
  std::vector<std::pair<std::string, fs::path>> dirs;  // (chapter name, dir)
  std::error_code ec;
  for (auto [base, prefix] : {std::pair<fs::path, std::string>{root / "chapters", ""},
                              std::pair<fs::path, std::string>{root / "labs", "labs/"}})
    if (fs::is_directory(base, ec))
      for (auto& e : fs::directory_iterator(base, ec))
        if (e.is_directory()) dirs.emplace_back(prefix + e.path().filename().string(), e.path());
  const std::string stem = "expectations_";
  for (auto& [chapter, dir] : dirs) {
    for (auto& e : fs::directory_iterator(dir, ec)) {
      std::string name = e.path().filename().string();
      if (name.rfind(stem, 0) != 0 || e.path().extension() != ".json") continue;
      std::string key = name.substr(stem.size(), name.size() - stem.size() - 5);
      if (!hardware.empty() && key != hardware && key.rfind(hardware + "_", 0) != 0) continue;
      try {
        ExpectationFile f = load_expectations(e.path(), key);
        for (auto& [example, entry] : f.examples) out.push_back({chapter, key, e.path(), entry});
      } catch (const std::exception& ex) {
        if (errors) errors->push_back(ex.what());
      }
    }
  }
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) {
    return std::tie(a.chapter, a.entry.example, a.hardware_key) < std::tie(b.chapter, b.entry.example, b.hardware_key);
  });
  return out;
}

}  // namespace aisp
