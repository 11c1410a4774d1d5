// Datagen tests on the coordinator: submission, slices leased to workers, chunk uploads stored as files,
// slice completion, and the listing and download of what is stored. The match-test half of Coordinator
// is in coordinator.cpp; both share the store, the leases and their expiry.
#include <cmath>

#include "coordinator.h"
#include "data_chunk.h"
#include "rules.h"

namespace xq::coord {

namespace {

[[noreturn]] void fail(ErrorCode code, const std::string& message) {
    throw CoordError(code, message);
}

constexpr std::uint32_t DefaultSliceGames = 50;
constexpr std::uint32_t DefaultMaxPlies = 400;
constexpr std::uint32_t DefaultChunkPositions = 2048;

std::string gameRange(const SliceRow& s) {
    return "games " + std::to_string(s.firstGame) + ".." + std::to_string(s.firstGame + s.games - 1);
}

}  // namespace

void Coordinator::validateDatagenSpec(const v1::TestSpec& spec) {
    auto bad = [](const std::string& m) { fail(ErrorCode::InvalidArgument, m); };
    const auto& d = spec.datagen();
    const auto& e = d.engine();
    if (!isSha256Hex(e.binary_sha256()))
        bad("datagen.engine.binary_sha256 must be an artifact hash (64 lowercase hex digits)");
    if (!store_.hasArtifact(e.binary_sha256()) || !artifacts_.contains(e.binary_sha256()))
        bad("datagen.engine.binary_sha256 " + e.binary_sha256() + " has not been uploaded");
    if (!e.weights_sha256().empty()) {
        if (!isSha256Hex(e.weights_sha256()))
            bad("datagen.engine.weights_sha256 must be an artifact hash (64 lowercase hex digits)");
        if (!store_.hasArtifact(e.weights_sha256()) || !artifacts_.contains(e.weights_sha256()))
            bad("datagen.engine.weights_sha256 " + e.weights_sha256() + " has not been uploaded");
    }
    if (!e.protocol().empty() && e.protocol() != "uci")
        bad("datagen.engine.protocol must be uci (self-play data speaks UCI), got '" + e.protocol() + "'");
    if (e.args_size() > 64) bad("datagen.engine.args: at most 64 arguments");
    if (d.nodes() < 1 || d.nodes() > (1ull << 40)) bad("datagen.nodes must be 1 .. 2^40");
    if (d.random_plies() > 40) bad("datagen.random_plies must be 0 .. 40");
    if (!std::isfinite(d.sample_rate()) || d.sample_rate() <= 0 || d.sample_rate() > 1)
        bad("datagen.sample_rate must be in (0, 1]");
    if (d.balanced_cp() > 100'000) bad("datagen.balanced_cp must be at most 100000");
    if (d.slice_games() > 10'000) bad("datagen.slice_games must be at most 10000");
    if (d.max_plies() > 100'000) bad("datagen.max_plies must be at most 100000");
    if (!d.rules().empty() && !parseRuleSet(d.rules()))
        bad("datagen.rules must be asian or chinese, got '" + d.rules().substr(0, 100) + "'");
    if (d.chunk_positions() > MaxChunkPositions)
        bad("datagen.chunk_positions must be at most " + std::to_string(MaxChunkPositions));
    if (spec.has_sprt()) bad("sprt: a datagen test has no SPRT; give games");
    if (spec.games() < 1) bad("games: a datagen test needs the number of games to play");
    if (std::int64_t(spec.games()) > options_.maxFixedGames)
        bad("games must be at most " + std::to_string(options_.maxFixedGames));
    std::int64_t sliceGames = d.slice_games() ? d.slice_games() : DefaultSliceGames;
    if ((std::int64_t(spec.games()) + sliceGames - 1) / sliceGames > options_.maxDatagenSlices)
        bad("games / datagen.slice_games gives more than " + std::to_string(options_.maxDatagenSlices) +
            " slices; raise slice_games");
    if (spec.throughput() < 0 || !std::isfinite(spec.throughput()))
        bad("throughput must be a positive number");
    if (spec.description().size() > 1000) bad("description must be at most 1000 characters");
}

std::int64_t Coordinator::insertDatagenTest(const v1::TestSpec& submitted) {
    // Workers get the settings spelled out, so a later change of a default never splits a test.
    v1::TestSpec spec = submitted;
    auto* d = spec.mutable_datagen();
    if (d->slice_games() == 0) d->set_slice_games(DefaultSliceGames);
    if (d->max_plies() == 0) d->set_max_plies(DefaultMaxPlies);
    if (d->chunk_positions() == 0) d->set_chunk_positions(DefaultChunkPositions);
    auto games = std::int64_t(spec.games());
    std::int64_t slices = (games + d->slice_games() - 1) / d->slice_games();
    std::int64_t id = store_.insertTest("datagen", spec.SerializeAsString(), slices, nowMs());
    data_.insertSlices(id, games, d->slice_games());
    return id;
}

std::int64_t Coordinator::datagenSlicesAvailable(const TestRow& t) {
    return data_.waitingSlices(t.id);
}

void Coordinator::leaseSlice(const TestRow& test, const v1::TestSpec& spec, std::int64_t workerId,
                             std::int64_t concurrency, v1::JobResponse& resp) {
    auto slice = data_.nextWaitingSlice(test.id);
    if (!slice) {  // the scheduler saw slices waiting; nothing changed since, under the lock
        resp.set_retry_after_seconds(std::uint32_t(std::max(1, options_.heartbeatSeconds)));
        return;
    }
    std::int64_t now = nowMs();
    // A datagen lease names its slice where a match lease names its first pair.
    LeaseRow lease;
    lease.testId = test.id;
    lease.workerId = workerId;
    lease.firstPair = slice->slice;
    lease.pairCount = slice->games;
    lease.concurrency = std::min(concurrency, slice->games);
    lease.createdMs = now;
    lease.id = store_.insertLease(lease);
    data_.markLeased(test.id, slice->slice, lease.id);
    keepLease(lease.id, workerId, now);

    auto* job = resp.mutable_job();
    job->set_lease_id(std::uint64_t(lease.id));
    job->set_test_id(std::uint64_t(test.id));
    auto* dj = job->mutable_datagen();
    *dj->mutable_spec() = spec.datagen();
    dj->set_slice(std::uint64_t(slice->slice));
    dj->set_first_game(std::uint64_t(slice->firstGame));
    dj->set_games(std::uint32_t(slice->games));
}

bool Coordinator::leaseEnded(const LeaseRow& lease, const char* how, const std::string& error) {
    auto slice = data_.leasedSliceOf(lease.id);
    if (!slice) return false;
    bool failed = !error.empty();
    int discarded = data_.returnSlice(*slice, failed);
    std::int64_t now = nowMs();
    store_.addEvent(lease.testId, now,
                    "slice " + std::to_string(slice->slice) + " (" + gameRange(*slice) + ") of worker " +
                        std::to_string(lease.workerId) + ": lease " + std::to_string(lease.id) + " " + how +
                        "; " + std::to_string(discarded) + " chunks discarded, the slice waits again" +
                        (failed ? " (error: " + error.substr(0, 300) + ")" : ""));
    if (failed && slice->failures + 1 >= options_.maxSliceFailures) {
        auto test = store_.findTest(lease.testId);
        if (test && test->state == TestState::Running) {
            finishTest(*test, TestState::Stopped,
                       "slice " + std::to_string(slice->slice) + " failed " +
                           std::to_string(slice->failures + 1) + " times; last: " + error.substr(0, 200));
            store_.saveTest(*test);
        }
    }
    return true;
}

void Coordinator::summarizeDatagen(const TestRow& t, const v1::TestSpec& spec, v1::TestSummary& s) {
    DataProgress p = data_.progress(t.id);
    auto* d = s.mutable_datagen();
    d->set_slices(std::uint64_t(p.slices));
    d->set_slices_done(std::uint64_t(p.slicesDone));
    d->set_positions(std::uint64_t(p.positions));
    d->set_chunks(std::uint64_t(p.chunks));
    d->set_bytes(std::uint64_t(p.bytes));
    d->set_games_played(std::uint64_t(p.gamesPlayed));
    // Games of done slices, failed and unbalanced ones included: the progress towards `games`.
    s.set_games(std::uint64_t(p.gamesDone));
    s.set_games_target(spec.games());
}

v1::DataChunkAck Coordinator::uploadChunk(const Caller& caller, const v1::DataChunkUpload& req) {
    require(caller, Role::Worker, "upload data");
    auto bad = [](const std::string& m) { fail(ErrorCode::InvalidArgument, m); };
    // Everything about the bytes is checked before the lock is taken.
    if (req.sequence() < 1) bad("sequence must start at 1");
    if (req.data().empty()) bad("data is empty");
    if (req.data().size() > MaxChunkBytes)
        bad("data is " + std::to_string(req.data().size()) + " bytes; a chunk holds at most " +
            std::to_string(MaxChunkBytes) + " (split it)");
    if (!isSha256Hex(req.sha256())) bad("sha256 must be 64 lowercase hex digits");
    std::string sha = sha256Hex(req.data());
    if (sha != req.sha256()) bad("sha256 does not match data (" + sha + ")");
    if (req.positions() < 1 || req.positions() > MaxChunkPositions)
        bad("positions must be 1 .. " + std::to_string(MaxChunkPositions));
    std::size_t counted = 0;
    try {
        counted = decodeChunk(req.data()).size();
    } catch (const std::invalid_argument& e) {
        bad(std::string("data: ") + e.what());
    }
    if (counted != req.positions())
        bad("positions: the chunk holds " + std::to_string(counted) + " positions, the request says " +
            std::to_string(req.positions()));

    auto workerId = std::int64_t(req.worker_id());
    auto seq = std::int64_t(req.sequence());
    v1::DataChunkAck ack;
    // Checks the lease and the slice; true when this chunk is already stored (the ack was lost).
    auto check = [&](LeaseRow& lease) {
        lease = leaseOfWorker(caller, workerId, std::int64_t(req.lease_id()));
        if (auto stored = data_.findChunk(lease.id, seq)) {
            if (stored->sha256 != sha)
                bad("sequence " + std::to_string(seq) + " of lease " + std::to_string(lease.id) +
                    " is already stored with other content");
            ack.set_duplicate(true);
            if (auto reason = leaseStopReason(lease)) {
                ack.set_command(v1::LEASE_STOP);
                ack.set_reason(*reason);
            }
            return true;
        }
        if (auto reason = leaseStopReason(lease))
            fail(ErrorCode::FailedPrecondition, "chunk not stored: " + *reason);
        auto slice = data_.leasedSliceOf(lease.id);
        if (!slice) bad("lease " + std::to_string(lease.id) + " holds no datagen slice");
        if (slice->slice != std::int64_t(req.slice()))
            bad("slice: lease " + std::to_string(lease.id) + " plays slice " + std::to_string(slice->slice) +
                ", not " + std::to_string(req.slice()));
        return false;
    };

    LeaseRow lease;
    {
        WriteLock lock(*this);
        if (check(lease)) return ack;
    }
    // The file is written and synced outside the lock; only its record waits for it.
    std::string path =
        chunkFiles_.write(lease.testId, std::int64_t(req.slice()), lease.id, seq, sha, req.data());
    WriteLock lock(*this);
    try {
        if (check(lease)) return ack;  // a retry of the same chunk got here first: same name, same bytes
    } catch (...) {
        chunkFiles_.remove(path);
        throw;
    }
    std::int64_t now = nowMs();
    ChunkRow row;
    row.testId = lease.testId;
    row.slice = std::int64_t(req.slice());
    row.leaseId = lease.id;
    row.sequence = seq;
    row.workerId = workerId;
    row.positions = std::int64_t(req.positions());
    row.bytes = std::int64_t(req.data().size());
    row.sha256 = sha;
    row.path = path;
    row.createdMs = now;
    Transaction tx(store_.db());
    data_.insertChunk(row);
    keepLease(lease.id, workerId, now);
    tx.commit();
    return ack;
}

v1::CompleteSliceResponse Coordinator::completeSlice(const Caller& caller,
                                                     const v1::CompleteSliceRequest& req) {
    require(caller, Role::Worker, "report slices");
    WriteLock lock(*this);
    Transaction tx(store_.db());  // from the first read: replicas may change the lease until we hold it
    auto workerId = std::int64_t(req.worker_id());
    LeaseRow lease = leaseOfWorker(caller, workerId, std::int64_t(req.lease_id()));
    auto slice = data_.findSlice(lease.testId, std::int64_t(req.slice()));
    if (!slice)
        fail(ErrorCode::InvalidArgument,
             "slice: test " + std::to_string(lease.testId) + " has no slice " + std::to_string(req.slice()));
    v1::CompleteSliceResponse resp;
    if (slice->state == SliceState::Done && slice->leaseId == lease.id) {
        resp.set_duplicate(true);
        return resp;
    }
    if (auto reason = leaseStopReason(lease))
        fail(ErrorCode::FailedPrecondition, "slice not completed: " + *reason);
    if (slice->state != SliceState::Leased || slice->leaseId != lease.id)
        fail(ErrorCode::InvalidArgument,
             "slice " + std::to_string(slice->slice) + " is not held by lease " + std::to_string(lease.id));
    if (req.games_played() + req.games_failed() > std::uint64_t(slice->games))
        fail(ErrorCode::InvalidArgument,
             "games_played + games_failed exceed the slice's " + std::to_string(slice->games) + " games");
    auto [chunks, positions] = data_.leaseTotals(lease.id);
    if (std::uint64_t(chunks) != req.chunks() || std::uint64_t(positions) != req.positions())
        fail(ErrorCode::FailedPrecondition,
             "the coordinator holds " + std::to_string(chunks) + " chunks with " + std::to_string(positions) +
                 " positions from lease " + std::to_string(lease.id) + ", the worker reports " +
                 std::to_string(req.chunks()) + " with " + std::to_string(req.positions()));

    data_.markDone(lease.testId, slice->slice, std::int64_t(req.games_played()));
    lease.state = LeaseState::Done;
    lease.pairsDone = slice->games;
    store_.saveLease(lease);
    forgetLease(lease.id);
    store_.addWorkerTestStats(lease.testId, workerId, std::int64_t(req.games_played()), {});
    DataProgress p = data_.progress(lease.testId);
    if (p.slicesDone == p.slices) {
        TestRow test = *store_.findTest(lease.testId);
        if (test.state == TestState::Running) {
            finishTest(test, TestState::Finished,
                       std::to_string(p.positions) + " positions in " + std::to_string(p.chunks) + " chunks");
            store_.saveTest(test);
        }
    }
    tx.commit();
    return resp;
}

v1::ListChunksResponse Coordinator::listChunks(const Caller& caller, const v1::ListChunksRequest& req) {
    require(caller, Role::User, "list data");
    auto testId = std::int64_t(req.test_id());
    if (req.limit() > 10'000) fail(ErrorCode::InvalidArgument, "limit must be at most 10000");
    int limit = req.limit() ? int(req.limit()) : 5000;
    WriteLock lock(*this);
    auto t = store_.findTest(testId);
    if (!t) fail(ErrorCode::NotFound, "no test " + std::to_string(testId));
    if (t->kind != "datagen")
        fail(ErrorCode::InvalidArgument,
             "test_id: test " + std::to_string(testId) + " is a " + t->kind + " test, it has no data");
    v1::ListChunksResponse resp;
    resp.set_test_id(std::uint64_t(testId));
    auto rows = data_.chunks(testId, std::int64_t(req.after_id()), limit + 1);
    resp.set_more(int(rows.size()) > limit);
    if (resp.more()) rows.pop_back();
    for (const auto& c : rows) {
        auto* info = resp.add_chunks();
        info->set_id(std::uint64_t(c.id));
        info->set_slice(std::uint64_t(c.slice));
        info->set_positions(std::uint64_t(c.positions));
        info->set_bytes(std::uint64_t(c.bytes));
        info->set_sha256(c.sha256);
        info->set_worker_id(std::uint64_t(c.workerId));
        info->set_slice_done(c.sliceDone);
        info->set_created_unix(c.createdMs / 1000);
        info->set_file(c.path);
    }
    v1::TestSummary summary;
    summarizeDatagen(*t, v1::TestSpec{}, summary);
    *resp.mutable_progress() = summary.datagen();
    return resp;
}

Coordinator::ChunkFile Coordinator::chunkFile(const Caller& caller, std::int64_t testId,
                                              std::int64_t chunkId) {
    require(caller, Role::User, "download data");
    WriteLock lock(*this);
    auto c = data_.findChunkById(testId, chunkId);
    if (!c)
        fail(ErrorCode::NotFound,
             "test " + std::to_string(testId) + " has no stored chunk " + std::to_string(chunkId));
    return {chunkFiles_.absolute(c->path), c->sha256, std::uint64_t(c->bytes)};
}

int Coordinator::purgeDiscardedChunks() {
    WriteLock lock(*this);
    int removed = 0;
    while (true) {
        auto rows = data_.discardedChunks(500);
        if (rows.empty()) return removed;
        for (const auto& c : rows) {
            chunkFiles_.remove(c.path);  // first the file: a crash in between leaves a row to retry
            data_.removeChunkRow(c.id);
            ++removed;
        }
    }
}

}  // namespace xq::coord
