// The suite's status line on stderr: which target and phase, the timing's live numbers, and the time
// spent and an estimate of the time left (from the targets finished so far).
#pragma once
#include <chrono>
#include <cstddef>
#include <string>

#include "runner/target_runner.hpp"

namespace aisp {

// "elapsed 1m05s, ~2m10s left" once a target has finished (the mean per finished target times the ones
// left); "elapsed 12s" before.
std::string elapsed_and_remaining(double elapsed_s, size_t finished, size_t total);
std::string short_duration(double seconds);  // 42s, 3m07s, 1h02m

// One status line, redrawn in place on a terminal; plain lines otherwise (logs, CI).
class ProgressLine {
 public:
  ProgressLine(bool live, size_t total);
  void next_target() { ++index_; }
  void update(const Progress& p);
  double elapsed_s() const;

 private:
  bool live_;
  size_t total_, index_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace aisp
