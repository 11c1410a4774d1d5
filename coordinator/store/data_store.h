// The SQL side of datagen tests (schema version 3): a test's slices of games and the chunks of positions
// workers uploaded for them. Works on the Coordinator's connection; like Store, it opens no transactions
// itself.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "database.h"

namespace xq::coord {

enum class SliceState : int { Waiting = 0, Leased = 1, Done = 2 };

struct SliceRow {
    std::int64_t testId = 0, slice = 0, firstGame = 0, games = 0;
    SliceState state = SliceState::Waiting;
    std::int64_t leaseId = 0;  // the lease playing it, or the one that completed it
    std::int64_t gamesPlayed = 0;
    std::int64_t failures = 0;  // leases handed back with an error
};

struct ChunkRow {
    std::int64_t id = 0, testId = 0, slice = 0, leaseId = 0, sequence = 0, workerId = 0;
    std::int64_t positions = 0, bytes = 0;
    std::string sha256, path;  // path relative to the data directory
    std::int64_t createdMs = 0;
    bool sliceDone = false;  // filled by chunks()
};

struct DataProgress {
    std::int64_t slices = 0, slicesDone = 0, gamesDone = 0, gamesPlayed = 0;
    std::int64_t positions = 0, chunks = 0, bytes = 0;
};

class DataStore {
  public:
    explicit DataStore(Database& db) : db_(db) {}

    // Cuts games 0 .. totalGames - 1 into slices of sliceGames (the last may be shorter).
    void insertSlices(std::int64_t testId, std::int64_t totalGames, std::int64_t sliceGames);
    std::optional<SliceRow> nextWaitingSlice(std::int64_t testId);
    std::int64_t waitingSlices(std::int64_t testId);
    std::optional<SliceRow> findSlice(std::int64_t testId, std::int64_t slice);
    // The slice a lease is playing (state Leased), if any.
    std::optional<SliceRow> leasedSliceOf(std::int64_t leaseId);
    void markLeased(std::int64_t testId, std::int64_t slice, std::int64_t leaseId);
    void markDone(std::int64_t testId, std::int64_t slice, std::int64_t gamesPlayed);
    // The slice's lease ended before it was complete: the slice waits again (one more failure if
    // `failed`) and the lease's chunks are discarded. Returns the number of chunks discarded.
    int returnSlice(const SliceRow& slice, bool failed);
    // Every slice of the test starts its count of failures again (a resumed test).
    void clearSliceFailures(std::int64_t testId);

    std::optional<ChunkRow> findChunk(std::int64_t leaseId, std::int64_t sequence);
    std::optional<ChunkRow> findChunkById(std::int64_t testId, std::int64_t id);
    std::int64_t insertChunk(const ChunkRow& c);
    // Live chunks of a test with ids above afterId, in id (upload) order, at most `limit`.
    std::vector<ChunkRow> chunks(std::int64_t testId, std::int64_t afterId = 0, int limit = 1 << 30);
    // Live chunks of a lease: how many and their positions.
    std::pair<std::int64_t, std::int64_t> leaseTotals(std::int64_t leaseId);
    // Chunks discarded but whose file may still exist; removeChunkRow forgets one once its file is gone.
    std::vector<ChunkRow> discardedChunks(int limit);
    void removeChunkRow(std::int64_t id);
    std::vector<std::string> allChunkPaths();

    DataProgress progress(std::int64_t testId);

  private:
    Database& db_;
};

}  // namespace xq::coord
