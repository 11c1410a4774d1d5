#include "store.h"

#include <stdexcept>

namespace xq::coord {

const char* toString(TestState s) {
    switch (s) {
        case TestState::Running:
            return "running";
        case TestState::Finished:
            return "finished";
        case TestState::Stopped:
            return "stopped";
        case TestState::Pending:
            return "pending";
        case TestState::Failed:
            return "failed";
    }
    return "unknown";
}

const char* toString(LeaseState s) {
    switch (s) {
        case LeaseState::Active:
            return "active";
        case LeaseState::Done:
            return "done";
        case LeaseState::Expired:
            return "expired";
        case LeaseState::Released:
            return "released";
        case LeaseState::Cancelled:
            return "cancelled";
    }
    return "unknown";
}

namespace {

constexpr const char* TestColumns =
    "id, kind, state, spec, pairs_target, next_pair, w, d, l, p0, p1, p2, p3, p4, crashes, time_losses, "
    "illegal_moves, stalls, llr, result, created_ms, finished_ms, active_cores, outstanding_pairs";

TestRow readTest(const Statement& s) {
    TestRow t;
    t.id = s.int64(0);
    t.kind = s.text(1);
    t.state = TestState(s.int64(2));
    t.spec = s.blob(3);
    t.pairsTarget = s.int64(4);
    t.nextPair = s.int64(5);
    for (int i = 0; i < 3; ++i) t.wdl[i] = s.int64(6 + i);
    for (int i = 0; i < 5; ++i) t.penta[i] = s.int64(9 + i);
    t.failures = {s.int64(14), s.int64(15), s.int64(16), s.int64(17)};
    t.llr = s.real(18);
    t.result = s.text(19);
    t.createdMs = s.int64(20);
    t.finishedMs = s.int64(21);
    t.activeCores = s.int64(22);
    t.outstandingPairs = s.int64(23);
    return t;
}

constexpr const char* LeaseColumns =
    "id, test_id, worker_id, first_pair, pair_count, pairs_done, state, concurrency, last_sequence, "
    "created_ms";

LeaseRow readLease(const Statement& s) {
    LeaseRow l;
    l.id = s.int64(0);
    l.testId = s.int64(1);
    l.workerId = s.int64(2);
    l.firstPair = s.int64(3);
    l.pairCount = s.int64(4);
    l.pairsDone = s.int64(5);
    l.state = LeaseState(s.int64(6));
    l.concurrency = s.int64(7);
    l.lastSequence = s.int64(8);
    l.createdMs = s.int64(9);
    return l;
}

constexpr const char* WorkerColumns =
    "id, token_id, name, version, cpu_model, cores, memory_mb, engine_nps, registered_ms, last_seen_ms";

WorkerRow readWorker(const Statement& s) {
    WorkerRow w;
    w.id = s.int64(0);
    w.tokenId = s.int64(1);
    w.name = s.text(2);
    w.version = s.text(3);
    w.cpuModel = s.text(4);
    w.cores = s.int64(5);
    w.memoryMb = s.int64(6);
    w.engineNps = s.int64(7);
    w.registeredMs = s.int64(8);
    w.lastSeenMs = s.int64(9);
    return w;
}

}  // namespace

std::int64_t Store::insertToken(const std::string& hash, const std::string& role, const std::string& name,
                                std::int64_t nowMs) {
    db_.prepare("INSERT INTO tokens (hash, role, name, created_ms) VALUES (?, ?, ?, ?)")
        .bind(1, hash)
        .bind(2, role)
        .bind(3, name)
        .bind(4, nowMs)
        .run();
    return db_.lastInsertId();
}

std::optional<TokenRow> Store::findToken(const std::string& hash) {
    auto s = db_.prepare("SELECT id, role, name FROM tokens WHERE hash = ?");
    s.bind(1, hash);
    if (!s.step()) return std::nullopt;
    return TokenRow{s.int64(0), s.text(1), s.text(2)};
}

void Store::insertArtifact(const std::string& sha256, std::int64_t size, const std::string& name,
                           std::int64_t nowMs) {
    db_.prepare("INSERT OR IGNORE INTO artifacts (sha256, size, name, created_ms) VALUES (?, ?, ?, ?)")
        .bind(1, sha256)
        .bind(2, size)
        .bind(3, name)
        .bind(4, nowMs)
        .run();
}

bool Store::hasArtifact(const std::string& sha256) {
    auto s = db_.prepare("SELECT 1 FROM artifacts WHERE sha256 = ?");
    s.bind(1, sha256);
    return s.step();
}

void Store::setArtifactKind(const std::string& sha256, const std::string& kind) {
    db_.prepare("UPDATE artifacts SET kind = ? WHERE sha256 = ? AND kind = ''")
        .bind(1, kind)
        .bind(2, sha256)
        .run();
}

void Store::insertTestArtifact(std::int64_t testId, const std::string& sha256, const std::string& role) {
    db_.prepare("INSERT OR IGNORE INTO test_artifacts (sha256, test_id, role) VALUES (?, ?, ?)")
        .bind(1, sha256)
        .bind(2, testId)
        .bind(3, role)
        .run();
}

std::vector<std::int64_t> Store::testsOfArtifact(const std::string& sha256) {
    auto s = db_.prepare("SELECT DISTINCT test_id FROM test_artifacts WHERE sha256 = ? ORDER BY test_id");
    s.bind(1, sha256);
    std::vector<std::int64_t> out;
    while (s.step()) out.push_back(s.int64(0));
    return out;
}

std::int64_t Store::insertWorker(const WorkerRow& w) {
    db_.prepare(
           "INSERT INTO workers (token_id, name, version, cpu_model, cores, memory_mb, engine_nps, "
           "registered_ms, last_seen_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .bind(1, w.tokenId)
        .bind(2, w.name)
        .bind(3, w.version)
        .bind(4, w.cpuModel)
        .bind(5, w.cores)
        .bind(6, w.memoryMb)
        .bind(7, w.engineNps)
        .bind(8, w.registeredMs)
        .bind(9, w.lastSeenMs)
        .run();
    return db_.lastInsertId();
}

std::optional<WorkerRow> Store::findWorker(std::int64_t id) {
    auto s = db_.prepare(std::string("SELECT ") + WorkerColumns + " FROM workers WHERE id = ?");
    s.bind(1, id);
    if (!s.step()) return std::nullopt;
    return readWorker(s);
}

std::vector<WorkerRow> Store::listWorkers() {
    auto s = db_.prepare(std::string("SELECT ") + WorkerColumns + " FROM workers ORDER BY id");
    std::vector<WorkerRow> out;
    while (s.step()) out.push_back(readWorker(s));
    return out;
}

void Store::touchWorker(std::int64_t id, std::int64_t nowMs) {
    db_.prepare("UPDATE workers SET last_seen_ms = ? WHERE id = ?").bind(1, nowMs).bind(2, id).run();
}

std::int64_t Store::insertTest(const std::string& kind, const std::string& spec, std::int64_t pairsTarget,
                               std::int64_t nowMs) {
    db_.prepare("INSERT INTO tests (kind, state, spec, pairs_target, created_ms) VALUES (?, ?, ?, ?, ?)")
        .bind(1, kind)
        .bind(2, std::int64_t(TestState::Running))
        .bindBlob(3, spec)
        .bind(4, pairsTarget)
        .bind(5, nowMs)
        .run();
    return db_.lastInsertId();
}

std::optional<TestRow> Store::findTest(std::int64_t id) {
    auto s = db_.prepare(std::string("SELECT ") + TestColumns + " FROM tests WHERE id = ?");
    s.bind(1, id);
    if (!s.step()) return std::nullopt;
    return readTest(s);
}

std::vector<TestRow> Store::listTests(bool runningOnly, int limit) {
    auto s = db_.prepare(std::string("SELECT ") + TestColumns + " FROM tests" +
                         (runningOnly ? " WHERE state = 1" : "") + " ORDER BY id DESC LIMIT ?");
    s.bind(1, std::int64_t(limit));
    std::vector<TestRow> out;
    while (s.step()) out.push_back(readTest(s));
    return out;
}

namespace {
// The WHERE clause of the filters that are set, so that SQLite can use tests_state or tests_submitter
// (an `?1 = 0 OR state = ?1` form would scan every test). Values stay bound: ?1 state, ?2 submitter.
std::string testFilter(int state, const std::string& submitter) {
    std::string where = state ? "state = ?1" : "";
    if (!submitter.empty()) where += std::string(where.empty() ? "" : " AND ") + "submitter = ?2";
    return where.empty() ? "" : " WHERE " + where;
}

// Both are bound even when unused: parameters carry their types, so PostgreSQL accepts one it does not see.
void bindFilter(Statement& s, int state, const std::string& submitter) {
    s.bind(1, std::int64_t(state)).bind(2, submitter);
}
}  // namespace

std::vector<TestRow> Store::queryTests(int state, const std::string& submitter, std::int64_t offset,
                                       std::int64_t limit) {
    // The ids are chosen first, so that the sort carries ids rather than whole rows with their specs.
    auto s =
        db_.prepare(std::string("SELECT ") + TestColumns + " FROM tests WHERE id IN (SELECT id FROM tests" +
                    testFilter(state, submitter) +
                    " ORDER BY state = 1 DESC, id DESC LIMIT ?3 OFFSET ?4) ORDER BY state = 1 DESC, id DESC");
    bindFilter(s, state, submitter);
    s.bind(3, limit).bind(4, offset);
    std::vector<TestRow> out;
    while (s.step()) out.push_back(readTest(s));
    return out;
}

std::int64_t Store::countTests(int state, const std::string& submitter) {
    auto s = db_.prepare("SELECT COUNT(*) FROM tests" + testFilter(state, submitter));
    bindFilter(s, state, submitter);
    s.step();
    return s.int64(0);
}

std::array<std::int64_t, 6> Store::testsByState() {
    auto s = db_.prepare("SELECT state, COUNT(*) FROM tests GROUP BY state");
    std::array<std::int64_t, 6> out{};
    while (s.step())
        if (s.int64(0) >= 1 && s.int64(0) <= 5) out[std::size_t(s.int64(0))] = s.int64(1);
    return out;
}

void Store::setTestSpec(std::int64_t testId, const std::string& spec) {
    db_.prepare("UPDATE tests SET spec = ? WHERE id = ?").bindBlob(1, spec).bind(2, testId).run();
}

void Store::setTestState(std::int64_t testId, TestState state) {
    db_.prepare("UPDATE tests SET state = ? WHERE id = ?").bind(1, std::int64_t(state)).bind(2, testId).run();
}

std::int64_t Store::countFailedLease(std::int64_t testId) {
    auto s = db_.prepare(
        "UPDATE tests SET failed_leases = failed_leases + 1 WHERE id = ? RETURNING failed_leases");
    s.bind(1, testId);
    if (!s.step())
        throw DatabaseError("store: no test " + std::to_string(testId) + " to count a failed lease of",
                            false);
    return s.int64(0);
}

void Store::clearFailedLeases(std::int64_t testId) {
    db_.prepare("UPDATE tests SET failed_leases = 0 WHERE id = ? AND failed_leases <> 0")
        .bind(1, testId)
        .run();
}

std::vector<std::pair<std::int64_t, int>> Store::pairsAfter(std::int64_t testId, std::int64_t afterRowid) {
    auto s = db_.prepare("SELECT rowid, penta FROM pairs WHERE test_id = ? AND rowid > ? ORDER BY rowid");
    s.bind(1, testId).bind(2, afterRowid);
    std::vector<std::pair<std::int64_t, int>> out;
    while (s.step()) out.emplace_back(s.int64(0), int(s.int64(1)));
    return out;
}

std::vector<Store::ArtifactRow> Store::listArtifacts(int limit, const std::string& kind) {
    auto s = db_.prepare(kind.empty()
                             ? "SELECT sha256, name, size, created_ms, kind FROM artifacts "
                               "ORDER BY created_ms DESC, sha256 LIMIT ?"
                             : "SELECT sha256, name, size, created_ms, kind FROM artifacts WHERE kind = ? "
                               "ORDER BY created_ms DESC, sha256 LIMIT ?");
    if (!kind.empty()) s.bind(1, kind);
    s.bind(kind.empty() ? 1 : 2, std::int64_t(limit));
    std::vector<ArtifactRow> out;
    while (s.step()) out.push_back({s.text(0), s.text(1), s.int64(2), s.int64(3), s.text(4)});
    return out;
}

std::optional<Store::ArtifactRow> Store::findArtifact(const std::string& sha256) {
    auto s = db_.prepare("SELECT sha256, name, size, created_ms, kind FROM artifacts WHERE sha256 = ?");
    s.bind(1, sha256);
    if (!s.step()) return std::nullopt;
    return ArtifactRow{s.text(0), s.text(1), s.int64(2), s.int64(3), s.text(4)};
}

std::int64_t Store::artifactBytes() {
    auto s = db_.prepare("SELECT COALESCE(SUM(size), 0) FROM artifacts");
    s.step();
    return s.int64(0);
}

void Store::saveTest(const TestRow& t) {
    db_.prepare(
           "UPDATE tests SET state = ?, next_pair = ?, w = ?, d = ?, l = ?, p0 = ?, p1 = ?, p2 = ?, p3 = ?, "
           "p4 = ?, crashes = ?, time_losses = ?, illegal_moves = ?, stalls = ?, llr = ?, result = ?, "
           "finished_ms = ? WHERE id = ?")
        .bind(1, std::int64_t(t.state))
        .bind(2, t.nextPair)
        .bind(3, t.wdl[0])
        .bind(4, t.wdl[1])
        .bind(5, t.wdl[2])
        .bind(6, t.penta[0])
        .bind(7, t.penta[1])
        .bind(8, t.penta[2])
        .bind(9, t.penta[3])
        .bind(10, t.penta[4])
        .bind(11, t.failures.crashes)
        .bind(12, t.failures.timeLosses)
        .bind(13, t.failures.illegalMoves)
        .bind(14, t.failures.stalls)
        .bind(15, t.llr)
        .bind(16, t.result)
        .bind(17, t.finishedMs)
        .bind(18, t.id)
        .run();
}

void Store::setSubmitter(std::int64_t testId, const std::string& name) {
    db_.prepare("UPDATE tests SET submitter = ? WHERE id = ?").bind(1, name).bind(2, testId).run();
}

void Store::setLadder(std::int64_t testId, const std::string& ladder) {
    db_.prepare("UPDATE tests SET ladder = ? WHERE id = ?").bind(1, ladder).bind(2, testId).run();
}

std::vector<TestRow> Store::ladderTests(const std::string& ladder, std::int64_t offset, std::int64_t limit) {
    auto s = db_.prepare(std::string("SELECT ") + TestColumns +
                         " FROM tests WHERE ladder = ? ORDER BY id LIMIT ? OFFSET ?");
    s.bind(1, ladder).bind(2, limit).bind(3, offset);
    std::vector<TestRow> out;
    while (s.step()) out.push_back(readTest(s));
    return out;
}

std::vector<std::pair<std::string, std::int64_t>> Store::ladders() {
    auto s =
        db_.prepare("SELECT ladder, COUNT(*) FROM tests WHERE ladder <> '' GROUP BY ladder ORDER BY ladder");
    std::vector<std::pair<std::string, std::int64_t>> out;
    while (s.step()) out.emplace_back(s.text(0), s.int64(1));
    return out;
}

std::vector<std::pair<std::int64_t, std::string>> Store::testSpecs() {
    auto s = db_.prepare("SELECT id, spec FROM tests ORDER BY id");
    std::vector<std::pair<std::int64_t, std::string>> out;
    while (s.step()) out.emplace_back(s.int64(0), s.blob(1));
    return out;
}

std::int64_t Store::insertLease(const LeaseRow& l, std::int64_t deadlineMs) {
    auto s = db_.prepare(
        "INSERT INTO leases (test_id, worker_id, first_pair, pair_count, pairs_done, state, concurrency, "
        "last_sequence, created_ms, deadline_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id");
    s.bind(1, l.testId)
        .bind(2, l.workerId)
        .bind(3, l.firstPair)
        .bind(4, l.pairCount)
        .bind(5, l.pairsDone)
        .bind(6, std::int64_t(l.state))
        .bind(7, l.concurrency)
        .bind(8, l.lastSequence)
        .bind(9, l.createdMs)
        .bind(10, deadlineMs);
    if (!s.step()) throw DatabaseError("store: INSERT INTO leases returned no id", false);
    return s.int64(0);
}

std::optional<LeaseRow> Store::findLease(std::int64_t id) {
    auto s = db_.prepare(std::string("SELECT ") + LeaseColumns + " FROM leases WHERE id = ?");
    s.bind(1, id);
    if (!s.step()) return std::nullopt;
    return readLease(s);
}

std::vector<LeaseRow> Store::leases(LeaseState state, std::int64_t testId) {
    auto s = db_.prepare(std::string("SELECT ") + LeaseColumns + " FROM leases WHERE state = ?" +
                         (testId ? " AND test_id = ?" : "") + " ORDER BY id");
    s.bind(1, std::int64_t(state));
    if (testId) s.bind(2, testId);
    std::vector<LeaseRow> out;
    while (s.step()) out.push_back(readLease(s));
    return out;
}

std::vector<LeaseRow> Store::activeLeasesOfWorker(std::int64_t workerId) {
    auto s = db_.prepare(std::string("SELECT ") + LeaseColumns +
                         " FROM leases WHERE worker_id = ? AND state = 1 ORDER BY id");
    s.bind(1, workerId);
    std::vector<LeaseRow> out;
    while (s.step()) out.push_back(readLease(s));
    return out;
}

void Store::saveLease(const LeaseRow& l, std::int64_t deadlineMs) {
    db_.prepare(
           "UPDATE leases SET pairs_done = ?1, state = ?2, last_sequence = ?3, "
           "deadline_ms = CASE WHEN ?5 > 0 THEN ?5 ELSE deadline_ms END WHERE id = ?4")
        .bind(1, l.pairsDone)
        .bind(2, std::int64_t(l.state))
        .bind(3, l.lastSequence)
        .bind(4, l.id)
        .bind(5, deadlineMs)
        .run();
}

void Store::setLeaseDeadline(std::int64_t leaseId, std::int64_t deadlineMs) {
    db_.prepare("UPDATE leases SET deadline_ms = ? WHERE id = ?").bind(1, deadlineMs).bind(2, leaseId).run();
}

bool Store::refreshLeaseDeadline(std::int64_t leaseId, std::int64_t workerId, std::int64_t deadlineMs) {
    db_.prepare("UPDATE leases SET deadline_ms = ? WHERE id = ? AND worker_id = ? AND state = 1")
        .bind(1, deadlineMs)
        .bind(2, leaseId)
        .bind(3, workerId)
        .run();
    return db_.changes() == 1;
}

std::vector<std::int64_t> Store::overdueLeases(std::int64_t nowMs) {
    auto s = db_.prepare("SELECT id FROM leases WHERE state = 1 AND deadline_ms < ? ORDER BY id");
    s.bind(1, nowMs);
    std::vector<std::int64_t> out;
    while (s.step()) out.push_back(s.int64(0));
    return out;
}

void Store::extendOverdueLeases(std::int64_t nowMs, std::int64_t deadlineMs) {
    db_.prepare("UPDATE leases SET deadline_ms = ? WHERE state = 1 AND deadline_ms < ?")
        .bind(1, deadlineMs)
        .bind(2, nowMs)
        .run();
}

std::int64_t Store::outstandingPairs(std::int64_t testId) {
    auto s = db_.prepare(
        "SELECT COALESCE(SUM(pair_count - pairs_done), 0) FROM leases WHERE state = 1 AND test_id = ?");
    s.bind(1, testId);
    s.step();
    return s.int64(0);
}

std::int64_t Store::activeConcurrency(std::int64_t testId) {
    auto s = db_.prepare("SELECT COALESCE(SUM(concurrency), 0) FROM leases WHERE state = 1 AND test_id = ?");
    s.bind(1, testId);
    s.step();
    return s.int64(0);
}

std::pair<std::int64_t, std::int64_t> Store::activeLoad(std::int64_t testId) {
    auto s = db_.prepare("SELECT active_cores, outstanding_pairs FROM tests WHERE id = ?");
    s.bind(1, testId);
    if (!s.step()) return {0, 0};
    return {s.int64(0), s.int64(1)};
}

bool Store::insertReport(std::int64_t leaseId, std::int64_t sequence, std::int64_t pairs,
                         std::int64_t nowMs) {
    db_.prepare("INSERT OR IGNORE INTO reports (lease_id, sequence, pairs, received_ms) VALUES (?, ?, ?, ?)")
        .bind(1, leaseId)
        .bind(2, sequence)
        .bind(3, pairs)
        .bind(4, nowMs)
        .run();
    return db_.changes() == 1;
}

void Store::insertPairs(std::int64_t testId, std::int64_t leaseId, const std::vector<PairRow>& pairs) {
    auto s = db_.prepare("INSERT INTO pairs (test_id, pair_index, lease_id, penta) VALUES (?, ?, ?, ?)");
    for (const auto& p : pairs) {
        s.bind(1, testId).bind(2, p.pairIndex).bind(3, leaseId).bind(4, std::int64_t(p.pentaIndex));
        s.run();
        s.reset();
    }
}

std::int64_t Store::countPairs(std::int64_t testId) {
    auto s = db_.prepare("SELECT COUNT(*) FROM pairs WHERE test_id = ?");
    s.bind(1, testId);
    s.step();
    return s.int64(0);
}

WorkerTestRow Store::addWorkerTestStats(std::int64_t testId, std::int64_t workerId, std::int64_t games,
                                        const FailureCounts& f) {
    auto s = db_.prepare(
        "INSERT INTO worker_tests (test_id, worker_id, games, crashes, time_losses, illegal_moves, "
        "stalls) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (test_id, worker_id) DO UPDATE SET "
        "games = worker_tests.games + ?3, crashes = worker_tests.crashes + ?4, "
        "time_losses = worker_tests.time_losses + ?5, illegal_moves = worker_tests.illegal_moves + ?6, "
        "stalls = worker_tests.stalls + ?7 "
        "RETURNING games, crashes, time_losses, illegal_moves, stalls, suspended");
    s.bind(1, testId)
        .bind(2, workerId)
        .bind(3, games)
        .bind(4, f.crashes)
        .bind(5, f.timeLosses)
        .bind(6, f.illegalMoves)
        .bind(7, f.stalls);
    if (!s.step()) throw DatabaseError("store: INSERT INTO worker_tests returned no row", false);
    WorkerTestRow r;
    r.workerId = workerId;
    r.games = s.int64(0);
    r.failures = {s.int64(1), s.int64(2), s.int64(3), s.int64(4)};
    r.suspended = s.int64(5) != 0;
    return r;
}

std::vector<WorkerTestRow> Store::workerTestStats(std::int64_t testId, std::int64_t workerId) {
    auto s = db_.prepare(
        "SELECT wt.worker_id, COALESCE(w.name, ''), wt.games, wt.crashes, wt.time_losses, wt.illegal_moves, "
        "wt.stalls, wt.suspended FROM worker_tests wt LEFT JOIN workers w ON w.id = wt.worker_id "
        "WHERE wt.test_id = ?1 AND (?2 = 0 OR wt.worker_id = ?2) ORDER BY wt.worker_id");
    s.bind(1, testId).bind(2, workerId);
    std::vector<WorkerTestRow> out;
    while (s.step()) {
        WorkerTestRow r;
        r.workerId = s.int64(0);
        r.workerName = s.text(1);
        r.games = s.int64(2);
        r.failures = {s.int64(3), s.int64(4), s.int64(5), s.int64(6)};
        r.suspended = s.int64(7) != 0;
        out.push_back(r);
    }
    return out;
}

std::unordered_map<std::int64_t, WorkerTotals> Store::workerTotals() {
    auto s = db_.prepare(
        "SELECT worker_id, SUM(games), SUM(crashes), SUM(time_losses), SUM(illegal_moves), SUM(stalls), "
        "SUM(suspended) FROM worker_tests GROUP BY worker_id");
    std::unordered_map<std::int64_t, WorkerTotals> out;
    while (s.step()) {
        auto& t = out[s.int64(0)];
        t.games = s.int64(1);
        t.failures = {s.int64(2), s.int64(3), s.int64(4), s.int64(5)};
        t.suspensions = s.int64(6);
    }
    return out;
}

void Store::setSuspended(std::int64_t testId, std::int64_t workerId) {
    addWorkerTestStats(testId, workerId, 0, {});
    db_.prepare("UPDATE worker_tests SET suspended = 1 WHERE test_id = ? AND worker_id = ?")
        .bind(1, testId)
        .bind(2, workerId)
        .run();
}

bool Store::isSuspended(std::int64_t testId, std::int64_t workerId) {
    auto s = db_.prepare("SELECT suspended FROM worker_tests WHERE test_id = ? AND worker_id = ?");
    s.bind(1, testId).bind(2, workerId);
    return s.step() && s.int64(0) != 0;
}

void Store::addEvent(std::int64_t testId, std::int64_t nowMs, const std::string& text) {
    // One of the test's latest events that is `text`, or `text (xN)`, is counted once more and moves to
    // the end (workers failing in turn repeat their lines interleaved).
    auto recent = db_.prepare("SELECT id, text FROM events WHERE test_id = ? ORDER BY id DESC LIMIT 20");
    recent.bind(1, testId);
    std::int64_t times = 1, repeated = 0;
    while (!repeated && recent.step()) {
        const std::string prev = recent.text(1);
        if (prev == text) {
            repeated = recent.int64(0);
        } else if (prev.size() > text.size() + 4 && prev.compare(0, text.size(), text) == 0 &&
                   prev.compare(text.size(), 3, " (x") == 0 && prev.back() == ')') {
            const std::string digits = prev.substr(text.size() + 3, prev.size() - text.size() - 4);
            if (!digits.empty() && digits.size() < 12 &&
                digits.find_first_not_of("0123456789") == std::string::npos) {
                repeated = recent.int64(0);
                times = std::stoll(digits);
            }
        }
    }
    if (repeated) db_.prepare("DELETE FROM events WHERE id = ?").bind(1, repeated).run();
    db_.prepare("INSERT INTO events (test_id, time_ms, text) VALUES (?, ?, ?)")
        .bind(1, testId)
        .bind(2, nowMs)
        .bind(3, repeated ? text + " (x" + std::to_string(times + 1) + ")" : text)
        .run();
}

std::vector<std::string> Store::events(std::int64_t testId, int limit) {
    auto s = db_.prepare("SELECT text FROM events WHERE test_id = ? ORDER BY id DESC LIMIT ?");
    s.bind(1, testId).bind(2, std::int64_t(limit));
    std::vector<std::string> out;
    while (s.step()) out.push_back(s.text(0));
    return {out.rbegin(), out.rend()};
}

}  // namespace xq::coord
