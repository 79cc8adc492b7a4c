// `aisp bench tui --simple`: the same screens as the curses view, as a numbered menu on stdin/stdout.
#include <fmt/format.h>

#include <istream>
#include <ostream>
#include <string>

#include "tui/tui_data.hpp"
#include "tui/tui_screens.hpp"
#include "tui/tui_views.hpp"

namespace aisp {
namespace {

void print_lines(std::ostream& out, const std::vector<std::string>& lines, bool numbered) {
  for (size_t i = 0; i < lines.size(); ++i) {
    if (numbered) out << (i == 0 ? "     " : fmt::format("{:>3}) ", i));
    out << lines[i] << "\n";
  }
}

void print_menu(std::ostream& out, const TuiData& d) {
  out << fmt::format("\naisp bench tui --simple: store {} ({} targets, {} runs); {} run(s) in progress\n",
                     d.store_path.string(), d.targets.size(), d.runs.size(), d.live.size());
  if (!d.store_note.empty()) out << "note: " << d.store_note << "\n";
  out << "  1) targets with their newest verdict and 95% CI\n  2) stored runs\n  3) live run progress\n"
         "  4) a target's history\n  r) reload   q) quit\nchoice> ";
  out.flush();
}

// "4": asks for a target by its number in the targets table or by its id.
void history_prompt(const TuiOptions& o, const TuiData& d, std::istream& in, std::ostream& out) {
  out << "target (number from 1 or an id such as ch07:copy_scalar)> ";
  out.flush();
  std::string answer;
  if (!std::getline(in, answer) || answer.empty()) return;
  std::string target = answer;
  try {
    size_t used = 0;
    size_t n = std::stoul(answer, &used);
    if (used == answer.size()) {
      if (n < 1 || n > d.targets.size()) {
        out << fmt::format("no target number {} (1..{})\n", n, d.targets.size());
        return;
      }
      target = d.targets[n - 1].target;
    }
  } catch (const std::exception&) {
  }
  out << "history of " << target << ", oldest first\n";
  print_lines(out, history_table(target, load_tui_history(o.store_path, target)), false);
}

}  // namespace

int run_simple_tui(const TuiOptions& o, std::istream& in, std::ostream& out) {
  TuiData d = load_tui_data(o.store_path, o.artifacts_dir);
  for (;;) {
    print_menu(out, d);
    std::string choice;
    if (!std::getline(in, choice)) break;
    if (choice == "q") break;
    if (choice == "1") print_lines(out, targets_table(d), true);
    else if (choice == "2") print_lines(out, runs_table(d), false);
    else if (choice == "3") print_lines(out, live_panel(find_live_runs(o.artifacts_dir)), false);
    else if (choice == "4") history_prompt(o, d, in, out);
    else if (choice == "r") d = load_tui_data(o.store_path, o.artifacts_dir);
    else if (!choice.empty()) out << fmt::format("unknown choice '{}'\n", choice);
  }
  out << "\n";
  return 0;
}

}  // namespace aisp
