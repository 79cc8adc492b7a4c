#include "runner/target_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <future>

#include "core/file_names.hpp"
#include "core/verdict.hpp"
#include "runner/rank_plan.hpp"

namespace aisp {

namespace fs = std::filesystem;

TargetRun::TargetRun(const Target& target, const RunOptions& options)
    : target_(target), opt_(options), reader_(options.output_device.get()),
      phase_start_(std::chrono::steady_clock::now()) {
  out_.id = target.id;
  out_.chapter = target.chapter;
  out_.example = target.example;
  out_.mode = options.mode;
  out_.baseline.name = "baseline";
  out_.baseline.file = target.baseline.file;
  out_.optimizations.resize(target.optimized.size());
  for (size_t i = 0; i < target.optimized.size(); ++i) {
    out_.optimizations[i].name = target.optimized[i].name;
    out_.optimizations[i].file = target.optimized[i].file;
  }
  work_ = options.run_dir / "work" / file_slug(target.id);
}

TargetResult TargetRun::run() {
  if (!load() || !check_declarations() || !setup() || !verify()) return finish_baseline_failed();
  if (opt_.validity) {
    check_sensitivity();
    replay();
  }
  if (!warm_up()) return finish_baseline_failed();
  time_interleaved();
  if (!wrap_up()) return finish_baseline_failed();
  decide_verdicts();
  return finish("");
}

int TargetRun::ranks() const { return opt_.rank_plan ? static_cast<int>(opt_.rank_plan->ranks.size()) : 1; }

// Every phase that stops the target has left its reason in the baseline's result or in out_.error.
TargetResult TargetRun::finish_baseline_failed() {
  if (!out_.error.empty()) return finish(out_.error);
  skip_rest("baseline failed");
  return finish("baseline: " + live_[0].result->error);
}

TargetResult TargetRun::finish(const std::string& target_error) {
  enter_phase("wrap_up");
  unmap_outputs();  // before the workers exit: their allocations go with them
  // Every worker ends at once: each tears down its CUDA context, which takes a while, in its own process.
  std::vector<std::future<void>> exits;
  for (auto& l : live_)
    if (l.worker) exits.push_back(std::async(std::launch::async, [&l] { l.worker->shutdown(10); }));
  for (auto& e : exits) e.get();
  for (auto& l : live_) {
    if (l.result->checks.empty()) l.result->checks = assemble_checks(l.findings, l.evidence);
    // DESIGN §8: any failed check is an INVALID verdict, whatever the seed status word (failed_verification).
    bool failed_check = std::any_of(l.result->checks.begin(), l.result->checks.end(), [](auto& c) { return !c.passed; });
    if (failed_check && &l != &live_[0]) l.result->verdict = verdict_name(Verdict::invalid);
  }
  std::error_code ec;
  if (!opt_.keep_outputs) fs::remove_all(work_, ec);
  out_.error = target_error;
  std::vector<std::string> statuses;
  for (auto& o : out_.optimizations) statuses.push_back(o.status);
  const VariantResult& base = out_.baseline;
  out_.status = target_error.empty() ? target_status(statuses)
                                     : (base.status == status::skipped ? status::skipped : base.status);
  if (!target_error.empty() && out_.status == status::succeeded) out_.status = status::failed_error;
  enter_phase("");  // closes wrap_up
  progress("*", "done");
  return out_;
}

// Wall seconds per phase: entering a phase closes the running one.
void TargetRun::enter_phase(const std::string& p) {
  if (p == phase_now_) return;
  auto now = std::chrono::steady_clock::now();
  out_.phase_seconds[phase_now_] =
      out_.phase_seconds.value(phase_now_, 0.0) + std::chrono::duration<double>(now - phase_start_).count();
  phase_now_ = p;
  phase_start_ = now;
}

void TargetRun::progress(const std::string& variant, const std::string& phase, int64_t n, double noise, double med) {
  if (phase != "done") enter_phase(phase);
  if (opt_.on_progress) opt_.on_progress({target_.id, variant, phase, n, noise, med});
}

void TargetRun::skip_rest(const std::string& why) {
  for (size_t i = 1; i < live_.size(); ++i)
    if (!live_[i].failed) fail(live_[i], "skipped", why, status::skipped);
}

}  // namespace aisp
