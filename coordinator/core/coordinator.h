// The coordinator's logic in plain C++: authentication, test submission, leasing, reports, SPRT
// updates, lease expiry, suspicious workers. The gRPC services (service.h) only translate calls to and
// from this class, so everything here is testable without a network. Thread-safe: one mutex guards the
// store, which serialises writes the way SQLite would anyway. Several coordinators (replicas) may share
// one PostgreSQL store: their write transactions take turns (database.h), and nothing a decision needs is
// kept only in one replica's memory.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "artifact_check.h"
#include "artifacts.h"
#include "auth.h"
#include "chunk_files.h"
#include "coordinator_options.h"
#include "data_store.h"
#include "errors.h"
#include "game_store.h"
#include "metrics.h"
#include "net_file.h"
#include "report_games.h"
#include "run_store.h"
#include "scheduler.h"
#include "sprt.h"
#include "store.h"
#include "test_kind.h"
#include "webhook.h"
#include "webhook_store.h"
#include "xq/v1/coordinator.pb.h"
#include "xq/v1/datagen.pb.h"
#include "xq/v1/run.pb.h"

namespace xq::tuner {
struct LabeledPosition;
}

namespace xq::coord {

namespace v1 = ::xq::v1;

v1::TestState toProto(TestState s);
void fillFailures(v1::Failures* out, const FailureCounts& f);

struct Caller {
    std::int64_t tokenId = 0;
    Role role = Role::User;
    std::string name;
};

class Coordinator {
  public:
    explicit Coordinator(CoordinatorOptions options);
    ~Coordinator();

    const CoordinatorOptions& options() const { return options_; }
    // The SQLite file or PostgreSQL URL the store opens (a second connection opens the same).
    std::string storeAddress() const;
    std::int64_t nowMs() const;

    // The admin path (`xq-coordinator token create`): no caller, any role.
    std::string createToken(Role role, const std::string& name);
    // Throws Unauthenticated for an unknown token, ResourceExhausted over the rate limit.
    Caller authenticate(const std::string& token);
    // Throws PermissionDenied unless the caller has the role.
    static void require(const Caller& caller, Role role, const char* what);

    // Worker side.
    v1::RegisterResponse registerWorker(const Caller& caller, const v1::RegisterRequest& req);
    v1::JobResponse requestJob(const Caller& caller, const v1::JobRequest& req);
    v1::HeartbeatResponse heartbeat(const Caller& caller, const v1::HeartbeatRequest& req);
    v1::ReportResponse report(const Caller& caller, const v1::ReportRequest& req);
    void release(const Caller& caller, const v1::ReleaseRequest& req);
    // Path of a stored artifact; throws NotFound.
    std::string artifactPath(const std::string& sha256);

    // User side.
    std::unique_ptr<ArtifactStore::Upload> beginUpload(const Caller& caller, const std::string& sha256,
                                                       std::uint64_t size);
    // Records a finished upload (the file is already in place); `kind` is "" or one of artifact_check.h's,
    // and the file must pass artifactProblem, else InvalidArgument and nothing is recorded.
    void artifactUploaded(const std::string& sha256, std::uint64_t size, const std::string& name,
                          const std::string& kind = "");
    // An upload of an artifact already stored may still say what it is.
    void markArtifactKind(const Caller& caller, const std::string& sha256, const std::string& kind);
    bool hasArtifact(const std::string& sha256);
    v1::SubmitResponse submit(const Caller& caller, const v1::SubmitRequest& req);
    v1::ListTestsResponse listTests(const v1::ListTestsRequest& req);
    v1::TestView showTest(std::int64_t testId);
    // A submitter (or anyone with a user token) may stop a running or pending test.
    v1::StopTestResponse stopTest(const Caller& caller, const v1::StopTestRequest& req);
    // Approver tokens only: a pending test runs, or ends stopped as rejected.
    v1::ApproveTestResponse approveTest(const Caller& caller, const v1::ApproveTestRequest& req);
    // Any user token: a failed test runs again, its count of failed leases restarted (FailedPrecondition
    // for a test in another state).
    v1::ResumeTestResponse resumeTest(const Caller& caller, const v1::ResumeTestRequest& req);
    v1::ListWorkersResponse listWorkers();
    v1::CreateTokenResponse createTokenFor(const Caller& caller, const v1::CreateTokenRequest& req);

    // Webhooks (coordinator_webhooks.cpp). The caller's signing secret; a user's tests name webhooks only
    // once it is set (InvalidArgument for a short one).
    void setWebhookSecret(const Caller& caller, const std::string& secret);
    // For the sender (coordinator/webhooks/): the deliveries due now, each claimed for a minute, with the
    // owner's secret; the body once built; and how an attempt went (tried again after
    // options().webhookRetryMs, doubling, until options().webhookAttempts).
    struct WebhookJob {
        WebhookDeliveryRow delivery;
        std::string secret;
    };
    std::vector<WebhookJob> claimWebhookDeliveries(int limit);
    void setWebhookBody(std::int64_t deliveryId, const std::string& body);
    void webhookAttempted(const WebhookDeliveryRow& delivery, bool delivered, int httpStatus,
                          const std::string& error);
    // Wakes the sender when a delivery is queued (set by it, and emptied when it stops: nobody to wake).
    void onWebhookQueued(std::function<void()> wake) {
        std::lock_guard lock(mutex_);  // queueWebhooks calls it under mutex_ too
        webhookWake_ = std::move(wake);
    }

    // Expires leases whose heartbeat is overdue; their unplayed pairs return to the pool. Returns how many.
    int expireLeases();

    // Long polls (JobRequest.wait_seconds): work may have appeared (a test submitted, pairs handed back, a
    // benchmark asked for), so job requests waiting for work try again. On a shared store, `db` (in the
    // transaction that made the work) also tells the other replicas, by PostgreSQL NOTIFY.
    void workAppeared(Database& db);
    // Answers every waiting job request now and stops waiting (the server is shutting down).
    void stopWaiting();
    // Job requests waiting for work now.
    int waitingJobRequests();

    // Datagen tests (datagen_jobs.cpp). Worker side: store one chunk of a leased slice (idempotent per
    // lease and sequence), then report the slice complete.
    v1::DataChunkAck uploadChunk(const Caller& caller, const v1::DataChunkUpload& req);
    v1::CompleteSliceResponse completeSlice(const Caller& caller, const v1::CompleteSliceRequest& req);
    // User side: the stored chunks of a test, and one chunk's file for download.
    v1::ListChunksResponse listChunks(const Caller& caller, const v1::ListChunksRequest& req);
    struct ChunkFile {
        std::string path, sha256;
        std::uint64_t bytes = 0;
    };
    ChunkFile chunkFile(const Caller& caller, std::int64_t testId, std::int64_t chunkId);
    // Removes the files of discarded chunks (slices handed out again); returns how many.
    int purgeDiscardedChunks();

    // Runs (coordinator_runs.cpp; run.proto): the network's loop of self-play, training, gate and promotion.
    // submitRun checks the spec (InvalidArgument naming what is wrong) and starts generation 1's self-play
    // in the same transaction. The steps after that are made by the transactions that finish a run's tests.
    v1::SubmitRunResponse submitRun(const Caller& caller, const v1::SubmitRunRequest& req);
    // Newest first (running first).
    v1::ListRunsResponse listRuns(const v1::ListRunsRequest& req);
    // NotFound for an unknown run.
    v1::RunView showRun(std::int64_t runId);
    // Stops a running run and its running test (FailedPrecondition unless running).
    v1::RunStateResponse stopRun(const Caller& caller, const v1::StopRunRequest& req);
    // A stopped or failed run continues: its step's test runs again (resumed, or made anew when it was
    // stopped or failed).
    v1::RunStateResponse resumeRun(const Caller& caller, const v1::ResumeRunRequest& req);
    v1::RunStateResponse setRunPriority(const Caller& caller, const v1::SetRunPriorityRequest& req);
    // A training lease's upload (TrainingService): the first message's header is checked (the caller's active
    // training lease, a known kind, a size within the limit) before any byte is received; after the bytes
    // are in the artifact store, a checkpoint becomes the test's resume point and a network (checked with
    // the engine's reader) ends the test.
    std::unique_ptr<ArtifactStore::Upload> beginTrainingUpload(const Caller& caller,
                                                               const v1::TrainingFileChunk& header);
    v1::TrainingFileAck trainingFileUploaded(const Caller& caller, const v1::TrainingFileChunk& header);

    // The web view's reads (coordinator_views.cpp).
    struct TestQuery {
        std::string state;      // "", "running", "finished" or "stopped"
        std::string submitter;  // "": anyone
        std::int64_t offset = 0;
        std::int64_t limit = 50;  // at most 500
    };
    struct TestPage {
        std::vector<v1::TestView> tests;  // summary and spec only; running first, then newest first
        std::int64_t total = 0;           // tests matching the query
    };
    TestPage listTestsPage(const TestQuery& query);
    // The tests of a ladder (TestSpec.ladder), oldest first: summary and spec.
    std::vector<v1::TestView> ladderTests(const std::string& ladder);
    // Every ladder's name and number of tests, by name.
    std::vector<std::pair<std::string, std::int64_t>> ladders();
    // The test's results after each report in the order they arrived, thinned to at most `maxPoints`
    // (the last always kept): games, LLR (SPRT tests) and Elo with its 95% half-width.
    struct HistoryPoint {
        std::int64_t games = 0;
        double llr = 0, elo = 0, eloError = 0;
    };
    std::vector<HistoryPoint> testHistory(std::int64_t testId, std::size_t maxPoints = 400);
    GameTotals gameTotals(std::int64_t testId);
    GameStore::Page gamesPage(std::int64_t testId, std::int64_t cursor, std::size_t maxBytes = 1 << 20);
    // Names of the stored artifacts, newest first (for the submit form; kind "net": the networks), each
    // with the tests that named it (testIds is filled for kind "net" and by findArtifact only).
    struct ArtifactInfo {
        std::string sha256, name;
        std::int64_t size = 0, createdMs = 0;
        std::string kind;
        std::vector<std::int64_t> testIds;
    };
    std::vector<ArtifactInfo> listArtifacts(int limit = 200, const std::string& kind = "");
    // One artifact by hash: InvalidArgument for a malformed hash, NotFound for an unknown one.
    ArtifactInfo findArtifact(const std::string& sha256);
    v1::ListArtifactsResponse listArtifacts(const v1::ListArtifactsRequest& req);
    // Web view sessions, kept in the store so that a login holds on every replica (web_sessions.cpp).
    void saveWebSession(const std::string& idHash, std::int64_t tokenId, const std::string& csrf,
                        std::int64_t expiresMs, std::int64_t maxSessions);
    std::optional<Store::WebSessionRow> findWebSession(const std::string& idHash);
    void endWebSession(const std::string& idHash);
    Gauges gauges();
    Metrics& metrics() { return metrics_; }

    // For tests and benches: direct access to the store (take no lock; only when no calls run
    // concurrently). Group commit ends here, so that the caller's own Transactions commit as they say.
    Store& storeForTesting() {
        store_.db().setGroupCommit(nullptr);
        return store_;
    }

  private:
    // Throws InvalidArgument for an unknown kind, or (given the hash of a stored artifact) a file that is
    // not what its kind says (artifactProblem).
    void checkArtifactKind(const std::string& kind, const std::string& sha256 = "") const;
    // Throws FailedPrecondition for a spec that no longer parses.
    static v1::TestSpec parseSpec(const TestRow& t);
    // Throws InvalidArgument when a position of an uploaded chunk is not of the test's game.
    void checkChunkGame(std::int64_t testId, const std::vector<tuner::LabeledPosition>& positions);
    v1::TestSummary summarize(const TestRow& t, const v1::TestSpec& spec);
    void finishTest(TestRow& t, TestState state, const std::string& result);
    // Checks a spec and stores its test in the caller's transaction (submit's work, and a run's steps):
    // its events, its artifacts' kinds, webhooks; returns its id. `pending`: it waits for an approver.
    std::int64_t createTest(const Caller& caller, v1::TestSpec spec, bool pending);
    // Runs (coordinator_runs.cpp): a run's test ended (finished, failed or stopped), inside finishTest's
    // transaction: the run takes its next step, or fails or stops with the test.
    void runTestEnded(const TestRow& t, const v1::TestSpec& spec);
    // The run's next test after `g`'s step ended (or the run's end); the caller saves run and generation.
    void advanceRun(RunRow& run, GenerationRow& g, const v1::RunSpec& spec, const TestRow* ended);
    std::int64_t startSelfplay(const RunRow& run, const v1::RunSpec& spec, GenerationRow& g);
    std::int64_t startTraining(const RunRow& run, const v1::RunSpec& spec, GenerationRow& g);
    std::int64_t startGate(const RunRow& run, const v1::RunSpec& spec, GenerationRow& g);
    Caller runCaller(const RunRow& run) const;
    v1::RunSummary summarizeRun(const RunRow& run);
    static v1::RunSpec parseRunSpec(const RunRow& run);
    // A lease's outcome for the test's run of failed leases (failedLeasesReason): a failed one counts, and
    // may fail a running test; one that played clears the count. The caller saves the test.
    void countLease(TestRow& test, bool failed, const std::string& lastError);
    void cancelLeasesOf(std::int64_t testId);
    // What every kind of spec must satisfy (games, throughput, description, ladder); throws InvalidArgument.
    void checkCommonSpec(const v1::TestSpec& spec);
    // The kind of a spec, by its `kind` oneof; throws InvalidArgument for a spec of no known kind.
    TestKind& kindOf(const v1::TestSpec& spec);
    // Inserts a lease and starts its clock (KindHost::startLease).
    void startLease(LeaseRow& lease);
    // The first of the test's artifacts whose stored file is missing or no longer hashes to its name, as
    // "dev engine binary <sha> is damaged ...", or empty.
    std::string damagedArtifact(const v1::TestSpec& spec) const;
    LeaseRow leaseOfWorker(const Caller& caller, std::int64_t workerId, std::int64_t leaseId);
    v1::JobResponse requestJobOnce(const Caller& caller, const v1::JobRequest& req);
    void bumpWork();
    // Gives an active lease a full timeout from `now`: in memory, or in the store when it is shared.
    void keepLease(std::int64_t leaseId, std::int64_t workerId, std::int64_t now);
    void forgetLease(std::int64_t leaseId);
    // A heartbeat for an active lease of the caller's worker, answered from memory without the store's
    // lock (one coordinator only); false when the slow path must decide.
    bool heartbeatFromMemory(const Caller& caller, std::int64_t workerId, std::int64_t leaseId);
    void checkWorker(const Caller& caller, std::int64_t workerId);
    std::optional<std::string> leaseStopReason(const LeaseRow& lease);
    // A lease ended without completing its work (expired, released, cancelled): its test's kind decides
    // what happens to the work (TestKind::leaseEnded); true when the kind recorded the event itself.
    bool leaseEnded(const LeaseRow& lease, const char* how, const std::string& error = "");
    // Keeps a report's PGN beside its results, or drops it with an event when it breaks the rules.
    void storeReportPgn(const v1::ReportRequest& req, const LeaseRow& lease, std::int64_t pairs,
                        GameRecords records, std::int64_t nowMs);

    // What the kinds of test may use of this coordinator (test_kind.h).
    class Host final : public KindHost {
      public:
        explicit Host(Coordinator& c) : c_(c) {}
        Store& store() override { return c_.store_; }
        DataStore& data() override { return c_.data_; }
        RunStore& runs() override { return c_.runs_; }
        const CoordinatorOptions& options() const override { return c_.options_; }
        std::int64_t now() const override { return c_.nowMs(); }
        void checkArtifact(const std::string& sha, const std::string& what, bool optional) override;
        std::string artifactFile(const std::string& sha) override { return c_.artifacts_.pathOf(sha); }
        void startLease(LeaseRow& lease) override { c_.startLease(lease); }
        void finishTest(TestRow& t, TestState state, const std::string& result) override {
            c_.finishTest(t, state, result);
        }

      private:
        Coordinator& c_;
    };

    CoordinatorOptions options_;
    std::mutex mutex_;
    // Writes of concurrent calls share one durable COMMIT (database.h). Every call that may write holds
    // a WriteLock instead of a plain lock on mutex_: on release it waits until what the call committed is
    // durable, and throws if it is not, so no answer goes out before its data is safe.
    GroupCommit group_{mutex_};
    class WriteLock {
      public:
        explicit WriteLock(Coordinator& c) : c_(c), lock_(c.mutex_) { GroupCommit::pendingBatch() = 0; }
        ~WriteLock() noexcept(false);
        WriteLock(const WriteLock&) = delete;
        WriteLock& operator=(const WriteLock&) = delete;

      private:
        Coordinator& c_;
        std::unique_lock<std::mutex> lock_;
    };
    Store store_;
    DataStore data_;
    WebhookStore webhooks_;
    RunStore runs_;
    std::function<void()> webhookWake_;
    // Refuses a spec's webhooks that are malformed, too many, or whose submitter has no secret.
    void checkWebhooks(const Caller& caller, const v1::TestSpec& spec);
    // Queues a delivery of `event` to each of the test's webhooks (inside the caller's transaction).
    void queueWebhooks(std::int64_t testId, const v1::TestSpec& spec, WebhookEvent event);
    GameStore games_;
    Metrics metrics_;
    ChunkFiles chunkFiles_;
    ArtifactStore artifacts_;
    RateLimiter limiter_;
    Host host_{*this};
    // One implementation per kind of test; kindOf picks one by the spec's oneof.
    std::vector<std::unique_ptr<TestKind>> kinds_;
    TestKind* match_ = nullptr;
    TestKind* datagen_ = nullptr;
    TestKind* spsa_ = nullptr;
    TestKind* training_ = nullptr;
    // A store replicas may share (PostgreSQL): lease deadlines live in it, caches of workers fill from it,
    // and every read that a write depends on happens inside the write's transaction.
    bool shared_ = false;
    std::atomic<std::int64_t> lastStoreSweepMs_{0};  // when expireLeases last read the shared store
    // Long polls: job requests wait on workCv_ until workVersion_ moves. On a shared store a thread listens
    // for other replicas' NOTIFY on a connection of its own.
    std::mutex waitMutex_;
    std::condition_variable workCv_;
    std::uint64_t workVersion_ = 0;
    int waiters_ = 0;
    bool stopWaiting_ = false;
    std::atomic<bool> listenerStop_{false};
    std::thread listener_;
    std::mutex tokenMutex_;                                 // guards tokenCache_ alone
    std::unordered_map<std::string, TokenRow> tokenCache_;  // hash -> token
    struct LeaseClock {
        std::int64_t deadlineMs;
        std::int64_t workerId;
    };
    // Active leases and when they expire: kept in memory so that heartbeats never touch the disk (after a
    // restart every active lease gets a fresh timeout anyway).
    // deadlines_, lastSeen_ and workerToken_ are guarded by clockMutex_ (taken alone, or inside mutex_), so
    // that heartbeats need not wait for the store.
    std::mutex clockMutex_;
    std::unordered_map<std::int64_t, LeaseClock> deadlines_;
    std::unordered_map<std::int64_t, std::int64_t> lastSeen_;   // worker -> last contact (ms)
    std::unordered_map<std::int64_t, std::int64_t> workerNps_;  // worker -> measured nps
    std::unordered_map<std::int64_t, std::int64_t> workerToken_;
    std::unordered_map<std::int64_t, std::int64_t> workerConcurrency_;  // worker -> last job request's
    // Charts of tests whose results have not changed since (test -> pairs counted, points).
    // A test's chart, extended by the pairs that arrived since (read after lastRowid): samples every
    // `step` pairs, the step doubling whenever the samples outgrow maxPoints.
    struct CachedHistory {
        std::int64_t lastRowid = 0, pairs = 0;
        std::size_t step = 1, maxPoints = 0;
        stats::Penta counts;
        std::vector<HistoryPoint> samples;
    };
    std::unordered_map<std::int64_t, CachedHistory> historyCache_;  // guarded by mutex_
};

}  // namespace xq::coord
