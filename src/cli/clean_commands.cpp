// Prints the retention plan (what goes, what stays and why, sizes) and, with --yes, removes what goes.
// Exit: 0 done (or nothing to do), 1 something could not be removed, 2 usage (no limit given).
#include "cli/clean_commands.hpp"

#include <fmt/format.h>

#include <iostream>

#include <nlohmann/json.hpp>
#include "cli/store_commands.hpp"
#include "core/artifact_retention.hpp"

namespace aisp {
namespace fs = std::filesystem;

namespace {

struct CleanArgs {
  std::string artifacts_dir = "artifacts", db;
  double older_than = -1;
  long keep = -1;
  bool yes = false, include_store = false, as_json = false, verbose = false;
};

std::string size_text(uintmax_t b) {
  return b >= (1ull << 30)   ? fmt::format("{:.1f} GiB", b / 1073741824.0)
         : b >= (1ull << 20) ? fmt::format("{:.1f} MiB", b / 1048576.0)
                             : fmt::format("{:.1f} KiB", b / 1024.0);
}

int remove_items(std::vector<RetentionItem>& items) {
  int failed = 0;
  for (auto& it : items) {
    if (!it.remove) continue;
    std::error_code ec;
    if (it.kind == "store")
      for (const char* suffix : {"-wal", "-shm"}) fs::remove(it.path.string() + suffix, ec);
    fs::remove_all(it.path, ec);
    if (ec) {
      std::cerr << fmt::format("aisp: cannot remove {}: {}\n", it.path.string(), ec.message());
      it.reason = "FAILED: " + ec.message();
      ++failed;
    }
  }
  return failed;
}

void print(const std::vector<RetentionItem>& items, const CleanArgs& a) {
  uintmax_t freed = 0;
  size_t n = 0;
  for (auto& it : items) {
    if (it.remove) freed += it.bytes, ++n;
    if (!it.remove && !a.verbose) continue;
    std::cout << fmt::format("{:<7} {:<7} {:>10} {:>7.1f} d  {}  ({})\n", it.remove ? (a.yes ? "removed" : "remove") : "keep",
                             it.kind, size_text(it.bytes), it.age_days, it.path.string(), it.reason);
  }
  std::cout << fmt::format("{} {} item{}, {}{}\n", a.yes ? "removed" : "would remove", n, n == 1 ? "" : "s", size_text(freed),
                           a.yes ? "" : " (dry run: add --yes to remove)");
}

}  // namespace

void add_clean_commands(CLI::App& root) {
  static CleanArgs a;
  auto* c = root.add_subcommand("clean",
                                "Artifact retention: remove old run and profile directories (dry run unless --yes; "
                                "never the results store unless --include-store)");
  c->add_option("--artifacts-dir", a.artifacts_dir, "Artifacts directory (runs/, profiles/)")->capture_default_str();
  c->add_option("--older-than", a.older_than, "Remove run/profile directories older than DAYS (from the stamp in their name)")
      ->check(CLI::NonNegativeNumber);
  c->add_option("--keep", a.keep, "Keep the newest N run directories and the newest N profile directories")
      ->check(CLI::NonNegativeNumber);
  c->add_flag("--yes", a.yes, "Remove (default: only list what would be removed)");
  c->add_flag("--include-store", a.include_store, "Also remove the results store (every stored run's history)");
  c->add_option("--db", a.db, "The results store --include-store removes (default: $AISP_DB, else <artifacts-dir>/aisp.db)");
  c->add_flag("--json", a.as_json, "Print the plan as JSON");
  c->add_flag("-v,--verbose", a.verbose, "Also list what is kept and why");
  c->callback([] {
    if (a.older_than < 0 && a.keep < 0 && !a.include_store)
      throw CLI::Error("CleanError",
                       "give --older-than DAYS and/or --keep N (or --include-store): nothing is removed by default", 2);
    RetentionPolicy p;
    if (a.older_than >= 0) p.older_than_days = a.older_than;
    if (a.keep >= 0) p.keep = static_cast<size_t>(a.keep);
    p.include_store = a.include_store;
    p.store = store_path(a.db, a.artifacts_dir);
    auto items = plan_retention(a.artifacts_dir, p);
    int failed = a.yes ? remove_items(items) : 0;
    if (a.as_json) {
      nlohmann::json j = nlohmann::json::array();
      for (auto& it : items)
        j.push_back({{"path", it.path.string()},
                     {"kind", it.kind},
                     {"age_days", it.age_days},
                     {"bytes", it.bytes},
                     {"remove", it.remove},
                     {"reason", it.reason}});
      std::cout << nlohmann::json{{"dry_run", !a.yes}, {"artifacts_dir", a.artifacts_dir}, {"items", j}}.dump(2) << "\n";
    } else {
      print(items, a);
    }
    if (failed) throw CLI::RuntimeError(1);
  });
}

}  // namespace aisp
