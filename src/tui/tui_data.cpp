#include "tui/tui_data.hpp"

#include <algorithm>
#include <chrono>
#include <map>

#include "core/json_io.hpp"

namespace aisp {
namespace fs = std::filesystem;
namespace {

// The best optimized variant of a stored target: highest speedup among the measured ones; an INVALID
// or failed variant is only shown when nothing else exists (its verdict says so).
TuiTarget summarize(const TargetResult& t, const LatestResult& where, const RunInfo& run) {
  TuiTarget row;
  row.target = t.id;
  row.hardware_key = where.hardware_key;
  row.run_key = run.key;
  row.status = t.status;
  row.baseline_ms = t.baseline.timing.median;
  row.variants = static_cast<int>(t.optimizations.size());
  const VariantResult* best = nullptr;
  for (auto& v : t.optimizations) {
    bool measured = v.speedup > 0 && v.verdict != "INVALID";
    bool best_measured = best && best->speedup > 0 && best->verdict != "INVALID";
    if (!best || (measured && (!best_measured || v.speedup > best->speedup))) best = &v;
  }
  if (best) {
    row.best_variant = best->name;
    row.verdict = best->verdict.empty() ? best->status : best->verdict;
    row.best_ms = best->timing.median;
    row.speedup = best->speedup;
    row.ci_low = best->ci_low;
    row.ci_high = best->ci_high;
  }
  return row;
}

std::vector<TuiTarget> stored_targets(Store& store, const std::vector<RunInfo>& runs) {
  std::map<int64_t, const RunInfo*> by_id;
  for (auto& r : runs) by_id[r.id] = &r;
  std::map<int64_t, std::vector<TargetResult>> loaded;  // one load per run, however many targets it holds
  std::vector<TuiTarget> out;
  for (auto& latest : store.latest_results()) {
    auto run = by_id.find(latest.run_id);
    if (run == by_id.end()) continue;
    auto it = loaded.find(latest.run_id);
    if (it == loaded.end()) it = loaded.emplace(latest.run_id, store.load_run(latest.run_id)).first;
    for (auto& t : it->second)
      if (t.id == latest.target) out.push_back(summarize(t, latest, *run->second));
  }
  return out;
}

}  // namespace

std::vector<LiveRun> find_live_runs(const fs::path& artifacts_dir) {
  std::vector<LiveRun> live;
  std::error_code ec;
  fs::path runs = artifacts_dir / "runs";
  if (!fs::is_directory(runs, ec)) return live;
  for (auto& e : fs::directory_iterator(runs, ec)) {
    fs::path file = e.path() / "progress" / "run_progress.json";
    if (!fs::is_regular_file(file, ec)) continue;
    json p = json::parse(read_file(file), nullptr, false);
    if (!p.is_object()) continue;
    std::string state = p.value("state", "");
    if (state != "starting" && state != "running") continue;
    LiveRun r;
    r.run_key = e.path().filename().string();
    r.state = state;
    r.target = p.value("target", "");
    r.completed = p.value("completed", size_t{0});
    r.total = p.value("total", size_t{0});
    r.elapsed_s = p.value("elapsed_s", 0.0);
    r.estimate = p.value("estimate", "");
    auto written = fs::last_write_time(file, ec);
    if (!ec)
      r.age_s = std::chrono::duration<double>(fs::file_time_type::clock::now() - written).count();
    live.push_back(r);
  }
  std::sort(live.begin(), live.end(), [](auto& a, auto& b) { return a.run_key > b.run_key; });
  return live;
}

TuiData load_tui_data(const fs::path& store_path, const fs::path& artifacts_dir) {
  TuiData d;
  d.store_path = store_path;
  d.artifacts_dir = artifacts_dir;
  d.live = find_live_runs(artifacts_dir);
  if (!fs::exists(store_path)) {
    d.store_note = "no results store at " + store_path.string() + " (a finished `aisp bench run` creates it)";
    return d;
  }
  try {
    Store store = Store::open_read_only(store_path);
    d.runs = store.list_runs();
    d.targets = stored_targets(store, d.runs);
  } catch (const std::exception& e) {
    d.store_note = e.what();
  }
  return d;
}

std::vector<HistoryRow> load_tui_history(const fs::path& store_path, const std::string& target) {
  if (!fs::exists(store_path)) return {};
  try {
    // A/A calibration runs time a baseline against itself: their "speedup" is noise, not history.
    std::vector<HistoryRow> rows;
    for (auto& r : Store::open_read_only(store_path).history(target))
      if (!is_calibration(r.run)) rows.push_back(r);
    return rows;
  } catch (const std::exception&) {
    return {};
  }
}

}  // namespace aisp
