// The coordinator's SQL database: one connection to SQLite (a file path) or PostgreSQL (a
// postgresql:// URL), prepared statements with bound values, and transactions. The store's SQL is written
// once, in SQLite's syntax, and sql_dialect.h rewrites it for PostgreSQL. Errors become DatabaseError
// with the backend's message and the statement that failed; `unavailable` says the server could not be
// reached (the next statement reconnects), so callers can answer "try again" instead of "broken".
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>

namespace xq::coord {

enum class Dialect { Sqlite, Postgres };

struct DatabaseError : std::runtime_error {
    DatabaseError(const std::string& message, bool serverUnavailable)
        : std::runtime_error(message), unavailable(serverUnavailable) {}
    bool unavailable;
};

// True for a store address that names a PostgreSQL server (postgresql:// or postgres://).
bool isPostgresUrl(std::string_view url);
// The address with any password replaced by "***", for logs and errors.
std::string redactUrl(const std::string& url);

namespace detail {
class StatementImpl {
  public:
    virtual ~StatementImpl() = default;
    virtual void bindInt(int index, std::int64_t value) = 0;
    virtual void bindReal(int index, double value) = 0;
    virtual void bindText(int index, std::string_view text) = 0;
    virtual void bindBlob(int index, std::string_view bytes) = 0;
    virtual void bindNull(int index) = 0;
    virtual bool step() = 0;
    virtual void reset() = 0;
    virtual std::int64_t int64(int column) const = 0;
    virtual double real(int column) const = 0;
    virtual std::string text(int column) const = 0;
    virtual std::string blob(int column) const = 0;
    virtual bool isNull(int column) const = 0;
};

class Connection {
  public:
    virtual ~Connection() = default;
    virtual Dialect dialect() const = 0;
    virtual std::unique_ptr<StatementImpl> prepare(std::string_view sql) = 0;
    virtual void exec(std::string_view sql) = 0;
    virtual std::int64_t lastInsertId() = 0;
    virtual int changes() const = 0;
    virtual void begin() = 0;
    virtual void commit() = 0;
    virtual void rollback() = 0;
    virtual int userVersion() = 0;
    virtual void setUserVersion(int version) = 0;
    // PostgreSQL's LISTEN: true when a NOTIFY on `channel` arrived within `timeoutMs`. Throws on SQLite.
    virtual bool waitForNotify(const std::string& channel, int timeoutMs) = 0;
};

std::unique_ptr<Connection> openSqlite(const std::string& path);
std::unique_ptr<Connection> openPostgres(const std::string& url);
}  // namespace detail

class Database;

// Group commit: many writers' transactions share one database transaction and one durable COMMIT (one
// fsync), instead of one each. A Transaction then is a SAVEPOINT inside the open batch; its commit() only
// releases the savepoint and notes the batch on the thread, and the caller answers nobody before
// waitDurable() has seen that batch committed. Writers are serialised by the caller's mutex (`writers`);
// the first waiter commits the batch under it, taking with it every writer that joined meanwhile.
class GroupCommit {
  public:
    explicit GroupCommit(std::mutex& writers) : writers_(writers) {}
    // The batch the calling thread's last commit() joined (0: none), and its group.
    static std::uint64_t& pendingBatch();
    // Returns once `batch` is durable; throws DatabaseError when its COMMIT failed. Call without `writers`.
    void waitDurable(Database& db, std::uint64_t batch);

  private:
    friend class Transaction;
    std::mutex& writers_;
    // Guarded by writers_: whether a batch is open, and the number of the newest batch; the Transactions
    // open in it, and the commits it holds. A batch whose every Transaction rolled back is ended at once:
    // left open, it would keep the database's write lock (SQLite's BEGIN IMMEDIATE) from every other
    // connection until the next write (found by fuzzing: a refused request stalled bench jobs 5 s).
    bool open_ = false;
    std::uint64_t opened_ = 0;
    int depth_ = 0;
    std::uint64_t joined_ = 0;
    // Guarded by mutex_.
    std::mutex mutex_;
    std::condition_variable committedCv_;
    std::uint64_t committed_ = 0;
    std::map<std::uint64_t, std::string> failed_;  // batches whose COMMIT failed, and why (the newest 64)
    void fail(std::uint64_t batch, const std::string& why);
    bool committing_ = false;
};

// A statement of a Database, prepared once per connection and SQL text: when it goes out of scope it is
// reset and kept for the next prepare() of the same text, so the backend parses and plans it only once.
class Statement {
  public:
    Statement(std::unique_ptr<detail::StatementImpl> impl, Database* cache, std::string sql)
        : impl_(std::move(impl)), cache_(cache), sql_(std::move(sql)) {}
    Statement(Statement&&) = default;
    Statement& operator=(Statement&&) = delete;
    ~Statement();

    // Binding is 1-based as in SQLite; each returns *this so calls chain. A value for a parameter the
    // statement does not use is ignored (so one set of values serves a WHERE built from some filters).
    Statement& bind(int index, std::int64_t value) { return impl_->bindInt(index, value), *this; }
    Statement& bind(int index, double value) { return impl_->bindReal(index, value), *this; }
    Statement& bind(int index, std::string_view text) { return impl_->bindText(index, text), *this; }
    Statement& bindBlob(int index, std::string_view bytes) { return impl_->bindBlob(index, bytes), *this; }
    Statement& bindNull(int index) { return impl_->bindNull(index), *this; }

    // Steps once: true while a row is available.
    bool step() { return impl_->step(); }
    // Runs a statement that returns no rows.
    void run() {
        while (step()) {
        }
    }
    // Makes the statement ready to be bound and run again.
    void reset() { impl_->reset(); }

    std::int64_t int64(int column) const { return impl_->int64(column); }
    double real(int column) const { return impl_->real(column); }
    std::string text(int column) const { return impl_->text(column); }
    std::string blob(int column) const { return impl_->blob(column); }
    bool isNull(int column) const { return impl_->isNull(column); }

  private:
    std::unique_ptr<detail::StatementImpl> impl_;
    Database* cache_;
    std::string sql_;
};

class Database {
  public:
    // SQLite: opens (creating if needed) the file in WAL mode with full synchronous commits, so a reply
    // sent after a commit is never contradicted by a crash. PostgreSQL: connects to the URL's database.
    explicit Database(const std::string& pathOrUrl);

    Dialect dialect() const { return conn_->dialect(); }
    void exec(std::string_view sql) { conn_->exec(sql); }
    // A statement from the cache of this connection's prepared statements, or newly prepared.
    Statement prepare(std::string_view sql);
    // The id the last INSERT gave its row (an INTEGER PRIMARY KEY).
    std::int64_t lastInsertId() { return conn_->lastInsertId(); }
    // Rows changed by the last INSERT, UPDATE or DELETE.
    int changes() const { return conn_->changes(); }
    // The schema version (SQLite's user_version; a one-row table on PostgreSQL).
    int userVersion() { return conn_->userVersion(); }
    void setUserVersion(int version) { conn_->setUserVersion(version); }
    // PostgreSQL only: waits up to timeoutMs for a NOTIFY on `channel` (listening from the first call on);
    // false on timeout. NOTIFY sent in a transaction arrives when it commits.
    bool waitForNotify(const std::string& channel, int timeoutMs) {
        return conn_->waitForNotify(channel, timeoutMs);
    }
    detail::Connection& connection() { return *conn_; }
    // From now on Transactions on this connection join batches of `group` (null: each commits alone).
    void setGroupCommit(GroupCommit* group) { group_ = group; }
    GroupCommit* groupCommit() const { return group_; }

  private:
    friend class Statement;
    // Takes back a statement that is no longer in use (reset), keeping a few per SQL text.
    void recycle(std::string sql, std::unique_ptr<detail::StatementImpl> impl);
    std::unique_ptr<detail::Connection> conn_;
    GroupCommit* group_ = nullptr;
    std::mutex cacheMutex_;
    std::multimap<std::string, std::unique_ptr<detail::StatementImpl>, std::less<>> idle_;
};

// A write transaction: BEGIN IMMEDIATE on SQLite; on PostgreSQL BEGIN plus a transaction-scoped advisory
// lock, so that writers on every replica of one database take turns as they do on one SQLite file, and a
// synchronous commit (PostgreSQL statements outside transactions commit without waiting for the disk).
// Rolls back on destruction unless commit() was called. With group commit (GroupCommit), a savepoint in
// the open batch instead: commit() is durable only after GroupCommit::waitDurable.
class Transaction {
  public:
    explicit Transaction(Database& db);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit();

  private:
    Database& db_;
    GroupCommit* group_;
    bool done_ = false;
};

}  // namespace xq::coord
