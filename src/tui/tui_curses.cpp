// `aisp bench tui`: the ncurses view. Four screens (targets, runs, live, a target's history) over the
// same TuiData as --simple; the live runs are re-read every `refresh_s` seconds (getch times out), the
// store only on `R`, so a large store is not re-read while a person scrolls.
#include <curses.h>
#include <fmt/format.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "tui/tui_data.hpp"
#include "tui/tui_screens.hpp"
#include "tui/tui_views.hpp"

namespace aisp {
namespace {

enum class Screen { targets, runs, live, history, help };

const char* kHelp[] = {
    "keys",
    "  1  targets: each stored target's newest result per GPU (best variant, speedup, 95% CI, verdict)",
    "  2  runs: the stored runs, newest first",
    "  3  live: runs in progress (their progress/run_progress.json), refreshed every second",
    "  Enter  on a target: its history across the stored runs (level changes marked <<)",
    "  Up/Down, j/k, PgUp/PgDn, Home/End  move     b, Esc, Backspace  back to the targets",
    "  R  re-read the store     ?  this help     q  quit",
};

class CursesTui {
 public:
  explicit CursesTui(const TuiOptions& o) : o_(o), data_(load_tui_data(o.store_path, o.artifacts_dir)) {}

  int loop() {
    timeout(static_cast<int>(o_.refresh_s * 1000));
    for (;;) {
      draw();
      int key = getch();
      if (key == ERR) {  // the refresh tick: only the progress files are re-read
        data_.live = find_live_runs(o_.artifacts_dir);
        continue;
      }
      if (key == 'q') return 0;
      handle(key);
    }
  }

 private:
  std::vector<std::string> lines() const {
    switch (screen_) {
      case Screen::targets: return targets_table(data_);
      case Screen::runs: return runs_table(data_);
      case Screen::live: return live_panel(data_.live);
      case Screen::history: return history_;
      case Screen::help: return {std::begin(kHelp), std::end(kHelp)};
    }
    return {};
  }

  void show(Screen s) {
    screen_ = s;
    selected_ = top_ = 0;
  }

  void handle(int key) {
    int rows = static_cast<int>(lines().size()) - 1;  // the header is not selectable
    int page = LINES - 6;
    switch (key) {
      case '1': show(Screen::targets); break;
      case '2': show(Screen::runs); break;
      case '3': show(Screen::live); break;
      case '?': show(Screen::help); break;
      case 'b': case 27: case KEY_BACKSPACE: case 127: show(Screen::targets); break;
      case 'R': data_ = load_tui_data(o_.store_path, o_.artifacts_dir); message_ = "store re-read"; break;
      case KEY_DOWN: case 'j': selected_ = std::min(selected_ + 1, rows - 1); break;
      case KEY_UP: case 'k': selected_ = std::max(selected_ - 1, 0); break;
      case KEY_NPAGE: selected_ = std::min(selected_ + page, rows - 1); break;
      case KEY_PPAGE: selected_ = std::max(selected_ - page, 0); break;
      case KEY_HOME: selected_ = 0; break;
      case KEY_END: selected_ = rows - 1; break;
      case '\n': case KEY_ENTER: open_history(); break;
      case KEY_RESIZE: break;  // curses has updated LINES and COLS; the next draw() uses them
      default: message_ = fmt::format("key {} does nothing here (? for help)", keyname(key)); break;
    }
    if (selected_ < 0) selected_ = 0;
  }

  void open_history() {
    if (screen_ != Screen::targets || selected_ >= static_cast<int>(data_.targets.size())) return;
    history_target_ = data_.targets[selected_].target;
    history_ = history_table(history_target_, load_tui_history(o_.store_path, history_target_));
    show(Screen::history);
  }

  void put(int y, const std::string& text, attr_t attr = A_NORMAL) {
    if (y >= LINES) return;
    attron(attr);
    mvaddnstr(y, 0, text.c_str(), COLS);
    attroff(attr);
  }

  std::string title() const {
    const char* names[] = {"targets", "runs", "live", "history", "help"};
    std::string where = names[static_cast<int>(screen_)];
    if (screen_ == Screen::history) where += " of " + history_target_;
    return fmt::format(" aisp bench tui | {} | 1 targets  2 runs  3 live  Enter history  ? help  q quit", where);
  }

  std::string status() const {
    std::string s = data_.store_note.empty()
                        ? fmt::format("store {}: {} targets, {} runs", data_.store_path.string(), data_.targets.size(),
                                      data_.runs.size())
                        : "note: " + data_.store_note;
    if (!data_.live.empty())
      s += fmt::format(" | live: {} {}/{} ({})", data_.live[0].target, data_.live[0].completed, data_.live[0].total,
                       data_.live[0].estimate);
    return s;
  }

  void draw() {
    erase();
    put(0, title() + std::string(COLS, ' '), A_REVERSE);
    put(1, status());
    if (screen_ == Screen::live) {
      int y = 3;
      for (auto& l : live_panel(data_.live)) put(y++, l);
    } else {
      draw_table(lines());
    }
    put(LINES - 1, message_.empty() ? std::string(" ") : message_, A_DIM);
    message_.clear();
    refresh();
  }

  // Header on line 3, rows below it scrolled so the selected one is visible and shown reversed.
  void draw_table(const std::vector<std::string>& l) {
    if (l.empty()) return;
    bool selectable = screen_ == Screen::targets || screen_ == Screen::runs || screen_ == Screen::history;
    put(3, l[0], A_BOLD);
    int visible = LINES - 6;
    if (selected_ < top_) top_ = selected_;
    if (selected_ >= top_ + visible) top_ = selected_ - visible + 1;
    for (int i = 0; i < visible && top_ + i + 1 < static_cast<int>(l.size()); ++i) {
      int row = top_ + i;
      put(4 + i, l[row + 1], selectable && row == selected_ ? A_REVERSE : A_NORMAL);
    }
    if (screen_ == Screen::targets && data_.targets.empty())
      put(5, data_.store_note.empty() ? "no stored targets" : data_.store_note);
  }

  TuiOptions o_;
  TuiData data_;
  Screen screen_ = Screen::targets;
  int selected_ = 0, top_ = 0;
  std::string history_target_, message_;
  std::vector<std::string> history_;
};

}  // namespace

int run_curses_tui(const TuiOptions& o) {
  // newterm, not initscr: an unknown or dumb terminal is an error to report, not an exit inside curses.
  SCREEN* screen = newterm(nullptr, stdout, stdin);
  if (!screen) {
    std::cerr << "aisp bench tui: cannot drive this terminal (TERM=" << (getenv("TERM") ? getenv("TERM") : "")
              << "); use `aisp bench tui --simple`\n";
    return 2;
  }
  cbreak();
  noecho();
  keypad(stdscr, TRUE);
  curs_set(0);
  set_escdelay(50);
  int code = CursesTui(o).loop();
  endwin();
  delscreen(screen);
  return code;
}

}  // namespace aisp
