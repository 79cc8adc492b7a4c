// The end of `aisp bench calibrate`: the noise floor measured by an A/A run, merged into this GPU's
// calibration file. From the run just made, or from an earlier (possibly interrupted) one on disk.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "core/noise_floor.hpp"
#include "core/result.hpp"

namespace aisp {

struct CalibrationUpdate {
  NoiseFloor floor;                       // as written: this run's targets plus those kept from the file
  std::vector<std::string> measured_now;  // the targets this A/A run measured, in id order
  size_t kept = 0;                        // targets calibrated earlier and kept from the file
  std::filesystem::path file, run_dir;
  int replicates = 0;  // copies of each baseline the A/A run timed
};

// The facts a calibration records about where it was measured.
struct CalibrationProvenance {
  json hardware;  // the manifest's / `aisp info gpu`'s hardware block (hardware_key, gpu_model, ...)
  std::string date, commit;
};

// Computes the floor of `aa_results` (core/noise_floor.hpp), keeps the targets of an existing `file` this
// run did not measure (an unreadable one is replaced, with a warning on stderr) and writes it atomically.
// BenchError CalibrationFailed (exit 1) when no target produced A/A samples: nothing is written then.
CalibrationUpdate write_calibration(const std::vector<TargetResult>& aa_results, const CalibrationProvenance& where,
                                    const std::filesystem::path& file);

// An A/A run directory read back (`calibrate --from-run`): its finished targets and its manifest's GPU
// facts. BenchError NoRun / NotCalibration (exit 2) when it is missing or no `bench calibrate` run.
struct RecordedAaRun {
  std::vector<TargetResult> results;
  CalibrationProvenance where;  // commit empty when the manifest recorded none
  int replicates = 0;           // the most copies any target ran
};
RecordedAaRun read_aa_run(const std::filesystem::path& run_dir);

}  // namespace aisp
