// The store's schema: its migrations, applied in order when a store opens, and what they need.
#include <stdexcept>

#include "store.h"

namespace xq::coord {

namespace {

// Migrations in order: entry i takes the schema from version i to i + 1. Only ever append. The SQL is
// SQLite's, rewritten for PostgreSQL by sql_dialect.h; `postgres` adds what only PostgreSQL needs (a
// `rowid` column where SQLite has one implicitly).
struct Migration {
    const char* sql;
    const char* postgres = "";
    const char* sqlite = "";  // what only SQLite needs (its triggers' syntax)
};
const Migration Migrations[] = {
    {R"sql(
    CREATE TABLE tokens (
        id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE, role TEXT NOT NULL, name TEXT NOT NULL,
        created_ms INTEGER NOT NULL);
    CREATE TABLE artifacts (
        sha256 TEXT PRIMARY KEY, size INTEGER NOT NULL, name TEXT NOT NULL, created_ms INTEGER NOT NULL);
    CREATE TABLE workers (
        id INTEGER PRIMARY KEY, token_id INTEGER NOT NULL, name TEXT NOT NULL, version TEXT NOT NULL,
        cpu_model TEXT NOT NULL, cores INTEGER NOT NULL, memory_mb INTEGER NOT NULL,
        engine_nps INTEGER NOT NULL, registered_ms INTEGER NOT NULL, last_seen_ms INTEGER NOT NULL);
    CREATE TABLE tests (
        id INTEGER PRIMARY KEY, kind TEXT NOT NULL, state INTEGER NOT NULL, spec BLOB NOT NULL,
        pairs_target INTEGER NOT NULL, next_pair INTEGER NOT NULL DEFAULT 0,
        w INTEGER NOT NULL DEFAULT 0, d INTEGER NOT NULL DEFAULT 0, l INTEGER NOT NULL DEFAULT 0,
        p0 INTEGER NOT NULL DEFAULT 0, p1 INTEGER NOT NULL DEFAULT 0, p2 INTEGER NOT NULL DEFAULT 0,
        p3 INTEGER NOT NULL DEFAULT 0, p4 INTEGER NOT NULL DEFAULT 0,
        crashes INTEGER NOT NULL DEFAULT 0, time_losses INTEGER NOT NULL DEFAULT 0,
        illegal_moves INTEGER NOT NULL DEFAULT 0, stalls INTEGER NOT NULL DEFAULT 0,
        llr REAL NOT NULL DEFAULT 0, result TEXT NOT NULL DEFAULT '',
        created_ms INTEGER NOT NULL, finished_ms INTEGER NOT NULL DEFAULT 0);
    CREATE INDEX tests_state ON tests(state);
    CREATE TABLE leases (
        id INTEGER PRIMARY KEY, test_id INTEGER NOT NULL REFERENCES tests(id),
        worker_id INTEGER NOT NULL REFERENCES workers(id), first_pair INTEGER NOT NULL,
        pair_count INTEGER NOT NULL, pairs_done INTEGER NOT NULL DEFAULT 0, state INTEGER NOT NULL,
        concurrency INTEGER NOT NULL, last_sequence INTEGER NOT NULL DEFAULT 0, created_ms INTEGER NOT NULL);
    CREATE INDEX leases_state ON leases(state, test_id);
    CREATE TABLE reports (
        lease_id INTEGER NOT NULL REFERENCES leases(id), sequence INTEGER NOT NULL, pairs INTEGER NOT NULL,
        received_ms INTEGER NOT NULL, PRIMARY KEY (lease_id, sequence));
    CREATE TABLE pairs (
        test_id INTEGER NOT NULL, pair_index INTEGER NOT NULL, lease_id INTEGER NOT NULL,
        penta INTEGER NOT NULL, PRIMARY KEY (test_id, pair_index));
    CREATE TABLE worker_tests (
        test_id INTEGER NOT NULL, worker_id INTEGER NOT NULL, games INTEGER NOT NULL DEFAULT 0,
        crashes INTEGER NOT NULL DEFAULT 0, time_losses INTEGER NOT NULL DEFAULT 0,
        illegal_moves INTEGER NOT NULL DEFAULT 0, stalls INTEGER NOT NULL DEFAULT 0,
        suspended INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (test_id, worker_id));
    CREATE TABLE events (
        id INTEGER PRIMARY KEY, test_id INTEGER NOT NULL, time_ms INTEGER NOT NULL, text TEXT NOT NULL);
    CREATE INDEX events_test ON events(test_id);
    )sql",
     "ALTER TABLE pairs ADD COLUMN rowid BIGSERIAL; CREATE INDEX pairs_rowid ON pairs(test_id, rowid);"},
    // 2: cluster benchmarks (bench_jobs.h). Settings and repeats are serialized xq.v1 messages.
    {R"sql(
    CREATE TABLE bench_runs (
      id INTEGER PRIMARY KEY,
      settings BLOB NOT NULL,
      created_ms INTEGER NOT NULL
    );
    CREATE TABLE bench_results (
      bench_id INTEGER NOT NULL REFERENCES bench_runs(id),
      worker_id INTEGER NOT NULL,
      worker_name TEXT NOT NULL DEFAULT '',
      cpu_model TEXT NOT NULL DEFAULT '',
      cores INTEGER NOT NULL DEFAULT 0,
      done INTEGER NOT NULL DEFAULT 0,
      repeats BLOB NOT NULL DEFAULT '',
      error TEXT NOT NULL DEFAULT '',
      reported_ms INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (bench_id, worker_id)
    );
    CREATE INDEX bench_results_pending ON bench_results(worker_id, done);
    )sql"},
    // 3: datagen tests (data_store.h): slices of games leased to workers and the chunks of positions
    // they uploaded, stored as files under DATA/data/. Discarded chunks wait for their file's removal.
    {R"sql(
    CREATE TABLE datagen_slices (
      test_id INTEGER NOT NULL REFERENCES tests(id),
      slice INTEGER NOT NULL,
      first_game INTEGER NOT NULL,
      games INTEGER NOT NULL,
      state INTEGER NOT NULL DEFAULT 0,
      lease_id INTEGER NOT NULL DEFAULT 0,
      games_played INTEGER NOT NULL DEFAULT 0,
      failures INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (test_id, slice)
    );
    CREATE INDEX datagen_slices_state ON datagen_slices(test_id, state);
    CREATE INDEX datagen_slices_lease ON datagen_slices(lease_id);
    CREATE TABLE data_chunks (
      id INTEGER PRIMARY KEY,
      test_id INTEGER NOT NULL,
      slice INTEGER NOT NULL,
      lease_id INTEGER NOT NULL,
      sequence INTEGER NOT NULL,
      worker_id INTEGER NOT NULL,
      positions INTEGER NOT NULL,
      bytes INTEGER NOT NULL,
      sha256 TEXT NOT NULL,
      path TEXT NOT NULL,
      created_ms INTEGER NOT NULL,
      discarded INTEGER NOT NULL DEFAULT 0,
      UNIQUE (lease_id, sequence)
    );
    CREATE INDEX data_chunks_test ON data_chunks(test_id, discarded);
    CREATE INDEX data_chunks_discarded ON data_chunks(discarded);
    )sql"},
    // 4: the web view (views.h) and game records (game_store.h). The submitter is copied out of the spec
    // so that the tests page can filter by it; existing tests get it from Coordinator's start-up. Each
    // report may carry its games as gzip PGN, kept beside the report (same transaction).
    {R"sql(
    ALTER TABLE tests ADD COLUMN submitter TEXT NOT NULL DEFAULT '';
    CREATE INDEX tests_submitter ON tests(submitter, id);
    CREATE TABLE games (
      lease_id INTEGER NOT NULL,
      sequence INTEGER NOT NULL,
      test_id INTEGER NOT NULL,
      games INTEGER NOT NULL,
      pgn_gz BLOB NOT NULL,
      PRIMARY KEY (lease_id, sequence)
    );
    CREATE INDEX games_test ON games(test_id);
    )sql",
     "ALTER TABLE games ADD COLUMN rowid BIGSERIAL; CREATE INDEX games_rowid ON games(test_id, rowid);"},
    // 5: ladders (`xq ladder add`): the ladder a test belongs to, copied out of its spec like the
    // submitter, so that a ladder's tests are found without reading every spec.
    {R"sql(
    ALTER TABLE tests ADD COLUMN ladder TEXT NOT NULL DEFAULT '';
    CREATE INDEX tests_ladder ON tests(ladder, id);
    )sql"},
    // 6: replicas (coordinator.h): on a shared store an active lease's deadline is kept in its row, where
    // every replica sees heartbeats and expiry; 0 until then (a single process keeps deadlines in memory).
    {R"sql(
    ALTER TABLE leases ADD COLUMN deadline_ms INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX leases_deadline ON leases(state, deadline_ms);
    CREATE INDEX leases_worker ON leases(worker_id, state);
    CREATE INDEX leases_load ON leases(state, test_id, concurrency, pair_count, pairs_done);
    )sql"},
    // 7: a test's load (the cores of its active leases and their pairs not yet reported) kept in its row by
    // triggers on leases, so that a job request reads it instead of summing 10,000 active leases. The
    // index that served that sum goes, and so does the deadline index (overdue leases are few and looked
    // for once a second): a heartbeat's or report's lease update then changes no indexed column, which on
    // PostgreSQL makes it a HOT update that leaves the lease indexes alone.
    {R"sql(
    ALTER TABLE tests ADD COLUMN active_cores INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE tests ADD COLUMN outstanding_pairs INTEGER NOT NULL DEFAULT 0;
    DROP INDEX leases_load;
    DROP INDEX leases_deadline;
    )sql",
     R"sql(
    ALTER TABLE leases SET (fillfactor = 70);
    CREATE FUNCTION xq_lease_load() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      cores BIGINT := CASE WHEN NEW.state = 1 THEN NEW.concurrency ELSE 0 END;
      pairs BIGINT := CASE WHEN NEW.state = 1 THEN NEW.pair_count - NEW.pairs_done ELSE 0 END;
    BEGIN
      IF TG_OP = 'UPDATE' AND OLD.state = 1 THEN
        cores := cores - OLD.concurrency;
        pairs := pairs - (OLD.pair_count - OLD.pairs_done);
      END IF;
      IF cores <> 0 OR pairs <> 0 THEN
        UPDATE tests SET active_cores = active_cores + cores, outstanding_pairs = outstanding_pairs + pairs
          WHERE id = NEW.test_id;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER leases_load AFTER INSERT OR UPDATE ON leases FOR EACH ROW EXECUTE FUNCTION xq_lease_load();
    )sql",
     R"sql(
    CREATE TRIGGER leases_load_insert AFTER INSERT ON leases WHEN NEW.state = 1 BEGIN
      UPDATE tests SET active_cores = active_cores + NEW.concurrency,
        outstanding_pairs = outstanding_pairs + NEW.pair_count - NEW.pairs_done WHERE id = NEW.test_id;
    END;
    CREATE TRIGGER leases_load_update AFTER UPDATE ON leases
    WHEN (OLD.state = 1 OR NEW.state = 1) AND (OLD.state <> NEW.state OR OLD.pairs_done <> NEW.pairs_done
      OR OLD.pair_count <> NEW.pair_count OR OLD.concurrency <> NEW.concurrency) BEGIN
      UPDATE tests SET
        active_cores = active_cores + (CASE WHEN NEW.state = 1 THEN NEW.concurrency ELSE 0 END)
          - (CASE WHEN OLD.state = 1 THEN OLD.concurrency ELSE 0 END),
        outstanding_pairs = outstanding_pairs
          + (CASE WHEN NEW.state = 1 THEN NEW.pair_count - NEW.pairs_done ELSE 0 END)
          - (CASE WHEN OLD.state = 1 THEN OLD.pair_count - OLD.pairs_done ELSE 0 END)
        WHERE id = NEW.test_id;
    END;
    )sql"},
    // 8: web view sessions (web_sessions.h) in the store, so that a login holds on every replica and
    // across restarts. A session is found by the hash of its cookie's id, as tokens are.
    {R"sql(
    CREATE TABLE web_sessions (
      id_hash TEXT PRIMARY KEY,
      token_id INTEGER NOT NULL,
      csrf TEXT NOT NULL,
      expires_ms INTEGER NOT NULL
    );
    CREATE INDEX web_sessions_expiry ON web_sessions(expires_ms);
    )sql"},
    // 9: SPSA tests (spsa_store.h): a test's parameters now and how many iterations they have seen, the
    // iteration and perturbation signs each lease was given, and the parameters over iterations.
    {R"sql(
    CREATE TABLE spsa_state (
      test_id INTEGER NOT NULL,
      point BLOB NOT NULL,
      PRIMARY KEY (test_id)
    );
    CREATE TABLE spsa_leases (
      lease_id INTEGER NOT NULL,
      iteration INTEGER NOT NULL,
      flips TEXT NOT NULL,
      PRIMARY KEY (lease_id)
    );
    CREATE TABLE spsa_history (
      test_id INTEGER NOT NULL,
      iteration INTEGER NOT NULL,
      point BLOB NOT NULL,
      PRIMARY KEY (test_id, iteration)
    );
    )sql"},
    // 10: networks (docs/nnue.md) as artifacts of their own kind ('net', or '' for any other artifact),
    // and which tests named an artifact in which role ("dev network"), so that a network's listing shows
    // the tests that used it.
    {R"sql(
    ALTER TABLE artifacts ADD COLUMN kind TEXT NOT NULL DEFAULT '';
    CREATE INDEX artifacts_kind ON artifacts(kind, created_ms);
    CREATE TABLE test_artifacts (
      sha256 TEXT NOT NULL,
      test_id INTEGER NOT NULL,
      role TEXT NOT NULL,
      PRIMARY KEY (sha256, test_id, role)
    );
    )sql"},
    // 11: a test's leases that failed in a row (handed back with an error, or all of their games crashed)
    // since it last counted a game: enough of them and the test fails (state 5).
    {R"sql(
    ALTER TABLE tests ADD COLUMN failed_leases INTEGER NOT NULL DEFAULT 0;
    )sql"},
    // 12: webhooks (webhook_store.h): each user's signing secret, and every delivery of a test's webhooks
    // with its state, so that a delivery survives a restart and is tried again until it is given up.
    {R"sql(
    CREATE TABLE webhook_secrets (
        owner TEXT PRIMARY KEY, secret TEXT NOT NULL, updated_ms INTEGER NOT NULL);
    CREATE TABLE webhook_deliveries (
        id INTEGER PRIMARY KEY, test_id INTEGER NOT NULL, owner TEXT NOT NULL, url TEXT NOT NULL,
        format TEXT NOT NULL, event TEXT NOT NULL, body TEXT NOT NULL DEFAULT '', state TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0, next_ms INTEGER NOT NULL, http_status INTEGER NOT NULL DEFAULT 0,
        last_error TEXT NOT NULL DEFAULT '', updated_ms INTEGER NOT NULL);
    CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_ms);
    CREATE INDEX webhook_deliveries_test ON webhook_deliveries(test_id);
    )sql"},
    // 13: runs (run_store.h): a run's spec and where it is, its generations (each naming its three tests),
    // its events, and each training test's last checkpoint, network and report.
    {R"sql(
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY, spec BLOB NOT NULL, state INTEGER NOT NULL, result TEXT NOT NULL DEFAULT '',
        submitter TEXT NOT NULL DEFAULT '', created_ms INTEGER NOT NULL, finished_ms INTEGER NOT NULL DEFAULT 0,
        generation INTEGER NOT NULL DEFAULT 1, best_net TEXT NOT NULL DEFAULT '',
        best_generation INTEGER NOT NULL DEFAULT 0, failed_gates INTEGER NOT NULL DEFAULT 0,
        priority INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE run_generations (
        run_id INTEGER NOT NULL, generation INTEGER NOT NULL, parent_net TEXT NOT NULL, step TEXT NOT NULL,
        selfplay_test INTEGER NOT NULL DEFAULT 0, training_test INTEGER NOT NULL DEFAULT 0,
        gate_test INTEGER NOT NULL DEFAULT 0, candidate_net TEXT NOT NULL DEFAULT '',
        promoted INTEGER NOT NULL DEFAULT 0, started_ms INTEGER NOT NULL, finished_ms INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (run_id, generation));
    CREATE TABLE run_events (
        id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, time_ms INTEGER NOT NULL, text TEXT NOT NULL);
    CREATE INDEX run_events_run ON run_events(run_id, id);
    CREATE TABLE training_state (
        test_id INTEGER PRIMARY KEY, checkpoint TEXT NOT NULL DEFAULT '',
        checkpoint_epochs INTEGER NOT NULL DEFAULT 0, checkpoint_ms INTEGER NOT NULL DEFAULT 0,
        net TEXT NOT NULL DEFAULT '', report TEXT NOT NULL DEFAULT '', leases INTEGER NOT NULL DEFAULT 0,
        failures INTEGER NOT NULL DEFAULT 0);
    )sql"},
};

// Every test's load from its active leases (what the triggers of schema 7 keep up to date).
constexpr const char* RecountLoadSql = R"sql(
    UPDATE tests SET
      active_cores = (SELECT COALESCE(SUM(concurrency), 0) FROM leases WHERE state = 1 AND test_id = tests.id),
      outstanding_pairs = (SELECT COALESCE(SUM(pair_count - pairs_done), 0) FROM leases
                           WHERE state = 1 AND test_id = tests.id)
    )sql";

}  // namespace

Store::Store(const std::string& pathOrUrl) : db_(pathOrUrl) {
    migrate();
}

int Store::schemaVersion() {
    return db_.userVersion();
}

void Store::migrate() {
    int version = schemaVersion();
    versionAtOpen_ = version;
    constexpr int known = int(sizeof(Migrations) / sizeof(Migrations[0]));
    static_assert(known == SchemaVersion);
    if (version > known)
        throw std::runtime_error("database schema version " + std::to_string(version) +
                                 " is newer than this coordinator understands (" + std::to_string(known) +
                                 ")");
    // Each step reads the version again inside its transaction: replicas starting together on one
    // PostgreSQL database take turns, and a step another replica already made is not made twice.
    while (version < known) {
        Transaction tx(db_);
        version = schemaVersion();
        if (version >= known) break;
        db_.exec(Migrations[version].sql);
        if (db_.dialect() == Dialect::Postgres && *Migrations[version].postgres)
            db_.exec(Migrations[version].postgres);
        if (db_.dialect() == Dialect::Sqlite && *Migrations[version].sqlite)
            db_.exec(Migrations[version].sqlite);
        if (version + 1 == 7) recountLoad();
        db_.setUserVersion(version + 1);
        tx.commit();
        ++version;
    }
}

void Store::recountLoad() {
    db_.exec(RecountLoadSql);
}

}  // namespace xq::coord
