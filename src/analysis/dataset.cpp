// Loading what the analyses read: runs from the SQLite store (the default, through Store::load_runs, the
// same loader the dashboard uses) or one results file, with the run manifest (for the device's ceilings)
// and telemetry (for energy).
#include <fmt/format.h>

#include <algorithm>

#include "analysis/dataset.hpp"
#include "core/file_names.hpp"
#include "core/json_io.hpp"
#include "store/store.hpp"

namespace aisp::analysis {
namespace fs = std::filesystem;
namespace {

Hardware hardware_from_manifest(const json& manifest, const std::string& gpu_model, const std::string& hwkey) {
  Hardware hw;
  hw.gpu_model = gpu_model;
  hw.hardware_key = hwkey;
  if (!manifest.is_object()) return hw;
  json gpu = manifest.contains("gpus") && manifest["gpus"].is_array() && !manifest["gpus"].empty() ? manifest["gpus"][0]
                                                                                                     : json::object();
  auto num = [&](const char* k) { return gpu.contains(k) && gpu[k].is_number() ? gpu[k].get<double>() : 0.0; };
  DeviceInfo& d = hw.device;
  d.name = gpu.value("name", gpu_model);
  d.uuid = gpu.value("uuid", "");
  d.cc_major = static_cast<int>(num("cc_major"));
  d.cc_minor = static_cast<int>(num("cc_minor"));
  d.sm_count = static_cast<int>(num("sm_count"));
  d.global_memory_bytes = static_cast<int64_t>(num("global_memory_bytes"));
  d.l2_bytes = static_cast<int64_t>(num("l2_bytes"));
  d.memory_bus_width_bits = static_cast<int>(num("memory_bus_width_bits"));
  d.sm_clock_max_mhz = num("sm_clock_max_mhz");
  d.mem_clock_max_mhz = num("mem_clock_max_mhz");
  if (num("power_limit_w") > 0) hw.power_limit_w = num("power_limit_w");
  if (hw.gpu_model.empty()) hw.gpu_model = d.name;
  if (hw.hardware_key.empty()) hw.hardware_key = gpu.value("hardware_key", "");
  if (hw.hardware_key.empty() && manifest.contains("hardware"))
    hw.hardware_key = manifest["hardware"].value("hardware_key", "");
  return hw;
}

void add_series(Telemetry& t, const std::string& target, const std::string& variant, const std::string& metric,
                const json& val) {
  std::vector<double>& out = t[target][variant][metric];
  if (val.is_number()) out.push_back(val.get<double>());
  else if (val.is_array())
    for (auto& x : val)
      if (x.is_number()) out.push_back(x.get<double>());
  if (out.empty()) t[target][variant].erase(metric);
}

// A results file's variants may carry numeric series the TargetResult struct does not keep: a
// "telemetry" object, or energy figures at the variant's top level.
void telemetry_from_results(const json& doc, Telemetry& t) {
  for (auto& chapter : doc.value("results", json::array()))
    for (auto& b : chapter.value("benchmarks", json::array())) {
      std::string target = b.value("target", "");
      std::vector<const json*> variants;
      if (b.contains("baseline")) variants.push_back(&b["baseline"]);
      if (b.contains("optimizations") && b["optimizations"].is_array())
        for (auto& o : b["optimizations"]) variants.push_back(&o);  // pointers into `doc`, not into a copy
      for (const json* v : variants) {
        std::string name = v->value("name", "");
        if (v->contains("telemetry") && (*v)["telemetry"].is_object())
          for (auto& [k, val] : (*v)["telemetry"].items()) add_series(t, target, name, k, val);
        for (auto& [k, val] : v->items())
          if (k.rfind("energy", 0) == 0 || k.rfind("block_energy", 0) == 0 || k == "block_runs") add_series(t, target, name, k, val);
      }
    }
}

// samples/<target>.json beside the results: per-variant arrays besides the timings (power_w, energy ...).
void telemetry_from_samples(const fs::path& run_dir, const std::vector<TargetResult>& targets, Telemetry& t) {
  for (auto& target : targets) {
    fs::path f = run_dir / "samples" / (file_slug(target.id) + ".json");
    if (!fs::is_regular_file(f)) continue;
    json s;
    try {
      s = read_json(f);
    } catch (const std::exception&) {
      continue;  // the timings came from the results file; a broken side file only costs telemetry
    }
    for (auto& v : s.value("variants", json::array())) {
      if (!v.is_object()) continue;
      for (auto& [k, val] : v.items())
        if (k != "name" && k != "gpu_ms" && k != "wall_ms" && k != "discarded")
          add_series(t, target.id, v.value("name", ""), k, val);
    }
  }
}

}  // namespace

RunData run_data_of(StoredRun run) {
  RunData r;
  r.id = run.info.id;
  r.key = std::move(run.info.key);
  r.stamp = std::move(run.info.stamp);
  r.label = std::move(run.info.label);
  r.mode = std::move(run.info.mode);
  r.git_commit = std::move(run.info.git_commit);
  r.hardware_key = std::move(run.info.hardware_key);
  r.gpu_model = std::move(run.info.gpu_model);
  r.targets = std::move(run.targets);
  r.telemetry = std::move(run.telemetry);
  r.manifest = std::move(run.manifest);
  return r;
}

Dataset load_store(const fs::path& db, const std::string& run_spec, size_t history_runs) {
  Store store = Store::open(db, false);
  RunInfo chosen = store.resolve_run(run_spec.empty() ? "latest" : run_spec);
  Dataset d;
  // Earlier runs of the same GPU model and timing mode: history and scaling compare like with like. A/A
  // calibration runs compare a baseline with itself: left out.
  for (auto& r : store.load_runs(earlier_like(chosen, history_runs))) d.runs.push_back(run_data_of(std::move(r)));
  d.runs.push_back(run_data_of(store.load_stored_run(chosen)));
  d.hardware = hardware_from_manifest(d.runs.back().manifest, chosen.gpu_model, chosen.hardware_key);
  d.source = fmt::format("store {}, run {} ({})", db.string(), chosen.id, chosen.key);
  return d;
}

Dataset load_file(const fs::path& input) {
  fs::path file = input;
  if (!fs::is_regular_file(file)) {
    file.clear();
    for (fs::path cand : {input / "results" / "benchmark_test_results.json", input / "benchmark_test_results.json"})
      if (fs::is_regular_file(cand)) {
        file = cand;
        break;
      }
    if (file.empty())
      throw std::runtime_error(fmt::format("{}: no benchmark_test_results.json there (pass a run directory or the "
                                           "results file)", input.string()));
  }
  json doc = read_json(file);
  RunData r;
  try {
    r.targets = targets_from_document(doc);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{}: not a results document: {}", file.string(), e.what()));
  }
  fs::path results_dir = fs::absolute(file).parent_path();
  fs::path run_dir = results_dir.filename() == "results" ? results_dir.parent_path() : results_dir;
  for (fs::path cand : {run_dir / "manifest.json", results_dir / "manifest.json"})
    if (fs::is_regular_file(cand)) {
      r.manifest = read_json(cand);
      break;
    }
  // A run directory names the run; a results file elsewhere is named by its own file name.
  r.key = results_dir.filename() == "results" ? run_dir.filename().string() : file.filename().string();
  r.stamp = r.key.size() >= 15 && r.key[8] == '_' ? r.key.substr(0, 15) : "";
  if (r.manifest.is_object()) {
    json hw = r.manifest.value("hardware", json::object());
    r.hardware_key = hw.value("hardware_key", "");
    r.gpu_model = hw.value("gpu_model", "");
    r.git_commit = r.manifest.contains("git") ? r.manifest["git"].value("commit", "") : "";
  }
  if (!r.targets.empty()) r.mode = r.targets.front().mode;
  telemetry_from_samples(run_dir, r.targets, r.telemetry);
  telemetry_from_results(doc, r.telemetry);
  Dataset d;
  d.hardware = hardware_from_manifest(r.manifest, r.gpu_model, r.hardware_key);
  d.runs.push_back(std::move(r));
  d.source = "file " + file.string();
  return d;
}

bool attach_capabilities(Hardware& hw, const std::string& explicit_path, const std::vector<fs::path>& dirs) {
  std::vector<fs::path> candidates;
  if (!explicit_path.empty()) candidates.push_back(explicit_path);
  else if (!hw.hardware_key.empty())
    for (auto& dir : dirs) candidates.push_back(dir / ("hardware_capabilities_" + hw.hardware_key + ".json"));
  for (auto& c : candidates) {
    if (!fs::is_regular_file(c)) {
      if (!explicit_path.empty()) throw std::runtime_error(fmt::format("{}: no such capabilities file", c.string()));
      continue;
    }
    json doc = read_json(c);
    // Ceilings measured on another GPU model would misplace every kernel on the roofline.
    std::string key = doc.value("hardware_key", "");
    if (!hw.hardware_key.empty() && !key.empty() && key != hw.hardware_key) {
      if (!explicit_path.empty())
        throw std::runtime_error(fmt::format("{}: measured on {}, but the run is from {}", c.string(), key, hw.hardware_key));
      continue;
    }
    hw.capabilities = std::move(doc);
    hw.capabilities_path = c.string();
    return true;
  }
  return false;
}

DerivationInputs derivation_inputs(const Dataset& d) {
  DerivationInputs c;
  c.hardware = d.hardware;
  if (!d.runs.empty()) c.telemetry = d.runs.back().telemetry;
  return c;
}

}  // namespace aisp::analysis
