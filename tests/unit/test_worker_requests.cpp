// The typed supervisor -> worker requests (core/worker_requests.hpp): every request survives the round
// trip, and the worker refuses what it does not understand instead of running with a default.
#include <gtest/gtest.h>

#include "core/worker_requests.hpp"

namespace aisp {
namespace {

template <class R>
R round_trip(const R& r) {
  return std::get<R>(parse_request(to_json(WorkerRequest{r})));
}

}  // namespace

TEST(WorkerRequests, EveryRequestRoundTrips) {
  TimeRequest t;
  t.mode = "graph";
  t.samples = 17;
  t.batch = 3;
  t.sample_seed = 0xfedcba9876543210ull;  // above 2^63: an unsigned seed must survive as such
  t.first_sample = 40;
  t.projection_key = 5;
  t.audit = true;
  t.verify_sample = 4;
  t.dir = "/tmp/x";
  t.tag = "timed3";
  t.dump = false;
  TimeRequest u = round_trip(t);
  EXPECT_EQ(u.mode, "graph");
  EXPECT_EQ(u.samples, 17);
  EXPECT_EQ(u.batch, 3);
  EXPECT_EQ(u.sample_seed, 0xfedcba9876543210ull);
  EXPECT_EQ(u.first_sample, 40);
  EXPECT_TRUE(u.audit);
  EXPECT_EQ(u.verify_sample, 4);
  EXPECT_EQ(u.tag, "timed3");
  EXPECT_FALSE(u.dump);

  CheckRequest c = round_trip(CheckRequest{7, "/d", "round1", false, false});
  EXPECT_EQ(c.seed, 7u);
  EXPECT_FALSE(c.audit);
  EXPECT_FALSE(c.dump);
  EXPECT_EQ(round_trip(SetupRequest{1, 2}).dynamic_seed, 2u);
  EXPECT_EQ(round_trip(ReplayRequest{9, "/d", "replay", true}).seed, 9u);
  EXPECT_DOUBLE_EQ(round_trip(WarmupRequest{"cold", 5, 0, 0.2, 0.01}).max_time_s, 0.2);
  EXPECT_EQ(round_trip(ReferenceRequest{{1, 5, 9}, 3, 4}).samples, (std::vector<int64_t>{1, 5, 9}));
  EXPECT_EQ(round_trip(SensitivityRequest{1, 2}).alt_seed, 2u);
  EXPECT_TRUE(std::holds_alternative<ExitRequest>(parse_request({{"op", "exit"}})));
  EXPECT_TRUE(std::holds_alternative<MemoryRequest>(parse_request({{"op", "memory"}, {"id", 3}})));
}

TEST(WorkerRequests, AMistypedKeyIsRefusedNotIgnored) {
  // "audti" would have left the audit at its default with untyped .value() reads.
  json j = to_json(WorkerRequest{CheckRequest{7, "/d", "round1", true, true}});
  j["audti"] = false;
  try {
    parse_request(j);
    FAIL() << "an unknown key must be refused";
  } catch (const ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown key 'audti'"), std::string::npos) << e.what();
  }
}

TEST(WorkerRequests, WrongTypesAndMissingKeysAreRefused) {
  EXPECT_THROW(parse_request({{"op", "check"}, {"seed", "7"}, {"dir", "/d"}}), ProtocolError);  // string seed
  EXPECT_THROW(parse_request({{"op", "check"}, {"seed", -1}, {"dir", "/d"}}), ProtocolError);   // negative seed
  EXPECT_THROW(parse_request({{"op", "check"}, {"dir", "/d"}}), ProtocolError);                 // no seed
  EXPECT_THROW(parse_request({{"op", "check"}, {"seed", 1}, {"dir", "/d"}, {"audit", 1}}), ProtocolError);
  EXPECT_THROW(parse_request({{"op", "reference"}, {"samples", {1, "x"}}, {"sample_seed", 1}, {"projection_key", 1}}),
               ProtocolError);
  EXPECT_THROW(parse_request({{"op", "time"}, {"samples", 4}, {"sample_seed", 1}, {"first_sample", 0},
                              {"projection_key", 1}, {"verify_sample", 2}}),
               ProtocolError);  // a verified sample needs a directory
}

TEST(WorkerRequests, UnknownOpsAndNonObjectsAreRefused) {
  EXPECT_THROW(parse_request({{"op", "launch_missiles"}}), ProtocolError);
  EXPECT_THROW(parse_request(json::array({1, 2})), ProtocolError);
  EXPECT_THROW(parse_request({{"seed", 1}}), ProtocolError);
}

}  // namespace aisp
