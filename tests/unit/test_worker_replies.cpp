// The typed worker replies (core/worker_replies.hpp): what the supervisor judges with must be there, with
// its type, and nothing it does not know may ride along.
#include <gtest/gtest.h>

#include "core/worker_replies.hpp"

namespace aisp {
namespace {

json time_reply() {
  return {{"ok", true}, {"id", 4},
          {"samples", json::array({{{"gpu_ms", 0.5}, {"wall_ms", 0.6}, {"enqueue_ms", 0.01}, {"batch", 1},
                                     {"drain_us", 3.0}, {"sm_mhz", 1980.0}, {"throttle", 0}}})},
          {"blocking", true}, {"audited", true}, {"projections", json::array({json::array()})}, {"audit", nullptr},
          {"verified", {{"sample", 0}, {"seed", 99}, {"outputs", json::array()}}},
          {"findings", json::array({{{"check", "K11"}, {"detail", "late write"}}})},
          {"host_ms", {{"block", 2.5}, {"l2_flush", 0.4}}}, {"telemetry", nullptr}};
}

}  // namespace

TEST(WorkerReplies, ATimeReplyParsesIntoItsTypes) {
  TimeReply r = parse_time_reply(time_reply());
  ASSERT_EQ(r.samples.size(), 1u);
  EXPECT_DOUBLE_EQ(r.samples[0].gpu_ms, 0.5);
  EXPECT_TRUE(r.audited);
  ASSERT_TRUE(r.verified.has_value());
  EXPECT_EQ(r.verified->seed, 99u);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].check, "K11");
  EXPECT_DOUBLE_EQ(r.host_ms.at("l2_flush"), 0.4);
}

TEST(WorkerReplies, AMissingFindingsListIsAProtocolErrorNotNothingFound) {
  json j = time_reply();
  j.erase("findings");
  EXPECT_THROW(parse_time_reply(j), ProtocolError);
  json c = {{"ok", true}, {"wall_ms", 1.0}, {"memory", json::object()}, {"inputs_changed", json::array()},
            {"outputs", json::array()}};
  EXPECT_THROW(parse_check_reply(c), ProtocolError);
  c["findings"] = json::array();
  EXPECT_NO_THROW(parse_check_reply(c));
}

TEST(WorkerReplies, UnknownKeysAndWrongTypesAreRefused) {
  json j = time_reply();
  j["audtied"] = true;
  EXPECT_THROW(parse_time_reply(j), ProtocolError);
  j = time_reply();
  j["audited"] = "yes";
  EXPECT_THROW(parse_time_reply(j), ProtocolError);
  j = time_reply();
  j["samples"][0]["gpu_ms"] = "fast";
  EXPECT_THROW(parse_time_reply(j), ProtocolError);
  j = time_reply();
  j["findings"][0].erase("detail");
  EXPECT_THROW(parse_time_reply(j), ProtocolError);
  EXPECT_THROW(parse_sensitivity_reply({{"ok", true}, {"changed", {{"in", 1}}}}), ProtocolError);
}

TEST(WorkerReplies, AReplayThatCouldNotBeCapturedCarriesOnlyItsReason) {
  CheckReply r = parse_check_reply({{"ok", true}, {"captured", false}, {"reason", "cudaStreamSynchronize in run()"}}, "replay");
  EXPECT_FALSE(r.captured);
  EXPECT_EQ(r.reason, "cudaStreamSynchronize in run()");
  EXPECT_THROW(parse_check_reply({{"ok", true}, {"captured", false}}, "replay"), ProtocolError);
}

}  // namespace aisp
