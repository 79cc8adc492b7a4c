// The shipped reference dataset: the benchmark runs committed under results/reference/<gpu>/ (real H100
// and H200 runs), offered by `aisp serve` and `aisp bench analyze` when there is no results store yet (a
// fresh clone, a machine without a GPU), instead of failing with "no results store".
//
// The runs are ingested once into a store in the user's cache directory
// ($XDG_CACHE_HOME/aisp, else ~/.cache/aisp, else the system temp directory), named by a fingerprint of
// the shipped runs so an updated checkout gets a fresh one; it is built in a temporary file and renamed
// into place, so concurrent first uses cannot see half a store. The user's artifacts/ is never written.
// Callers open it read-only and label everything they show as the reference dataset.
//
// Header-only on purpose: `aisp` (analysis) and `aisp-serve` both use it, and the serve library's
// sources link cpp-httplib, which `aisp` must not (dashboard_server.hpp).
#pragma once
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "store/store.hpp"

namespace aisp::reference {

namespace fs = std::filesystem;

struct Dataset {
  fs::path store;   // the read-only store built from the shipped runs
  fs::path source;  // results/reference
  size_t runs = 0;
  std::vector<std::string> gpus;  // the reference directories (one per GPU type)
  // One line for output and the UI: what this is and where it came from.
  std::string label() const {
    return fmt::format("shipped reference dataset ({} runs on {}; {}), read-only: not measurements of this machine", runs,
                       fmt::join(gpus, ", "), source.string());
  }
};

// The run directories under `root` (results/reference): <gpu>/<stamp>__bench__<label>/ with a manifest.
inline std::vector<fs::path> run_dirs(const fs::path& root) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (auto& gpu : fs::directory_iterator(root, ec)) {
    if (!gpu.is_directory(ec)) continue;
    for (auto& run : fs::directory_iterator(gpu.path(), ec))
      if (run.is_directory(ec) && fs::is_regular_file(run.path() / "manifest.json", ec)) out.push_back(run.path());
  }
  std::sort(out.begin(), out.end(), [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
  return out;
}

// The ncu profile documents kept beside the runs: <gpu>/profiles/<stamp>__ncu__<target>/<variant>.profile.json
// (`aisp profile ncu` output), so `aisp ai explain` can cite counters from the reference dataset too.
inline std::vector<fs::path> profile_docs(const fs::path& root) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (auto& gpu : fs::directory_iterator(root, ec)) {
    if (!gpu.is_directory(ec)) continue;
    for (auto& f : fs::recursive_directory_iterator(gpu.path() / "profiles", ec))
      if (f.is_regular_file(ec) && f.path().string().ends_with(".profile.json")) out.push_back(f.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline fs::path cache_dir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "aisp";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "aisp";
  return fs::temp_directory_path() / "aisp-cache";
}

// The first of `roots` holding reference runs; builds (once) and returns its store. Throws
// std::runtime_error naming the places looked in when there is none, or when building fails.
inline Dataset open(const std::vector<fs::path>& roots) {
  std::vector<std::string> looked;
  for (const fs::path& root : roots) {
    looked.push_back(root.string());
    std::vector<fs::path> runs = run_dirs(root);
    if (runs.empty()) continue;
    Dataset d;
    d.source = root;
    d.runs = runs.size();
    std::set<std::string> gpus;
    // Fingerprint: each run's name and the size of its files, so a changed or added run rebuilds.
    std::string fingerprint;
    for (auto& r : runs) {
      gpus.insert(r.parent_path().filename().string());
      fingerprint += r.filename().string();
      std::error_code ec;
      for (auto& f : fs::recursive_directory_iterator(r, ec))
        if (f.is_regular_file(ec)) fingerprint += fmt::format(" {}", f.file_size(ec));
      fingerprint += '\n';
    }
    const std::vector<fs::path> profiles = profile_docs(root);
    for (auto& p : profiles) {
      std::error_code ec;
      fingerprint += fmt::format("{} {}\n", p.filename().string(), fs::file_size(p, ec));
    }
    d.gpus.assign(gpus.begin(), gpus.end());
    fs::path dir = cache_dir();
    std::error_code ec;
    fs::create_directories(dir, ec);
    d.store = dir / fmt::format("reference_{:016x}.db", std::hash<std::string>{}(fingerprint));
    if (!fs::is_regular_file(d.store, ec)) {
      fs::path tmp = dir / fmt::format(".reference_{}_{}.db", static_cast<long>(::getpid()), d.runs);
      fs::remove(tmp, ec);
      try {
        {
          Store store = Store::open(tmp);
          for (auto& r : runs) store.ingest_run(r);
          for (auto& p : profiles) store.add_profile(read_file(p), p.parent_path().string());
        }
        fs::rename(tmp, d.store);
      } catch (const std::exception& e) {
        fs::remove(tmp, ec);
        throw std::runtime_error(
            fmt::format("cannot build the reference store {} from {}: {}", d.store.string(), root.string(), e.what()));
      }
      for (const char* suffix : {"-wal", "-shm"}) fs::remove(tmp.string() + suffix, ec);
    }
    return d;
  }
  throw std::runtime_error(fmt::format("no shipped reference runs found (looked in {})", fmt::join(looked, ", ")));
}

}  // namespace aisp::reference
