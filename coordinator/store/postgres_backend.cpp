// The PostgreSQL backend of database.h over libpq: statements rewritten by sql_dialect.h and sent with
// their values as parameters (text, or binary for blobs), results read as text. A lost connection is
// reported as unavailable and re-opened by the next statement; a transaction it interrupted is gone, and
// the caller's retry starts it again.
#include <libpq-fe.h>
#include <poll.h>

#include <cstdlib>
#include <map>
#include <vector>

#include "database.h"
#include "sql_dialect.h"

namespace xq::coord::detail {

namespace {

// Parameters carry their types (so that one bound but not used in the statement is no error).
constexpr unsigned ByteaOid = 17, Int8Oid = 20, TextOid = 25, Float8Oid = 701;
// Every writing transaction takes this lock first (see Transaction in database.h), and commits durably.
// Statements outside transactions (heartbeats' lease deadlines, a worker's last contact) commit without
// waiting for the disk: losing the last few of them in a crash of the server shortens a lease at worst.
constexpr const char* WriteLockSql =
    "SET LOCAL synchronous_commit TO on; SELECT pg_advisory_xact_lock(7871301)";

class PgConnection;

class PgStatement final : public StatementImpl {
  public:
    PgStatement(PgConnection& conn, std::string sql) : conn_(conn), sql_(std::move(sql)) {}
    ~PgStatement() override { clearResult(); }

    void bindInt(int index, std::int64_t value) override { set(index, std::to_string(value), Int8Oid); }
    void bindReal(int index, double value) override {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", value);
        set(index, buf, Float8Oid);
    }
    void bindText(int index, std::string_view text) override { set(index, std::string(text), TextOid); }
    void bindBlob(int index, std::string_view bytes) override { set(index, std::string(bytes), ByteaOid); }
    void bindNull(int index) override {
        grow(index);
        params_[std::size_t(index - 1)] = {};
    }
    bool step() override;
    void reset() override {
        clearResult();
        params_.clear();
    }
    std::int64_t int64(int column) const override {
        const char* v = value(column);
        if (v[0] == 't' && v[1] == 0) return 1;  // a boolean
        if (v[0] == 'f' && v[1] == 0) return 0;
        return std::strtoll(v, nullptr, 10);
    }
    double real(int column) const override { return std::strtod(value(column), nullptr); }
    std::string text(int column) const override {
        return std::string(value(column), std::size_t(PQgetlength(result_, row_, column)));
    }
    std::string blob(int column) const override;
    bool isNull(int column) const override { return PQgetisnull(result_, row_, column) != 0; }

  private:
    struct Param {
        bool null = true;
        unsigned type = 0;  // 0: null, its type left to the server
        std::string value;
    };
    void grow(int index) {
        if (index < 1) throw DatabaseError("postgresql: parameter index " + std::to_string(index), false);
        if (params_.size() < std::size_t(index)) params_.resize(std::size_t(index));
    }
    void set(int index, std::string value, unsigned type) {
        grow(index);
        params_[std::size_t(index - 1)] = {false, type, std::move(value)};
    }
    const char* value(int column) const { return PQgetvalue(result_, row_, column); }
    void clearResult() {
        if (result_) PQclear(result_);
        result_ = nullptr;
        row_ = -1;
    }

    PgConnection& conn_;
    std::string sql_;
    std::vector<Param> params_;
    PGresult* result_ = nullptr;
    int row_ = -1;
    // The server-side prepared statement: its name, the parameter types it was prepared for and the
    // session it lives in (a reconnect starts a session without it).
    std::string name_;
    std::vector<unsigned> preparedTypes_;
    std::uint64_t preparedSession_ = 0;
};

class PgConnection final : public Connection {
  public:
    explicit PgConnection(std::string url) : url_(std::move(url)) { connect(); }
    ~PgConnection() override {
        if (conn_) PQfinish(conn_);
    }

    Dialect dialect() const override { return Dialect::Postgres; }
    std::unique_ptr<StatementImpl> prepare(std::string_view sql) override {
        return std::make_unique<PgStatement>(*this, toPostgres(sql));
    }
    void exec(std::string_view sql) override { PQclear(check(PQexec(live(), toPostgres(sql).c_str()), sql)); }
    std::int64_t lastInsertId() override {
        PGresult* r = check(PQexec(live(), "SELECT lastval()"), "SELECT lastval()");
        std::int64_t id = std::strtoll(PQgetvalue(r, 0, 0), nullptr, 10);
        PQclear(r);
        return id;
    }
    int changes() const override { return changes_; }
    void begin() override {
        exec("BEGIN");
        inTransaction_ = true;
        try {
            exec(WriteLockSql);
        } catch (...) {
            rollback();
            throw;
        }
    }
    void commit() override {
        exec("COMMIT");
        inTransaction_ = false;
    }
    void rollback() override {
        inTransaction_ = false;
        if (conn_ && PQstatus(conn_) == CONNECTION_OK) exec("ROLLBACK");
    }
    int userVersion() override {
        PGresult* r = check(PQexec(live(), "SELECT to_regclass('xq_schema') IS NOT NULL"), "schema version");
        bool exists = PQgetvalue(r, 0, 0)[0] == 't';
        PQclear(r);
        if (!exists) return 0;
        r = check(PQexec(live(), "SELECT COALESCE(MAX(version), 0) FROM xq_schema"), "schema version");
        int v = std::atoi(PQgetvalue(r, 0, 0));
        PQclear(r);
        return v;
    }
    void setUserVersion(int version) override {
        exec("CREATE TABLE IF NOT EXISTS xq_schema (version INTEGER NOT NULL)");
        exec("DELETE FROM xq_schema");
        exec("INSERT INTO xq_schema (version) VALUES (" + std::to_string(version) + ")");
    }

    // The connection, re-opened if it was lost.
    bool waitForNotify(const std::string& channel, int timeoutMs) override {
        if (!conn_ || PQstatus(conn_) != CONNECTION_OK || listening_ != channel) {
            live();
            exec("LISTEN " + channel);
            listening_ = channel;
        }
        auto take = [&] {
            bool got = false;
            while (PGnotify* n = PQnotifies(conn_)) {
                got |= channel == n->relname;
                PQfreemem(n);
            }
            return got;
        };
        if (take()) return true;
        pollfd fd{PQsocket(conn_), POLLIN, 0};
        int rc = ::poll(&fd, 1, timeoutMs);
        if (rc < 0) return false;
        if (rc > 0 && !PQconsumeInput(conn_)) {
            listening_.clear();
            throw DatabaseError("postgresql: " + std::string(PQerrorMessage(conn_)), true);
        }
        return take();
    }

    // Inside a transaction a lost connection is not re-opened: what the transaction did is gone, and only
    // its rollback (the caller giving up) ends the failure.
    PGconn* live() {
        if (!conn_ || PQstatus(conn_) != CONNECTION_OK) {
            if (inTransaction_)
                throw DatabaseError(
                    "cannot reach database " + redactUrl(url_) + ": connection lost in a transaction", true);
            connect();
        }
        return conn_;
    }
    // Each (re)connection is a new server session, which holds none of the statements prepared before.
    std::uint64_t session() const { return session_; }
    std::string newStatementName() { return "xq_s" + std::to_string(++statements_); }
    // Throws for a failed result (freeing it); records the rows a command changed.
    PGresult* check(PGresult* r, std::string_view sql) {
        auto status = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
        if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) {
            const char* n = PQcmdTuples(r);
            changes_ = n && *n ? std::atoi(n) : 0;
            return r;
        }
        std::string msg = r ? PQresultErrorMessage(r) : "";
        if (msg.empty()) msg = PQerrorMessage(conn_);
        while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
        if (r) PQclear(r);
        bool unavailable = PQstatus(conn_) != CONNECTION_OK;
        throw DatabaseError("postgresql: " + msg + " (in: " + std::string(sql.substr(0, 120)) + ")",
                            unavailable);
    }

  private:
    void connect() {
        if (conn_) PQfinish(conn_);
        conn_ = PQconnectdb(url_.c_str());
        if (PQstatus(conn_) != CONNECTION_OK) {
            std::string msg = PQerrorMessage(conn_);
            while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
            PQfinish(conn_);
            conn_ = nullptr;
            throw DatabaseError("cannot reach database " + redactUrl(url_) + ": " + msg, true);
        }
        PGresult* r = PQexec(conn_, "SET client_min_messages = warning; SET synchronous_commit TO off");
        PQclear(r);
        ++session_;
    }

    std::string url_;
    PGconn* conn_ = nullptr;
    int changes_ = 0;
    bool inTransaction_ = false;
    std::string listening_;
    std::uint64_t session_ = 0, statements_ = 0;
};

bool PgStatement::step() {
    if (!result_) {
        std::vector<const char*> values(params_.size());
        std::vector<int> lengths(params_.size()), formats(params_.size());
        std::vector<unsigned> types(params_.size());
        for (std::size_t i = 0; i < params_.size(); ++i) {
            const Param& p = params_[i];
            values[i] = p.null ? nullptr : p.value.data();
            lengths[i] = int(p.value.size());
            formats[i] = p.type == ByteaOid ? 1 : 0;  // bytes as they are; the rest as text
            types[i] = p.type;
        }
        PGconn* pg = conn_.live();
        // Parsed and planned once per session and parameter types, then only bound and run.
        if (name_.empty() || preparedSession_ != conn_.session() || preparedTypes_ != types) {
            std::string name = conn_.newStatementName();
            PQclear(conn_.check(PQprepare(pg, name.c_str(), sql_.c_str(), int(types.size()), types.data()),
                                sql_));
            name_ = std::move(name);
            preparedTypes_ = types;
            preparedSession_ = conn_.session();
        }
        result_ = conn_.check(PQexecPrepared(pg, name_.c_str(), int(params_.size()), values.data(),
                                             lengths.data(), formats.data(), 0),
                              sql_);
        row_ = -1;
    }
    return ++row_ < PQntuples(result_);
}

std::string PgStatement::blob(int column) const {
    // bytea as text is "\x" and two hex digits a byte.
    const char* v = value(column);
    std::size_t n = std::size_t(PQgetlength(result_, row_, column));
    if (n < 2 || v[0] != '\\' || v[1] != 'x') return std::string(v, n);
    auto hex = [](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
    std::string out((n - 2) / 2, '\0');
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = char(hex(v[2 + 2 * i]) << 4 | hex(v[3 + 2 * i]));
    return out;
}

}  // namespace

std::unique_ptr<Connection> openPostgres(const std::string& url) {
    return std::make_unique<PgConnection>(url);
}

}  // namespace xq::coord::detail
