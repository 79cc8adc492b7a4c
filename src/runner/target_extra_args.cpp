#include "runner/target_extra_args.hpp"

#include <fmt/format.h>

#include <sstream>
#include <stdexcept>

namespace aisp {
namespace {

double number(const std::string& option, const std::string& value) {
  try {
    size_t used = 0;
    double v = std::stod(value, &used);
    if (used == value.size() && v >= 0) return v;
  } catch (const std::exception&) {
  }
  throw std::invalid_argument(fmt::format("{} needs a non-negative number, got '{}'", option, value));
}

int count(const std::string& option, const std::string& value) {
  double v = number(option, value);
  if (v != static_cast<int>(v)) throw std::invalid_argument(fmt::format("{} needs a whole number, got '{}'", option, value));
  return static_cast<int>(v);
}

void set_option(TargetExtraArgs& e, const std::string& option, const std::string& value) {
  if (option == "--axis") e.axes.push_back(value);
  else if (option == "--iterations") e.iterations = count(option, value);
  else if (option == "--warmup") e.warmup = count(option, value);
  else if (option == "--time-limit") e.time_limit = number(option, value);
  else if (option == "--min-time") e.min_time = number(option, value);
  else if (option == "--max-noise") e.max_noise_pct = number(option, value);
  else if (option == "--timeout-multiplier") e.timeout_multiplier = number(option, value);
  else
    throw std::invalid_argument(fmt::format("'{}' is not a per-target option (accepted: {})", option, kTargetExtraArgOptions));
}

}  // namespace

TargetExtraArgs parse_target_extra_arg(const std::string& text) {
  TargetExtraArgs e;
  e.text = text;
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw std::invalid_argument(fmt::format("'{}': expected TARGET=ARGS, e.g. ch07:copy_scalar=--axis n=1M", text));
  e.selector = text.substr(0, eq);
  std::istringstream in(text.substr(eq + 1));
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  if (words.empty()) throw std::invalid_argument(fmt::format("'{}': no options after '='", text));
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w.rfind("--", 0) != 0) throw std::invalid_argument(fmt::format("'{}': expected an option, got '{}'", text, w));
    auto inner = w.find('=');
    if (inner != std::string::npos) {
      set_option(e, w.substr(0, inner), w.substr(inner + 1));
    } else {
      if (i + 1 >= words.size()) throw std::invalid_argument(fmt::format("'{}': {} needs a value", text, w));
      set_option(e, w, words[++i]);
    }
  }
  return e;
}

bool applies_to(const TargetExtraArgs& extra, const Target& target) {
  return extra.selector == target.chapter + ":" + target.example || extra.selector == target.chapter;
}

RunOptions run_options_for(const Target& target, RunOptions run, const std::vector<TargetExtraArgs>& extras) {
  for (auto& e : extras) {
    if (!applies_to(e, target)) continue;
    if (e.iterations) run.iterations = *e.iterations;
    if (e.warmup) run.warmup = *e.warmup;
    if (e.time_limit) run.policy.time_limit_s = *e.time_limit;
    if (e.min_time) run.policy.min_gpu_time_s = *e.min_time;
    if (e.max_noise_pct) run.policy.max_noise = *e.max_noise_pct / 100.0;
    if (e.timeout_multiplier) run.timeout_multiplier = *e.timeout_multiplier;
  }
  return run;
}

}  // namespace aisp
