// `aisp bench tui [--simple] [--db PATH] [--artifacts-dir DIR] [--refresh S]`: flags only; the views are
// src/tui (tui_views.hpp).
#include "cli/tui_commands.hpp"

#include <unistd.h>

#include <iostream>

#include "cli/store_commands.hpp"
#include "tui/tui_views.hpp"

namespace aisp {

void add_tui_command(CLI::App& bench) {
  struct Args {
    std::string db, artifacts_dir = "artifacts";
    bool simple = false;
    double refresh_s = 1.0;
  };
  static Args a;
  auto* tui = bench.add_subcommand("tui", "Terminal UI: targets with verdicts and CIs, stored runs, a target's "
                                          "history, live run progress (ncurses; --simple: numbered menu)");
  tui->add_flag("--simple", a.simple, "A numbered menu on stdin/stdout instead of the curses screen");
  tui->add_option("--db", a.db, "Results store (default: $AISP_DB, else <artifacts-dir>/aisp.db); opened read-only");
  tui->add_option("--artifacts-dir", a.artifacts_dir, "Where runs/ (live progress) and aisp.db are")->capture_default_str();
  tui->add_option("--refresh", a.refresh_s, "Seconds between re-reads of the live runs' progress")
      ->check(CLI::Range(0.1, 60.0))->capture_default_str();
  tui->callback([] {
    TuiOptions o{store_path(a.db, a.artifacts_dir), a.artifacts_dir, a.refresh_s};
    // Not a terminal (a pipe, CI): the menu, which works anywhere, rather than a curses error.
    bool terminal = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
    if (!a.simple && !terminal) std::cerr << "aisp bench tui: not a terminal; showing the --simple menu\n";
    int code = a.simple || !terminal ? run_simple_tui(o, std::cin, std::cout) : run_curses_tui(o);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace aisp
