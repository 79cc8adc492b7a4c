// Results endpoints: benchmarks (latest result per target), summary, runs, one run, targets, a target's
// history and samples, and two runs compared.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/discovery.hpp"
#include "core/verdict.hpp"
#include "serve/api.hpp"
#include "serve/result_json.hpp"

namespace aisp::serve {
namespace fs = std::filesystem;

namespace {

// Page of `items` after filtering: {total, offset, limit, <name>: [...]}.
json page(const json& items, const Query& q, const char* name, int64_t default_limit, int64_t max_limit) {
  int64_t limit = q.integer("limit", default_limit, 1, max_limit);
  int64_t offset = q.integer("offset", 0, 0, 1'000'000'000);
  json slice = json::array();
  for (int64_t i = offset; i < static_cast<int64_t>(items.size()) && i < offset + limit; ++i) slice.push_back(items[i]);
  return {{"total", items.size()}, {"offset", offset}, {"limit", limit}, {name, slice}};
}

const TargetResult* find_target(const analysis::RunData& run, const std::string& id) {
  for (auto& t : run.targets)
    if (t.id == id) return &t;
  return nullptr;
}

bool contains(const std::string& haystack, const std::string& needle) {
  return needle.empty() || haystack.find(needle) != std::string::npos;
}

// .cu files under a bench root, relative to it; build trees, dependencies and VCS folders are skipped,
// and the walk stops after a bound so a mistaken --bench-root=/ cannot stall a request.
std::vector<std::string> bench_root_sources(const fs::path& root) {
  std::vector<std::string> out;
  std::error_code ec;
  if (root.empty() || !fs::is_directory(root, ec)) return out;
  auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
  size_t visited = 0;
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (++visited > 50000) break;
    std::string name = it->path().filename().string();
    if (it->is_directory(ec) && (name.rfind("build", 0) == 0 || name == "node_modules" || name.rfind('.', 0) == 0 ||
                                 name == "artifacts")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->path().extension() == ".cu") out.push_back(fs::relative(it->path(), root, ec).string());
  }
  return out;
}

}  // namespace

Api::Api(StoreView& store, ApiConfig config) : store_(store), config_(std::move(config)) {}

void Api::require_target(const std::string& target) {
  auto ids = store_.target_ids();
  if (std::find(ids.begin(), ids.end(), target) != ids.end()) return;
  throw not_found(fmt::format("unknown target '{}' (nearest stored: {})", target, fmt::join(nearest_names(ids, target), ", ")));
}

std::vector<StoreView::Latest> Api::latest_filtered(const Query& q) {
  std::string hw = q.text("hardware"), chapter = q.text("chapter");
  std::vector<StoreView::Latest> out;
  for (auto& l : store_.latest_results()) {
    if (!hw.empty() && l.hardware_key != hw) continue;
    if (!chapter.empty() && l.target.substr(0, l.target.rfind(':')) != chapter) continue;
    out.push_back(l);
  }
  return out;
}

json Api::benchmarks(const Query& q) {
  q.only({"hardware", "chapter", "status", "badge", "q", "limit", "offset"});
  std::map<int64_t, RunInfo> runs;
  for (auto& r : store_.runs()) runs[r.id] = r;
  std::string want_status = q.text("status"), want_badge = q.text("badge"), text = q.text("q");
  json items = json::array();
  for (auto& l : latest_filtered(q)) {
    if (!contains(l.target, text)) continue;
    auto run = runs.find(l.run_id);
    if (run == runs.end()) continue;  // stored between the two queries: the next request shows it
    auto data = store_.run(run->second);
    const TargetResult* t = find_target(*data, l.target);
    if (!t) continue;
    json j = target_json(*t);
    if (!want_status.empty() && t->status != want_status) continue;
    if (!want_badge.empty() && j["badge"] != want_badge) continue;
    j["hardware_key"] = l.hardware_key;
    j["gpu_model"] = run->second.gpu_model;
    j["run"] = {{"id", run->second.id}, {"key", run->second.key}, {"stamp", run->second.stamp},
                {"complete", run->second.complete}};
    items.push_back(std::move(j));
  }
  return page(items, q, "benchmarks", 1000, 10000);
}

json Api::summary(const Query& q) {
  q.only({});
  auto runs = store_.runs();
  std::set<std::string> hardware;
  int64_t complete = 0, calibration = 0;
  for (auto& r : runs) {
    if (!r.hardware_key.empty()) hardware.insert(r.hardware_key);
    complete += r.complete;
    calibration += is_calibration(r);
  }
  json latest = benchmarks(Query(Query::Map{}))["benchmarks"];
  std::map<std::string, int64_t> by_status, by_badge;
  double log_sum = 0;
  int64_t speedups = 0;
  json regressions = json::array();
  for (auto& b : latest) {
    by_status[b["status"].get<std::string>()]++;
    by_badge[b["badge"].get<std::string>()]++;
    if (b["status"] == status::succeeded && b["best_speedup"].is_number()) {
      log_sum += std::log(b["best_speedup"].get<double>());
      ++speedups;
    }
    bool expectation_regressed = b["expectation"].is_object() && b["expectation"]["status"] == "regression";
    if (b["status"] == status::failed_regression || expectation_regressed)
      regressions.push_back({{"target", b["target"]}, {"hardware_key", b["hardware_key"]}, {"run", b["run"]}});
  }
  json active = progress(Query(Query::Map{}))["active"];
  return {{"store", store_.path().string()},
          {"dataset", dataset_json()},
          {"runs", runs.size()},
          {"complete_runs", complete},
          {"calibration_runs", calibration},
          {"targets", store_.target_ids().size()},
          {"hardware_keys", hardware},
          {"latest_run", runs.empty() ? json(nullptr) : run_json(runs.back())},
          {"latest_results", latest.size()},
          {"by_status", by_status},
          {"by_badge", by_badge},
          // Geometric mean of the best speedups of succeeded targets (their newest result per GPU).
          {"geomean_best_speedup", speedups ? json(std::exp(log_sum / static_cast<double>(speedups))) : json(nullptr)},
          {"geomean_over", speedups},
          {"regressions", regressions},
          {"runs_in_progress", active.size()}};
}

json Api::runs(const Query& q) {
  q.only({"hardware", "mode", "label", "complete", "calibration", "order", "limit", "offset"});
  std::string hw = q.text("hardware"), mode = q.text("mode"), label = q.text("label");
  bool newest_first = q.choice("order", {"desc", "asc"}, "desc") == "desc";
  bool any_complete = !q.has("complete"), want_complete = q.flag("complete", true);
  bool with_calibration = q.flag("calibration", true);
  auto runs = store_.runs();
  // Each run's predecessor for a like-with-like comparison: the previous benchmark run (not A/A) on the
  // same GPU type and timing mode. The UI's default comparison and "compare with previous" links use it.
  std::map<int64_t, int64_t> previous_same;
  {
    std::map<std::pair<std::string, std::string>, int64_t> last;
    for (auto& r : runs) {
      if (is_calibration(r)) continue;
      auto key = std::make_pair(r.hardware_key, r.mode);
      if (auto it = last.find(key); it != last.end()) previous_same[r.id] = it->second;
      last[key] = r.id;
    }
  }
  if (newest_first) std::reverse(runs.begin(), runs.end());
  json items = json::array();
  for (auto& r : runs) {
    if (!hw.empty() && r.hardware_key != hw) continue;
    if (!mode.empty() && r.mode != mode) continue;
    if (!contains(r.label + " " + r.key, label)) continue;
    if (!any_complete && r.complete != want_complete) continue;
    if (!with_calibration && is_calibration(r)) continue;
    json j = run_json(r);
    auto prev = previous_same.find(r.id);
    j["previous_same"] = prev == previous_same.end() ? json(nullptr) : json(prev->second);
    items.push_back(std::move(j));
  }
  json out = page(items, q, "runs", 50, 500);
  out["order"] = newest_first ? "desc" : "asc";
  return out;
}

json Api::run(const std::string& spec, const Query& q) {
  q.only({});
  RunInfo info = store_.resolve(spec);
  auto data = store_.run(info);
  json targets = json::array();
  for (auto& t : data->targets) targets.push_back(target_json(t));
  return {{"run", run_json(info)}, {"manifest", data->manifest}, {"targets", targets}};
}

json Api::targets(const Query& q) {
  q.only({"hardware"});
  std::string hw = q.text("hardware");
  std::map<std::string, json> by_id;
  for (auto& id : store_.target_ids())
    by_id[id] = {{"target", id}, {"measured", true}, {"latest", json::array()}};
  for (auto& l : store_.latest_results())
    if (hw.empty() || l.hardware_key == hw) by_id[l.target]["latest"].push_back({{"hardware_key", l.hardware_key}, {"run_id", l.run_id}});
  int64_t discovered = 0;
  for (auto& t : discover_targets(bench_root_sources(config_.bench_root), ".cu")) {
    ++discovered;
    if (!by_id.count(t.id)) by_id[t.id] = {{"target", t.id}, {"measured", false}, {"latest", json::array()}};
    json names = json::array();
    for (auto& v : t.optimized) names.push_back(v.name);
    by_id[t.id]["variants_in_bench_root"] = names;
  }
  json items = json::array();
  for (auto& [id, j] : by_id) {
    j["chapter"] = id.substr(0, id.rfind(':'));
    j["example"] = id.substr(id.rfind(':') + 1);
    items.push_back(j);
  }
  return {{"targets", items},
          {"bench_root", config_.bench_root.empty() ? json(nullptr) : json(config_.bench_root.string())},
          {"discovered_in_bench_root", discovered}};
}

json Api::target_history(const std::string& target, const Query& q) {
  q.only({"hardware", "mode"});
  require_target(target);
  std::string mode = q.choice("mode", {"cold", "hot", "graph"}, "");
  json rows = json::array();
  std::set<std::string> hardware, modes;
  for (auto& r : store_.history(target, q.text("hardware"))) {
    if (is_calibration(r.run)) continue;  // an A/A run's "speedup" is the noise floor, not this target's history
    if (!mode.empty() && r.run.mode != mode) continue;
    hardware.insert(r.run.hardware_key);
    modes.insert(r.run.mode);
    json row = history_row_json(r);
    // A regression is decided on the target (its expectation), not on the variant, whose own status stays
    // "succeeded": the row of the variant the expectation was checked on shows it (never a green FASTER).
    auto data = store_.run(r.run);
    if (const TargetResult* t = find_target(*data, target); t && t->status == status::failed_regression) {
      std::string checked = t->expectation.is_object() ? t->expectation.value("variant", "") : "";
      if (r.variant == (checked.empty() ? t->best_optimization : checked)) {
        row["badge"] = "REGRESSION";
        row["reason"] = target_reason(*t);
      }
    }
    rows.push_back(std::move(row));
  }
  return {{"target", target}, {"hardware_keys", hardware}, {"modes", modes}, {"rows", rows}};
}

json Api::target_result(const std::string& target, const Query& q) {
  q.only({"run"});
  require_target(target);
  RunInfo info;
  if (q.has("run")) {
    info = store_.resolve(q.text("run"));
  } else {
    std::set<int64_t> candidates;
    for (auto& l : store_.latest_results())
      if (l.target == target) candidates.insert(l.run_id);
    auto runs = store_.runs();
    auto newest = std::find_if(runs.rbegin(), runs.rend(), [&](const RunInfo& r) { return candidates.count(r.id) > 0; });
    if (newest == runs.rend()) throw not_found(fmt::format("target '{}' has only calibration runs; pass ?run=", target));
    info = *newest;
  }
  auto data = store_.run(info);
  const TargetResult* t = find_target(*data, target);
  if (!t) throw not_found(fmt::format("run {} ({}) has no result for '{}'", info.id, info.key, target));
  return {{"run", run_json(info)}, {"target", target_json(*t, true)}};
}

json Api::compare(const Query& q) {
  q.only({"baseline", "candidate", "target", "change"});
  if (!q.has("baseline") || !q.has("candidate"))
    throw bad_request("both 'baseline' and 'candidate' are required (a run id, key, unique prefix, latest or previous)");
  RunInfo a = store_.resolve(q.text("baseline")), b = store_.resolve(q.text("candidate"));
  std::string only_target = q.text("target"), only_change = q.text("change");
  json rows = json::array();
  std::map<std::string, int64_t> counts;
  for (auto& r : store_.compare(a, b)) {
    if (!only_target.empty() && r.target != only_target) continue;
    if (!only_change.empty() && r.change != only_change) continue;
    counts[r.change]++;
    rows.push_back(compare_row_json(r));
  }
  json notes = json::array();
  if (a.hardware_key != b.hardware_key)
    notes.push_back(fmt::format("different hardware: {} vs {}: differences include the GPU", a.hardware_key, b.hardware_key));
  if (a.mode != b.mode) notes.push_back(fmt::format("different timing modes: {} vs {}", a.mode, b.mode));
  if (a.id == b.id) notes.push_back("the same run on both sides");
  return {{"baseline", run_json(a)}, {"candidate", run_json(b)}, {"counts", counts}, {"notes", notes}, {"rows", rows},
          {"rule", "speedup = baseline median / candidate median with a bootstrap 95% CI from both runs' samples; "
                   "faster: CI above 1.05, slower: CI below 1/1.05, same: CI inside that band, else unclear"}};
}

}  // namespace aisp::serve
