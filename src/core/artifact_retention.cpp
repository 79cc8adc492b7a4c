#include "core/artifact_retention.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <fstream>

#include <nlohmann/json.hpp>

namespace aisp {

namespace fs = std::filesystem;
using Clock = std::chrono::system_clock;

std::optional<Clock::time_point> stamp_time(const std::string& name) {
  if (name.size() < 15 || name[8] != '_') return std::nullopt;
  for (size_t i = 0; i < 15; ++i)
    if (i != 8 && !std::isdigit(static_cast<unsigned char>(name[i]))) return std::nullopt;
  std::tm tm{};
  tm.tm_year = std::stoi(name.substr(0, 4)) - 1900;
  tm.tm_mon = std::stoi(name.substr(4, 2)) - 1;
  tm.tm_mday = std::stoi(name.substr(6, 2));
  tm.tm_hour = std::stoi(name.substr(9, 2));
  tm.tm_min = std::stoi(name.substr(11, 2));
  tm.tm_sec = std::stoi(name.substr(13, 2));
  return Clock::from_time_t(timegm(&tm));
}

namespace {

uintmax_t size_of(const fs::path& p) {
  std::error_code ec;
  if (fs::is_regular_file(p, ec)) return fs::file_size(p, ec);
  uintmax_t total = 0;
  for (auto it = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec) && !it->is_symlink(ec)) total += it->file_size(ec);
  return total;
}

Clock::time_point mtime_of(const fs::path& p) {
  std::error_code ec;
  auto t = fs::last_write_time(p, ec);
  return ec ? Clock::now() : std::chrono::time_point_cast<Clock::duration>(std::chrono::file_clock::to_sys(t));
}

bool in_progress(const fs::path& run) {
  std::ifstream f(run / "progress" / "run_progress.json");
  if (!f) return false;
  auto j = nlohmann::json::parse(f, nullptr, false);
  return j.is_object() && j.value("state", "") == "running";
}

// The dated directories of one kind, newest first.
std::vector<RetentionItem> dated(const fs::path& dir, const std::string& kind, Clock::time_point now) {
  std::vector<std::pair<Clock::time_point, RetentionItem>> found;
  std::error_code ec;
  for (auto& e : fs::directory_iterator(dir, ec)) {
    if (!e.is_directory(ec) || e.is_symlink(ec)) continue;  // a symlink is someone else's data: never followed
    auto t = stamp_time(e.path().filename().string()).value_or(mtime_of(e.path()));
    RetentionItem item{e.path(), kind, std::chrono::duration<double>(now - t).count() / 86400.0, size_of(e.path())};
    found.push_back({t, item});
  }
  std::sort(found.begin(), found.end(), [](auto& a, auto& b) { return a.first > b.first; });
  std::vector<RetentionItem> out;
  for (auto& f : found) out.push_back(f.second);
  return out;
}

void decide(std::vector<RetentionItem>& items, const RetentionPolicy& p) {
  for (size_t i = 0; i < items.size(); ++i) {
    RetentionItem& it = items[i];
    bool old = p.older_than_days && it.age_days > *p.older_than_days;
    bool beyond = p.keep && i >= *p.keep;
    bool both = p.older_than_days && p.keep;
    it.remove = both ? old && beyond : old || beyond;
    if (it.kind == "run" && it.remove && in_progress(it.path)) {
      it.remove = false;
      it.reason = "kept: its progress file says running (remove it by hand if that run is dead)";
    } else if (it.remove) {
      it.reason = old && beyond ? fmt::format("older than {:g} days and not among the newest {}", *p.older_than_days, *p.keep)
                  : old         ? fmt::format("older than {:g} days", *p.older_than_days)
                                : fmt::format("not among the newest {}", *p.keep);
    } else {
      it.reason = p.keep && i < *p.keep ? fmt::format("kept: among the newest {}", *p.keep)
                                        : fmt::format("kept: not older than {:g} days", p.older_than_days.value_or(0));
    }
  }
}

}  // namespace

std::vector<RetentionItem> plan_retention(const fs::path& artifacts_dir, const RetentionPolicy& policy, Clock::time_point now) {
  std::vector<RetentionItem> out;
  for (auto [sub, kind] : {std::pair{"runs", "run"}, std::pair{"profiles", "profile"}}) {
    auto items = dated(artifacts_dir / sub, kind, now);
    decide(items, policy);
    out.insert(out.end(), items.begin(), items.end());
  }
  std::error_code ec;
  if (policy.include_store && fs::is_regular_file(policy.store, ec)) {
    RetentionItem s{policy.store,
                    "store",
                    std::chrono::duration<double>(now - mtime_of(policy.store)).count() / 86400.0,
                    0,
                    true,
                    "--include-store: the results store (every stored run's history)"};
    for (const char* suffix : {"", "-wal", "-shm"}) s.bytes += size_of(policy.store.string() + suffix);
    out.push_back(s);
  }
  return out;
}

}  // namespace aisp
