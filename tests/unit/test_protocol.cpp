// The supervisor/worker framing: one JSON object per line over pipes, robust to split and merged reads.
#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>

#include "core/protocol.hpp"

namespace aisp {
namespace {

struct PipePair {
  int fds[2];
  PipePair() { EXPECT_EQ(pipe(fds), 0); }
  ~PipePair() {
    if (fds[0] >= 0) close(fds[0]);
    if (fds[1] >= 0) close(fds[1]);
  }
};

TEST(Protocol, RoundTripsMessages) {
  PipePair p;
  LineChannel writer(-1, p.fds[1]), reader(p.fds[0], -1);
  ASSERT_TRUE(writer.send({{"op", "time"}, {"samples", 3}}));
  ASSERT_TRUE(writer.send({{"op", "exit"}}));
  json m;
  ASSERT_EQ(reader.receive(m, 1.0), LineChannel::Status::ok);
  EXPECT_EQ(m["op"], "time");
  EXPECT_EQ(m["samples"], 3);
  ASSERT_EQ(reader.receive(m, 1.0), LineChannel::Status::ok);
  EXPECT_EQ(m["op"], "exit");
}

TEST(Protocol, ReassemblesALineSplitAcrossWrites) {
  PipePair p;
  LineChannel reader(p.fds[0], -1);
  std::thread t([&] {
    const char* a = "{\"ok\": tr";
    const char* b = "ue, \"x\": [1,2]}\n";
    ASSERT_EQ(write(p.fds[1], a, strlen(a)), static_cast<ssize_t>(strlen(a)));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_EQ(write(p.fds[1], b, strlen(b)), static_cast<ssize_t>(strlen(b)));
  });
  json m;
  EXPECT_EQ(reader.receive(m, 2.0), LineChannel::Status::ok);
  EXPECT_EQ(m["x"][1], 2);
  t.join();
}

TEST(Protocol, TimesOutWithoutACompleteLine) {
  PipePair p;
  LineChannel reader(p.fds[0], -1);
  ASSERT_EQ(write(p.fds[1], "{\"half\":", 8), 8);
  json m;
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(reader.receive(m, 0.1), LineChannel::Status::timeout);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(90));
}

TEST(Protocol, ReportsEndOfFileWhenThePeerDies) {
  PipePair p;
  LineChannel reader(p.fds[0], -1);
  close(p.fds[1]);
  p.fds[1] = -1;
  json m;
  EXPECT_EQ(reader.receive(m, 1.0), LineChannel::Status::eof);
}

TEST(Protocol, FlagsMalformedLinesWithTheirText) {
  PipePair p;
  LineChannel reader(p.fds[0], -1);
  const char* junk = "hello from a stray printf\n";
  ASSERT_EQ(write(p.fds[1], junk, strlen(junk)), static_cast<ssize_t>(strlen(junk)));
  json m;
  EXPECT_EQ(reader.receive(m, 1.0), LineChannel::Status::bad_json);
  EXPECT_EQ(reader.error_text(), "hello from a stray printf");
}

TEST(Protocol, SendFailsOnAClosedPipeInsteadOfKillingTheSender) {
  signal(SIGPIPE, SIG_IGN);
  PipePair p;
  close(p.fds[0]);
  p.fds[0] = -1;
  LineChannel writer(-1, p.fds[1]);
  EXPECT_FALSE(writer.send({{"op", "exit"}}));
}

TEST(Protocol, InvalidUtf8IsReplacedNotThrown) {
  PipePair p;
  LineChannel writer(-1, p.fds[1]), reader(p.fds[0], -1);
  ASSERT_TRUE(writer.send({{"error", std::string("bad \xff byte")}}));
  json m;
  ASSERT_EQ(reader.receive(m, 1.0), LineChannel::Status::ok);
  EXPECT_NE(m["error"].get<std::string>().find("bad"), std::string::npos);
}

}  // namespace
}  // namespace aisp
