// The REST API's handlers, independent of HTTP: each takes its validated parameters and returns the
// `result` of the envelope, or throws ApiError (400 bad parameter, 404 unknown id). dashboard_server.cpp
// maps routes onto them. The analysis endpoints call the same engine as `aisp bench analyze|whatif|...`
// (src/analysis/analysis.hpp), so the dashboard and the CLI print the same numbers.
#pragma once
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "serve/api_params.hpp"
#include "serve/store_view.hpp"

namespace aisp::serve {

struct ApiConfig {
  std::filesystem::path artifacts_dir;            // runs/*/progress/run_progress.json are read here
  std::filesystem::path bench_root;               // .cu tree whose targets are listed even when never run
  std::filesystem::path data_dir;                 // gpu_prices.json, technique_tags.json
  std::vector<std::filesystem::path> caps_dirs;   // where hardware_capabilities_<hwkey>.json are looked for
  // Live GPU state (NVML). Empty in builds or tests without NVML: /api/gpu then says so.
  std::function<json()> gpu_status;
  // Non-empty when the store is the shipped reference dataset (no store of the user's yet): what it is,
  // shown by the UI on every page and in /api/health and /api/summary.
  std::string dataset_label;
};

class Api {
 public:
  Api(StoreView& store, ApiConfig config);

  json benchmarks(const Query& q);
  json summary(const Query& q);
  json runs(const Query& q);
  json run(const std::string& spec, const Query& q);
  json targets(const Query& q);
  json target_history(const std::string& target, const Query& q);
  json target_result(const std::string& target, const Query& q);
  json compare(const Query& q);
  json hardware(const Query& q);
  json gpu(const Query& q);
  json progress(const Query& q);
  json roofline(const Query& q);
  // kind: leaderboards | pareto | tradeoffs | recommendations | whatif | stacking | power | cost | scaling.
  json analysis(const std::string& kind, const Query& q);

  const ApiConfig& config() const { return config_; }
  // {"reference": bool, "label": string|null}: whether this is the shipped reference dataset.
  json dataset_json() const {
    return {{"reference", !config_.dataset_label.empty()},
            {"label", config_.dataset_label.empty() ? json(nullptr) : json(config_.dataset_label)}};
  }

 private:
  // The analysed run (`?run=`, default the newest non-calibration run) and, for scaling, earlier runs of
  // the same hardware and timing mode; hardware facts from its manifest and measured ceilings.
  analysis::Dataset dataset(const Query& q, size_t history_runs);
  std::vector<StoreView::Latest> latest_filtered(const Query& q);
  void require_target(const std::string& target);

  StoreView& store_;
  ApiConfig config_;
  std::mutex gpu_mutex_;  // NVML is asked at most once a second, however many clients poll
  std::chrono::steady_clock::time_point gpu_at_{};
  json gpu_cached_;
};

}  // namespace aisp::serve
