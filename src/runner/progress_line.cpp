#include "runner/progress_line.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace aisp {

std::string short_duration(double seconds) {
  long s = std::lround(std::max(seconds, 0.0));
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
}

std::string elapsed_and_remaining(double elapsed_s, size_t finished, size_t total) {
  std::string text = "elapsed " + short_duration(elapsed_s);
  if (finished == 0 || finished >= total) return text;
  double left = elapsed_s / static_cast<double>(finished) * static_cast<double>(total - finished);
  return text + ", ~" + short_duration(left) + " left";
}

ProgressLine::ProgressLine(bool live, size_t total)
    : live_(live && isatty(2)), total_(total), start_(std::chrono::steady_clock::now()) {}

double ProgressLine::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressLine::update(const Progress& p) {
  std::string line = fmt::format("[{}/{}] {} {} {}", index_, total_, p.target, p.variant, p.phase);
  if (p.phase == "timing")
    line += fmt::format(" n={} noise={:.2f}% median={:.4f} ms", p.samples, 100 * p.noise, p.median_ms);
  // The target being run has not finished: index_ - 1 have (index_ once it reports done).
  size_t finished = p.phase == "done" ? index_ : index_ - 1;
  if (total_ > 1) line += " | " + elapsed_and_remaining(elapsed_s(), finished, total_);
  if (live_) {
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    if (p.phase == "done") std::fprintf(stderr, "\n");
  } else if (p.phase != "timing" || p.samples == 0) {
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::fflush(stderr);
}

}  // namespace aisp
