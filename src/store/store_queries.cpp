// Read side of the store: runs, a run rebuilt as results, a target's history with change points, and
// two runs compared target by target.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "store/run_rows.hpp"
#include "store/sqlite_db.hpp"
#include "store/store.hpp"

namespace aisp {
namespace fs = std::filesystem;

namespace {

constexpr const char* kRunColumns =
    "r.id, r.run_key, r.stamp, r.label, r.kind, r.mode, r.started_at, r.ended_at, r.git_commit, r.git_branch, "
    "r.git_dirty, r.hardware_key, r.gpu_model, r.complete, r.run_dir, "
    "(SELECT count(*) FROM targets t2 WHERE t2.run_id = r.id)";
constexpr int kRunColumnCount = 16;
// Chronological: the stamp is the run directory's start time; the id breaks ties (same second).
constexpr const char* kRunOrder = "coalesce(r.stamp, ''), r.id";

RunInfo run_from(const sql::Statement& st) {
  RunInfo r;
  r.id = st.int64(0);
  r.key = st.text(1);
  r.stamp = st.text(2);
  r.label = st.text(3);
  r.kind = st.text(4);
  r.mode = st.text(5);
  r.started_at = st.text(6);
  r.ended_at = st.text(7);
  r.git_commit = st.text(8);
  r.git_branch = st.text(9);
  r.git_dirty = st.int64(10) != 0;
  r.hardware_key = st.text(11);
  r.gpu_model = st.text(12);
  r.complete = st.int64(13) != 0;
  r.run_dir = st.text(14);
  r.targets = st.int64(15);
  return r;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::vector<double> gpu_samples(sql::Db& db, int64_t variant_id) {
  std::vector<double> out;
  sql::Statement st(db, "SELECT value_ms FROM samples WHERE variant_id = ? AND kind = 'gpu' ORDER BY seq");
  st.bind(1, variant_id);
  while (st.step()) out.push_back(st.real(0));
  return out;
}

}  // namespace

std::vector<std::string> nearest_names(const std::vector<std::string>& names, const std::string& query, size_t limit) {
  std::vector<std::pair<size_t, std::string>> scored;
  for (auto& n : names) scored.push_back({edit_distance(n, query), n});
  std::stable_sort(scored.begin(), scored.end(), [](auto& x, auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < limit; ++i) out.push_back(scored[i].second);
  return out;
}

std::optional<RunInfo> run_row(sql::Db& db, int64_t id) {
  sql::Statement st(db, fmt::format("SELECT {} FROM runs r WHERE r.id = ?", kRunColumns));
  st.bind(1, id);
  if (!st.step()) return std::nullopt;
  return run_from(st);
}

std::vector<RunInfo> Store::list_runs() {
  std::vector<RunInfo> out;
  sql::Statement st(*db_, fmt::format("SELECT {} FROM runs r ORDER BY {}", kRunColumns, kRunOrder));
  while (st.step()) out.push_back(run_from(st));
  return out;
}

RunInfo Store::resolve_run(const std::string& spec) {
  std::vector<RunInfo> runs = list_runs();
  if (runs.empty()) throw std::runtime_error(fmt::format("the store {} holds no runs", path().string()));
  if (spec == "latest") return runs.back();
  if (spec == "previous") {
    if (runs.size() < 2) throw std::runtime_error(fmt::format("the store {} holds only one run", path().string()));
    return runs[runs.size() - 2];
  }
  if (!spec.empty() && std::all_of(spec.begin(), spec.end(), [](char c) { return c >= '0' && c <= '9'; }))
    for (auto& r : runs)
      if (std::to_string(r.id) == spec) return r;
  // A path to the run directory (or to a file in it) names it by its directory name.
  fs::path p(spec);
  std::string name = p.filename().empty() ? p.parent_path().filename().string() : p.filename().string();
  if (name == "manifest.json") name = p.parent_path().filename().string();
  std::vector<const RunInfo*> prefixed;
  for (auto& r : runs) {
    if (r.key == spec || r.key == name) return r;
    if (!name.empty() && r.key.rfind(name, 0) == 0) prefixed.push_back(&r);
  }
  if (prefixed.size() == 1) return *prefixed.front();
  std::vector<std::string> keys;
  for (auto& r : runs) keys.push_back(r.key);
  if (prefixed.size() > 1) {
    std::vector<std::string> hits;
    for (auto* r : prefixed) hits.push_back(r->key);
    throw std::runtime_error(fmt::format("run '{}' is ambiguous in {}: {}", spec, path().string(), fmt::join(hits, ", ")));
  }
  throw std::runtime_error(fmt::format("unknown run '{}' in {} (nearest: {}; list them with: aisp bench runs)", spec,
                                       path().string(), fmt::join(nearest_names(keys, name), ", ")));
}

std::vector<std::string> Store::target_ids() {
  std::vector<std::string> out;
  sql::Statement st(*db_, "SELECT DISTINCT target FROM targets ORDER BY target");
  while (st.step()) out.push_back(st.text(0));
  return out;
}

std::vector<TargetResult> Store::load_run(int64_t run_id) {
  std::vector<TargetResult> out;
  sql::Statement targets(*db_, "SELECT id, doc FROM targets WHERE run_id = ? ORDER BY id");
  sql::Statement variants(*db_, "SELECT id, doc FROM variants WHERE target_row = ? ORDER BY position");
  sql::Statement samples(*db_, "SELECT kind, value_ms FROM samples WHERE variant_id = ? ORDER BY kind, seq");
  targets.bind(1, run_id);
  while (targets.step()) {
    json doc = json::parse(targets.text(1));
    doc["optimizations"] = json::array();
    variants.bind(1, targets.int64(0));
    for (bool first = true; variants.step(); first = false) {
      json v = json::parse(variants.text(1));
      std::map<std::string, std::vector<double>> by_kind;
      samples.bind(1, variants.int64(0));
      while (samples.step()) by_kind[samples.text(0)].push_back(samples.real(1));
      samples.reset();
      v["raw_times_ms"] = by_kind["gpu"];
      v["raw_wall_ms"] = by_kind["wall"];
      if (v.contains("validity") && v["validity"].is_object()) v["validity"]["audit_samples_ms"] = by_kind["audit"];
      if (first) doc["baseline"] = std::move(v);
      else doc["optimizations"].push_back(std::move(v));
    }
    variants.reset();
    out.push_back(target_from_json(doc));
  }
  return out;
}

std::vector<HistoryRow> Store::history(const std::string& target, const std::string& hardware_key,
                                       const ChangePointOptions& options) {
  std::string sql = fmt::format(
      "SELECT {}, v.position, v.name, v.status, v.verdict, v.median_ms, v.median_low_ms, v.median_high_ms, "
      "v.speedup, v.ci_low, v.ci_high, t.status FROM targets t JOIN runs r ON r.id = t.run_id "
      "JOIN variants v ON v.target_row = t.id WHERE t.target = ?1 AND (?2 = '' OR r.hardware_key = ?2) "
      "ORDER BY {}, v.position",
      kRunColumns, kRunOrder);
  sql::Statement st(*db_, sql);
  st.bind(1, target).bind(2, hardware_key);
  std::vector<HistoryRow> rows;
  HistoryRow base;  // the current run's baseline, copied into each of its variant rows
  bool pending = false;  // `base` has no variant row yet
  int c = kRunColumnCount;
  while (st.step()) {
    if (st.int64(c) == 0) {
      if (pending) rows.push_back(base);  // a run with a baseline result only
      base = HistoryRow{};
      base.run = run_from(st);
      base.status = st.text(c + 10);
      base.baseline_ms = st.real(c + 4);
      base.baseline_low = st.real(c + 5);
      base.baseline_high = st.real(c + 6);
      base.variant_ms = base.variant_low = base.variant_high = std::nan("");
      base.speedup = base.ci_low = base.ci_high = std::nan("");
      pending = true;
      continue;
    }
    HistoryRow r = base;
    r.variant = st.text(c + 1);
    r.status = st.text(c + 2);
    r.verdict = st.text(c + 3);
    r.variant_ms = st.real(c + 4);
    r.variant_low = st.real(c + 5);
    r.variant_high = st.real(c + 6);
    r.speedup = st.real(c + 7);
    r.ci_low = st.real(c + 8);
    r.ci_high = st.real(c + 9);
    rows.push_back(r);
    pending = false;
  }
  if (pending) rows.push_back(base);

  // Series per (hardware, timing mode, variant): another GPU or another mode is another series, not a
  // level shift. The baseline series has one point per run. A failed variant's 0 ms median is
  // no measurement, so it is left out (NaN) rather than read as a huge speedup.
  auto point = [](double v, double lo, double hi) {
    return SeriesPoint{v > 0 ? v : std::nan(""), lo, hi};
  };
  std::map<std::string, std::vector<size_t>> variant_series, baseline_series;
  for (size_t i = 0; i < rows.size(); ++i) {
    std::string series = rows[i].run.hardware_key + '\n' + rows[i].run.mode;
    variant_series[series + '\n' + rows[i].variant].push_back(i);
    auto& b = baseline_series[series];
    if (b.empty() || rows[b.back()].run.id != rows[i].run.id) b.push_back(i);
  }
  for (auto& [key, idx] : variant_series) {
    std::vector<SeriesPoint> s;
    for (size_t i : idx) s.push_back(point(rows[i].variant_ms, rows[i].variant_low, rows[i].variant_high));
    for (auto& cp : detect_change_points(s, options)) rows[idx[cp.index]].variant_change = cp;
  }
  for (auto& [key, idx] : baseline_series) {
    std::vector<SeriesPoint> s;
    for (size_t i : idx) s.push_back(point(rows[i].baseline_ms, rows[i].baseline_low, rows[i].baseline_high));
    for (auto& cp : detect_change_points(s, options))
      for (auto& r : rows)
        if (r.run.id == rows[idx[cp.index]].run.id) r.baseline_change = cp;
  }
  return rows;
}

std::vector<CompareRow> Store::compare_runs(int64_t run_a, int64_t run_b) {
  struct Side {
    int64_t variant_id;
    double ms, low, high;
  };
  using Key = std::pair<std::string, std::string>;
  auto load = [&](int64_t run, std::vector<Key>& order) {
    std::map<Key, Side> out;
    sql::Statement st(*db_, "SELECT t.target, v.position, v.name, v.id, v.median_ms, v.median_low_ms, v.median_high_ms "
                            "FROM targets t JOIN variants v ON v.target_row = t.id WHERE t.run_id = ? "
                            "ORDER BY t.target, v.position");
    st.bind(1, run);
    while (st.step()) {
      Key k{st.text(0), st.int64(1) == 0 ? "baseline" : st.text(2)};
      if (out.emplace(k, Side{st.int64(3), st.real(4), st.real(5), st.real(6)}).second) order.push_back(k);
    }
    return out;
  };
  std::vector<Key> order, order_b;
  auto a = load(run_a, order);
  auto b = load(run_b, order_b);
  for (auto& k : order_b)
    if (!a.count(k)) order.push_back(k);
  std::stable_sort(order.begin(), order.end(), [](const Key& x, const Key& y) { return x.first < y.first; });

  std::vector<CompareRow> rows;
  for (auto& k : order) {
    CompareRow r;
    r.target = k.first;
    r.variant = k.second;
    auto ia = a.find(k), ib = b.find(k);
    r.in_a = ia != a.end();
    r.in_b = ib != b.end();
    const double nan = std::nan("");
    r.a_ms = r.in_a ? ia->second.ms : nan, r.a_low = r.in_a ? ia->second.low : nan, r.a_high = r.in_a ? ia->second.high : nan;
    r.b_ms = r.in_b ? ib->second.ms : nan, r.b_low = r.in_b ? ib->second.low : nan, r.b_high = r.in_b ? ib->second.high : nan;
    r.ratio = r.speedup = r.ci_low = r.ci_high = nan;
    if (!r.in_a || !r.in_b) {
      r.change = r.in_a ? "only in A" : "only in B";
      rows.push_back(r);
      continue;
    }
    std::vector<double> sa = gpu_samples(*db_, ia->second.variant_id), sb = gpu_samples(*db_, ib->second.variant_id);
    if (r.a_ms > 0 && r.b_ms > 0) r.ratio = r.b_ms / r.a_ms;
    r.ci_overlap = !(r.a_high < r.b_low || r.b_high < r.a_low);
    if (sa.size() < 2 || sb.size() < 2) {
      r.change = "no samples";
      rows.push_back(r);
      continue;
    }
    Interval s = bootstrap_speedup_ci(sa, sb);
    r.speedup = s.point, r.ci_low = s.low, r.ci_high = s.high;
    r.p_value = mann_whitney_p(sa, sb);
    // Symmetric 5% band (asv / conbench default): run-to-run drift below it is not called a change, and a
    // CI that straddles a band edge is "unclear" rather than guessed.
    constexpr double band = 1.05;
    if (s.low > band) r.change = "faster";
    else if (s.high < 1 / band) r.change = "slower";
    else if (s.low >= 1 / band && s.high <= band) r.change = "same";
    else r.change = "unclear";
    rows.push_back(r);
  }
  return rows;
}

}  // namespace aisp
