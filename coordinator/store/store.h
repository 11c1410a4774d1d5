// The coordinator's durable state in one SQLite file or one PostgreSQL database (database.h): tokens,
// artifacts, workers, tests, leases, reports and per-worker statistics. Methods do not open transactions
// themselves; the caller wraps a unit of work in a Transaction so that a report and everything it changes
// commit together.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "database.h"

namespace xq::coord {

constexpr int SchemaVersion = 13;

// Pending: submitted by a user without the approver role, waiting for an approver (no work is leased).
// Failed: stopped itself because its engines cannot be played (too many failed leases in a row, a source
// that does not build, a damaged artifact); a user may resume it.
enum class TestState : int { Running = 1, Finished = 2, Stopped = 3, Pending = 4, Failed = 5 };
enum class LeaseState : int { Active = 1, Done = 2, Expired = 3, Released = 4, Cancelled = 5 };
const char* toString(TestState s);
const char* toString(LeaseState s);

struct FailureCounts {
    std::int64_t crashes = 0, timeLosses = 0, illegalMoves = 0, stalls = 0;
    std::int64_t total() const { return crashes + timeLosses + illegalMoves + stalls; }
    FailureCounts& operator+=(const FailureCounts& o) {
        crashes += o.crashes, timeLosses += o.timeLosses, illegalMoves += o.illegalMoves, stalls += o.stalls;
        return *this;
    }
};

struct TokenRow {
    std::int64_t id = 0;
    std::string role;  // "user" or "worker"
    std::string name;
};

struct WorkerRow {
    std::int64_t id = 0;
    std::int64_t tokenId = 0;
    std::string name, version, cpuModel;
    std::int64_t cores = 0, memoryMb = 0, engineNps = 0;
    std::int64_t registeredMs = 0, lastSeenMs = 0;
};

struct TestRow {
    std::int64_t id = 0;
    std::string kind;  // "match" or "datagen"
    TestState state = TestState::Running;
    std::string spec;  // serialized xq.v1.TestSpec
    std::int64_t pairsTarget = 0;
    std::int64_t nextPair = 0;  // opening index handed to the next lease
    std::array<std::int64_t, 3> wdl{};
    std::array<std::int64_t, 5> penta{};
    FailureCounts failures;
    double llr = 0;
    std::string result;
    std::int64_t createdMs = 0, finishedMs = 0;
    // The load of its active leases (kept by the store's triggers; saveTest does not write them): the
    // cores they occupy and their pairs not yet reported.
    std::int64_t activeCores = 0, outstandingPairs = 0;
    std::int64_t pairsDone() const { return penta[0] + penta[1] + penta[2] + penta[3] + penta[4]; }
};

struct LeaseRow {
    std::int64_t id = 0, testId = 0, workerId = 0;
    std::int64_t firstPair = 0, pairCount = 0, pairsDone = 0;
    LeaseState state = LeaseState::Active;
    std::int64_t concurrency = 1;
    std::int64_t lastSequence = 0;
    std::int64_t createdMs = 0;
};

struct WorkerTestRow {
    std::int64_t workerId = 0;
    std::string workerName;
    std::int64_t games = 0;
    FailureCounts failures;
    bool suspended = false;
};

// A worker's results over all tests.
struct WorkerTotals {
    std::int64_t games = 0, suspensions = 0;
    FailureCounts failures;
};

struct PairRow {
    std::int64_t pairIndex = 0;
    int pentaIndex = 0;
};

class Store {
  public:
    // Opens (creating if needed) the SQLite file at a path, or connects to a postgresql:// URL, and
    // migrates the schema to SchemaVersion.
    explicit Store(const std::string& pathOrUrl);

    Database& db() { return db_; }
    int schemaVersion();
    // The schema version the file had when opened, before migrating (0: a new store).
    int versionAtOpen() const { return versionAtOpen_; }

    std::int64_t insertToken(const std::string& hash, const std::string& role, const std::string& name,
                             std::int64_t nowMs);
    std::optional<TokenRow> findToken(const std::string& hash);

    void insertArtifact(const std::string& sha256, std::int64_t size, const std::string& name,
                        std::int64_t nowMs);
    bool hasArtifact(const std::string& sha256);
    // Marks an artifact as of a kind ("net"); a stored kind is not changed to another (first one wins).
    void setArtifactKind(const std::string& sha256, const std::string& kind);
    // Records that a test names an artifact in a role ("dev network"); a repeat is ignored.
    void insertTestArtifact(std::int64_t testId, const std::string& sha256, const std::string& role);
    // The tests that named an artifact, oldest first.
    std::vector<std::int64_t> testsOfArtifact(const std::string& sha256);

    std::int64_t insertWorker(const WorkerRow& w);
    std::optional<WorkerRow> findWorker(std::int64_t id);
    std::vector<WorkerRow> listWorkers();
    void touchWorker(std::int64_t id, std::int64_t nowMs);

    std::int64_t insertTest(const std::string& kind, const std::string& spec, std::int64_t pairsTarget,
                            std::int64_t nowMs);
    std::optional<TestRow> findTest(std::int64_t id);
    std::vector<TestRow> listTests(bool runningOnly, int limit);
    // Tests of a state (0: any) and submitter ("": any), running first, then newest first; and how many
    // there are.
    std::vector<TestRow> queryTests(int state, const std::string& submitter, std::int64_t offset,
                                    std::int64_t limit);
    std::int64_t countTests(int state, const std::string& submitter);
    std::array<std::int64_t, 6> testsByState();  // indexed by TestState
    // Sets a test's state alone (pending to running, when an approver releases it).
    void setTestState(std::int64_t testId, TestState state);
    // The test's leases that failed in a row (schema 11): one more, returning the count now, or none (a
    // counted game, a resumed test).
    std::int64_t countFailedLease(std::int64_t testId);
    void clearFailedLeases(std::int64_t testId);
    // The counted pairs of a test that arrived after row `afterRowid` (0: all), in arrival order: each
    // pair's row and penta index.
    std::vector<std::pair<std::int64_t, int>> pairsAfter(std::int64_t testId, std::int64_t afterRowid);
    struct ArtifactRow {
        std::string sha256, name;
        std::int64_t size = 0, createdMs = 0;
        std::string kind;
    };
    // Newest first; kind "" lists every kind.
    std::vector<ArtifactRow> listArtifacts(int limit, const std::string& kind = "");
    std::optional<ArtifactRow> findArtifact(const std::string& sha256);
    std::int64_t artifactBytes();
    // Writes results, state, llr, result text, finish time and next pair of `t`.
    void saveTest(const TestRow& t);
    // Replaces a test's spec (a run's change of priority).
    void setTestSpec(std::int64_t testId, const std::string& spec);
    // The submitter's name, kept beside the spec for the web view's filter.
    void setSubmitter(std::int64_t testId, const std::string& name);
    // The ladder a test belongs to (TestSpec.ladder), and a ladder's tests, oldest first.
    void setLadder(std::int64_t testId, const std::string& ladder);
    std::vector<TestRow> ladderTests(const std::string& ladder, std::int64_t offset, std::int64_t limit);
    // Every ladder's name and number of tests, by name.
    std::vector<std::pair<std::string, std::int64_t>> ladders();
    // Every test's id and spec (for copying fields out of specs when the schema gains columns).
    std::vector<std::pair<std::int64_t, std::string>> testSpecs();

    // A new lease's id; `deadlineMs` goes into its row (a shared store's deadline; 0 for none).
    std::int64_t insertLease(const LeaseRow& l, std::int64_t deadlineMs = 0);
    std::optional<LeaseRow> findLease(std::int64_t id);
    std::vector<LeaseRow> leases(LeaseState state, std::int64_t testId = 0);
    // Writes pairs done, state and last sequence, and a new deadline when `deadlineMs` > 0.
    void saveLease(const LeaseRow& l, std::int64_t deadlineMs = 0);
    std::vector<LeaseRow> activeLeasesOfWorker(std::int64_t workerId);
    // Deadlines of active leases, kept in the store when replicas share it (schema 6).
    void setLeaseDeadline(std::int64_t leaseId, std::int64_t deadlineMs);
    // False unless the lease is active and the worker's.
    bool refreshLeaseDeadline(std::int64_t leaseId, std::int64_t workerId, std::int64_t deadlineMs);
    std::vector<std::int64_t> overdueLeases(std::int64_t nowMs);
    // Active leases whose deadline passed get `deadlineMs` (a coordinator starting after an outage).
    void extendOverdueLeases(std::int64_t nowMs, std::int64_t deadlineMs);
    // Pairs handed out to active leases and not yet reported.
    std::int64_t outstandingPairs(std::int64_t testId);
    // Sum of the concurrency of active leases on the test: the cores it currently occupies.
    std::int64_t activeConcurrency(std::int64_t testId);
    // Both of the above as the test's row keeps them (schema 7's triggers on leases): the cores the test
    // occupies and its pairs handed out and not yet reported.
    std::pair<std::int64_t, std::int64_t> activeLoad(std::int64_t testId);
    // Sets every test's kept load from its active leases (after a migration or a copy).
    void recountLoad();

    // False if (lease, sequence) was already recorded: the report is a repeat.
    bool insertReport(std::int64_t leaseId, std::int64_t sequence, std::int64_t pairs, std::int64_t nowMs);
    // Throws if a pair index of the test was already counted (a defence against double counting).
    void insertPairs(std::int64_t testId, std::int64_t leaseId, const std::vector<PairRow>& pairs);
    std::int64_t countPairs(std::int64_t testId);

    // Adds to the worker's row of the test and returns the row as it now is (without the worker's name).
    WorkerTestRow addWorkerTestStats(std::int64_t testId, std::int64_t workerId, std::int64_t games,
                                     const FailureCounts& f);
    // The test's rows of every worker, or of one (workerId > 0).
    std::vector<WorkerTestRow> workerTestStats(std::int64_t testId, std::int64_t workerId = 0);
    std::unordered_map<std::int64_t, WorkerTotals> workerTotals();
    void setSuspended(std::int64_t testId, std::int64_t workerId);
    bool isSuspended(std::int64_t testId, std::int64_t workerId);

    // Web view sessions (store_sessions.cpp), by the hash of their id. Saving one first removes the
    // expired sessions, then the oldest while `maxSessions` or more are left.
    struct WebSessionRow {
        TokenRow token;
        std::string csrf;
        std::int64_t expiresMs = 0;
    };
    void saveWebSession(const std::string& idHash, std::int64_t tokenId, const std::string& csrf,
                        std::int64_t expiresMs, std::int64_t nowMs, std::int64_t maxSessions);
    // The session and its token, unless it is unknown or expired at `nowMs`.
    std::optional<WebSessionRow> findWebSession(const std::string& idHash, std::int64_t nowMs);
    void deleteWebSession(const std::string& idHash);

    // An event that repeats one of the test's 20 latest word for word is not stored again: that one
    // counts it ("... (x12)") and moves to the end with its time.
    void addEvent(std::int64_t testId, std::int64_t nowMs, const std::string& text);
    std::vector<std::string> events(std::int64_t testId, int limit = 100);

  private:
    void migrate();
    Database db_;
    int versionAtOpen_ = 0;
};

}  // namespace xq::coord
