// `aisp bench tui`'s data and screens on a CPU (src/tui): which runs count as live, what the target rows
// and history hold when read from a store of committed reference runs, and how the screens print them.
// The curses view and the menu are driven by tests/e2e/cli_tui.sh (tmux).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "store/store.hpp"
#include "tui/tui_data.hpp"
#include "tui/tui_screens.hpp"

namespace aisp {
namespace {
namespace fs = std::filesystem;

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("aisp_tui_" + std::to_string(getpid()));
  TempDir() { fs::remove_all(path), fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

void progress(const fs::path& artifacts, const std::string& run, const std::string& text) {
  fs::create_directories(artifacts / "runs" / run / "progress");
  std::ofstream(artifacts / "runs" / run / "progress" / "run_progress.json") << text;
}

TEST(TuiData, LiveRunsAreTheStartingAndRunningOnesNewestFirst) {
  TempDir tmp;
  progress(tmp.path, "20261125_100000__bench__a", R"({"state":"running","target":"ch07:transpose","completed":1,)"
                                                  R"("total":3,"elapsed_s":12,"estimate":"elapsed 12s, ~24s left"})");
  progress(tmp.path, "20261125_110000__bench__b", R"({"state":"starting"})");
  progress(tmp.path, "20261125_090000__bench__c", R"({"state":"finished","completed":3,"total":3})");
  progress(tmp.path, "20261125_080000__bench__d", "{not json");
  auto live = find_live_runs(tmp.path);
  ASSERT_EQ(live.size(), 2u);
  EXPECT_EQ(live[0].run_key, "20261125_110000__bench__b");
  EXPECT_EQ(live[1].target, "ch07:transpose");
  EXPECT_EQ(live[1].completed, 1u);
  EXPECT_EQ(live[1].total, 3u);
  auto panel = live_panel({live[1]});
  EXPECT_NE(panel[1].find("[##########....................] 1/3  now: ch07:transpose"), std::string::npos) << panel[1];
  EXPECT_EQ(panel[2], "  elapsed 12s, ~24s left");
  // A progress file nobody has written for an hour belongs to a killed run, and the panel says so.
  fs::path file = tmp.path / "runs" / "20261125_100000__bench__a" / "progress" / "run_progress.json";
  fs::last_write_time(file, fs::file_time_type::clock::now() - std::chrono::hours(1));
  EXPECT_NE(live_panel(find_live_runs(tmp.path))[3].find("killed?"), std::string::npos);
  EXPECT_NE(live_panel({})[0].find("no run in progress"), std::string::npos);
}

TEST(TuiData, TargetsAndHistoryFromTheStoreCalibrationLeftOut) {
  TempDir tmp;
  fs::path ref = fs::path(AISP_SOURCE_DIR) / "results" / "reference" / "h100_80gb_hbm3";
  fs::path db = tmp.path / "aisp.db";
  TuiData none = load_tui_data(db, tmp.path);
  EXPECT_NE(none.store_note.find("no results store at"), std::string::npos);
  {
    Store store = Store::open(db);
    store.ingest_run(ref / "20261122_085521__bench__calibrate-ch07_ch01");
    store.ingest_run(ref / "20261122_085749__bench__targets-ch07_ch01");
  }
  TuiData d = load_tui_data(db, tmp.path);
  EXPECT_TRUE(d.store_note.empty()) << d.store_note;
  EXPECT_EQ(d.runs.size(), 2u);
  const TuiTarget* copy = nullptr;
  for (auto& t : d.targets)
    if (t.target == "ch07:copy_scalar") copy = &t;
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->run_key, "20261122_085749__bench__targets-ch07_ch01");  // the newest run, not the A/A one
  EXPECT_EQ(copy->best_variant, "copy_scalar");
  EXPECT_EQ(copy->verdict, "FASTER");
  EXPECT_GT(copy->ci_low, 1.0);
  EXPECT_LE(copy->ci_low, copy->speedup);
  EXPECT_GE(copy->ci_high, copy->speedup);
  auto table = targets_table(d);
  EXPECT_EQ(table.size(), d.targets.size() + 1);  // header + one row per target
  auto history = load_tui_history(db, "ch07:copy_scalar");
  ASSERT_EQ(history.size(), 1u);  // the A/A run's aa_self rows are noise, not history
  EXPECT_EQ(history[0].variant, "copy_scalar");
  EXPECT_NE(history_table("ch07:copy_scalar", history)[1].find("FASTER"), std::string::npos);
  EXPECT_EQ(history_table("ch07:nothing", {}).back(), "no stored runs of ch07:nothing");
}

TEST(TuiScreens, SpeedupWithCiAndProgressBar) {
  EXPECT_EQ(speedup_with_ci(1.8412, 1.79, 1.9), "1.84x [1.79, 1.90]");
  EXPECT_EQ(speedup_with_ci(0, 0, 0), "-");
  EXPECT_EQ(speedup_with_ci(2.0, 0, 0), "2.00x");  // no interval stored: none invented
  EXPECT_EQ(progress_bar(0, 0, 4), "[....] 0/0");
  EXPECT_EQ(progress_bar(5, 4, 4), "[####] 5/4");
}

}  // namespace
}  // namespace aisp
