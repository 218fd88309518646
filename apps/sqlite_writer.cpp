// SQLite through prepared statements bound row by row (apps/sqlite_writer.hpp).
#include "sqlite_writer.hpp"

#include <sqlite3.h>

#include "platform/output_target.hpp"

namespace rr::app {

Database::Database(const std::string& path) {
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw SqlError(why);
  }
}

Database::~Database() { sqlite3_close(db_); }

void Database::exec(std::string_view sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, std::string(sql).c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string why = message ? message : sqlite3_errmsg(db_);
    sqlite3_free(message);
    throw SqlError(why);
  }
}

Inserter::Inserter(Database& db, const char* table, int columns) : db_(db) {
  std::string sql = std::string("INSERT INTO ") + table + " VALUES (";
  for (int i = 0; i < columns; ++i) sql += i ? ",?" : "?";
  sql += ")";
  if (sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK)
    throw SqlError(sqlite3_errmsg(db.handle()));
}

Inserter::~Inserter() { sqlite3_finalize(stmt_); }

Inserter& Inserter::operator<<(std::int64_t v) { return check(sqlite3_bind_int64(stmt_, ++column_, v)); }
Inserter& Inserter::operator<<(double v) { return check(sqlite3_bind_double(stmt_, ++column_, v)); }
Inserter& Inserter::operator<<(std::string_view v) {
  return check(sqlite3_bind_text(stmt_, ++column_, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
}
Inserter& Inserter::operator<<(std::optional<std::int64_t> v) {
  return v ? *this << *v : check(sqlite3_bind_null(stmt_, ++column_));
}
Inserter& Inserter::operator<<(std::optional<double> v) {
  return v ? *this << *v : check(sqlite3_bind_null(stmt_, ++column_));
}
Inserter& Inserter::operator<<(std::optional<std::string_view> v) {
  return v ? *this << *v : check(sqlite3_bind_null(stmt_, ++column_));
}

void Inserter::row() {
  if (sqlite3_step(stmt_) != SQLITE_DONE) throw SqlError(sqlite3_errmsg(db_.handle()));
  sqlite3_reset(stmt_);
  column_ = 0;
}

Inserter& Inserter::check(int rc) {
  if (rc != SQLITE_OK) throw SqlError(sqlite3_errmsg(db_.handle()));
  return *this;
}

std::string write_database(const std::string& path, const std::function<void(Database&)>& fill) {
  platform::OutputTarget target;
  if (auto err = target.open(path); !err.empty()) return err;
  if (target.temporary_path().empty()) return path + ": --sqlite needs a regular file, not a device or FIFO";
  try {
    Database db(target.temporary_path());
    // A fresh file renamed into place when complete: no journal is needed for atomicity, and none is kept.
    db.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=65536;");
    db.exec("BEGIN");
    fill(db);
    db.exec("COMMIT");
  } catch (const SqlError& e) {
    return path + ": SQLite: " + e.what();
  }
  return target.commit();
}

}  // namespace rr::app
