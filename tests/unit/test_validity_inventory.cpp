// docs/VALIDITY.md against the code: the inventory may only name check ids that exist in
// src/core/checks.hpp, must have a Table 1 row for each of them, must map all 95 rows of the seed's
// table, and may only name validity fixtures that exist under tests/validity/. A claim (a coverage cell
// that starts with a check id) must name a fixture that exists.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/checks.hpp"

namespace fs = std::filesystem;

namespace {

// AISP_TEST_DATA_DIR is <root>/tests/data.
fs::path project_root() { return fs::path(AISP_TEST_DATA_DIR).parent_path().parent_path(); }

std::string read_doc() {
  fs::path p = project_root() / "docs" / "VALIDITY.md";
  std::ifstream in(p);
  if (!in) return {};
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string line; std::getline(ss, line);) out.push_back(line);
  return out;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// Cells of a markdown table row "| a | b | c |" -> {"a", "b", "c"}.
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::string t = trim(line);
  if (t.size() < 2 || t.front() != '|' || t.back() != '|') return out;
  t = t.substr(1, t.size() - 2);
  std::stringstream ss(t);
  for (std::string c; std::getline(ss, c, '|');) out.push_back(trim(c));
  return out;
}

// Table rows of the "## " section whose heading contains `heading`, up to the next "## " heading.
std::vector<std::vector<std::string>> section_rows(const std::vector<std::string>& lines, const std::string& heading) {
  std::vector<std::vector<std::string>> rows;
  bool in = false;
  for (auto& l : lines) {
    if (l.rfind("## ", 0) == 0) {
      if (in) break;
      in = l.find(heading) != std::string::npos;
      continue;
    }
    if (in && trim(l).rfind("|", 0) == 0) rows.push_back(cells(l));
  }
  return rows;
}

bool is_number(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

std::set<std::string> matches(const std::string& text, const std::regex& re, int group = 0) {
  std::set<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    out.insert((*it)[group].str());
  return out;
}

const std::regex kCheckId(R"(\bK[0-9]+\b)");
const std::regex kValidityFixture(R"(\b((cheat|honest)_[a-z0-9_]+))");
const std::regex kLeadingCheckId(R"(^K[0-9]+\b)");

// The older fixtures (tests/fixtures, tests/fixtures_arch) a claim may cite.
const std::vector<std::string> kOlderFixtures = {
    "skips_elements", "wrong_output", "precompute_in_setup", "mutates_input", "illegal_address",
    "crash_segfault", "calls_exit",   "hang_kernel",         "hang_host",     "workload_mismatch",
    "no_factory",     "wrong_arch",   "needs_sm100",         "oom",           "prints"};

bool older_fixture_exists(const std::string& name) {
  fs::path root = project_root() / "tests";
  return fs::exists(root / "fixtures" / ("optimized_" + name + ".cu")) ||
         fs::exists(root / "fixtures_arch" / ("optimized_" + name + ".cu"));
}

class ValidityInventory : public ::testing::Test {
 protected:
  void SetUp() override {
    doc = read_doc();
    ASSERT_FALSE(doc.empty()) << "cannot read " << (project_root() / "docs" / "VALIDITY.md");
    lines = lines_of(doc);
  }
  std::string doc;
  std::vector<std::string> lines;
};

}  // namespace

TEST_F(ValidityInventory, SeedTableHasAll95RowsInOrder) {
  auto rows = section_rows(lines, "95 rows");
  std::vector<std::vector<std::string>> numbered;
  for (auto& r : rows)
    if (!r.empty() && is_number(r[0])) numbered.push_back(r);
  ASSERT_EQ(numbered.size(), 95u) << "Table 2 (\"## ... 95 rows\") must have exactly 95 numbered rows";
  for (size_t i = 0; i < numbered.size(); ++i) {
    EXPECT_EQ(numbered[i][0], std::to_string(i + 1)) << "Table 2 row " << i + 1 << " is numbered " << numbered[i][0];
    EXPECT_EQ(numbered[i].size(), 4u) << "Table 2 row " << numbered[i][0]
                                      << " must have 4 cells (# | category | issue | coverage)";
  }
}

TEST_F(ValidityInventory, EveryCheckIdMentionedExists) {
  for (auto& id : matches(doc, kCheckId))
    EXPECT_NE(aisp::find_check(id), nullptr) << "docs/VALIDITY.md mentions " << id << ", which is not in src/core/checks.hpp";
}

TEST_F(ValidityInventory, EveryCheckHasATable1RowWithItsName) {
  std::map<std::string, std::string> table1;  // id -> name cell
  for (auto& r : section_rows(lines, "Table 1"))
    if (r.size() >= 5 && std::regex_search(r[0], kLeadingCheckId)) table1[r[0]] = r[1];
  for (auto& c : aisp::kChecks) {
    std::string id(c.id);
    auto it = table1.find(id);
    ASSERT_TRUE(it != table1.end()) << id << " (" << c.name << ") has no row in Table 1 of docs/VALIDITY.md";
    EXPECT_EQ(it->second, std::string(c.name)) << "Table 1 row " << id << " names the check differently from checks.hpp";
  }
  for (auto& [id, name] : table1)
    EXPECT_NE(aisp::find_check(id), nullptr) << "Table 1 has a row for " << id << ", which is not in checks.hpp";
}

// The fixtures are pairs tests/validity/{baseline,optimized}_<name>.cu.
TEST_F(ValidityInventory, EveryNamedValidityFixtureExists) {
  fs::path dir = project_root() / "tests" / "validity";
  auto names = matches(doc, kValidityFixture, 1);
  EXPECT_FALSE(names.empty()) << "docs/VALIDITY.md names no cheat_/honest_ fixture";
  for (auto& name : names)
    EXPECT_TRUE(fs::exists(dir / ("optimized_" + name + ".cu")))
        << "docs/VALIDITY.md names fixture " << name << " but " << (dir / ("optimized_" + name + ".cu"))
        << " does not exist";
}

TEST_F(ValidityInventory, EveryValidityFixtureIsInTheInventory) {
  fs::path dir = project_root() / "tests" / "validity";
  if (!fs::is_directory(dir)) GTEST_SKIP() << dir << " does not exist yet";
  auto names = matches(doc, kValidityFixture, 1);
  const std::regex file(R"(^optimized_((cheat|honest)_[a-z0-9_]+)\.cu$)");
  for (auto& e : fs::directory_iterator(dir)) {
    std::smatch m;
    std::string fname = e.path().filename().string();
    if (std::regex_match(fname, m, file))
      EXPECT_TRUE(names.contains(m[1].str())) << "fixture " << m[1].str() << " (" << fname
                                              << ") is not mentioned in docs/VALIDITY.md";
  }
}

TEST_F(ValidityInventory, EverySeedRowHasAKnownKindOfCoverage) {
  const std::vector<std::string> prefixes = {"n/a:", "not yet:", "environment", "statistics"};
  for (auto& r : section_rows(lines, "95 rows")) {
    if (r.empty() || !is_number(r[0])) continue;
    ASSERT_EQ(r.size(), 4u) << "Table 2 row " << r[0] << " must have 4 cells";
    const std::string& cov = r[3];
    ASSERT_FALSE(cov.empty()) << "Table 2 row " << r[0] << " (" << r[2] << ") has an empty coverage cell";
    bool claim = std::regex_search(cov, kLeadingCheckId);
    bool other = false;
    for (auto& p : prefixes) other = other || cov.rfind(p, 0) == 0;
    EXPECT_TRUE(claim || other) << "Table 2 row " << r[0] << " (" << r[2]
                                << "): coverage must start with a check id, \"n/a:\", \"not yet:\", "
                                   "\"environment\" or \"statistics\", got: "
                                << cov.substr(0, 60);
    if (!claim) continue;
    // A claim names at least one fixture that exists.
    bool fixture = !matches(cov, kValidityFixture, 1).empty();
    for (auto& f : kOlderFixtures)
      if (cov.find("`" + f + "`") != std::string::npos) {
        EXPECT_TRUE(older_fixture_exists(f)) << "Table 2 row " << r[0] << " cites fixture " << f
                                             << ", which is not in tests/fixtures or tests/fixtures_arch";
        fixture = true;
      }
    EXPECT_TRUE(fixture) << "Table 2 row " << r[0] << " (" << r[2]
                         << ") claims a check id but names no fixture (cheat_/honest_ or tests/fixtures)";
  }
}

TEST_F(ValidityInventory, SummaryLineMatchesTheTable) {
  std::map<std::string, int> counted;
  for (auto& r : section_rows(lines, "95 rows")) {
    if (r.size() != 4 || !is_number(r[0])) continue;
    const std::string& cov = r[3];
    if (std::regex_search(cov, kLeadingCheckId)) ++counted["claimed"];
    else if (cov.rfind("statistics", 0) == 0) ++counted["statistics"];
    else if (cov.rfind("environment", 0) == 0) ++counted["environment"];
    else if (cov.rfind("n/a:", 0) == 0) ++counted["n/a"];
    else if (cov.rfind("not yet:", 0) == 0) ++counted["not yet"];
  }
  std::smatch m;
  const std::regex summary(
      R"(Summary: ([0-9]+) claimed by check id, ([0-9]+) statistics, ([0-9]+) environment, ([0-9]+) n/a, ([0-9]+) not yet\.)");
  ASSERT_TRUE(std::regex_search(doc, m, summary)) << "docs/VALIDITY.md has no \"Summary: N claimed by check id, ...\" line";
  EXPECT_EQ(std::stoi(m[1].str()), counted["claimed"]) << "summary: claimed by check id";
  EXPECT_EQ(std::stoi(m[2].str()), counted["statistics"]) << "summary: statistics";
  EXPECT_EQ(std::stoi(m[3].str()), counted["environment"]) << "summary: environment";
  EXPECT_EQ(std::stoi(m[4].str()), counted["n/a"]) << "summary: n/a";
  EXPECT_EQ(std::stoi(m[5].str()), counted["not yet"]) << "summary: not yet";
}

namespace {

// The "## Measured" table: case -> the check ids of its failed-checks cell (baseline rows are skipped).
std::map<std::string, std::set<std::string>> measured_catches(const std::vector<std::string>& lines) {
  std::map<std::string, std::set<std::string>> out;
  for (auto& r : section_rows(lines, "Measured")) {
    if (r.size() < 3 || r[0].find("(baseline)") != std::string::npos) continue;
    std::smatch m;
    if (!std::regex_search(r[0], m, kValidityFixture)) continue;
    out[m[1].str()] = matches(r[2], kCheckId);
  }
  return out;
}

}  // namespace

// Table 1 may credit a check with catching a cheat_ fixture only where the measured table shows that
// check failing for it: a claim without a measured catch is exactly what the inventory must not make.
TEST_F(ValidityInventory, Table1CreditsOnlyMeasuredCatches) {
  auto measured = measured_catches(lines);
  ASSERT_FALSE(measured.empty()) << "docs/VALIDITY.md has no \"## Measured\" table of cheat_ fixtures";
  for (auto& r : section_rows(lines, "Table 1")) {
    if (r.size() < 5 || !std::regex_search(r[0], kLeadingCheckId)) continue;
    for (auto& fixture : matches(r[3], kValidityFixture, 1)) {
      if (fixture.rfind("cheat_", 0) != 0) continue;
      auto it = measured.find(fixture);
      ASSERT_TRUE(it != measured.end()) << "Table 1 row " << r[0] << " credits " << fixture
                                        << ", which has no row in the measured table";
      EXPECT_TRUE(it->second.count(r[0])) << "Table 1 row " << r[0] << " credits " << fixture
                                          << " but the measured table shows it caught only by its other checks";
    }
  }
}

// The measured table is copied from the committed artifact it names (scripts/validity_table.py writes both).
TEST_F(ValidityInventory, MeasuredTableMatchesItsArtifact) {
  std::smatch m;
  const std::regex artifact_ref(R"(artifact: `(docs/measurements/[A-Za-z0-9_./-]+\.json)`)");
  ASSERT_TRUE(std::regex_search(doc, m, artifact_ref)) << "the measured table names no artifact (\"artifact: `docs/measurements/...json`\")";
  fs::path file = project_root() / m[1].str();
  std::ifstream in(file);
  ASSERT_TRUE(in) << "cannot read " << file;
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  auto measured = measured_catches(lines);
  // One entry per optimized variant in the artifact: {"case": ..., "variant": ..., "failed_checks": [...]}.
  const std::regex entry(R"re(\{\s*"case":\s*"([a-z0-9_]+)",\s*"variant":\s*"([a-z0-9_]+)",[^}]*"failed_checks":\s*\[([^\]]*)\])re");
  size_t seen = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), entry); it != std::sregex_iterator(); ++it) {
    std::string name = (*it)[1].str();
    if ((*it)[2].str() == "baseline" || name.rfind("cheat_", 0) != 0) continue;
    ++seen;
    std::string ids_text = (*it)[3].str();
    auto ids = matches(ids_text, kCheckId);
    ASSERT_TRUE(measured.count(name)) << name << " is in the artifact but not in the measured table";
    EXPECT_EQ(measured[name], ids) << name << ": the measured table differs from " << file;
  }
  EXPECT_GT(seen, 0u) << file << " lists no cheat_ variants";
  for (auto& [name, ids] : measured)
    EXPECT_NE(text.find("\"" + name + "\""), std::string::npos) << name << " is in the measured table but not in " << file;
}

// A Table 2 row that cites a check id is a claim only if it names a fixture that cheats that way; a row
// that says it has no fixture is not a claim, whatever id it mentions.
TEST_F(ValidityInventory, NoClaimSaysItHasNoFixture) {
  for (auto& r : section_rows(lines, "95 rows")) {
    if (r.size() != 4 || !is_number(r[0]) || !std::regex_search(r[3], kLeadingCheckId)) continue;
    EXPECT_EQ(r[3].find("no fixture"), std::string::npos)
        << "Table 2 row " << r[0] << " is counted as claimed but says \"no fixture\": " << r[3].substr(0, 80);
  }
}
