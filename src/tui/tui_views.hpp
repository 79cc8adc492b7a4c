// The two faces of `aisp bench tui`: the ncurses screen (arrow keys, Enter for a target's history, the
// live-run panel refreshed every second) and the numbered menu of `--simple` (stdin/stdout, no curses:
// for dumb terminals, logs and scripts). Both draw the screens of tui_screens.hpp over TuiData.
#pragma once
#include <filesystem>
#include <iosfwd>

namespace aisp {

struct TuiOptions {
  std::filesystem::path store_path, artifacts_dir;
  double refresh_s = 1.0;  // how often the curses view re-reads the live runs' progress files
};

// Returns the exit code: 0 on `q`; 2 when the terminal cannot be driven by curses (the message says to
// use --simple).
int run_curses_tui(const TuiOptions& options);

// The numbered menu; reads choices from `in` until `q` or end of input. Returns 0.
int run_simple_tui(const TuiOptions& options, std::istream& in, std::ostream& out);

}  // namespace aisp
