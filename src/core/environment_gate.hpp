// The environment gate: what about this machine could make a timing wrong or unrepeatable (another
// process on the GPU, throttling, swap, CPU quotas, a VM, uncommitted code...), as a list of checks
// recorded in manifest.json. Under the `strict` profile a failed check stops `aisp bench run` before
// any benchmark starts; under `portable` (the default) nothing stops a run and failures are reported
// as warnings. Host facts come from host_facts.hpp; GPU facts from the JSON of collect_system_info()
// (`aisp info gpu --json`), so this file needs no CUDA and its rules are unit-tested with fixtures.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/host_facts.hpp"

namespace aisp {

enum class CheckStatus { ok, warn, fail, unknown };
std::string to_string(CheckStatus s);

enum class ValidityProfile { portable, strict };
std::string to_string(ValidityProfile p);
// "portable" / "strict"; throws std::invalid_argument otherwise.
ValidityProfile parse_validity_profile(const std::string& name);

struct EnvCheck {
  std::string name;  // stable id, e.g. "cpu_governor"
  CheckStatus status = CheckStatus::unknown;
  nlohmann::json value;  // what was observed
  std::string detail;    // one line for humans: why this status
};

// Compile-time facts of the aisp binary (passed in: only the executable target has them defined).
struct BuildFlags {
  std::string cuda_architectures, build_type;
};

struct EnvironmentReport {
  ValidityProfile profile = ValidityProfile::portable;
  std::vector<EnvCheck> checks;

  int count(CheckStatus s) const;
  std::vector<const EnvCheck*> with_status(CheckStatus s) const;
  // True when the run must not start: strict profile and at least one failed check.
  bool refuses() const;
  // One line per warn/fail check, for the manifest's "warnings" list.
  std::vector<std::string> warning_lines() const;
  // "environment: 9 ok, 3 warn (virtualization, git_worktree, ...), 0 fail, 2 unknown — profile portable"
  std::string summary_line() const;
  // {"profile", "decision", "checks": [...], "summary": {"ok","warn","fail","unknown"}}
  nlohmann::json to_json() const;
};

// `system_info` is collect_system_info()'s JSON; with no GPU in it the GPU checks are `unknown`.
EnvironmentReport evaluate_environment(const HostReader& host, const nlohmann::json& system_info,
                                       const BuildFlags& build, ValidityProfile profile);

}  // namespace aisp
