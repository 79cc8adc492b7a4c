#include "store/sqlite_db.hpp"

#include <sqlite3.h>

#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace aisp::sql {

Db::Db(const std::filesystem::path& path, int flags) : path_(path) {
  int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error(fmt::format("cannot open the store {}: {}", path.string(), msg));
  }
  sqlite3_extended_result_codes(db_, 1);
}

Db::~Db() {
  // close_v2: statements still alive (a throw mid-query) are finalized lazily instead of leaking the handle.
  if (db_) sqlite3_close_v2(db_);
}

void Db::fail(std::string_view what) const {
  throw std::runtime_error(fmt::format("store {}: {}: {}", path_.string(), what, db_ ? sqlite3_errmsg(db_) : "closed"));
}

void Db::exec(std::string_view sql) {
  std::string s(sql);
  char* err = nullptr;
  if (sqlite3_exec(db_, s.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    throw std::runtime_error(fmt::format("store {}: {}", path_.string(), msg));
  }
}

int64_t Db::scalar_int(std::string_view sql) {
  Statement st(*this, sql);
  return st.step() ? st.int64(0) : 0;
}

std::string Db::scalar_text(std::string_view sql) {
  Statement st(*this, sql);
  return st.step() ? st.text(0) : std::string();
}

int64_t Db::last_insert_id() const { return sqlite3_last_insert_rowid(db_); }

Statement::Statement(Db& db, std::string_view sql) : db_(db) {
  if (sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) != SQLITE_OK)
    db_.fail(fmt::format("cannot prepare '{}'", sql.substr(0, 60)));
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::bind(int index, int64_t v) {
  if (sqlite3_bind_int64(stmt_, index, v) != SQLITE_OK) db_.fail("bind");
  return *this;
}

Statement& Statement::bind(int index, double v) {
  // SQLite stores NaN as NULL anyway; make that explicit so reads come back as "missing".
  int rc = v != v ? sqlite3_bind_null(stmt_, index) : sqlite3_bind_double(stmt_, index, v);
  if (rc != SQLITE_OK) db_.fail("bind");
  return *this;
}

Statement& Statement::bind(int index, std::string_view v) {
  if (sqlite3_bind_text64(stmt_, index, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8) != SQLITE_OK)
    db_.fail("bind");
  return *this;
}

Statement& Statement::bind_null(int index) {
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) db_.fail("bind");
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  db_.fail(fmt::format("'{}'", std::string_view(sqlite3_sql(stmt_)).substr(0, 60)));
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() { sqlite3_reset(stmt_); }

bool Statement::is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

int64_t Statement::int64(int col) const { return sqlite3_column_int64(stmt_, col); }

double Statement::real(int col) const {
  if (is_null(col)) return std::numeric_limits<double>::quiet_NaN();
  return sqlite3_column_double(stmt_, col);
}

std::string Statement::text(int col) const {
  const unsigned char* p = sqlite3_column_text(stmt_, col);
  return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(stmt_, col)))
           : std::string();
}

Transaction::Transaction(Db& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
  if (!open_) return;
  // Never throw from a destructor; a failed rollback leaves SQLite to roll back when the handle closes.
  sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  db_.exec("COMMIT");
  open_ = false;
}

}  // namespace aisp::sql
