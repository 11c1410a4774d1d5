#include "coordinator.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <filesystem>

#include "data_chunk.h"
#include "datagen_kind.h"
#include "match_kind.h"
#include "sprt.h"
#include "spsa_kind.h"
#include "training_kind.h"

namespace xq::coord {

v1::TestState toProto(TestState s) {
    switch (s) {
        case TestState::Running:
            return v1::TEST_STATE_RUNNING;
        case TestState::Finished:
            return v1::TEST_STATE_FINISHED;
        case TestState::Stopped:
            return v1::TEST_STATE_STOPPED;
        case TestState::Pending:
            return v1::TEST_STATE_PENDING;
        case TestState::Failed:
            return v1::TEST_STATE_FAILED;
    }
    return v1::TEST_STATE_UNSPECIFIED;
}

void fillFailures(v1::Failures* out, const FailureCounts& f) {
    out->set_crashes(std::uint64_t(f.crashes));
    out->set_time_losses(std::uint64_t(f.timeLosses));
    out->set_illegal_moves(std::uint64_t(f.illegalMoves));
    out->set_stalls(std::uint64_t(f.stalls));
}

v1::TestSpec Coordinator::parseSpec(const TestRow& t) {
    v1::TestSpec spec;
    if (!spec.ParseFromString(t.spec))
        fail(ErrorCode::FailedPrecondition, "test " + std::to_string(t.id) + " has a corrupt spec");
    return spec;
}

Coordinator::Coordinator(CoordinatorOptions options)
    : options_(std::move(options)),
      store_((std::filesystem::create_directories(options_.dataDir), storeAddress())),
      data_(store_.db()),
      webhooks_(store_.db()),
      runs_(store_.db()),
      games_(store_.db()),
      chunkFiles_(options_.dataDir),
      artifacts_(options_.dataDir + "/artifacts"),
      limiter_(options_.requestsPerSecondPerToken, options_.requestBurstPerToken),
      shared_(store_.db().dialect() == Dialect::Postgres) {
    kinds_.push_back(std::make_unique<MatchKind>(host_));
    match_ = kinds_.back().get();
    kinds_.push_back(std::make_unique<DatagenKind>(host_));
    datagen_ = kinds_.back().get();
    kinds_.push_back(std::make_unique<SpsaKind>(host_));
    spsa_ = kinds_.back().get();
    kinds_.push_back(std::make_unique<TrainingKind>(host_));
    training_ = kinds_.back().get();
    if (options_.heartbeatSeconds <= 0)
        options_.heartbeatSeconds = std::max(1, options_.leaseTimeoutSeconds / 4);
    // Leases survive a restart. The coordinator being down was not the workers' fault: give every active
    // lease a full timeout from now to reach us again (on a shared store, those whose deadline passed).
    std::int64_t now = nowMs();
    if (shared_) {
        Transaction tx(store_.db());
        store_.extendOverdueLeases(now, now + std::int64_t(options_.leaseTimeoutSeconds) * 1000);
        tx.commit();
    } else {
        for (const auto& lease : store_.leases(LeaseState::Active))
            deadlines_[lease.id] = {now + std::int64_t(options_.leaseTimeoutSeconds) * 1000, lease.workerId};
    }
    for (const auto& w : store_.listWorkers()) {
        lastSeen_[w.id] = w.lastSeenMs;
        workerNps_[w.id] = w.engineNps;
        workerToken_[w.id] = w.tokenId;
    }
    // Tests created before the submitter (schema 4) and the ladder (5) had columns of their own: copied
    // out of their specs once, when the store was migrated.
    if (store_.versionAtOpen() < 5) {
        Transaction tx(store_.db());
        for (const auto& [id, bytes] : store_.testSpecs()) {
            v1::TestSpec spec;
            if (!spec.ParseFromString(bytes)) continue;
            if (!spec.submitter().empty()) store_.setSubmitter(id, spec.submitter());
            if (!spec.ladder().empty()) store_.setLadder(id, spec.ladder());
        }
        tx.commit();
    }
    // Other replicas' new work reaches this one's waiting job requests through PostgreSQL's NOTIFY.
    if (shared_) {
        // LISTEN before the constructor returns: no submission after it goes unheard.
        auto first = std::make_shared<Database>(storeAddress());
        first->waitForNotify("xq_work", 0);
        listener_ = std::thread([this, address = storeAddress(), first] {
            std::shared_ptr<Database> db = first;
            while (!listenerStop_) {
                try {
                    if (!db) db = std::make_shared<Database>(address);
                    if (db->waitForNotify("xq_work", 250)) bumpWork();
                } catch (const std::exception&) {
                    db.reset();  // the server is away: try again shortly
                    bumpWork();  // and let waiting requests look for themselves meanwhile
                    std::this_thread::sleep_for(std::chrono::milliseconds(500));
                }
            }
        });
    }
    // A crash between writing a chunk file and recording it leaves a file nobody knows: remove it.
    // (Group commit starts after the constructor's own transactions.)
    auto paths = data_.allChunkPaths();
    chunkFiles_.removeStray({paths.begin(), paths.end()});
    purgeDiscardedChunks();
    store_.db().setGroupCommit(&group_);
}

std::string Coordinator::storeAddress() const {
    return options_.store.empty() ? options_.dataDir + "/coordinator.db" : options_.store;
}

std::int64_t Coordinator::nowMs() const {
    if (options_.clockMs) return options_.clockMs();
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string Coordinator::createToken(Role role, const std::string& name) {
    WriteLock lock(*this);
    std::string token = generateToken();
    Transaction tx(store_.db());  // durable before the token is shown (autocommits are not, on PostgreSQL)
    store_.insertToken(hashToken(token), toString(role), name, nowMs());
    tx.commit();
    return token;
}

Caller Coordinator::authenticate(const std::string& token) {
    if (token.empty())
        fail(ErrorCode::Unauthenticated, "no token given (metadata 'authorization: Bearer <token>')");
    std::string hash = hashToken(token);
    // Known tokens are answered from memory, without waiting for the store's lock (tokens are never
    // deleted, and a token's row never changes).
    std::optional<TokenRow> row;
    {
        std::lock_guard tokens(tokenMutex_);
        if (auto it = tokenCache_.find(hash); it != tokenCache_.end()) row = it->second;
    }
    if (!row) {
        {
            WriteLock lock(*this);
            row = store_.findToken(hash);
        }
        if (!row) fail(ErrorCode::Unauthenticated, "unknown token");
        std::lock_guard tokens(tokenMutex_);
        tokenCache_.emplace(hash, *row);
    }
    if (!limiter_.allow(row->id))
        fail(ErrorCode::ResourceExhausted, "too many requests for this token; slow down and retry");
    return Caller{row->id, parseRole(row->role), row->name};
}

void Coordinator::require(const Caller& caller, Role role, const char* what) {
    // An approver may do all that a user may.
    if (caller.role != role && !(role == Role::User && caller.role == Role::Approver))
        fail(ErrorCode::PermissionDenied,
             std::string("a ") + toString(caller.role) + " token cannot " + what);
}

v1::RegisterResponse Coordinator::registerWorker(const Caller& caller, const v1::RegisterRequest& req) {
    require(caller, Role::Worker, "register a worker");
    if (req.name().size() > 200 || req.version().size() > 200 || req.cpu_model().size() > 200)
        fail(ErrorCode::InvalidArgument, "worker name, version and cpu_model must be at most 200 characters");
    WriteLock lock(*this);
    WorkerRow w;
    w.tokenId = caller.tokenId;
    w.name = req.name().empty() ? "worker" : req.name();
    w.version = req.version();
    w.cpuModel = req.cpu_model();
    w.cores = req.cores();
    w.memoryMb = std::int64_t(req.memory_mb());
    w.engineNps = std::int64_t(req.engine_nps());
    w.registeredMs = w.lastSeenMs = nowMs();
    Transaction tx(store_.db());
    std::int64_t id = store_.insertWorker(w);
    tx.commit();
    workerNps_[id] = w.engineNps;
    {
        std::lock_guard clocks(clockMutex_);
        lastSeen_[id] = w.lastSeenMs;
        workerToken_[id] = w.tokenId;
    }
    v1::RegisterResponse resp;
    resp.set_worker_id(std::uint64_t(id));
    resp.set_heartbeat_seconds(std::uint32_t(options_.heartbeatSeconds));
    resp.set_lease_timeout_seconds(std::uint32_t(options_.leaseTimeoutSeconds));
    return resp;
}

v1::JobResponse Coordinator::requestJobOnce(const Caller& caller, const v1::JobRequest& req) {
    // Overdue pairs go back to the pool before a test is picked. On a shared store that is a query, made
    // here at most once a second per replica (the sweeper makes it too, every few seconds).
    if (!shared_ || nowMs() - lastStoreSweepMs_ >= 1000) expireLeases();
    WriteLock lock(*this);
    auto workerId = std::int64_t(req.worker_id());
    checkWorker(caller, workerId);
    workerConcurrency_[workerId] = std::int64_t(req.concurrency());

    Transaction tx(store_.db());
    // A worker asks for work only when idle: whatever it still holds was lost on its side.
    for (auto lease : store_.activeLeasesOfWorker(workerId)) {
        lease.state = LeaseState::Released;
        store_.saveLease(lease);
        forgetLease(lease.id);
        leaseEnded(lease, "was abandoned by its worker");
        workAppeared(store_.db());
    }

    std::vector<Candidate> candidates;
    struct Running {
        TestRow row;
        v1::TestSpec spec;
        TestKind* kind;
    };
    std::unordered_map<std::int64_t, Running> running;
    auto offers = [&](const char* kind) {
        return !*kind || std::find(req.kinds().begin(), req.kinds().end(), kind) != req.kinds().end();
    };
    for (auto& t : store_.listTests(true, 1000)) {
        if (store_.isSuspended(t.id, workerId)) continue;
        v1::TestSpec spec = parseSpec(t);
        TestKind& kind = kindOf(spec);
        if (!offers(kind.workerKind())) continue;  // a worker older than this kind of job
        Candidate c;
        c.testId = t.id;
        c.priority = spec.priority();
        c.throughput = spec.throughput() > 0 ? spec.throughput() : 1;
        c.activeCores = t.activeCores;
        c.pairsAvailable = kind.available(t, spec);
        candidates.push_back(c);
        running.emplace(t.id, Running{std::move(t), std::move(spec), &kind});
    }
    v1::JobResponse resp;
    auto picked = pickTest(candidates);
    if (!picked) {
        tx.commit();
        resp.set_retry_after_seconds(std::uint32_t(std::max(1, options_.heartbeatSeconds)));
        return resp;
    }
    Running& test = running.at(*picked);
    LeaseAsk ask{workerId, std::int64_t(req.concurrency()), workerNps_[workerId],
                 std::max<std::int64_t>(1, req.training_threads())};
    test.kind->lease(test.row, test.spec, ask, resp);
    tx.commit();
    if (resp.has_job()) ++metrics_.leaseGrants;
    return resp;
}

void Coordinator::startLease(LeaseRow& lease) {
    std::int64_t now = nowMs();
    lease.id =
        store_.insertLease(lease, shared_ ? now + std::int64_t(options_.leaseTimeoutSeconds) * 1000 : 0);
    if (!shared_) keepLease(lease.id, lease.workerId, now);
}

TestKind& Coordinator::kindOf(const v1::TestSpec& spec) {
    switch (spec.kind_case()) {
        case v1::TestSpec::kMatch:
            return *match_;
        case v1::TestSpec::kDatagen:
            return *datagen_;
        case v1::TestSpec::kSpsa:
            return *spsa_;
        case v1::TestSpec::kTraining:
            return *training_;
        case v1::TestSpec::KIND_NOT_SET:
            break;
    }
    fail(ErrorCode::InvalidArgument, "test spec has no kind (match, datagen or spsa)");
}

void Coordinator::Host::checkArtifact(const std::string& sha, const std::string& what, bool optional) {
    if (sha.empty() && optional) return;
    if (!isSha256Hex(sha))
        fail(ErrorCode::InvalidArgument, what + " must be an artifact hash (64 lowercase hex digits)");
    if (!c_.store_.hasArtifact(sha) || !c_.artifacts_.contains(sha))
        fail(ErrorCode::InvalidArgument, what + " " + sha + " has not been uploaded");
}

bool Coordinator::leaseEnded(const LeaseRow& lease, const char* how, const std::string& error) {
    auto test = store_.findTest(lease.testId);
    if (!test) return false;
    v1::TestSpec spec = parseSpec(*test);
    return kindOf(spec).leaseEnded(lease, how, error);
}

std::optional<std::string> Coordinator::leaseStopReason(const LeaseRow& lease) {
    if (lease.state == LeaseState::Active) return std::nullopt;
    auto test = store_.findTest(lease.testId);
    if (test && test->state != TestState::Running)
        return "test " + std::to_string(test->id) + " is " + toString(test->state) +
               (test->result.empty() ? "" : ": " + test->result);
    if (store_.isSuspended(lease.testId, lease.workerId)) return "worker suspended from this test";
    return "lease " + std::to_string(lease.id) + " is " + toString(lease.state);
}

LeaseRow Coordinator::leaseOfWorker(const Caller& caller, std::int64_t workerId, std::int64_t leaseId) {
    checkWorker(caller, workerId);
    auto lease = store_.findLease(leaseId);
    if (!lease) fail(ErrorCode::NotFound, "unknown lease " + std::to_string(leaseId));
    if (lease->workerId != workerId)
        fail(ErrorCode::PermissionDenied, "lease " + std::to_string(leaseId) + " belongs to another worker");
    return *lease;
}

v1::HeartbeatResponse Coordinator::heartbeat(const Caller& caller, const v1::HeartbeatRequest& req) {
    require(caller, Role::Worker, "send heartbeats");
    v1::HeartbeatResponse resp;
    // The common case on one coordinator, an active lease of this worker, needs neither the store nor its
    // lock: a heartbeat never waits behind a commit.
    if (req.lease_id() != 0 &&
        heartbeatFromMemory(caller, std::int64_t(req.worker_id()), std::int64_t(req.lease_id())))
        return resp;
    WriteLock lock(*this);
    checkWorker(caller, std::int64_t(req.worker_id()));
    if (req.lease_id() == 0) return resp;
    // The common case, an active lease of this worker, is answered from memory (on a shared store, by one
    // UPDATE that finds the lease active).
    std::int64_t deadline = nowMs() + std::int64_t(options_.leaseTimeoutSeconds) * 1000;
    if (shared_) {
        if (store_.refreshLeaseDeadline(std::int64_t(req.lease_id()), std::int64_t(req.worker_id()),
                                        deadline))
            return resp;
    }
    LeaseRow lease = leaseOfWorker(caller, std::int64_t(req.worker_id()), std::int64_t(req.lease_id()));
    if (auto reason = leaseStopReason(lease)) {
        resp.set_command(v1::LEASE_STOP);
        resp.set_reason(*reason);
        return resp;
    }
    keepLease(lease.id, lease.workerId, nowMs());
    resp.set_command(v1::LEASE_CONTINUE);
    return resp;
}

v1::ReportResponse Coordinator::report(const Caller& caller, const v1::ReportRequest& req) {
    require(caller, Role::Worker, "report results");
    if (req.sequence() < 1) fail(ErrorCode::InvalidArgument, "report sequence numbers start at 1");
    if (req.pairs_size() == 0) fail(ErrorCode::InvalidArgument, "a report must hold at least one pair");
    std::vector<PairRow> pairs;
    std::array<std::int64_t, 5> penta{};
    std::array<std::int64_t, 3> wdl{};
    for (int i = 0; i < req.pairs_size(); ++i) {
        const auto& p = req.pairs(i);
        std::string where = "pair " + std::to_string(i) + " (index " + std::to_string(p.pair_index()) + ")";
        if (p.penta_index() > 4) fail(ErrorCode::InvalidArgument, where + ": penta_index must be 0..4");
        if (p.wins() + p.draws() + p.losses() != 2)
            fail(ErrorCode::InvalidArgument, where + ": wins + draws + losses must be 2 (one pair)");
        if (2 * p.wins() + p.draws() != p.penta_index())
            fail(ErrorCode::InvalidArgument, where + ": game results do not add up to its penta_index");
        pairs.push_back({std::int64_t(p.pair_index()), int(p.penta_index())});
        penta[p.penta_index()]++;
        wdl[0] += p.wins(), wdl[1] += p.draws(), wdl[2] += p.losses();
    }
    FailureCounts failures{std::int64_t(req.failures().crashes()), std::int64_t(req.failures().time_losses()),
                           std::int64_t(req.failures().illegal_moves()),
                           std::int64_t(req.failures().stalls())};
    if (failures.total() > 4 * std::int64_t(pairs.size()))
        fail(ErrorCode::InvalidArgument, "more failures reported than games could have");

    WriteLock lock(*this);
    // Everything from reading the lease on happens in the transaction: on a shared store another replica
    // may change the lease (expire it, count a copy of this report) until we hold the write lock.
    Transaction tx(store_.db());
    auto workerId = std::int64_t(req.worker_id());
    LeaseRow lease = leaseOfWorker(caller, workerId, std::int64_t(req.lease_id()));
    std::int64_t now = nowMs();
    v1::ReportResponse resp;
    auto found = store_.findTest(lease.testId);
    if (!found) fail(ErrorCode::NotFound, "lease " + std::to_string(lease.id) + " has no test");
    TestRow test = std::move(*found);  // nothing below changes its row before saveTest
    const v1::TestSpec spec = parseSpec(test);
    TestKind& kind = kindOf(spec);
    if (!kind.takesPairs())
        fail(ErrorCode::InvalidArgument, "lease " + std::to_string(lease.id) + " belongs to a " +
                                             kind.name() + " test, which takes no game results");

    if (!store_.insertReport(lease.id, std::int64_t(req.sequence()), std::int64_t(pairs.size()), now)) {
        // Already counted: the reply to the first copy was lost. Acknowledge without counting.
        resp.set_duplicate(true);
        if (auto reason = leaseStopReason(lease)) {
            resp.set_command(v1::LEASE_STOP);
            resp.set_reason(*reason);
        }
        return resp;
    }
    if (auto reason = leaseStopReason(lease))
        fail(ErrorCode::FailedPrecondition, "results not counted: " + *reason);
    if (lease.pairsDone + std::int64_t(pairs.size()) > lease.pairCount)
        fail(ErrorCode::InvalidArgument,
             "report holds more pairs than lease " + std::to_string(lease.id) + " has left");
    for (const auto& p : pairs)
        if (p.pairIndex < lease.firstPair || p.pairIndex >= lease.firstPair + lease.pairCount)
            fail(ErrorCode::InvalidArgument, "pair index " + std::to_string(p.pairIndex) +
                                                 " is outside lease " + std::to_string(lease.id));
    try {
        store_.insertPairs(lease.testId, lease.id, pairs);
    } catch (const std::runtime_error&) {
        fail(ErrorCode::InvalidArgument, "report repeats a pair that was already counted");
    }

    storeReportPgn(
        req, lease, std::int64_t(pairs.size()),
        spec.has_match() && spec.match().game() == "capturego" ? GameRecords::Sgf : GameRecords::Pgn, now);

    for (int i = 0; i < 5; ++i) test.penta[i] += penta[i];
    for (int i = 0; i < 3; ++i) test.wdl[i] += wdl[i];
    test.failures += failures;
    lease.pairsDone += std::int64_t(pairs.size());
    lease.lastSequence = std::max(lease.lastSequence, std::int64_t(req.sequence()));
    std::int64_t deadline = 0;  // a new one in the lease's row (shared store) or in memory
    if (lease.pairsDone == lease.pairCount) {
        lease.state = LeaseState::Done;
        forgetLease(lease.id);
    } else if (shared_) {
        deadline = now + std::int64_t(options_.leaseTimeoutSeconds) * 1000;
    } else {
        keepLease(lease.id, workerId, now);
    }
    store_.saveLease(lease, deadline);
    WorkerTestRow row =
        store_.addWorkerTestStats(test.id, workerId, 2 * std::int64_t(pairs.size()), failures);

    // Suspicious worker: stop its job and keep it off this test.
    if (std::string why = row.suspended
                              ? ""
                              : suspicionReason({row.games, row.failures.crashes, row.failures.timeLosses,
                                                 row.failures.illegalMoves, row.failures.stalls},
                                                options_.suspicion);
        !why.empty()) {
        store_.setSuspended(test.id, workerId);
        store_.addEvent(test.id, now, "worker " + std::to_string(workerId) + " suspended: " + why);
        if (lease.state == LeaseState::Active) {
            lease.state = LeaseState::Cancelled;
            store_.saveLease(lease);
            forgetLease(lease.id);
        }
    }

    PairTally tally{std::int64_t(pairs.size()), penta, wdl, std::int64_t(req.sequence())};
    kind.accept(test, spec, lease, tally);
    if (test.state == TestState::Running)
        if (auto result = kind.completion(test, spec)) finishTest(test, TestState::Finished, *result);
    // A report whose every game crashed is a failed lease (an engine that dies on its first search).
    countLease(test, reportFailed(2 * std::int64_t(pairs.size()), failures.crashes, failures.stalls),
               "worker " + std::to_string(workerId) + ": every game of a report crashed or stalled");
    store_.saveTest(test);
    tx.commit();
    ++metrics_.reports;
    metrics_.games += 2 * pairs.size();

    // A test that finished with this report cancelled its active leases, this one among them.
    if (test.state != TestState::Running && lease.state == LeaseState::Active)
        lease.state = LeaseState::Cancelled;
    if (auto reason = leaseStopReason(lease); reason && lease.state != LeaseState::Done) {
        resp.set_command(v1::LEASE_STOP);
        resp.set_reason(*reason);
    }
    return resp;
}

void Coordinator::storeReportPgn(const v1::ReportRequest& req, const LeaseRow& lease, std::int64_t pairs,
                                 GameRecords records, std::int64_t nowMs) {
    if (req.pgn_gz().empty() && req.pgn().empty()) return;
    try {
        std::string gz = req.pgn_gz().empty() ? gzipText(req.pgn()) : req.pgn_gz();
        checkReportPgn(gz, 2 * pairs, records);
        games_.insert(lease.id, std::int64_t(req.sequence()), lease.testId, 2 * pairs, gz);
    } catch (const std::invalid_argument& e) {  // the PGN's own fault; database errors fail the report
        ++metrics_.pgnDropped;
        store_.addEvent(lease.testId, nowMs,
                        "games of report " + std::to_string(req.sequence()) + " of lease " +
                            std::to_string(lease.id) + " (worker " + std::to_string(lease.workerId) +
                            ") not kept: " + std::string(e.what()).substr(0, 300));
    }
}

void Coordinator::finishTest(TestRow& t, TestState state, const std::string& result) {
    t.state = state;
    t.result = result;
    t.finishedMs = nowMs();
    store_.addEvent(t.id, t.finishedMs, std::string(toString(state)) + ": " + result);
    cancelLeasesOf(t.id);
    v1::TestSpec spec;
    if (spec.ParseFromString(t.spec)) {
        queueWebhooks(t.id, spec,
                      state == TestState::Finished ? WebhookEvent::Finish : WebhookEvent::Failure);
        // A run's next step is made in this transaction, so that it and this test's end commit together.
        if (spec.has_run()) runTestEnded(t, spec);
    }
}

void Coordinator::cancelLeasesOf(std::int64_t testId) {
    for (auto lease : store_.leases(LeaseState::Active, testId)) {
        lease.state = LeaseState::Cancelled;
        store_.saveLease(lease);
        forgetLease(lease.id);
        leaseEnded(lease, "was cancelled");
    }
}

void Coordinator::release(const Caller& caller, const v1::ReleaseRequest& req) {
    require(caller, Role::Worker, "release leases");
    WriteLock lock(*this);
    Transaction tx(store_.db());
    LeaseRow lease = leaseOfWorker(caller, std::int64_t(req.worker_id()), std::int64_t(req.lease_id()));
    const bool active = lease.state == LeaseState::Active;
    if (active) {
        lease.state = LeaseState::Released;
        store_.saveLease(lease);
        forgetLease(lease.id);
        leaseEnded(lease, "was handed back", req.error());
        workAppeared(store_.db());
    }
    if (!req.error().empty()) {
        store_.addEvent(
            lease.testId, nowMs(),
            "worker " + std::to_string(lease.workerId) + " could not play: " + req.error().substr(0, 2000));
        TestRow test = *store_.findTest(lease.testId);
        // A lease that could not be played (an engine that does not start) counts as a crash of the test
        // and of the worker, as an engine that dies in a game does.
        if (active) {
            const FailureCounts crash{1, 0, 0, 0};
            test.failures += crash;
            store_.addWorkerTestStats(test.id, lease.workerId, 0, crash);
        }
        // A worker that could not play may have been handed an artifact that no longer matches its hash:
        // then every worker would fail the same way, so the test fails and says which one. So does a test
        // whose source does not build. Otherwise it is one more failed lease in a row: a test whose engine
        // does not start fails after a few instead of being handed out forever.
        if (test.state == TestState::Running) {
            if (req.stop_test())
                finishTest(test, TestState::Failed, req.error().substr(0, 300));
            else if (std::string damaged = damagedArtifact(parseSpec(test)); !damaged.empty())
                finishTest(test, TestState::Failed, damaged + "; upload it again and resubmit the test");
            else if (active)
                countLease(test, true, "worker " + std::to_string(lease.workerId) + ": " + req.error());
        }
        store_.saveTest(test);
    }
    tx.commit();
}

std::string Coordinator::damagedArtifact(const v1::TestSpec& spec) const {
    for (const auto& [what, sha] : const_cast<Coordinator*>(this)->kindOf(spec).artifacts(spec))
        if (std::string damage = artifacts_.damage(sha); !damage.empty())
            return what + " " + sha + " " + damage;
    return {};
}

int Coordinator::expireLeases() {
    std::int64_t now = nowMs();
    std::vector<std::int64_t> overdue;
    // On one coordinator the deadlines are in memory: nothing overdue needs no write lock.
    auto overdueInMemory = [&] {
        std::lock_guard clocks(clockMutex_);
        for (const auto& [id, clock] : deadlines_)
            if (clock.deadlineMs < now) overdue.push_back(id);
    };
    if (!shared_) {
        overdueInMemory();
        if (overdue.empty()) return 0;
        overdue.clear();
    }
    WriteLock lock(*this);
    now = nowMs();
    if (shared_) {
        overdue = store_.overdueLeases(now);
        lastStoreSweepMs_ = now;
    } else {
        overdueInMemory();
    }
    if (overdue.empty()) return 0;
    // Each lease is read again under the write lock: of replicas that both saw it overdue, one expires it.
    Transaction tx(store_.db());
    for (auto id : overdue) {
        forgetLease(id);
        auto lease = store_.findLease(id);
        if (!lease || lease->state != LeaseState::Active) continue;
        lease->state = LeaseState::Expired;
        store_.saveLease(*lease);
        ++metrics_.leaseExpiries;
        if (leaseEnded(*lease, "expired")) continue;
        store_.addEvent(lease->testId, now,
                        "lease " + std::to_string(id) + " of worker " + std::to_string(lease->workerId) +
                            " expired; " + std::to_string(lease->pairCount - lease->pairsDone) +
                            " unplayed pairs returned");
    }
    workAppeared(store_.db());
    tx.commit();
    return int(overdue.size());
}

std::string Coordinator::artifactPath(const std::string& sha256) {
    if (!isSha256Hex(sha256))
        fail(ErrorCode::InvalidArgument, "artifact hash must be 64 lowercase hex digits");
    if (!artifacts_.contains(sha256)) fail(ErrorCode::NotFound, "no artifact " + sha256);
    return artifacts_.pathOf(sha256);
}

std::unique_ptr<ArtifactStore::Upload> Coordinator::beginUpload(const Caller& caller,
                                                                const std::string& sha256,
                                                                std::uint64_t size) {
    require(caller, Role::User, "upload artifacts");
    try {
        return std::make_unique<ArtifactStore::Upload>(artifacts_, sha256, size, options_.maxArtifactBytes);
    } catch (const std::invalid_argument& e) {
        fail(ErrorCode::InvalidArgument, e.what());
    }
}

void Coordinator::artifactUploaded(const std::string& sha256, std::uint64_t size, const std::string& name,
                                   const std::string& kind) {
    checkArtifactKind(kind, sha256);
    WriteLock lock(*this);
    Transaction tx(store_.db());
    store_.insertArtifact(sha256, std::int64_t(size), name.substr(0, 200), nowMs());
    if (!kind.empty()) store_.setArtifactKind(sha256, kind);
    tx.commit();
}

void Coordinator::checkArtifactKind(const std::string& kind, const std::string& sha256) const {
    if (!isArtifactKind(kind))
        fail(ErrorCode::InvalidArgument,
             "artifact kind must be empty, 'engine', 'weights', 'openings' or 'net', got '" +
                 kind.substr(0, 50) + "'");
    if (!sha256.empty())
        if (std::string problem = artifactProblem(kind, artifacts_.pathOf(sha256)); !problem.empty())
            fail(ErrorCode::InvalidArgument, "artifact " + sha256.substr(0, 12) + " is " + problem);
}

void Coordinator::markArtifactKind(const Caller& caller, const std::string& sha256, const std::string& kind) {
    require(caller, Role::User, "upload artifacts");
    checkArtifactKind(kind, sha256);
    if (kind.empty()) return;
    WriteLock lock(*this);
    Transaction tx(store_.db());
    store_.setArtifactKind(sha256, kind);
    tx.commit();
}

bool Coordinator::hasArtifact(const std::string& sha256) {
    WriteLock lock(*this);
    return store_.hasArtifact(sha256) && artifacts_.contains(sha256);
}

void Coordinator::checkCommonSpec(const v1::TestSpec& spec) {
    auto bad = [](const std::string& m) { fail(ErrorCode::InvalidArgument, m); };
    if (std::int64_t(spec.games()) > options_.maxFixedGames)
        bad("games must be at most " + std::to_string(options_.maxFixedGames));
    if (spec.throughput() < 0 || !std::isfinite(spec.throughput()))
        bad("throughput must be a positive number");
    if (spec.description().size() > 1000) bad("description must be at most 1000 characters");
    if (spec.ladder().size() > 100 || !std::all_of(spec.ladder().begin(), spec.ladder().end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
        }))
        bad("ladder name must be at most 100 letters, digits, '-', '_' or '.', got '" +
            spec.ladder().substr(0, 100) + "'");
}

v1::SubmitResponse Coordinator::submit(const Caller& caller, const v1::SubmitRequest& req) {
    require(caller, Role::User, "submit tests");
    if (req.spec().has_run())
        fail(ErrorCode::InvalidArgument, "run: only the coordinator marks a run's tests");
    if (req.spec().has_training())
        fail(ErrorCode::InvalidArgument, "training: training tests are made by runs (xq submit run)");
    WriteLock lock(*this);
    Transaction tx(store_.db());
    // Without the approver role a user's test waits until an approver releases it (what it would run is
    // any binary on every worker).
    bool pending = options_.requireApproval && caller.role != Role::Approver;
    std::int64_t id = createTest(caller, req.spec(), pending);
    tx.commit();
    v1::SubmitResponse resp;
    resp.set_test_id(std::uint64_t(id));
    resp.set_state(toProto(pending ? TestState::Pending : TestState::Running));
    return resp;
}

std::int64_t Coordinator::createTest(const Caller& caller, v1::TestSpec spec, bool pending) {
    TestKind& kind = kindOf(spec);
    checkCommonSpec(spec);
    checkWebhooks(caller, spec);
    spec.set_submitter(caller.name);
    std::vector<std::string> notes;
    std::int64_t id = kind.create(spec, notes);
    store_.setSubmitter(id, caller.name);
    if (!spec.ladder().empty()) store_.setLadder(id, spec.ladder());
    store_.addEvent(
        id, nowMs(),
        (spec.has_run() ? "made by run " + std::to_string(spec.run().run_id()) + " of " : "submitted by ") +
            (caller.name.empty() ? "token " + std::to_string(caller.tokenId) : caller.name));
    for (const auto& note : notes) store_.addEvent(id, nowMs(), note);
    // Networks are listed with the tests that named them; an artifact stored without a kind takes the one
    // its first test gives it, so that the submit form offers it where it belongs.
    for (const auto& [what, sha] : kind.artifacts(spec)) {
        if (std::string artifactKind = artifactKindOfRole(what); !artifactKind.empty())
            store_.setArtifactKind(sha, artifactKind);
        if (what.ends_with(" network")) store_.insertTestArtifact(id, sha, what);
    }
    if (pending) {
        store_.setTestState(id, TestState::Pending);
        store_.addEvent(id, nowMs(), "waiting for an approver (xq approve " + std::to_string(id) + ")");
    } else {
        queueWebhooks(id, spec, WebhookEvent::Start);
        workAppeared(store_.db());
    }
    return id;
}

v1::StopTestResponse Coordinator::stopTest(const Caller& caller, const v1::StopTestRequest& req) {
    require(caller, Role::User, "stop tests");
    WriteLock lock(*this);
    auto t = store_.findTest(std::int64_t(req.test_id()));
    if (!t) fail(ErrorCode::NotFound, "no test " + std::to_string(req.test_id()));
    if (t->state == TestState::Running || t->state == TestState::Pending) {
        Transaction tx(store_.db());
        finishTest(*t, TestState::Stopped,
                   req.reason().empty() ? "stopped by a user" : req.reason().substr(0, 200));
        store_.saveTest(*t);
        tx.commit();
    }
    v1::StopTestResponse resp;
    resp.set_state(toProto(t->state));
    return resp;
}

v1::ApproveTestResponse Coordinator::approveTest(const Caller& caller, const v1::ApproveTestRequest& req) {
    if (caller.role != Role::Approver)
        fail(ErrorCode::PermissionDenied, std::string("a ") + toString(caller.role) +
                                              " token cannot approve tests (an approver token can)");
    if (req.reason().size() > 500) fail(ErrorCode::InvalidArgument, "reason must be at most 500 characters");
    WriteLock lock(*this);
    Transaction tx(store_.db());
    auto t = store_.findTest(std::int64_t(req.test_id()));
    if (!t) fail(ErrorCode::NotFound, "no test " + std::to_string(req.test_id()));
    if (t->state != TestState::Pending)
        fail(ErrorCode::FailedPrecondition,
             "test " + std::to_string(t->id) + " is " + toString(t->state) + ", not waiting for approval");
    const std::string who = caller.name.empty() ? "token " + std::to_string(caller.tokenId) : caller.name;
    if (req.reject()) {
        finishTest(*t, TestState::Stopped,
                   "rejected by " + who + (req.reason().empty() ? "" : ": " + req.reason()));
        store_.saveTest(*t);
    } else {
        t->state = TestState::Running;
        store_.setTestState(t->id, TestState::Running);
        store_.addEvent(t->id, nowMs(),
                        "approved by " + who + (req.reason().empty() ? "" : ": " + req.reason()));
        v1::TestSpec spec;
        if (spec.ParseFromString(t->spec)) queueWebhooks(t->id, spec, WebhookEvent::Start);
        workAppeared(store_.db());
    }
    tx.commit();
    v1::ApproveTestResponse resp;
    resp.set_state(toProto(t->state));
    return resp;
}

v1::CreateTokenResponse Coordinator::createTokenFor(const Caller& caller, const v1::CreateTokenRequest& req) {
    require(caller, Role::User, "create tokens");
    Role role;
    try {
        role = parseRole(req.role().empty() ? "worker" : req.role());
    } catch (const std::invalid_argument& e) {
        fail(ErrorCode::InvalidArgument, e.what());
    }
    if (role != Role::Worker)
        fail(ErrorCode::PermissionDenied,
             "user tokens are created with the admin command on the coordinator host");
    v1::CreateTokenResponse resp;
    resp.set_token(createToken(role, req.name().substr(0, 200)));
    return resp;
}

}  // namespace xq::coord
