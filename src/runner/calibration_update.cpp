#include "runner/calibration_update.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "core/json_io.hpp"
#include "runner/bench_request.hpp"

namespace aisp {
namespace fs = std::filesystem;

CalibrationUpdate write_calibration(const std::vector<TargetResult>& aa_results, const CalibrationProvenance& where,
                                    const fs::path& file) {
  CalibrationUpdate u;
  u.file = file;
  NoiseFloor& f = u.floor;
  f = noise_floor_from_results(aa_results);
  const json hw = where.hardware.is_object() ? where.hardware : json::object();
  f.hardware_key = hw.value("hardware_key", "unknown");
  f.gpu = hw.value("gpu_model", "");
  f.driver = hw.value("driver_version", "");
  f.cuda = hw.value("cuda_version", "");
  f.date = where.date;
  f.commit = where.commit;
  if (f.targets.empty()) throw BenchError("CalibrationFailed", "no target produced A/A samples: nothing written", 1);
  for (auto& [id, e] : f.targets) u.measured_now.push_back(id);
  if (fs::exists(file)) {
    try {
      NoiseFloor older = load_noise_floor(file);
      keep_older_targets(f, older);
      u.kept = f.targets.size() - u.measured_now.size();
    } catch (const std::exception& e) {
      std::cerr << "warning: the previous calibration is unreadable and is replaced: " << e.what() << "\n";
    }
  }
  write_json_atomic(file, to_json(f));
  return u;
}

RecordedAaRun read_aa_run(const fs::path& dir) {
  fs::path results = dir / "results" / "benchmark_test_results.json", manifest = dir / "manifest.json";
  for (auto& f : {results, manifest})
    if (!fs::exists(f)) throw BenchError("NoRun", fmt::format("--from-run: {} does not exist", f.string()), 2);
  json m = read_json(manifest);
  if (dir.filename().string().find("__calibrate") == std::string::npos)  // <stamp>__bench__calibrate-<targets>
    throw BenchError("NotCalibration",
                     fmt::format("--from-run: {} is not an A/A run (`aisp bench calibrate`)", dir.string()), 2);
  RecordedAaRun run;
  run.where.hardware = m.value("hardware", json::object());
  run.where.date = m.value("start_time", "");
  if (m.contains("git") && m["git"].value("commit", json()).is_string()) run.where.commit = m["git"]["commit"];
  run.results = targets_from_document(read_json(results));
  size_t copies = 0;
  for (auto& t : run.results) copies = std::max(copies, t.optimizations.size());
  run.replicates = static_cast<int>(copies);
  return run;
}

}  // namespace aisp
