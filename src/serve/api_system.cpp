// System endpoints: the hardware page (measured capabilities + what each GPU's runs recorded), the live
// GPU (NVML, when this build and host have it) and runs in progress (their progress files).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/json_io.hpp"
#include "serve/api.hpp"
#include "serve/result_json.hpp"

namespace aisp::serve {
namespace fs = std::filesystem;

namespace {

// A run that has not written its progress file for this long is reported as probably abandoned (killed
// without reaching "finished"): one target's measurement takes minutes at most (its time limit).
constexpr double kStaleAfterSeconds = 3600;

double seconds_since(const fs::path& p) {
  std::error_code ec;
  auto t = fs::last_write_time(p, ec);
  if (ec) return -1;
  return std::chrono::duration<double>(fs::file_time_type::clock::now() - t).count();
}

}  // namespace

json Api::hardware(const Query& q) {
  q.only({});
  json caps = json::array();
  std::set<std::string> seen;
  for (auto& dir : config_.caps_dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    std::vector<fs::path> files;
    for (auto& e : fs::directory_iterator(dir, ec)) {
      std::string name = e.path().filename().string();
      if (name.rfind("hardware_capabilities_", 0) == 0 && e.path().extension() == ".json") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (auto& f : files) {
      std::string canonical = fs::weakly_canonical(f, ec).string();
      if (!seen.insert(canonical).second) continue;
      try {
        json doc = read_json(f);
        caps.push_back({{"path", f.string()},
                        {"hardware_key", doc.value("hardware_key", "")},
                        {"updated_utc", doc.value("updated_utc", "")},
                        {"device", doc.value("device", json::object())},
                        {"datasheet", doc.value("datasheet", json::object())},
                        {"units", doc.value("units", "")},
                        {"ceilings", doc.value("ceilings", json::object())}});
      } catch (const std::exception& e) {
        caps.push_back({{"path", f.string()}, {"error", e.what()}});
      }
    }
  }
  // What each GPU's newest run recorded about it (manifest: hardware snapshot, every GPU, software).
  std::map<std::string, RunInfo> newest;
  for (auto& r : store_.runs())
    if (!r.hardware_key.empty()) newest[r.hardware_key] = r;
  json hardware = json::array();
  for (auto& [key, r] : newest) {
    auto data = store_.run(r);
    const json& m = data->manifest;
    auto field = [&](const char* k) { return m.is_object() && m.contains(k) ? m[k] : json(nullptr); };
    hardware.push_back({{"hardware_key", key}, {"gpu_model", r.gpu_model}, {"run", run_json(r)},
                        {"hardware", field("hardware")}, {"gpus", field("gpus")}, {"software", field("software")}});
  }
  json dirs = json::array();
  std::vector<std::string> dir_names;
  for (auto& d : config_.caps_dirs) dirs.push_back(d.string()), dir_names.push_back(d.string());
  json notes = json::array();
  if (caps.empty())
    notes.push_back(fmt::format("no hardware_capabilities_<hwkey>.json in {}: `aisp hw peak` on the GPU writes one "
                                "(until then the roofline uses ceilings computed from device properties)",
                                fmt::join(dir_names, ", ")));
  return {{"capabilities", caps}, {"hardware", hardware}, {"capabilities_dirs", dirs}, {"notes", notes}};
}

json Api::gpu(const Query& q) {
  q.only({});
  if (!config_.gpu_status)
    return {{"available", false}, {"reason", "this server was started without NVML access (no GPU probe in this build)"}};
  std::lock_guard lock(gpu_mutex_);
  auto now = std::chrono::steady_clock::now();
  if (gpu_cached_.is_null() || now - gpu_at_ > std::chrono::seconds(1)) {
    gpu_cached_ = config_.gpu_status();
    gpu_at_ = now;
  }
  return gpu_cached_;
}

json Api::progress(const Query& q) {
  q.only({});
  fs::path runs_dir = config_.artifacts_dir / "runs";
  std::vector<fs::path> dirs;
  std::error_code ec;
  if (fs::is_directory(runs_dir, ec))
    for (auto& e : fs::directory_iterator(runs_dir, ec))
      if (e.is_directory(ec)) dirs.push_back(e.path());
  // Directory names start with the run's start stamp: the newest are last. Only the newest few are
  // read, so a long-lived artifacts directory does not make every poll slower.
  std::sort(dirs.begin(), dirs.end());
  if (dirs.size() > 50) dirs.erase(dirs.begin(), dirs.end() - 50);
  json active = json::array(), last_finished = nullptr;
  for (auto it = dirs.rbegin(); it != dirs.rend(); ++it) {
    fs::path file = *it / "progress" / "run_progress.json";
    if (!fs::is_regular_file(file, ec)) continue;
    json p;
    try {
      p = read_json(file);  // written atomically by the runner: never half a file
    } catch (const std::exception&) {
      continue;
    }
    if (!p.is_object()) continue;
    std::string state = p.value("state", "");
    double age = seconds_since(file);
    json entry = {{"run", it->filename().string()}, {"state", state}, {"target", p.value("target", "")},
                  {"completed", p.value("completed", 0)}, {"total", p.value("total", 0)},
                  {"updated_seconds_ago", age}};
    if (state == "finished") {
      if (last_finished.is_null()) {
        entry["exit_code"] = p.value("exit_code", -1);
        last_finished = entry;
      }
      continue;
    }
    entry["probably_abandoned"] = age > kStaleAfterSeconds;
    active.push_back(entry);
  }
  return {{"artifacts_dir", config_.artifacts_dir.string()}, {"active", active}, {"last_finished", last_finished}};
}

}  // namespace aisp::serve
