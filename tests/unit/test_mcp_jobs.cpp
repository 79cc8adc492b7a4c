// Child processes and jobs behind the MCP tools, with real processes (/bin/sh): output capture and
// limits, exit codes and signals, timeouts, cancellation of a whole process group, and the job queue
// (GPU jobs one at a time, in order; cancel while queued or running; results parsed from stdout).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "mcp/child_process.hpp"
#include "mcp/jobs.hpp"

namespace aisp::mcp {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

std::vector<std::string> sh(const std::string& script) { return {"/bin/sh", "-c", script}; }

TEST(McpChildProcess, CapturesStdoutStderrAndExitCode) {
  std::vector<std::string> lines;
  ChildOptions o;
  o.on_stderr_line = [&](const std::string& l) { lines.push_back(l); };
  ChildResult r = run_child(sh("echo '{\"a\":1}'; echo first >&2; printf 'second' >&2; exit 3"), o);
  ASSERT_TRUE(r.started);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "{\"a\":1}\n");
  EXPECT_EQ(lines, (std::vector<std::string>{"first", "second"}));  // a last line without newline still counts
  EXPECT_EQ(r.stderr_tail, lines);
  EXPECT_EQ(r.describe(), "exited with code 3");
}

TEST(McpChildProcess, ReportsSignalsAndSpawnFailures) {
  ChildResult r = run_child(sh("kill -SEGV $$"));
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_NE(r.describe().find("SIGSEGV"), std::string::npos);
  ChildResult missing = run_child({"/nonexistent/aisp"});
  EXPECT_FALSE(missing.started);
  EXPECT_NE(missing.error.find("/nonexistent/aisp"), std::string::npos);
}

TEST(McpChildProcess, ArgumentsAreNotExpandedByAShell) {
  // argv goes to exec as is: "$HOME" and ";" reach the program literally.
  ChildResult r = run_child({"/bin/echo", "$HOME", ";", "`id`"});
  EXPECT_EQ(r.out, "$HOME ; `id`\n");
}

TEST(McpChildProcess, StdoutLimitKeepsReadingButDropsTheRest) {
  ChildOptions o;
  o.stdout_limit = 1000;
  ChildResult r = run_child(sh("head -c 100000 /dev/zero"), o);
  EXPECT_EQ(r.exit_code, 0);  // never blocked on a full pipe
  EXPECT_EQ(r.out.size(), 1000u);
  EXPECT_TRUE(r.stdout_truncated);
}

TEST(McpChildProcess, TimeoutAndCancelKillTheProcessGroup) {
  ChildOptions o;
  o.timeout_s = 0.3;
  o.kill_grace_s = 0.5;
  auto t0 = Clock::now();
  // The child ignores SIGTERM and its own child holds the pipes: both must still end.
  ChildResult r = run_child(sh("trap '' TERM; sleep 30 & sleep 30"), o);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.signal, SIGKILL);
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 5.0);

  std::atomic<bool> cancel{false};
  ChildOptions c;
  c.cancel = &cancel;
  std::thread stopper([&] {
    std::this_thread::sleep_for(200ms);
    cancel = true;
  });
  t0 = Clock::now();
  ChildResult cancelled = run_child(sh("sleep 30"), c);
  stopper.join();
  EXPECT_TRUE(cancelled.cancelled);
  EXPECT_EQ(cancelled.signal, SIGTERM);
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 3.0);
}

TEST(McpJobs, FinishedWithJsonFailedWithoutIt) {
  JobManager jobs;
  std::string ok = jobs.submit({"test", sh("echo note >&2; echo '{\"targets\":2}'; exit 1"), false, 0,
                                [](int c) { return "code " + std::to_string(c); }});
  std::string bad = jobs.submit({"test", sh("echo 'no GPU here' >&2; exit 2"), false, 0, nullptr});
  ASSERT_TRUE(jobs.wait(ok, 10));
  ASSERT_TRUE(jobs.wait(bad, 10));
  JobSnapshot a = *jobs.snapshot(ok, true);
  EXPECT_EQ(a.state, "finished");  // exit 1 with a JSON document: results to read (a regression, say)
  EXPECT_EQ(a.exit_code, 1);
  EXPECT_EQ(a.exit_meaning, "code 1");
  EXPECT_EQ(a.result["targets"], 2);
  EXPECT_EQ(a.log_tail, std::vector<std::string>{"note"});
  EXPECT_EQ(a.command[0], "sh");
  JobSnapshot b = *jobs.snapshot(bad, true);
  EXPECT_EQ(b.state, "failed");
  EXPECT_TRUE(b.result.is_null());
  EXPECT_NE(b.error.find("no GPU here"), std::string::npos);
  EXPECT_FALSE(jobs.snapshot("job-unknown"));
  EXPECT_FALSE(jobs.cancel("job-unknown"));
}

TEST(McpJobs, GpuJobsRunOneAtATimeInOrder) {
  JobManager jobs;
  std::string first = jobs.submit({"gpu", sh("sleep 30"), true, 0, nullptr});
  std::string second = jobs.submit({"gpu", sh("echo '{}'"), true, 0, nullptr});
  std::string third = jobs.submit({"gpu", sh("echo '{}'"), true, 0, nullptr});
  std::string cpu = jobs.submit({"cpu", sh("echo '{}'"), false, 0, nullptr});
  ASSERT_TRUE(jobs.wait(cpu, 10));  // not held up by the GPU queue
  for (int i = 0; i < 200 && jobs.snapshot(first)->state != "running"; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(jobs.snapshot(first)->state, "running");
  EXPECT_EQ(jobs.snapshot(second)->state, "queued");
  EXPECT_EQ(jobs.snapshot(second)->queue_position, 1);
  EXPECT_EQ(jobs.snapshot(third)->queue_position, 2);

  // Cancelled while queued: never starts; the one behind it moves up.
  ASSERT_TRUE(jobs.cancel(second));
  ASSERT_TRUE(jobs.wait(second, 5));
  JobSnapshot s = *jobs.snapshot(second);
  EXPECT_EQ(s.state, "cancelled");
  EXPECT_TRUE(s.started_at.empty());
  EXPECT_EQ(jobs.snapshot(third)->queue_position, 1);

  // Cancelled while running: its process group is killed, then the next GPU job runs.
  auto t0 = Clock::now();
  ASSERT_TRUE(jobs.cancel(first));
  ASSERT_TRUE(jobs.wait(first, 10));
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 5.0);
  EXPECT_EQ(jobs.snapshot(first)->state, "cancelled");
  ASSERT_TRUE(jobs.wait(third, 10));
  EXPECT_EQ(jobs.snapshot(third)->state, "finished");
  EXPECT_EQ(jobs.list().size(), 4u);
}

TEST(McpJobs, OldFinishedJobsAreEvictedNeverRunningOnes) {
  JobManager jobs(3);
  std::string running = jobs.submit({"long", sh("sleep 30"), false, 0, nullptr});
  std::vector<std::string> done;
  for (int i = 0; i < 4; ++i) {
    done.push_back(jobs.submit({"short", sh("echo '{}'"), false, 0, nullptr}));
    ASSERT_TRUE(jobs.wait(done.back(), 10));
  }
  EXPECT_TRUE(jobs.snapshot(running));
  EXPECT_FALSE(jobs.snapshot(done[0]));
  EXPECT_TRUE(jobs.snapshot(done.back()));
  jobs.cancel_all_and_wait();
  EXPECT_EQ(jobs.snapshot(running)->state, "cancelled");
}

// Each waiting job holds a thread: a client submitting in a loop gets "queue full", not 300 threads.
TEST(McpJobs, TheQueueIsBounded) {
  JobManager jobs(64, 3);
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) ids.push_back(jobs.submit({"gpu", sh("sleep 30"), true, 0, nullptr}));
  EXPECT_THROW(jobs.submit({"gpu", sh("echo '{}'"), true, 0, nullptr}), JobQueueFull);
  // An ended job frees its place.
  ASSERT_TRUE(jobs.cancel(ids[2]));
  ASSERT_TRUE(jobs.wait(ids[2], 10));
  std::string next = jobs.submit({"gpu", sh("echo '{}'"), true, 0, nullptr});
  EXPECT_EQ(jobs.snapshot(next)->state, "queued");
  jobs.cancel_all_and_wait();
}

// A job's scratch directory (where the disk probe writes its test file) is gone once the job is reported
// ended: cancelled while writing, finished, or killed at shutdown.
TEST(McpJobs, ScratchFilesGoWhenTheJobEnds) {
  namespace fs = std::filesystem;
  fs::path root = fs::temp_directory_path() / ("aisp_mcp_scratch_" + std::to_string(::getpid()));
  fs::remove_all(root);
  auto spec = [&](const std::string& name, const std::string& script) {
    JobSpec s{"hw_disk", sh(script), true, 0, nullptr};
    s.scratch_dir = (root / name).string();
    s.cwd = (root / "work").string();
    return s;
  };
  JobManager jobs;
  // Writes into its scratch directory (made before it starts), then waits to be cancelled.
  std::string writer = jobs.submit(spec("a", "head -c 1048576 /dev/zero > " + (root / "a" / "probe").string() +
                                             " && pwd > " + (root / "cwd.txt").string() + " && sleep 30"));
  for (int i = 0; i < 500 && !fs::exists(root / "a" / "probe"); ++i) std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(fs::exists(root / "a" / "probe"));
  ASSERT_TRUE(jobs.cancel(writer));
  ASSERT_TRUE(jobs.wait(writer, 10));
  EXPECT_EQ(jobs.snapshot(writer)->state, "cancelled");
  EXPECT_FALSE(fs::exists(root / "a"));
  std::string cwd;
  std::getline(std::ifstream(root / "cwd.txt"), cwd);
  EXPECT_EQ(fs::path(cwd), root / "work");  // the child ran in the job's working directory

  std::string done = jobs.submit(spec("b", "touch " + (root / "b" / "f").string() + "; echo '{}'"));
  ASSERT_TRUE(jobs.wait(done, 10));
  EXPECT_EQ(jobs.snapshot(done)->state, "finished");
  EXPECT_FALSE(fs::exists(root / "b"));

  // Shutdown (the client closed stdin) while a job writes: cleaned before cancel_all_and_wait returns.
  jobs.submit(spec("c", "touch " + (root / "c" / "f").string() + "; sleep 30"));
  for (int i = 0; i < 500 && !fs::exists(root / "c" / "f"); ++i) std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(fs::exists(root / "c" / "f"));
  jobs.cancel_all_and_wait();
  EXPECT_FALSE(fs::exists(root / "c"));
  fs::remove_all(root);
}

}  // namespace
}  // namespace aisp::mcp
