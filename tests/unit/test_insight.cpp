// src/insight (`aisp ai`): question parsing, roofline bottleneck thresholds, the patterns table, explain's
// facts and citations, suggest's ranking and already-applied fixes, and the endpoint request — on
// synthetic variant rows whose numbers are chosen by hand, and on the recorded H100 ncu rows.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include <fstream>
#include <sstream>

#include "analysis/stacking.hpp"
#include "core/json_io.hpp"
#include "insight/ask.hpp"
#include "insight/explain.hpp"
#include "insight/prose_endpoint.hpp"
#include "insight/suggest.hpp"
#include "profile/ncu_csv.hpp"
#include "profile/profile_compare.hpp"
#include "profile/profile_run.hpp"
#include "store/store.hpp"

namespace an = aisp::analysis;
namespace in = aisp::insight;
using nlohmann::json;

namespace {

an::VariantRow row(const std::string& variant, double median_ms, double speedup, double lo, double hi, double pct,
                   const std::string& technique) {
  an::VariantRow r;
  r.target = "ch07:transpose";
  r.variant = variant;
  r.baseline = variant == "baseline";
  r.usable = true;
  r.status = "succeeded";
  r.verdict = r.baseline ? "" : "FASTER";
  r.median_ms = median_ms;
  r.samples = 100;
  r.speedup = speedup;
  r.ci_low = lo;
  r.ci_high = hi;
  r.bytes = 536870912;
  r.bytes_per_s = r.bytes / (median_ms / 1e3);
  r.roofline_pct = pct;
  r.bound = "memory";
  r.precision = "f32";
  r.technique = technique;
  return r;
}

in::RunEvidence transpose_run() {
  in::RunEvidence e;
  e.run.id = 8;
  e.run.key = "20261125_005247__bench__targets-all";
  e.run.hardware_key = "h100_80gb_hbm3";
  e.rows = {row("baseline", 1.1688, 1, 1, 1, 14.14, "naive: coalesced reads, column-strided writes"),
            row("transpose", 0.18784, 6.2224, 5.58, 6.939, 87.97, "32x32 shared-memory tiles, +1 padding (no bank conflicts)")};
  e.source = "synthetic";
  return e;
}

std::string read(const std::string& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

in::ProfileEvidence recorded(const std::string& variant) {
  in::ProfileEvidence p;
  p.variant = variant;
  p.kernels =
      aisp::profile::parse_ncu_csv(read(std::string(AISP_TEST_DATA_DIR) + "/profile/transpose/" + variant + ".csv")).kernels;
  p.kernel = aisp::profile::aggregate(p.kernels);
  p.citation = {"profile " + variant + ".csv", "profile", "recorded"};
  return p;
}

}  // namespace

TEST(InsightAsk, TargetsMostSpecificFirst) {
  std::vector<std::string> known = {"ch07:copy_scalar", "ch07:transpose", "ch01:gemm_batched"};
  auto q = in::parse_question("Why is ch07:transpose faster?", known);
  EXPECT_EQ(q.targets, std::vector<std::string>{"ch07:transpose"});
  EXPECT_TRUE(q.topics.count("explain"));
  q = in::parse_question("what should I try next for copy_scalar", known);
  EXPECT_EQ(q.targets, std::vector<std::string>{"ch07:copy_scalar"});
  EXPECT_TRUE(q.topics.count("suggest"));
  q = in::parse_question("roofline of ch07", known);
  EXPECT_EQ(q.targets, (std::vector<std::string>{"ch07:copy_scalar", "ch07:transpose"}));
  EXPECT_TRUE(q.topics.count("roofline"));
  q = in::parse_question("which is the fastest?", known);
  EXPECT_TRUE(q.targets.empty());
  EXPECT_TRUE(q.topics.count("rank"));
  // "copy" is not the example "copy_scalar"; no topic and no target: a ranking of the run.
  q = in::parse_question("copy", known);
  EXPECT_TRUE(q.targets.empty());
  EXPECT_EQ(q.topics, std::set<std::string>{"rank"});
}

TEST(InsightSuggest, RooflineBottleneckThresholds) {
  an::VariantRow r = row("x", 1, 1, 1, 1, 3, "");
  EXPECT_EQ(in::roofline_bottleneck(r), "off_roof");
  r.roofline_pct = 30;
  EXPECT_EQ(in::roofline_bottleneck(r), "memory_far_from_roof");
  r.roofline_pct = 60;
  EXPECT_EQ(in::roofline_bottleneck(r), "memory_bound");
  r.roofline_pct = 85;
  EXPECT_EQ(in::roofline_bottleneck(r), "memory_near_roof");
  r.bound = "compute";
  EXPECT_EQ(in::roofline_bottleneck(r), "compute_near_roof");
  r.roofline_pct = an::kNaN;
  EXPECT_EQ(in::roofline_bottleneck(r), "unplaced");
}

TEST(InsightPatterns, ShippedTableParsesAndCoversEveryBottleneck) {
  std::string path = std::string(AISP_SOURCE_DIR) + "/data/optimization_patterns.json";
  in::PatternTable t = in::patterns_from_json(aisp::read_json(path), path);
  for (const char* id : {"off_roof", "memory_far_from_roof", "memory_bound", "memory_near_roof", "compute_far_from_roof",
                         "compute_bound", "compute_near_roof", "unplaced", "uncoalesced", "register_spills",
                         "occupancy_limited", "bank_conflicts", "latency_bound", "stall_long_scoreboard"})
    EXPECT_NE(t.find(id), nullptr) << id;
  EXPECT_THROW(in::patterns_from_json(json{{"schema", "other"}}, "x.json"), std::runtime_error);
  EXPECT_THROW(
      in::patterns_from_json(json{{"schema", "aisp.optimization_patterns/1"}, {"patterns", {{{"id", "a"}}}}}, "x.json"),
      std::runtime_error);
}

TEST(InsightExplain, VerdictAndRooflineFactsCiteTheRun) {
  in::RunEvidence run = transpose_run();
  in::Answer a = in::explain(run, {}, "ch07:transpose");
  ASSERT_FALSE(a.summary.empty());
  EXPECT_NE(a.summary[0].find("6.22x faster than the baseline, 95% CI [5.58, 6.94]"), std::string::npos) << a.summary[0];
  EXPECT_NE(a.summary[0].find("[run 8]"), std::string::npos);
  bool roofline = false;
  for (auto& f : a.facts) {
    EXPECT_FALSE(f.cite.empty()) << f.text;
    if (f.topic == "roofline") {
      roofline = true;
      EXPECT_NE(f.text.find("14.1% -> 88.0%"), std::string::npos) << f.text;
      EXPECT_NE(f.text.find("536.9 MB"), std::string::npos) << f.text;
    }
  }
  EXPECT_TRUE(roofline);
  ASSERT_FALSE(a.missing.empty());
  EXPECT_NE(a.missing[0].find("no ncu profile stored for ch07:transpose (baseline, transpose)"), std::string::npos);
  EXPECT_EQ(a.citations.front().id, "run 8");
}

TEST(InsightExplain, RecordedCountersExplainTheTranspose) {
  in::RunEvidence run = transpose_run();
  in::Answer a = in::explain(run, {recorded("baseline"), recorded("transpose")}, "ch07:transpose");
  std::string all;
  for (auto& f : a.facts) all += f.topic + ": " + f.text + " [" + f.cite + "]\n";
  EXPECT_NE(all.find("store sectors/request 32.0 -> 4.0"), std::string::npos) << all;
  EXPECT_NE(all.find("bottleneck: UNCOALESCED ACCESS"), std::string::npos) << all;
  EXPECT_NE(all.find("[profile baseline.csv, profile transpose.csv]"), std::string::npos) << all;
  for (auto& m : a.missing) EXPECT_EQ(m.find("no ncu profile"), std::string::npos) << m;
}

TEST(InsightExplain, NoDifferenceAndInvalidAreSaidSo) {
  in::RunEvidence run = transpose_run();
  run.rows[1].verdict = "SAME";
  run.rows[1].ci_low = 0.98;
  run.rows[1].ci_high = 1.03;
  run.rows[1].speedup = 1.01;
  auto facts = in::verdict_facts(run, "ch07:transpose");
  ASSERT_GE(facts.size(), 2u);
  EXPECT_NE(facts[1].text.find("no difference shown: speedup 1.01"), std::string::npos) << facts[1].text;
  run.rows[1].usable = false;
  run.rows[1].status = "failed_verification";
  run.rows[1].unusable_reason = "outputs differ";
  facts = in::verdict_facts(run, "ch07:transpose");
  EXPECT_NE(facts[1].text.find("not comparable: failed_verification (outputs differ)"), std::string::npos) << facts[1].text;
}

TEST(InsightSuggest, AppliedFixesAreDoneNotSuggested) {
  in::RunEvidence run = transpose_run();
  run.rows[1].roofline_pct = 60;  // memory_bound row
  std::string path = std::string(AISP_SOURCE_DIR) + "/data/optimization_patterns.json";
  in::PatternTable patterns = in::patterns_from_json(aisp::read_json(path), path);
  std::string tags_path = std::string(AISP_SOURCE_DIR) + "/data/technique_tags.json";
  an::TagVocabulary tags = an::vocabulary_from_json(aisp::read_json(tags_path), tags_path);
  in::Answer a = in::suggest(run, {}, {"ch07:transpose"}, {patterns, tags}, 0);
  ASSERT_EQ(a.suggestions.size(), 1u);
  const auto& s = a.suggestions[0];
  EXPECT_EQ(s.pattern, "memory_bound");
  EXPECT_NEAR(s.score, 6 * 0.4, 1e-9);  // priority 6 x headroom (1 - 0.60)
  ASSERT_FALSE(s.applied.empty());
  EXPECT_NE(s.applied[0].find("tiling / data reuse through shared memory (already applied in transpose, 6.22x FASTER)"),
            std::string::npos)
      << s.applied[0];
  for (auto& f : s.fixes) EXPECT_EQ(f.find("tiling"), std::string::npos) << f;
  // With the recorded profile of the variant, the decision tree decides instead of the roofline.
  a = in::suggest(run, {{"ch07:transpose", {recorded("baseline"), recorded("transpose")}}}, {"ch07:transpose"},
                  {patterns, tags}, 0);
  ASSERT_FALSE(a.suggestions.empty());
  EXPECT_EQ(a.suggestions[0].pattern, "memory_bound");
  EXPECT_EQ(a.suggestions[0].cites, std::vector<std::string>{"profile transpose.csv"});
}

TEST(InsightProse, RequestCarriesTheFactsAndTheRules) {
  EXPECT_EQ(in::completions_url("http://h:1/v1/"), "http://h:1/v1/chat/completions");
  EXPECT_EQ(in::completions_url("http://h:1/v1/chat/completions"), "http://h:1/v1/chat/completions");
  in::Answer a = in::explain(transpose_run(), {}, "ch07:transpose");
  json r = in::prose_request(a, "m");
  EXPECT_EQ(r["model"], "m");
  EXPECT_EQ(r["messages"][0]["role"], "system");
  EXPECT_NE(r["messages"][0]["content"].get<std::string>().find("Use only the facts given"), std::string::npos);
  EXPECT_NE(r["messages"][1]["content"].get<std::string>().find("6.22x faster"), std::string::npos);
  // A key variable that is not set: an error naming the variable, no request.
  in::ProseResult p = in::rewrite_as_prose(a, {"http://127.0.0.1:9/v1", "m", "AISP_TEST_NO_SUCH_KEY_VARIABLE"});
  EXPECT_FALSE(p.ok);
  EXPECT_NE(p.error.find("AISP_TEST_NO_SUCH_KEY_VARIABLE: the variable is not set"), std::string::npos);
}

// Profiles stored by `aisp profile ncu` are found in the store, newest per variant, baseline first, each
// cited by its profile id; a failed profile is skipped.
TEST(InsightEvidence, StoredProfilesNewestPerVariant) {
  namespace fs = std::filesystem;
  fs::path db = fs::temp_directory_path() / ("aisp_insight_profiles_" + std::to_string(::getpid()) + ".db");
  fs::remove(db);
  auto doc = [](const std::string& variant, const std::string& created, bool failed) {
    json d = {{"schema", "aisp.profile/1"},
              {"tool", "ncu"},
              {"preset", "deep_dive"},
              {"target", "ch07:transpose"},
              {"variant", variant},
              {"created_at", created},
              {"hardware", {{"hardware_key", "h100_80gb_hbm3"}}},
              {"kernels", aisp::profile::kernels_to_json(recorded(variant).kernels)}};
    if (failed) d["error"] = "ncu failed";
    return d.dump();
  };
  int64_t old_base = 0, new_base = 0, var = 0;
  {
    aisp::Store s = aisp::Store::open(db);
    old_base = s.add_profile(doc("baseline", "2026-11-24T00:00:00Z", false), "/p/old");
    var = s.add_profile(doc("transpose", "2026-11-24T00:00:01Z", false), "/p/var");
    new_base = s.add_profile(doc("baseline", "2026-11-25T00:00:00Z", false), "/p/new");
    s.add_profile(doc("transpose", "2026-11-25T00:00:01Z", true), "/p/failed");
  }
  in::EvidenceSource src;
  src.db = db;
  auto p = in::load_profile_evidence(src, "ch07:transpose");
  // The evidence reader opens the store read-only, which cannot delete SQLite's WAL side files on close.
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(db.string() + suffix);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].variant, "baseline");
  EXPECT_EQ(p[0].citation.id, "profile " + std::to_string(new_base));
  EXPECT_NE(new_base, old_base);
  EXPECT_EQ(p[1].citation.id, "profile " + std::to_string(var));
  EXPECT_NE(p[1].citation.detail.find("deep_dive preset"), std::string::npos) << p[1].citation.detail;
  in::Answer a = in::explain(transpose_run(), p, "ch07:transpose");
  bool cited = false;
  for (auto& f : a.facts) cited |= f.cite == fmt::format("profile {}, profile {}", new_base, var);
  EXPECT_TRUE(cited);
}
