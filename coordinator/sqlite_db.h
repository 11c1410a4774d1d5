// A small RAII layer over SQLite: one connection, prepared statements with bound values, transactions.
// Errors become std::runtime_error with SQLite's message and the statement that failed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace xq::coord {

class Statement {
  public:
    Statement(sqlite3* db, std::string_view sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    // Binding is 1-based as in SQLite; each returns *this so calls chain.
    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view text);
    Statement& bindBlob(int index, std::string_view bytes);
    Statement& bindNull(int index);

    // Steps once: true while a row is available.
    bool step();
    // Runs a statement that returns no rows.
    void run();
    // Makes the statement ready to be bound and run again.
    void reset();

    std::int64_t int64(int column) const;
    double real(int column) const;
    std::string text(int column) const;
    std::string blob(int column) const;
    bool isNull(int column) const;

  private:
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
    std::string sql_;
};

class Database {
  public:
    // Opens (creating if needed) the file in WAL mode with full synchronous commits, so a reply sent after
    // a commit is never contradicted by a crash.
    explicit Database(const std::string& path);
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    void exec(std::string_view sql);
    Statement prepare(std::string_view sql) { return Statement(db_, sql); }
    std::int64_t lastInsertId() const;
    int changes() const;
    sqlite3* handle() { return db_; }

  private:
    sqlite3* db_ = nullptr;
};

// BEGIN IMMEDIATE on construction, ROLLBACK on destruction unless commit() was called.
class Transaction {
  public:
    explicit Transaction(Database& db);
    ~Transaction();
    void commit();

  private:
    Database& db_;
    bool done_ = false;
};

}  // namespace xq::coord
