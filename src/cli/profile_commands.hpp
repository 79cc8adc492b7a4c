// `aisp profile ncu|sanitizer|bottleneck|roofline|compare|nsys` (docs/profile.md) and the hook that
// `aisp bench run --profile <preset>` calls after timing (never inside it).
#pragma once
#include <CLI/CLI.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "core/discovery.hpp"

namespace aisp {

void add_profile_commands(CLI::App& root);

// Exits 2 (CLI::Error) naming every place looked in when ncu is missing: called before a bench run's
// timing starts, so a missing profiler costs nothing.
void require_ncu();

// Profiles every variant of `targets` with `preset` after a bench run; documents go under
// <run_dir>/profiles/ and into the store at `db` tagged with the run. Warns (never throws) on failures.
void profile_after_bench(const std::vector<Target>& targets, const std::filesystem::path& plugin_root,
                         const std::filesystem::path& run_dir, const std::string& preset, const std::filesystem::path& db);

}  // namespace aisp
