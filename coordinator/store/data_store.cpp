#include "data_store.h"

namespace xq::coord {

namespace {

constexpr const char* SliceColumns =
    "test_id, slice, first_game, games, state, lease_id, games_played, failures";

SliceRow readSlice(const Statement& s) {
    SliceRow r;
    r.testId = s.int64(0);
    r.slice = s.int64(1);
    r.firstGame = s.int64(2);
    r.games = s.int64(3);
    r.state = SliceState(s.int64(4));
    r.leaseId = s.int64(5);
    r.gamesPlayed = s.int64(6);
    r.failures = s.int64(7);
    return r;
}

constexpr const char* ChunkColumns =
    "c.id, c.test_id, c.slice, c.lease_id, c.sequence, c.worker_id, c.positions, c.bytes, c.sha256, c.path, "
    "c.created_ms";

ChunkRow readChunk(const Statement& s) {
    ChunkRow c;
    c.id = s.int64(0);
    c.testId = s.int64(1);
    c.slice = s.int64(2);
    c.leaseId = s.int64(3);
    c.sequence = s.int64(4);
    c.workerId = s.int64(5);
    c.positions = s.int64(6);
    c.bytes = s.int64(7);
    c.sha256 = s.text(8);
    c.path = s.text(9);
    c.createdMs = s.int64(10);
    return c;
}

}  // namespace

void DataStore::insertSlices(std::int64_t testId, std::int64_t totalGames, std::int64_t sliceGames) {
    auto s =
        db_.prepare("INSERT INTO datagen_slices (test_id, slice, first_game, games) VALUES (?, ?, ?, ?)");
    std::int64_t slice = 0;
    for (std::int64_t first = 0; first < totalGames; first += sliceGames, ++slice) {
        s.bind(1, testId).bind(2, slice).bind(3, first).bind(4, std::min(sliceGames, totalGames - first));
        s.run();
        s.reset();
    }
}

std::optional<SliceRow> DataStore::nextWaitingSlice(std::int64_t testId) {
    auto s = db_.prepare(std::string("SELECT ") + SliceColumns +
                         " FROM datagen_slices WHERE test_id = ? AND state = 0 ORDER BY slice LIMIT 1");
    s.bind(1, testId);
    if (!s.step()) return std::nullopt;
    return readSlice(s);
}

std::int64_t DataStore::waitingSlices(std::int64_t testId) {
    auto s = db_.prepare("SELECT COUNT(*) FROM datagen_slices WHERE test_id = ? AND state = 0");
    s.bind(1, testId);
    s.step();
    return s.int64(0);
}

std::optional<SliceRow> DataStore::findSlice(std::int64_t testId, std::int64_t slice) {
    auto s = db_.prepare(std::string("SELECT ") + SliceColumns +
                         " FROM datagen_slices WHERE test_id = ? AND slice = ?");
    s.bind(1, testId).bind(2, slice);
    if (!s.step()) return std::nullopt;
    return readSlice(s);
}

std::optional<SliceRow> DataStore::leasedSliceOf(std::int64_t leaseId) {
    auto s = db_.prepare(std::string("SELECT ") + SliceColumns +
                         " FROM datagen_slices WHERE lease_id = ? AND state = 1");
    s.bind(1, leaseId);
    if (!s.step()) return std::nullopt;
    return readSlice(s);
}

void DataStore::markLeased(std::int64_t testId, std::int64_t slice, std::int64_t leaseId) {
    db_.prepare("UPDATE datagen_slices SET state = 1, lease_id = ? WHERE test_id = ? AND slice = ?")
        .bind(1, leaseId)
        .bind(2, testId)
        .bind(3, slice)
        .run();
}

void DataStore::markDone(std::int64_t testId, std::int64_t slice, std::int64_t gamesPlayed) {
    db_.prepare("UPDATE datagen_slices SET state = 2, games_played = ? WHERE test_id = ? AND slice = ?")
        .bind(1, gamesPlayed)
        .bind(2, testId)
        .bind(3, slice)
        .run();
}

void DataStore::clearSliceFailures(std::int64_t testId) {
    db_.prepare("UPDATE datagen_slices SET failures = 0 WHERE test_id = ? AND failures <> 0")
        .bind(1, testId)
        .run();
}

int DataStore::returnSlice(const SliceRow& slice, bool failed) {
    db_.prepare(
           "UPDATE datagen_slices SET state = 0, lease_id = 0, failures = failures + ? WHERE test_id = ? "
           "AND slice = ?")
        .bind(1, std::int64_t(failed ? 1 : 0))
        .bind(2, slice.testId)
        .bind(3, slice.slice)
        .run();
    db_.prepare("UPDATE data_chunks SET discarded = 1 WHERE lease_id = ? AND discarded = 0")
        .bind(1, slice.leaseId)
        .run();
    return db_.changes();
}

std::optional<ChunkRow> DataStore::findChunk(std::int64_t leaseId, std::int64_t sequence) {
    auto s = db_.prepare(std::string("SELECT ") + ChunkColumns +
                         " FROM data_chunks c WHERE c.lease_id = ? AND c.sequence = ?");
    s.bind(1, leaseId).bind(2, sequence);
    if (!s.step()) return std::nullopt;
    return readChunk(s);
}

std::optional<ChunkRow> DataStore::findChunkById(std::int64_t testId, std::int64_t id) {
    auto s = db_.prepare(std::string("SELECT ") + ChunkColumns +
                         " FROM data_chunks c WHERE c.id = ? AND c.test_id = ? AND c.discarded = 0");
    s.bind(1, id).bind(2, testId);
    if (!s.step()) return std::nullopt;
    return readChunk(s);
}

std::int64_t DataStore::insertChunk(const ChunkRow& c) {
    db_.prepare(
           "INSERT INTO data_chunks (test_id, slice, lease_id, sequence, worker_id, positions, bytes, "
           "sha256, "
           "path, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .bind(1, c.testId)
        .bind(2, c.slice)
        .bind(3, c.leaseId)
        .bind(4, c.sequence)
        .bind(5, c.workerId)
        .bind(6, c.positions)
        .bind(7, c.bytes)
        .bind(8, c.sha256)
        .bind(9, c.path)
        .bind(10, c.createdMs)
        .run();
    return db_.lastInsertId();
}

std::vector<ChunkRow> DataStore::chunks(std::int64_t testId, std::int64_t afterId, int limit) {
    auto s = db_.prepare(
        std::string("SELECT ") + ChunkColumns +
        ", s.state FROM data_chunks c JOIN datagen_slices s ON s.test_id = c.test_id AND "
        "s.slice = c.slice WHERE c.test_id = ? AND c.discarded = 0 AND c.id > ? ORDER BY c.id LIMIT ?");
    s.bind(1, testId).bind(2, afterId).bind(3, std::int64_t(limit));
    std::vector<ChunkRow> out;
    while (s.step()) {
        out.push_back(readChunk(s));
        out.back().sliceDone = SliceState(s.int64(11)) == SliceState::Done;
    }
    return out;
}

std::pair<std::int64_t, std::int64_t> DataStore::leaseTotals(std::int64_t leaseId) {
    auto s = db_.prepare(
        "SELECT COUNT(*), COALESCE(SUM(positions), 0) FROM data_chunks WHERE lease_id = ? AND discarded = 0");
    s.bind(1, leaseId);
    s.step();
    return {s.int64(0), s.int64(1)};
}

std::vector<ChunkRow> DataStore::discardedChunks(int limit) {
    auto s = db_.prepare(std::string("SELECT ") + ChunkColumns +
                         " FROM data_chunks c WHERE c.discarded = 1 ORDER BY c.id LIMIT ?");
    s.bind(1, std::int64_t(limit));
    std::vector<ChunkRow> out;
    while (s.step()) out.push_back(readChunk(s));
    return out;
}

void DataStore::removeChunkRow(std::int64_t id) {
    db_.prepare("DELETE FROM data_chunks WHERE id = ?").bind(1, id).run();
}

std::vector<std::string> DataStore::allChunkPaths() {
    auto s = db_.prepare("SELECT path FROM data_chunks");
    std::vector<std::string> out;
    while (s.step()) out.push_back(s.text(0));
    return out;
}

DataProgress DataStore::progress(std::int64_t testId) {
    DataProgress p;
    auto s = db_.prepare(
        "SELECT COUNT(*), COALESCE(SUM(CASE WHEN state = 2 THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN "
        "state = 2 THEN games END), 0), "
        "COALESCE(SUM(CASE WHEN state = 2 THEN games_played END), 0) FROM datagen_slices WHERE test_id = ?");
    s.bind(1, testId);
    s.step();
    p.slices = s.int64(0);
    p.slicesDone = s.int64(1);
    p.gamesDone = s.int64(2);
    p.gamesPlayed = s.int64(3);
    auto c = db_.prepare(
        "SELECT COUNT(*), COALESCE(SUM(positions), 0), COALESCE(SUM(bytes), 0) FROM data_chunks WHERE "
        "test_id = ? AND discarded = 0");
    c.bind(1, testId);
    c.step();
    p.chunks = c.int64(0);
    p.positions = c.int64(1);
    p.bytes = c.int64(2);
    return p;
}

}  // namespace xq::coord
