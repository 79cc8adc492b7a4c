// GPU test (label gpu): runs the validity fixtures (tests/validity) through the real harness, once, and
// checks each case against the table below: every cheat_* variant must be flagged (status invalid or
// failed_verification) by exactly the checks its row names, every honest_* variant must pass every check,
// and a neutralized one must pass every check without coming out FASTER. Skips with a visible reason when no GPU is present. The table-coverage test needs no
// GPU: a new fixture cannot be added without a row here.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using nlohmann::json;

namespace {

// neutralized: a cheat written against an older harness that can no longer tell checked runs from timed
// ones, so it does the full work every time: it must pass every check and must not come out FASTER.
enum class Expect { cheat, honest, implausible, neutralized };

struct Case {
  std::string name;  // the file suffix: baseline_<name>.cu / optimized_<name>.cu
  Expect expect;
  // Cheats: exactly these checks fail (each of `must`, and nothing outside `must` and `may`). `may` holds
  // only checks whose catch depends on chance, each with its reason in a comment: docs/VALIDITY.md may
  // credit a fixture only to the checks of `must`.
  std::vector<std::string> must, may = {};
};

const std::vector<Case>& cases() {
  static const std::vector<Case> table = {
      {"cheat_side_stream", Expect::cheat, {"K7", "K8", "K10"}},
      {"cheat_fork_no_join", Expect::cheat, {"K7", "K8", "K11"}},
      {"cheat_legacy_default_stream", Expect::cheat, {"K7", "K8", "K10"}},
      {"cheat_background_thread", Expect::cheat, {"K8", "K9", "K10"}},
      // K21: whether the callback's late write lands before the sample's projection is a race.
      {"cheat_host_callback", Expect::cheat, {"K8", "K9", "K11", "K16"}, {"K21"}},
      {"cheat_persistent_kernel", Expect::cheat, {"K6", "K7", "K8", "K10"}},
      {"cheat_deferred_write", Expect::cheat, {"K6", "K7", "K8", "K10", "K11"}},
      {"cheat_cache_after_warmup", Expect::cheat, {"K3", "K21"}},
      {"cheat_constant_output", Expect::cheat, {"K2", "K3"}},
      {"cheat_precision_fp16", Expect::cheat, {"K2", "K3"}},
      {"cheat_cublas_tf32", Expect::cheat, {"K2", "K3", "K16"}},
      {"cheat_persisting_l2", Expect::cheat, {"K13"}, {"K9"}},  // K9: only if the call falls in an audited block
      {"cheat_output_aliases_input", Expect::cheat, {"K4"}},
      {"cheat_implausible_bytes", Expect::implausible, {"K17"}},
      {"cheat_device_limit", Expect::cheat, {"K9", "K16"}},
      {"cheat_tolerance_loosened", Expect::cheat, {"K23"}},
      {"cheat_pair_tolerance_admits_bf16", Expect::cheat, {"K23"}},
      {"cheat_identical_inputs", Expect::cheat, {"K2", "K3"}},
      {"cheat_ignores_input", Expect::cheat, {"K5"}},
      {"cheat_oob_slack_write", Expect::cheat, {"K22"}},
      {"cheat_load_time_state", Expect::cheat, {"K13"}},
      {"cheat_call_count", Expect::cheat, {"K3", "K21"}},
      // K3: the audited block's fully compared sample is short only when CUPTI's latency kept its gap
      // under 1 ms.
      {"cheat_gap_timing", Expect::cheat, {"K21"}, {"K3"}},
      // K3: the audited block's fully compared sample is one of the 60% at random.
      {"cheat_random_fraction", Expect::cheat, {"K21"}, {"K3"}},
      {"cheat_stream_state", Expect::cheat, {"K3", "K21"}},
      {"cheat_output_watch", Expect::neutralized, {}},
      {"honest_bf16_declared", Expect::honest, {}},
      {"honest_input_order", Expect::honest, {}},
      {"honest_cached_plan", Expect::honest, {}},
      {"honest_autotuned", Expect::honest, {}},
      {"honest_graph_conditional", Expect::honest, {}},
      {"honest_fork_join", Expect::honest, {}},
      {"honest_internal_graph", Expect::honest, {}},
      {"honest_cublas", Expect::honest, {}},
      {"honest_workspace_reuse", Expect::honest, {}},
      {"honest_summation_order", Expect::honest, {}},
      {"honest_slower", Expect::honest, {}},
      {"honest_memcpy", Expect::honest, {}},
      {"honest_multi_kernel", Expect::honest, {}},
      {"honest_host_sync", Expect::honest, {}},
  };
  return table;
}

// gtest prints a failing test's parameter: the case name, not the struct's bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

const Case* find_case(const std::string& name) {
  for (auto& c : cases())
    if (c.name == name) return &c;
  return nullptr;
}

// The aisp binary: $AISP_EXE, else the one this test was built beside (build/tests/.. -> build/aisp).
std::string aisp_exe() {
  if (const char* e = std::getenv("AISP_EXE")) return e;
  auto self = std::filesystem::read_symlink("/proc/self/exe");
  auto beside = self.parent_path().parent_path() / "aisp";
  return std::filesystem::exists(beside) ? beside.string() : AISP_EXE;
}

// Where the validity plugins are: $AISP_PLUGIN_DIR/validity, else plugins/validity beside the binary.
std::filesystem::path plugin_dir() {
  if (const char* e = std::getenv("AISP_PLUGIN_DIR")) return std::filesystem::path(e) / "validity";
  return std::filesystem::path(aisp_exe()).parent_path() / "plugins" / "validity";
}

std::string run_command(const std::string& cmd, int* code) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    *code = -1;
    return out;
  }
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int st = pclose(p);
  *code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

std::string str(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

// j[key] if it is an array or object, else an empty one (never a temporary: callers keep references).
const json& member(const json& j, const char* key, bool array = true) {
  static const json empty_array = json::array(), empty_object = json::object();
  if (j.is_object() && j.contains(key) && (array ? j[key].is_array() : j[key].is_object())) return j[key];
  return array ? empty_array : empty_object;
}

// One bench run of the whole validity folder, shared by every test (run on first use).
struct BenchRun {
  bool have_gpu = false;
  int exit_code = -1;
  json doc;
  std::string raw_output, stderr_text;
  std::map<std::string, json> targets;  // example -> target result

  BenchRun() {
    int code = 0;
    run_command("'" + aisp_exe() + "' info gpu --json >/dev/null 2>&1", &code);
    if (code != 0) return;
    have_gpu = true;
    std::string dir = std::filesystem::temp_directory_path() / "aisp_validity_test";
    std::filesystem::remove_all(dir);
    raw_output = run_command("'" + aisp_exe() + "' bench run --targets validity --iterations 40 --warmup 2 --json "
                             "--artifacts-dir " + dir + " 2>" + dir + ".stderr", &exit_code);
    std::ifstream err(dir + ".stderr");
    stderr_text.assign(std::istreambuf_iterator<char>(err), {});
    doc = json::parse(raw_output, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return;
    for (auto& ch : member(doc, "results"))
      if (str(ch, "chapter") == "validity")
        for (auto& b : member(ch, "benchmarks")) targets[str(b, "example")] = b;
  }
};

const BenchRun& bench() {
  static const BenchRun run;
  return run;
}

// Everything needed to understand a variant's outcome from the test log alone.
std::string describe(const json& v) {
  std::ostringstream o;
  o << "\n  variant " << str(v, "name") << ": status=" << str(v, "status") << " error_kind=" << str(v, "error_kind")
    << " verdict=" << str(v, "verdict") << "\n  error: " << (str(v, "error").empty() ? "(none)" : str(v, "error"));
  std::string passed;
  for (auto& c : member(v, "checks")) {
    if (c.value("passed", false)) {
      passed += " " + str(c, "id");
      continue;
    }
    o << "\n  FAILED " << str(c, "id") << " (" << str(c, "name") << "): " << str(c, "detail");
  }
  o << "\n  passed:" << (passed.empty() ? " (none)" : passed);
  return o.str();
}

std::vector<const json*> failed_checks(const json& v) {
  std::vector<const json*> out;
  for (auto& c : member(v, "checks"))
    if (!c.value("passed", false)) out.push_back(&c);
  return out;
}

bool failed_one_of(const json& v, const std::vector<std::string>& ids) {
  for (const json* c : failed_checks(v))
    for (auto& id : ids)
      if (str(*c, "id") == id) return true;
  return false;
}

class ValidityFixtures : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    const BenchRun& r = bench();
    if (!r.have_gpu) GTEST_SKIP() << "no GPU: `aisp info gpu` found no CUDA device";
    ASSERT_FALSE(r.doc.is_discarded()) << "bench run (exit " << r.exit_code << ") printed no JSON. stdout:\n"
                                       << r.raw_output.substr(0, 2000) << "\nstderr (end):\n"
                                       << r.stderr_text.substr(r.stderr_text.size() > 3000 ? r.stderr_text.size() - 3000 : 0);
  }
};

TEST_P(ValidityFixtures, Outcome) {
  const Case& c = GetParam();
  auto it = bench().targets.find(c.name);
  ASSERT_NE(it, bench().targets.end()) << "validity:" << c.name << " missing from the results";
  const json& target = it->second;
  const json& base = member(target, "baseline", false);
  const json* opt = nullptr;
  for (auto& o : member(target, "optimizations"))
    if (str(o, "name") == c.name) opt = &o;
  ASSERT_NE(opt, nullptr) << "variant " << c.name << " missing; target status=" << str(target, "status")
                          << " error: " << str(target, "error");
  const json& v = *opt;
  const std::string status = str(v, "status");

  if (c.expect == Expect::implausible) {
    // Flagged either as a variant with a failed K17 (baseline or optimized: both claim the same bytes)
    // or as an invalid target / a target error naming the check.
    std::string error = str(target, "error");
    bool flagged = str(target, "status") == "invalid" || failed_one_of(base, c.must) || failed_one_of(v, c.must) ||
                   error.find("K17") != std::string::npos || error.find("implausible") != std::string::npos;
    EXPECT_TRUE(flagged) << c.name << ": 1000x inflated bytes not flagged by K17. target status="
                         << str(target, "status") << " error: " << (error.empty() ? "(none)" : error) << describe(base)
                         << describe(v);
    return;
  }

  // The honest baseline of every other pair passes every check and is timed.
  EXPECT_EQ(str(base, "status"), "succeeded") << c.name << " baseline" << describe(base);
  EXPECT_TRUE(failed_checks(base).empty()) << c.name << ": the honest baseline failed a check" << describe(base);

  if (c.expect == Expect::cheat) {
    EXPECT_TRUE(status == "invalid" || status == "failed_verification")
        << c.name << ": a cheat must end invalid or failed_verification" << describe(v);
    if (status == "invalid") EXPECT_EQ(str(v, "verdict"), "INVALID") << c.name << describe(v);
    std::set<std::string> failed, allowed(c.must.begin(), c.must.end());
    allowed.insert(c.may.begin(), c.may.end());
    for (const json* f : failed_checks(v)) failed.insert(str(*f, "id"));
    for (auto& id : c.must) EXPECT_TRUE(failed.count(id)) << c.name << ": " << id << " must catch this cheat" << describe(v);
    for (auto& id : failed)
      EXPECT_TRUE(allowed.count(id)) << c.name << ": " << id << " failed too; the table (and docs/VALIDITY.md) "
                                     << "does not credit it" << describe(v);
  } else {
    if (c.expect == Expect::neutralized)
      EXPECT_NE(str(v, "verdict"), "FASTER") << c.name << ": did less work on timed samples and was not caught" << describe(v);
    EXPECT_TRUE(status == "succeeded" || status == "failed_no_speedup")
        << c.name << ": an honest control must not be invalid, failed or skipped" << describe(v);
    EXPECT_FALSE(member(v, "checks").empty()) << c.name << ": no checks reported" << describe(v);
    EXPECT_TRUE(failed_checks(v).empty()) << c.name << ": an honest control failed a check" << describe(v);
    const json& verification = member(v, "verification", false);
    if (!verification.empty()) EXPECT_TRUE(verification.value("passed", false)) << c.name << describe(v);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, ValidityFixtures, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// Every pair in the results has a row in the table (a new fixture needs an expectation).
TEST(ValidityTable, EveryResultHasARow) {
  const BenchRun& r = bench();
  if (!r.have_gpu) GTEST_SKIP() << "no GPU: `aisp info gpu` found no CUDA device";
  ASSERT_FALSE(r.targets.empty()) << "no validity targets in the results (exit " << r.exit_code << ")";
  for (auto& [example, target] : r.targets) EXPECT_NE(find_case(example), nullptr) << "no expectation for validity:" << example;
}

// Every built plugin pair has a row, and every row has both plugins. No GPU needed.
TEST(ValidityTable, EveryPluginHasARow) {
  const auto dir = plugin_dir();
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << "no validity plugins at " << dir << " (build the tests)";
  std::set<std::string> baselines, optimized;
  for (auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".so") continue;
    std::string stem = e.path().stem().string();
    if (stem.rfind("baseline_", 0) == 0) baselines.insert(stem.substr(9));
    else if (stem.rfind("optimized_", 0) == 0) optimized.insert(stem.substr(10));
  }
  for (auto* set : {&baselines, &optimized})
    for (auto& name : *set) EXPECT_NE(find_case(name), nullptr) << "no expectation for " << name << " (" << dir << ")";
  for (auto& c : cases()) {
    EXPECT_TRUE(baselines.count(c.name)) << "baseline_" << c.name << ".so not built in " << dir;
    EXPECT_TRUE(optimized.count(c.name)) << "optimized_" << c.name << ".so not built in " << dir;
  }
}

}  // namespace

namespace {

// The bench-root fixtures (tests/benchroot_validity): compiled on demand like a user's kernels. Their
// source is found from $AISP_SOURCE_DIR, else the tree this test was configured from.
std::filesystem::path benchroot_dir() {
  const char* e = std::getenv("AISP_SOURCE_DIR");
  return std::filesystem::path(e ? e : AISP_SOURCE_DIR) / "tests" / "benchroot_validity";
}

const json* variant_named(const json& doc, const std::string& example) {
  for (auto& ch : member(doc, "results"))
    for (auto& b : member(ch, "benchmarks"))
      if (str(b, "example") == example)
        for (auto& o : member(b, "optimizations"))
          if (str(o, "name") == example) return &o;
  return nullptr;
}

}  // namespace

// Issue 18, hole 3: a --bench-root plugin is built with the in-tree flags (shared CUDA runtime), so a
// launch error it leaves pending surfaces (K12) and a cuBLAS plugin behaves as an in-tree one does.
TEST(BenchRootFixtures, BuiltLikeInTreePlugins) {
  const BenchRun& r = bench();
  if (!r.have_gpu) GTEST_SKIP() << "no GPU: `aisp info gpu` found no CUDA device";
  auto root = benchroot_dir();
  ASSERT_TRUE(std::filesystem::is_directory(root)) << root;
  std::string dir = std::filesystem::temp_directory_path() / "aisp_benchroot_test";
  std::filesystem::remove_all(dir);
  int code = 0;
  std::string out = run_command("'" + aisp_exe() + "' bench run --bench-root '" + root.string() +
                                    "' --targets benchroot --iterations 20 --warmup 2 --json --artifacts-dir " + dir +
                                    " 2>" + dir + ".stderr",
                                &code);
  json doc = json::parse(out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << "bench run (exit " << code << ") printed no JSON:\n" << out.substr(0, 2000);
  const json* cheat = variant_named(doc, "cheat_hidden_launch_error");
  const json* honest = variant_named(doc, "honest_benchroot_cublas");
  ASSERT_NE(cheat, nullptr);
  ASSERT_NE(honest, nullptr);
  EXPECT_EQ(str(*cheat, "verdict"), "INVALID") << describe(*cheat);
  EXPECT_TRUE(failed_one_of(*cheat, {"K12"})) << "the pending launch error must surface as K12" << describe(*cheat);
  std::string st = str(*honest, "status");
  EXPECT_TRUE(st == "succeeded" || st == "failed_no_speedup") << describe(*honest);
  EXPECT_TRUE(failed_checks(*honest).empty()) << describe(*honest);
}
