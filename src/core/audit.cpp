#include "core/audit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <array>
#include <limits>
#include <map>
#include <string_view>
#include <unordered_map>

namespace aisp {
namespace {

struct Window {
  uint64_t opens = 0, closes = std::numeric_limits<uint64_t>::max();
  bool have_opens = false, have_closes = false;
  uint64_t first_run = std::numeric_limits<uint64_t>::max(), last_run = 0;
  int64_t run_count = 0;
};

// Findings of one rule are merged: the first instance is the example, the count says how often.
class Findings {
 public:
  void add(const std::string& check, const std::string& rule, const std::string& detail) {
    auto [it, fresh] = by_rule_.try_emplace(check + "|" + rule, Entry{check, detail, 0});
    ++it->second.count;
    if (fresh) order_.push_back(it->first);
  }
  std::vector<AuditFinding> list() const {
    std::vector<AuditFinding> out;
    for (auto& key : order_) {
      const Entry& e = by_rule_.at(key);
      out.push_back({e.check, e.count > 1 ? fmt::format("{} ({} times)", e.detail, e.count) : e.detail});
    }
    return out;
  }

 private:
  struct Entry {
    std::string check, detail;
    int64_t count;
  };
  std::map<std::string, Entry> by_rule_;
  std::vector<std::string> order_;
};

const char* kind_name(AuditActivity::Kind k) {
  switch (k) {
    case AuditActivity::Kind::kernel: return "kernel";
    case AuditActivity::Kind::memcpy: return "memcpy";
    case AuditActivity::Kind::memset: return "memset";
  }
  return "?";
}

std::string what(const AuditActivity& a) {
  return a.kind == AuditActivity::Kind::kernel ? fmt::format("kernel '{}'", a.name) : std::string(kind_name(a.kind));
}

double us(uint64_t ns) { return static_cast<double>(ns) / 1000.0; }

}  // namespace

std::string forbidden_in_run(const std::string& api) {
  // Runtime and driver spellings; prefixes cover the _v2/_ptsz/WithFlags variants.
  static constexpr std::array<std::string_view, 12> k9 = {
      "cudaStreamCreate", "cuStreamCreate",        "cudaLaunchHostFunc", "cuLaunchHostFunc",
      "cudaStreamAddCallback", "cuStreamAddCallback", "cudaDeviceSetLimit", "cuCtxSetLimit",
      "cudaThreadSetLimit", "cudaDeviceReset",     "cudaSetDeviceFlags", "cudaDeviceSetCacheConfig"};
  static constexpr std::array<std::string_view, 4> k13 = {"cudaStreamSetAttribute", "cuStreamSetAttribute",
                                                           "cudaCtxResetPersistingL2Cache", "cuCtxResetPersistingL2Cache"};
  for (auto p : k13)
    if (api.starts_with(p)) return "K13";
  for (auto p : k9)
    if (api.starts_with(p)) return "K9";
  return "";
}

namespace {

// One audit's verdict, rule group by rule group: API calls, then each activity attributed to the harness
// or to run() of one sample, then work no callback launched, then the per-sample window rules.
class AuditAnalysis {
 public:
  explicit AuditAnalysis(const AuditTrace& t) : t(t) {
    for (auto& c : t.calls) by_correlation.try_emplace(c.correlation, &c);
    for (auto& s : t.samples) windows[s.sample];
  }
  AuditSummary run() {
    check_api_calls();
    attribute_activities();
    place_unlaunched();
    check_windows();
    out.findings = f.list();
    return out;
  }

 private:
  void check_api_calls();
  void attribute_activities();
  void place_unlaunched();
  void check_windows();
  void count_run_work(const AuditActivity& a, Window* w);

  const AuditTrace& t;
  AuditSummary out;
  Findings f;
  std::unordered_map<uint32_t, const AuditApiCall*> by_correlation;
  std::map<int, Window> windows;
  // Work no API callback launched: queued before the audit began, or launched by the GPU itself (a graph's
  // conditional node, a device-side graph launch, dynamic parallelism). Judged once the windows are known.
  std::vector<const AuditActivity*> unlaunched;
};

void AuditAnalysis::check_api_calls() {
  // API rules (K9/K13): other threads calling CUDA at all, and forbidden calls from run().
  for (auto& c : t.calls) {
    if (!c.harness_thread)
      f.add("K9", "thread:" + c.name,
            fmt::format("{} called from thread {}, not the harness thread (work or state the harness cannot order)",
                        c.name, c.tid));
    else if (c.phase == AuditPhase::run)
      if (std::string id = forbidden_in_run(c.name); !id.empty())
        f.add(id, "api:" + c.name, fmt::format("run() called {}", c.name));
  }
}

// run()'s work, attributed to a sample's window (nullptr: a verification run, which has no window).
void AuditAnalysis::count_run_work(const AuditActivity& a, Window* w) {
  ++out.run_activities;
  if (a.stream != t.harness_stream) ++out.side_stream_activities;
  if (a.kind == AuditActivity::Kind::kernel) out.kernels.insert(a.name);
  if (a.device != t.device)
    f.add("K8", "device", fmt::format("{} ran on device {}, not the declared device {}", what(a), a.device, t.device));
  if (a.access_policy_window)
    f.add("K13", "apw:" + a.name, fmt::format("{} ran under an L2 access-policy window", what(a)));
  if (a.kind == AuditActivity::Kind::kernel && !t.verified_kernels.empty() && !t.verified_kernels.contains(a.name))
    f.add("K8", "unverified:" + a.name,
          fmt::format("{} ran in timing but never in the verified runs (timed code differs from checked code)",
                      what(a)));
  if (!w) return;
  w->first_run = std::min(w->first_run, a.start_ns);
  w->last_run = std::max(w->last_run, a.end_ns);
  ++w->run_count;
}

void AuditAnalysis::attribute_activities() {
  // Activities: attribute each to the harness or to run() of one sample, then check it against the window.
  for (auto& a : t.activities) {
    auto it = by_correlation.find(a.correlation);
    if (it == by_correlation.end()) {
      if (a.start_ns >= t.audit_started_ns) unlaunched.push_back(&a);
      continue;
    }
    const AuditApiCall& c = *it->second;
    if (!c.harness_thread) {
      f.add("K8", "foreign:" + a.name, fmt::format("{} was launched by thread {} ({}), outside any timed window",
                                                   what(a), c.tid, c.name));
      continue;
    }
    if (c.phase != AuditPhase::run) {
      ++out.harness_activities;
      auto w = windows.find(c.sample);
      if (w == windows.end()) continue;
      if (c.phase == AuditPhase::prologue) {
        w->second.opens = std::max(w->second.opens, a.end_ns);
        w->second.have_opens = true;
      } else if (c.phase == AuditPhase::epilogue) {
        w->second.closes = std::min(w->second.closes, a.start_ns);
        w->second.have_closes = true;
      }
      continue;
    }
    auto w = windows.find(c.sample);
    count_run_work(a, w == windows.end() ? nullptr : &w->second);
  }
}

void AuditAnalysis::place_unlaunched() {
  // A verification run starts its audit on an idle device (the worker synchronizes first), so everything
  // in its trace was launched by run(): the GPU launched what no callback saw. In timing, device-launched
  // work belongs to the sample whose window it starts in (the window rules then judge where it ended). A
  // kernel verification already saw launched by the GPU is run()'s work even when its record falls outside
  // every window: CUPTI stamps the first device-launched kernel of an audit early (measured on the H100,
  // driver 580: 654 us before its sample's window, 4 us long, once per audited block). Anything else was
  // left running across samples.
  for (const AuditActivity* a : unlaunched) {
    if (t.samples.empty()) {
      count_run_work(*a, nullptr);
      continue;
    }
    Window* home = nullptr;
    for (auto& [sample, w] : windows)
      if (w.have_opens && w.have_closes && a->start_ns + kAuditSlackNs >= w.opens && a->start_ns <= w.closes + kAuditSlackNs)
        home = &w;
    if (home || (a->kind == AuditActivity::Kind::kernel && t.verified_kernels.contains(a->name))) {
      count_run_work(*a, home);
      continue;
    }
    // Where it ran against the nearest window, so a report can tell a stray launch from a clock mismatch.
    int64_t nearest = std::numeric_limits<int64_t>::max();
    for (auto& [sample, w] : windows)
      if (w.have_opens && std::llabs(static_cast<long long>(a->start_ns) - static_cast<long long>(w.opens)) < std::llabs(nearest))
        nearest = static_cast<int64_t>(a->start_ns) - static_cast<int64_t>(w.opens);
    f.add("K8", "unattributed", fmt::format("{} on stream {} ran during the audit but was launched before it "
                                            "(work left running across samples; it started {:.1f} us from the "
                                            "nearest window's opening, lasting {:.1f} us)",
                                            what(*a), a->stream, nearest / 1e3, (a->end_ns - a->start_ns) / 1e3));
  }
}

void AuditAnalysis::check_windows() {
  // A sample whose run() launched a graph put work on the GPU even when the graph's kernels were launched
  // by the device (their records are placed above, or not at all).
  std::set<int> graph_launch_samples;
  for (auto& c : t.calls)
    if (c.harness_thread && c.phase == AuditPhase::run &&
        (c.name.starts_with("cudaGraphLaunch") || c.name.starts_with("cuGraphLaunch")))
      graph_launch_samples.insert(c.sample);
  // Window rules, per sample.
  for (auto& s : t.samples) {
    Window& w = windows[s.sample];
    if (!w.have_opens || !w.have_closes) {
      out.markers_seen = false;
      f.add("K8", "blind", "the harness's own marker activities were missing from the trace (CUPTI activity "
                           "disabled or flushed by the benchmark?): the window could not be audited");
      continue;
    }
    if (w.run_count == 0) {
      if (!graph_launch_samples.contains(s.sample))
        f.add("K8", "empty", fmt::format("sample {}: run() put no kernel, memcpy or memset on the GPU inside the "
                                         "timed window", s.sample));
      continue;
    }
    if (w.first_run + kAuditSlackNs < w.opens)
      f.add("K8", "early", fmt::format("sample {}: run()'s work started {:.1f} us before the timed window opened "
                                       "(on a stream not ordered after the harness stream)",
                                       s.sample, us(w.opens - w.first_run)));
    if (w.last_run > w.closes + kAuditSlackNs)
      f.add("K8", "late", fmt::format("sample {}: run()'s work ended {:.1f} us after the timed window closed "
                                      "(not joined to the harness stream before run() returned)",
                                      s.sample, us(w.last_run - w.closes)));
    double span_ms = (w.last_run - w.first_run) / 1e6;
    double event_total_ms = s.event_ms * s.batch;
    if (span_ms > event_total_ms * 1.02 + 0.003)
      f.add("K7", "span", fmt::format("sample {}: the GPU was busy with run()'s work for {:.4f} ms but the events "
                                      "reported {:.4f} ms", s.sample, span_ms, event_total_ms));
  }
}

}  // namespace

AuditSummary analyze_audit(const AuditTrace& t) { return AuditAnalysis(t).run(); }

}  // namespace aisp
