// A small RAII layer over the sqlite3 C API: a connection, prepared statements with typed binds and
// column reads, and a transaction that rolls back unless committed. Every error is a std::runtime_error
// that names the database file, so a message never leaves the user guessing which store failed.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace aisp::sql {

class Db;

class Statement {
 public:
  Statement(Db& db, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Binds are 1-based, like sqlite3_bind_*; they return *this so a row reads as one expression.
  Statement& bind(int index, int64_t v);
  Statement& bind(int index, int v) { return bind(index, static_cast<int64_t>(v)); }
  Statement& bind(int index, bool v) { return bind(index, static_cast<int64_t>(v)); }
  Statement& bind(int index, double v);
  Statement& bind(int index, std::string_view v);
  Statement& bind(int index, const char* v) { return bind(index, std::string_view(v)); }
  Statement& bind(int index, const std::string& v) { return bind(index, std::string_view(v)); }
  Statement& bind_null(int index);
  template <class T>
  Statement& bind(int index, const std::optional<T>& v) {
    return v ? bind(index, *v) : bind_null(index);
  }

  bool step();  // true: a row is ready; false: done. Throws on errors (SQLITE_BUSY after the timeout too).
  void run();   // step() to completion, for statements that return no rows
  void reset();  // ready to bind and step again (binds are kept until rebound)

  bool is_null(int col) const;
  int64_t int64(int col) const;
  double real(int col) const;  // NULL reads as NaN: a missing measurement must not look like 0 ms
  std::string text(int col) const;

 private:
  Db& db_;
  sqlite3_stmt* stmt_ = nullptr;
};

class Db {
 public:
  // flags: sqlite3_open_v2 flags. The path is kept for error messages.
  Db(const std::filesystem::path& path, int flags);
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  void exec(std::string_view sql);  // one or more statements, no results
  int64_t scalar_int(std::string_view sql);
  std::string scalar_text(std::string_view sql);
  int64_t last_insert_id() const;
  const std::filesystem::path& path() const { return path_; }
  sqlite3* handle() { return db_; }
  [[noreturn]] void fail(std::string_view what) const;  // throws "<path>: <what>: <sqlite message>"

 private:
  std::filesystem::path path_;
  sqlite3* db_ = nullptr;
};

// BEGIN IMMEDIATE ... COMMIT, rolled back by the destructor unless commit() ran. IMMEDIATE takes the write
// lock up front: a deferred transaction that later upgrades to writing gets SQLITE_BUSY without the busy
// handler being consulted (it would deadlock otherwise), so concurrent writers would fail instead of waiting.
class Transaction {
 public:
  explicit Transaction(Db& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Db& db_;
  bool open_ = true;
};

}  // namespace aisp::sql
