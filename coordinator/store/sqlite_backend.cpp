// The SQLite backend of database.h: one connection to a file, statements prepared by SQLite itself.
#include <sqlite3.h>

#include "database.h"

namespace xq::coord::detail {

namespace {

[[noreturn]] void fail(sqlite3* db, std::string_view what, std::string_view sql) {
    throw DatabaseError("sqlite: " + std::string(what) + ": " + sqlite3_errmsg(db) +
                            (sql.empty() ? "" : " (in: " + std::string(sql.substr(0, 120)) + ")"),
                        false);
}

class SqliteStatement final : public StatementImpl {
  public:
    SqliteStatement(sqlite3* db, std::string_view sql) : db_(db), sql_(sql) {
        if (sqlite3_prepare_v2(db_, sql_.c_str(), int(sql_.size()), &stmt_, nullptr) != SQLITE_OK)
            fail(db_, "prepare", sql_);
    }
    ~SqliteStatement() override { sqlite3_finalize(stmt_); }

    void bindInt(int index, std::int64_t value) override {
        if (unused(index)) return;
        if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) fail(db_, "bind", sql_);
    }
    void bindReal(int index, double value) override {
        if (unused(index)) return;
        if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) fail(db_, "bind", sql_);
    }
    void bindText(int index, std::string_view text) override {
        if (unused(index)) return;
        if (sqlite3_bind_text(stmt_, index, text.data(), int(text.size()), SQLITE_TRANSIENT) != SQLITE_OK)
            fail(db_, "bind", sql_);
    }
    void bindBlob(int index, std::string_view bytes) override {
        if (unused(index)) return;
        if (sqlite3_bind_blob(stmt_, index, bytes.data(), int(bytes.size()), SQLITE_TRANSIENT) != SQLITE_OK)
            fail(db_, "bind", sql_);
    }
    void bindNull(int index) override {
        if (unused(index)) return;
        if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) fail(db_, "bind", sql_);
    }
    bool step() override {
        int rc = sqlite3_step(stmt_);
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        fail(db_, "step", sql_);
    }
    void reset() override {
        sqlite3_reset(stmt_);
        sqlite3_clear_bindings(stmt_);
    }
    std::int64_t int64(int column) const override { return sqlite3_column_int64(stmt_, column); }
    double real(int column) const override { return sqlite3_column_double(stmt_, column); }
    std::string text(int column) const override {
        auto* p = sqlite3_column_text(stmt_, column);
        return p ? std::string(reinterpret_cast<const char*>(p),
                               std::size_t(sqlite3_column_bytes(stmt_, column)))
                 : std::string();
    }
    std::string blob(int column) const override {
        auto* p = static_cast<const char*>(sqlite3_column_blob(stmt_, column));
        return p ? std::string(p, std::size_t(sqlite3_column_bytes(stmt_, column))) : std::string();
    }
    bool isNull(int column) const override { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

  private:
    // A value for a parameter the statement does not have is ignored, as on PostgreSQL (database.h).
    bool unused(int index) const { return index > sqlite3_bind_parameter_count(stmt_); }
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
    std::string sql_;
};

class SqliteConnection final : public Connection {
  public:
    explicit SqliteConnection(const std::string& path) {
        if (sqlite3_open_v2(path.c_str(), &db_,
                            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                            nullptr) != SQLITE_OK) {
            std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
            sqlite3_close(db_);
            throw DatabaseError("cannot open database '" + path + "': " + msg, false);
        }
        sqlite3_busy_timeout(db_, 5000);
        exec("PRAGMA journal_mode=WAL");
        exec("PRAGMA synchronous=FULL");
    }
    ~SqliteConnection() override { sqlite3_close(db_); }

    Dialect dialect() const override { return Dialect::Sqlite; }
    std::unique_ptr<StatementImpl> prepare(std::string_view sql) override {
        return std::make_unique<SqliteStatement>(db_, sql);
    }
    void exec(std::string_view sql) override {
        std::string s(sql);
        char* err = nullptr;
        if (sqlite3_exec(db_, s.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
            std::string msg = err ? err : "unknown error";
            sqlite3_free(err);
            throw DatabaseError("sqlite: " + msg + " (in: " + s.substr(0, 120) + ")", false);
        }
    }
    std::int64_t lastInsertId() override { return sqlite3_last_insert_rowid(db_); }
    int changes() const override { return sqlite3_changes(db_); }
    void begin() override { exec("BEGIN IMMEDIATE"); }
    void commit() override { exec("COMMIT"); }
    void rollback() override { exec("ROLLBACK"); }
    int userVersion() override {
        SqliteStatement s(db_, "PRAGMA user_version");
        s.step();
        return int(s.int64(0));
    }
    void setUserVersion(int version) override { exec("PRAGMA user_version = " + std::to_string(version)); }
    bool waitForNotify(const std::string&, int) override {
        throw DatabaseError("sqlite: no notifications (one process owns the file)", false);
    }

  private:
    sqlite3* db_ = nullptr;
};

}  // namespace

std::unique_ptr<Connection> openSqlite(const std::string& path) {
    return std::make_unique<SqliteConnection>(path);
}

}  // namespace xq::coord::detail
