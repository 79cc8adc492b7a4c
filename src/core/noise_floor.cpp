#include "core/noise_floor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/json_io.hpp"

namespace aisp {

double NoiseFloor::floor_for(const std::string& target) const {
  auto it = targets.find(target);
  return it != targets.end() ? it->second.floor : device_floor;
}

NoiseFloor noise_floor_from_results(const std::vector<TargetResult>& aa) {
  NoiseFloor f;
  for (auto& t : aa) {
    if (t.optimizations.empty()) continue;
    const VariantResult& v = t.optimizations.front();
    if (v.samples_ms.empty() || v.ci_low <= 0) continue;
    NoiseFloorEntry e{v.speedup, v.ci_low, v.ci_high, static_cast<int64_t>(v.samples_ms.size()), 0};
    // Symmetric in ratio terms: a CI of [0.99, 1.004] is a 1% floor.
    e.floor = std::max(std::abs(v.ci_high - 1.0), std::abs(1.0 / v.ci_low - 1.0));
    f.targets[t.id] = e;
    f.device_floor = std::max(f.device_floor, e.floor);
  }
  return f;
}

json to_json(const NoiseFloor& f) {
  json targets = json::object();
  for (auto& [id, e] : f.targets)
    targets[id] = {{"speedup", e.speedup}, {"ci_low", e.ci_low}, {"ci_high", e.ci_high}, {"samples", e.samples},
                   {"floor", e.floor}, {"ci_contains_1", e.contains_one()}};
  return {{"schema_version", 1},   {"kind", "aisp_noise_floor"}, {"hardware_key", f.hardware_key},
          {"gpu", f.gpu},          {"driver", f.driver},         {"cuda", f.cuda},
          {"date", f.date},        {"commit", f.commit},         {"device_floor", f.device_floor},
          {"targets", targets}};
}

NoiseFloor load_noise_floor(const std::filesystem::path& file) {
  json j = read_json(file);  // names the file on parse errors
  if (j.value("kind", "") != "aisp_noise_floor" || !j.contains("targets") || !j["targets"].is_object())
    throw std::runtime_error(fmt::format("{}: not an aisp noise-floor file (kind != aisp_noise_floor)", file.string()));
  NoiseFloor f;
  f.hardware_key = j.value("hardware_key", "");
  f.gpu = j.value("gpu", "");
  f.driver = j.value("driver", "");
  f.cuda = j.value("cuda", "");
  f.date = j.value("date", "");
  f.commit = j.value("commit", "");
  f.device_floor = j.value("device_floor", 0.0);
  for (auto& [id, e] : j["targets"].items())
    f.targets[id] = {e.value("speedup", 1.0), e.value("ci_low", 1.0), e.value("ci_high", 1.0),
                     e.value("samples", int64_t{0}), e.value("floor", 0.0)};
  return f;
}

std::filesystem::path noise_floor_path(const std::filesystem::path& artifacts_dir, const std::string& hardware_key) {
  return artifacts_dir / "calibration" / fmt::format("noise_floor_{}.json", hardware_key);
}

}  // namespace aisp
