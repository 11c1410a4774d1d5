// The RPCs of datagen tests on the coordinator: chunk uploads stored as files, slice completion, and the
// listing and download of what is stored. The test's lifecycle (submission, leasing slices, a lease that
// ends early, its summary) is DatagenKind's (datagen_kind.h).
#include "capturego_settings.h"
#include "coordinator.h"
#include "data_chunk.h"
#include "datagen_kind.h"

namespace xq::coord {

// Every position of a chunk is of the test's game (and, in Capture Go, of its board and rules): a worker's
// chess data in a Xiangqi test (or the like) is refused, not stored for a trainer that cannot read it.
void Coordinator::checkChunkGame(std::int64_t testId, const std::vector<tuner::LabeledPosition>& positions) {
    auto test = store_.findTest(testId);
    if (!test) fail(ErrorCode::NotFound, "test " + std::to_string(testId) + " not found");
    const v1::TestSpec spec = parseSpec(*test);
    const games::Game game = games::parseGame(spec.datagen().game()).value_or(games::Game::Xiangqi);
    const auto named = [](games::Game g) {
        return g == games::Game::Chess ? "chess" : g == games::Game::CaptureGo ? "Capture Go" : "Xiangqi";
    };
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const std::string& fen = positions[i].fen;
        const std::string which = "data: position " + std::to_string(i + 1);
        if (const games::Game found = tuner::dataGame(fen); found != game)
            fail(ErrorCode::InvalidArgument, which + " is a " + named(found) + " position, and test " +
                                                 std::to_string(testId) + " generates " + named(game) +
                                                 " data");
        if (game != games::Game::CaptureGo) continue;
        const auto board = games::parseCaptureGoSettings(spec.datagen().board(), "board");
        std::string onBoard;
        try {
            onBoard = games::captureGoOpeningText(board, fen);
        } catch (const std::invalid_argument& e) {
            fail(ErrorCode::InvalidArgument, which + ": " + e.what());
        }
        if (onBoard != fen)
            fail(ErrorCode::InvalidArgument, which + " is not under the test's rules (" +
                                                 games::captureGoSettingsText(board) + "): '" +
                                                 fen.substr(0, 100) + "'");
    }
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
    std::vector<tuner::LabeledPosition> decoded;
    try {
        decoded = decodeChunk(req.data());
    } catch (const std::invalid_argument& e) {
        bad(std::string("data: ") + e.what());
    }
    const std::size_t counted = decoded.size();
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
        checkChunkGame(lease.testId, decoded);
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
    TestRow test = *store_.findTest(lease.testId);
    if (test.state == TestState::Running) {
        v1::TestSpec spec = parseSpec(test);
        if (auto result = kindOf(spec).completion(test, spec)) finishTest(test, TestState::Finished, *result);
    }
    // A slice whose every game failed is a failed lease, as a match report whose every game crashed.
    countLease(test,
               reportFailed(std::int64_t(req.games_played() + req.games_failed()),
                            std::int64_t(req.games_failed()), 0),
               "worker " + std::to_string(workerId) + ": every game of slice " +
                   std::to_string(slice->slice) + " failed");
    store_.saveTest(test);
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
    v1::TestSpec spec = parseSpec(*t);
    TestKind& kind = kindOf(spec);
    if (&kind != datagen_)
        fail(ErrorCode::InvalidArgument,
             "test_id: test " + std::to_string(testId) + " is a " + kind.name() + " test, it has no data");
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
    kind.summarize(*t, spec, summary);
    *resp.mutable_progress() = summary.datagen();
    return resp;
}

Coordinator::ChunkFile Coordinator::chunkFile(const Caller& caller, std::int64_t testId,
                                              std::int64_t chunkId) {
    // Workers download chunks too: a training lease reads its run's data window.
    if (caller.role != Role::Worker) require(caller, Role::User, "download data");
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
