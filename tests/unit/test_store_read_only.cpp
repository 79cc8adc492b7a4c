// Store::open_read_only, the dashboard's way in: it reads what a read-write handle stored (also runs
// stored after it was opened), refuses to write, never creates or migrates a file, and leaves the
// database file byte for byte as it was.
#include <gtest/gtest.h>
#include <unistd.h>

#include <sqlite3.h>

#include <filesystem>

#include "core/json_io.hpp"
#include "store/sqlite_db.hpp"
#include "store/store.hpp"

namespace aisp {
namespace {
namespace fs = std::filesystem;

// tests/data may not exist, so the checkout root is found lexically rather than through "..".
const fs::path kReference =
    fs::path(AISP_TEST_DATA_DIR).parent_path().parent_path() / "results" / "reference" / "h100_80gb_hbm3";

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "aisp_store_ro_XXXXXX").string();
    path = mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

std::vector<fs::path> reference_runs() {
  std::vector<fs::path> out;
  for (auto& e : fs::directory_iterator(kReference))
    if (e.is_directory()) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(StoreReadOnly, ReadsWhatWasStoredAndLaterRuns) {
  TempDir tmp;
  fs::path db = tmp.path / "aisp.db";
  auto runs = reference_runs();
  ASSERT_GE(runs.size(), 2u);
  Store writer = Store::open(db);
  writer.ingest_run(runs[0]);
  Store reader = Store::open_read_only(db);
  ASSERT_EQ(reader.list_runs().size(), 1u);
  EXPECT_EQ(reader.load_run(reader.list_runs()[0].id).size(), writer.load_run(writer.list_runs()[0].id).size());
  // WAL: a run committed by another connection after the reader opened is visible to its next query.
  writer.ingest_run(runs[1]);
  EXPECT_EQ(reader.list_runs().size(), 2u);
}

TEST(StoreReadOnly, RefusesEveryWriteAndLeavesTheFileAsItWas) {
  TempDir tmp;
  fs::path db = tmp.path / "aisp.db";
  auto runs = reference_runs();
  { Store::open(db).ingest_run(runs[0]); }
  std::string before = read_file(db);
  Store reader = Store::open_read_only(db);
  std::string why = error_of([&] { reader.ingest_run(runs[1]); });
  EXPECT_NE(why.find("readonly"), std::string::npos) << why;
  EXPECT_EQ(reader.list_runs().size(), 1u);  // nothing of the refused run landed
  EXPECT_EQ(read_file(db), before);
}

TEST(StoreReadOnly, NeverCreatesAFile) {
  TempDir tmp;
  fs::path db = tmp.path / "sub" / "aisp.db";
  std::string why = error_of([&] { Store::open_read_only(db); });
  EXPECT_NE(why.find("no results store"), std::string::npos) << why;
  EXPECT_FALSE(fs::exists(db));
  EXPECT_FALSE(fs::exists(db.parent_path()));
}

TEST(StoreReadOnly, RefusesAnOlderSchemaInsteadOfMigratingIt) {
  TempDir tmp;
  fs::path db = tmp.path / "aisp.db";
  {
    sql::Db d(db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    d.exec("CREATE TABLE runs (id INTEGER PRIMARY KEY); PRAGMA user_version = 1;");
  }
  std::string before = read_file(db);
  std::string why = error_of([&] { Store::open_read_only(db); });
  EXPECT_NE(why.find("older"), std::string::npos) << why;
  EXPECT_NE(why.find(db.string()), std::string::npos) << why;
  EXPECT_EQ(read_file(db), before);
  // An empty file is an empty SQLite database (schema 0): refused the same way, not initialised.
  fs::path empty = tmp.path / "empty.db";
  write_file_atomic(empty, "");
  EXPECT_NE(error_of([&] { Store::open_read_only(empty); }).find("older"), std::string::npos);
  EXPECT_EQ(fs::file_size(empty), 0u);
}

TEST(StoreReadOnly, RefusesAFileThatIsNotAStore) {
  TempDir tmp;
  fs::path not_db = tmp.path / "results.db";
  write_file_atomic(not_db, R"({"results": []})");
  std::string why = error_of([&] { Store::open_read_only(not_db); });
  EXPECT_NE(why.find("not an SQLite database"), std::string::npos) << why;
  EXPECT_EQ(read_file(not_db), R"({"results": []})");
}

}  // namespace
}  // namespace aisp
