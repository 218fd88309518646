// Writing a new SQLite database whole or not at all (export --sqlite, study --sqlite): the file is made under a
// temporary name by platform::OutputTarget, filled in one transaction and renamed into place when complete.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace rr::app {

struct SqlError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Database {
 public:
  explicit Database(const std::string& path);  // throws SqlError
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  void exec(std::string_view sql);  // throws SqlError
  sqlite3* handle() const { return db_; }

 private:
  sqlite3* db_ = nullptr;
};

// One prepared INSERT; << binds a row's values in column order (NULL for an empty optional), row() inserts it.
class Inserter {
 public:
  Inserter(Database& db, const char* table, int columns);
  ~Inserter();
  Inserter(const Inserter&) = delete;
  Inserter& operator=(const Inserter&) = delete;

  Inserter& operator<<(std::int64_t v);
  Inserter& operator<<(double v);
  Inserter& operator<<(const char* v) { return *this << std::string_view(v); }
  Inserter& operator<<(const std::string& v) { return *this << std::string_view(v); }
  Inserter& operator<<(std::string_view v);
  Inserter& operator<<(std::optional<std::int64_t> v);
  Inserter& operator<<(std::optional<double> v);
  Inserter& operator<<(std::optional<std::string_view> v);
  void row();

 private:
  Inserter& check(int rc);
  Database& db_;
  sqlite3_stmt* stmt_ = nullptr;
  int column_ = 0;
};

// A new database at `path`: `fill` runs inside one transaction (it may throw SqlError), and the file replaces `path`
// only when all of it is written. Returns an empty string, or a message naming the file.
std::string write_database(const std::string& path, const std::function<void(Database&)>& fill);

}  // namespace rr::app
