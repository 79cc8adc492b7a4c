// The CUPTI audit's verdict logic on synthetic traces: the shapes real cheats leave (side-stream work
// outside the window, launches from other threads, forbidden API calls, empty windows, kernels that never
// ran in verification) are flagged with the right check id; honest shapes (fork/join inside the window,
// harness work, graph launches) are not.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/audit.hpp"

namespace aisp {
namespace {

// One cold sample: prologue marker ends at 100 us, epilogue marker starts at 200 us (the window).
struct TraceBuilder {
  AuditTrace t;
  uint32_t next = 1;
  TraceBuilder() {
    t.audit_started_ns = 1'000;
    t.harness_stream = 7;
    t.samples.push_back({0, 0.100, 1});
    harness(AuditPhase::prologue, 10'000, 100'000);
    harness(AuditPhase::epilogue, 200'000, 201'000);
  }
  void harness(AuditPhase phase, uint64_t start, uint64_t end) {
    uint32_t c = next++;
    t.calls.push_back({c, "cudaMemsetAsync", phase, 0, true, 1});
    t.activities.push_back({AuditActivity::Kind::memset, c, start, end, 0, 7, "memset", false});
  }
  // run()'s kernel on `stream`, launched by the harness thread (or another thread).
  void run_kernel(uint64_t start, uint64_t end, uint32_t stream = 7, bool harness_thread = true,
                  const std::string& name = "copy") {
    uint32_t c = next++;
    t.calls.push_back({c, "cudaLaunchKernel", harness_thread ? AuditPhase::run : AuditPhase::harness,
                       harness_thread ? 0 : -1, harness_thread, harness_thread ? 1u : 99u});
    t.activities.push_back({AuditActivity::Kind::kernel, c, start, end, 0, stream, name, false});
  }
  // A kernel no API call of the trace launched (a graph's conditional node, a device-side launch, work
  // started before the audit): its correlation id matches no call.
  void unlaunched_kernel(uint64_t start, uint64_t end, const std::string& name = "cond_step", uint32_t stream = 15,
                         uint32_t correlation = 9999) {
    t.activities.push_back({AuditActivity::Kind::kernel, correlation, start, end, 0, stream, name, false});
  }
};

bool has(const AuditSummary& s, const std::string& check, const std::string& text = "") {
  return std::any_of(s.findings.begin(), s.findings.end(), [&](const AuditFinding& f) {
    return f.check == check && f.detail.find(text) != std::string::npos;
  });
}

TEST(Audit, HonestHarnessStreamWorkPasses) {
  TraceBuilder b;
  b.run_kernel(101'000, 199'000);
  AuditSummary s = analyze_audit(b.t);
  EXPECT_TRUE(s.findings.empty()) << s.findings.front().detail;
  EXPECT_EQ(s.run_activities, 1);
  EXPECT_TRUE(s.kernels.contains("copy"));
}

TEST(Audit, HonestForkJoinOnSideStreamPasses) {
  TraceBuilder b;
  b.run_kernel(101'000, 150'000, 7);
  b.run_kernel(102'000, 190'000, 9);  // side stream, inside the window: joined before the stop event
  AuditSummary s = analyze_audit(b.t);
  EXPECT_TRUE(s.findings.empty());
  EXPECT_EQ(s.side_stream_activities, 1);
}

TEST(Audit, SideStreamWorkBeforeTheWindowIsK8) {
  TraceBuilder b;
  b.run_kernel(20'000, 90'000, 9);  // ran while the blocking kernel held the harness stream
  b.run_kernel(101'000, 102'000, 7);
  EXPECT_TRUE(has(analyze_audit(b.t), "K8", "before the timed window opened"));
}

TEST(Audit, WorkEndingAfterTheWindowIsK8) {
  TraceBuilder b;
  b.run_kernel(101'000, 150'000, 7);
  b.run_kernel(120'000, 400'000, 9);  // not joined: still running after the stop event
  AuditSummary s = analyze_audit(b.t);
  EXPECT_TRUE(has(s, "K8", "after the timed window closed"));
  EXPECT_TRUE(has(s, "K7"));  // its span exceeds what the events reported
}

TEST(Audit, SlackAbsorbsTimestampJitterAtTheEdges) {
  TraceBuilder b;
  b.run_kernel(100'000 - kAuditSlackNs / 2, 200'000 + kAuditSlackNs / 2);
  b.t.samples[0].event_ms = 0.101;
  EXPECT_TRUE(analyze_audit(b.t).findings.empty());
}

TEST(Audit, EmptyWindowIsK8) {
  TraceBuilder b;
  EXPECT_TRUE(has(analyze_audit(b.t), "K8", "no kernel"));
}

TEST(Audit, LaunchFromAnotherThreadIsK8AndK9) {
  TraceBuilder b;
  b.run_kernel(101'000, 150'000);
  b.run_kernel(210'000, 260'000, 7, /*harness_thread=*/false);
  AuditSummary s = analyze_audit(b.t);
  EXPECT_TRUE(has(s, "K8", "launched by thread 99"));
  EXPECT_TRUE(has(s, "K9", "called from thread 99"));
}

TEST(Audit, ForbiddenCallsInsideRunAreFlagged) {
  TraceBuilder b;
  b.run_kernel(101'000, 150'000);
  b.t.calls.push_back({900, "cudaStreamCreateWithFlags", AuditPhase::run, 0, true, 1});
  b.t.calls.push_back({901, "cudaLaunchHostFunc", AuditPhase::run, 0, true, 1});
  b.t.calls.push_back({902, "cudaStreamSetAttribute", AuditPhase::run, 0, true, 1});
  b.t.calls.push_back({903, "cudaStreamCreate", AuditPhase::harness, 0, true, 1});  // harness's own: fine
  AuditSummary s = analyze_audit(b.t);
  EXPECT_TRUE(has(s, "K9", "cudaStreamCreateWithFlags"));
  EXPECT_TRUE(has(s, "K9", "cudaLaunchHostFunc"));
  EXPECT_TRUE(has(s, "K13", "cudaStreamSetAttribute"));
  EXPECT_FALSE(std::any_of(s.findings.begin(), s.findings.end(),
                           [](auto& f) { return f.detail == "run() called cudaStreamCreate"; }));
  EXPECT_EQ(forbidden_in_run("cudaLaunchKernel"), "");
  EXPECT_EQ(forbidden_in_run("cuStreamCreate_v2"), "K9");
}

TEST(Audit, KernelNeverSeenInVerificationIsK8) {
  TraceBuilder b;
  b.t.verified_kernels = {"copy"};
  b.run_kernel(101'000, 150'000, 7, true, "noop");
  EXPECT_TRUE(has(analyze_audit(b.t), "K8", "never in the verified runs"));
}

TEST(Audit, UnattributedWorkDuringTheAuditIsK8) {
  TraceBuilder b;
  b.run_kernel(101'000, 150'000);
  b.unlaunched_kernel(50'000, 300'000, "persistent", 11, 5555);
  EXPECT_TRUE(has(analyze_audit(b.t), "K8", "launched before it"));
}

TEST(Audit, MissingHarnessMarkersMeanTheAuditWasBlinded) {
  TraceBuilder b;
  b.t.activities.clear();
  AuditSummary s = analyze_audit(b.t);
  EXPECT_FALSE(s.markers_seen);
  EXPECT_TRUE(has(s, "K8", "marker"));
}

TEST(Audit, AccessPolicyWindowOnAKernelIsK13) {
  TraceBuilder b;
  b.run_kernel(101'000, 150'000);
  b.t.activities.back().access_policy_window = true;
  EXPECT_TRUE(has(analyze_audit(b.t), "K13"));
}

TEST(Audit, RepeatedFindingsAreMergedWithACount) {
  TraceBuilder b;
  for (int i = 0; i < 3; ++i) b.run_kernel(210'000, 260'000, 7, false);
  b.run_kernel(101'000, 150'000);
  AuditSummary s = analyze_audit(b.t);
  auto n = std::count_if(s.findings.begin(), s.findings.end(), [](auto& f) { return f.check == "K8"; });
  EXPECT_EQ(n, 1);
  EXPECT_TRUE(has(s, "K8", "(3 times)"));
}

// A graph's conditional node (or a device-side launch) runs kernels no API callback launched. Inside a
// sample's window they are that sample's run() work; straddling windows they are still K8.
TEST(Audit, DeviceLaunchedWorkInsideTheWindowIsRunWork) {
  TraceBuilder b;
  b.run_kernel(101'000, 120'000, 7, true, "graph_launch_body");
  b.unlaunched_kernel(121'000, 150'000);
  AuditSummary s = analyze_audit(b.t);
  EXPECT_TRUE(s.findings.empty()) << s.findings.front().detail;
  EXPECT_TRUE(s.kernels.contains("cond_step"));
}

TEST(Audit, DeviceLaunchedWorkOutsideEveryWindowIsK8) {
  TraceBuilder b;
  b.run_kernel(101'000, 150'000);
  b.unlaunched_kernel(50'000, 90'000);
  EXPECT_TRUE(has(analyze_audit(b.t), "K8", "launched before it"));
}

TEST(Audit, DeviceLaunchedWorkEndingAfterItsWindowIsLate) {
  TraceBuilder b;
  b.run_kernel(101'000, 150'000);
  b.unlaunched_kernel(150'000, 260'000);
  EXPECT_TRUE(has(analyze_audit(b.t), "K8", "after the timed window closed"));
}

// Verification runs start their audit on an idle device: all their work is run()'s, device-launched too,
// and becomes part of the verified kernel set the timed samples are held to.
TEST(Audit, DeviceLaunchedWorkInAVerificationRunIsVerifiedWork) {
  AuditTrace t;
  t.audit_started_ns = 1'000;
  t.harness_stream = 7;
  t.calls.push_back({1, "cudaGraphLaunch", AuditPhase::run, -1, true, 1});
  t.activities.push_back({AuditActivity::Kind::kernel, 1, 2'000, 3'000, 0, 7, "first", false});
  t.activities.push_back({AuditActivity::Kind::kernel, 4242, 3'100, 4'000, 0, 15, "cond_step", false});
  AuditSummary s = analyze_audit(t);
  EXPECT_TRUE(s.findings.empty()) << s.findings.front().detail;
  EXPECT_TRUE(s.kernels.contains("cond_step"));
}

// CUPTI stamps the first device-launched kernel of an audit early (H100, driver 580: 654 us before its
// window). A kernel verification saw is still run()'s work, and the sample that launched the graph is
// not empty; a device-launched kernel nobody verified, outside every window, stays K8.
TEST(Audit, EarlyStampedDeviceKernelOfAGraphLaunchIsNotAFinding) {
  TraceBuilder b;
  b.t.verified_kernels = {"cond_body"};
  uint32_t c = b.next++;
  b.t.calls.push_back({c, "cudaGraphLaunch", AuditPhase::run, 0, true, 1});
  b.unlaunched_kernel(5'000, 9'000, "cond_body");
  AuditSummary s = analyze_audit(b.t);
  EXPECT_TRUE(s.findings.empty()) << s.findings.front().detail;
  b.t.verified_kernels = {"other"};
  EXPECT_TRUE(has(analyze_audit(b.t), "K8", "launched before it"));
}

}  // namespace
}  // namespace aisp
