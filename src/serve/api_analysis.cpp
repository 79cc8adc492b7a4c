// Analysis endpoints: the analysis engine (src/analysis) over one stored run, as `aisp bench analyze`
// and friends compute it, plus the roofline view (the engine's per-variant rows and ceilings).
#include <fmt/format.h>

#include <cmath>

#include "core/json_io.hpp"
#include "serve/api.hpp"
#include "serve/result_json.hpp"

namespace aisp::serve {
namespace an = aisp::analysis;
namespace fs = std::filesystem;

namespace {

// The GPU facts the analyses need from a run manifest (device properties for computed roofline ceilings,
// the power limit), the same fields the engine's own store loader reads.
an::Hardware hardware_of(const an::RunData& run) {
  an::Hardware hw;
  hw.gpu_model = run.gpu_model;
  hw.hardware_key = run.hardware_key;
  const json& m = run.manifest;
  if (!m.is_object() || !m.contains("gpus") || !m["gpus"].is_array() || m["gpus"].empty()) return hw;
  const json& g = m["gpus"][0];
  auto n = [&](const char* k) { return g.contains(k) && g[k].is_number() ? g[k].get<double>() : 0.0; };
  DeviceInfo& d = hw.device;
  d.name = g.value("name", run.gpu_model);
  d.uuid = g.value("uuid", "");
  d.cc_major = static_cast<int>(n("cc_major"));
  d.cc_minor = static_cast<int>(n("cc_minor"));
  d.sm_count = static_cast<int>(n("sm_count"));
  d.global_memory_bytes = static_cast<int64_t>(n("global_memory_bytes"));
  d.l2_bytes = static_cast<int64_t>(n("l2_bytes"));
  d.memory_bus_width_bits = static_cast<int>(n("memory_bus_width_bits"));
  d.sm_clock_max_mhz = n("sm_clock_max_mhz");
  d.mem_clock_max_mhz = n("mem_clock_max_mhz");
  if (n("power_limit_w") > 0) hw.power_limit_w = n("power_limit_w");
  if (hw.gpu_model.empty()) hw.gpu_model = d.name;
  return hw;
}

json data_file(const fs::path& dir, const std::string& name) {
  fs::path p = dir / name;
  if (dir.empty() || !fs::is_regular_file(p))
    throw ApiError(500, fmt::format("{} not found in the data directory '{}' (set AISP_DATA_DIR or start aisp serve "
                                    "from the checkout)", name, dir.string()));
  return read_json(p);
}

}  // namespace

an::Dataset Api::dataset(const Query& q, size_t history_runs) {
  auto runs = store_.runs();
  RunInfo chosen;
  if (q.has("run")) {
    chosen = store_.resolve(q.text("run"));
  } else {
    auto it = std::find_if(runs.rbegin(), runs.rend(), [](const RunInfo& r) { return !is_calibration(r); });
    if (it == runs.rend()) throw not_found(fmt::format("the store {} holds no benchmark runs", store_.path().string()));
    chosen = *it;
  }
  an::Dataset d;
  // Earlier runs of the same GPU and timing mode, complete and not A/A: like with like, as the CLI does.
  std::vector<RunInfo> earlier;
  for (auto& r : runs) {
    if (r.id == chosen.id) break;
    if (r.hardware_key == chosen.hardware_key && r.mode == chosen.mode && r.complete && !is_calibration(r))
      earlier.push_back(r);
  }
  if (earlier.size() > history_runs) earlier.erase(earlier.begin(), earlier.end() - static_cast<long>(history_runs));
  for (auto& r : earlier) d.runs.push_back(*store_.run(r));
  d.runs.push_back(*store_.run(chosen));
  d.hardware = hardware_of(d.runs.back());
  an::attach_capabilities(d.hardware, "", config_.caps_dirs);
  d.source = fmt::format("store {}, run {} ({})", store_.path().string(), chosen.id, chosen.key);
  return d;
}

json Api::roofline(const Query& q) {
  q.only({"run"});
  an::Dataset d = dataset(q, 0);
  auto rows = an::variant_rows(d.current().targets, an::derivation_inputs(d));
  json points = json::array(), ceilings = json::object();
  for (auto& r : rows) {
    if (!an::known(r.median_ms)) continue;
    points.push_back(an::to_json(r));
    std::string precision = r.precision.empty() ? "unknown" : r.precision;
    if (!ceilings.contains(precision)) ceilings[precision] = an::to_json(an::roofline_ceilings(d.hardware, r.precision));
  }
  return {{"source", d.source},
          {"hardware_key", d.hardware.hardware_key},
          {"capabilities", d.hardware.capabilities_path.empty() ? json(nullptr) : json(d.hardware.capabilities_path)},
          {"ceilings", ceilings},
          {"points", points}};
}

json Api::analysis(const std::string& kind, const Query& q) {
  static const std::vector<std::string> kinds = {"leaderboards", "pareto", "tradeoffs", "recommendations", "whatif",
                                                 "stacking", "power", "cost", "scaling"};
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
    throw not_found(fmt::format("unknown analysis '{}' (available: {})", kind, fmt::join(kinds, ", ")));
  // Parameters are checked before any store access, so a typo is a 400 even on an empty store.
  if (kind == "leaderboards") q.only({"run", "top"});
  else if (kind == "recommendations") q.only({"run", "goal"});
  else if (kind == "whatif") q.only({"run", "vram", "latency", "latency_stat", "throughput", "speedup"});
  else if (kind == "cost") q.only({"run", "gpu", "rate", "top"});
  else if (kind == "scaling") q.only({"run", "history"});
  else q.only({"run"});

  an::Dataset d = dataset(q, kind == "scaling" ? static_cast<size_t>(q.integer("history", 50, 0, 1000)) : 0);
  auto rows = [&] { return an::variant_rows(d.current().targets, an::derivation_inputs(d)); };
  json data;
  try {
    if (kind == "leaderboards") {
      data = an::to_json(an::leaderboards(rows(), static_cast<size_t>(q.integer("top", 10, 1, 1000))));
    } else if (kind == "pareto") {
      data = json::array();
      for (auto& p : an::pareto(rows())) data.push_back(an::to_json(p));
    } else if (kind == "tradeoffs") {
      data = json::array();
      for (auto& t : an::tradeoffs(rows())) data.push_back(an::to_json(t));
    } else if (kind == "recommendations") {
      data = json::array();
      std::string goal = q.choice("goal", {"speed", "latency", "memory"}, "");
      for (auto& r : an::recommendations(rows(), goal)) data.push_back(an::to_json(r));
    } else if (kind == "whatif") {
      an::WhatIfConstraints c;
      c.max_vram_gb = q.number("vram", an::kNaN, 0, 1e6);
      c.max_latency_ms = q.number("latency", an::kNaN, 0, 1e9);
      c.latency_stat = q.choice("latency_stat", {"p99", "median"}, "p99");
      c.min_throughput = q.number("throughput", an::kNaN, 0, 1e30);
      c.min_speedup = q.number("speedup", an::kNaN, 0, 1e6);
      data = an::to_json(an::whatif(rows(), c));
    } else if (kind == "stacking") {
      auto vocabulary = an::vocabulary_from_json(data_file(config_.data_dir, "technique_tags.json"),
                                                 (config_.data_dir / "technique_tags.json").string());
      data = an::to_json(an::stacking(rows(), vocabulary));
    } else if (kind == "power") {
      data = an::to_json(an::power(rows()));
    } else if (kind == "cost") {
      auto prices = an::price_table_from_json(data_file(config_.data_dir, "gpu_prices.json"),
                                              (config_.data_dir / "gpu_prices.json").string());
      double rate = q.number("rate", an::kNaN, 0, 1e9);
      size_t top = static_cast<size_t>(q.integer("top", 0, 0, 100000));
      std::string gpu = q.text("gpu").empty() ? d.hardware.gpu_model : q.text("gpu");
      if (!std::isfinite(rate) && !an::find_price(prices, gpu)) {
        // No price for this GPU is an answer, not an error: the UI shows the state and asks for a rate.
        json known = json::array();
        for (auto& p : prices.prices) known.push_back(p.gpu);
        data = {{"priced", false},
                {"gpu", gpu.empty() ? json(nullptr) : json(gpu)},
                {"known", known},
                {"prices_file", prices.source},
                {"message", gpu.empty() ? "the GPU this run was measured on is unknown (no manifest): pass gpu or rate"
                                        : fmt::format("no price for GPU '{}' in {}: add it there (with its source) or "
                                                      "pass rate (USD per GPU-hour)", gpu, prices.source)}};
      } else {
        try {
          data = an::to_json(an::cost(rows(), prices, q.text("gpu"), d.hardware.gpu_model, rate, top));
          data["priced"] = true;
        } catch (const std::runtime_error& e) {
          throw bad_request(e.what());
        }
      }
    } else {
      data = an::to_json(an::scaling(d.runs));
    }
  } catch (const std::invalid_argument& e) {
    throw bad_request(e.what());  // the engine's check of a parameter value (e.g. a non-positive rate)
  }
  return {{"analysis", kind},
          {"source", d.source},
          {"hardware_key", d.hardware.hardware_key},
          {"capabilities", d.hardware.capabilities_path.empty() ? json(nullptr) : json(d.hardware.capabilities_path)},
          {"data", data}};
}

}  // namespace aisp::serve
