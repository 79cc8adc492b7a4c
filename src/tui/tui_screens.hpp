// The TUI's screens as plain text lines (the targets table, the runs table, a target's history, the live
// runs), shared by the curses view and the numbered menu of `--simple`, and tested without a terminal.
// The first line of each table is its column header.
#pragma once
#include <string>
#include <vector>

#include "tui/tui_data.hpp"

namespace aisp {

// "1.84x [1.79, 1.90]", or "-" when nothing was measured.
std::string speedup_with_ci(double speedup, double low, double high);
// "[#######.......] 3/7" in `width` characters of bar.
std::string progress_bar(size_t completed, size_t total, int width);

std::vector<std::string> targets_table(const TuiData& data);
std::vector<std::string> runs_table(const TuiData& data);
std::vector<std::string> history_table(const std::string& target, const std::vector<HistoryRow>& rows);
// One block per live run: key, state, current target, bar, elapsed and estimate; a hint when there is none.
std::vector<std::string> live_panel(const std::vector<LiveRun>& live);

}  // namespace aisp
