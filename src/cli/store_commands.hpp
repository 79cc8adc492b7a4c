// `aisp bench runs | ingest | history | compare-runs`: the results store from the command line, plus the
// hook `bench run` calls to store a finished run.
#pragma once
#include <CLI/CLI.hpp>

#include <filesystem>
#include <string>

namespace aisp {

// Registers the store subcommands under `bench`.
void add_store_commands(CLI::App& bench);

// The store a command uses: --db when given, else $AISP_DB, else <artifacts_dir>/aisp.db.
std::filesystem::path store_path(const std::string& db_option, const std::filesystem::path& artifacts_dir);

// Stores a finished run; never throws. A store failure prints a warning naming the database (the run
// directory is already complete on disk and can be ingested later), so the run's exit code stands.
void store_finished_run(const std::filesystem::path& run_dir, const std::filesystem::path& db);

}  // namespace aisp
