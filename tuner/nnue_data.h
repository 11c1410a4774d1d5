// The network trainer's positions in memory: each data line reduced once to a fixed 72-byte record (the
// active PS-1260 features from Red's view, side to move, result, score), the features of the other
// perspective derived by a table, and the training target (docs/nnue.md).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "dataset.h"
#include "nnue_network.h"
#include "xiangqi/position.h"

namespace xq::tuner::nnue {

constexpr int INPUTS = 1260;
constexpr int MAX_ACTIVE = 32;
constexpr int KINDS = 7;

// The feature of a piece from one perspective (docs/nnue.md, PS-1260).
constexpr int featureIndex(Color perspective, Piece pc, Square s) {
    const int relColor = colorOf(pc) == perspective ? 0 : 1;
    const int kind = int(typeOf(pc)) - int(KING);  // K A B N R C P: the engine's PieceType order
    const int seen = perspective == RED ? s : SQUARE_NB - 1 - s;
    return (relColor * KINDS + kind) * SQUARE_NB + seen;
}

// Red's feature of a piece to Black's feature of the same piece: colours swap, the board turns.
inline constexpr std::array<std::uint16_t, INPUTS> BlackFeatureOfRed = [] {
    std::array<std::uint16_t, INPUTS> t{};
    for (int f = 0; f < INPUTS; ++f) {
        const int colorKind = f / SQUARE_NB, sq = f % SQUARE_NB;
        t[std::size_t(f)] =
            std::uint16_t(((colorKind + KINDS) % (2 * KINDS)) * SQUARE_NB + SQUARE_NB - 1 - sq);
    }
    return t;
}();

// FNV-1a 64 of bytes, continuing from h (the engine's, that hashes the network file): the checkpoints' hash
// and the data's fingerprint.
using ::xq::nnue::fnv1a64;

// Scores are kept as int16; this marks a position whose line had none (its target is the result only).
constexpr std::int16_t NO_SCORE = INT16_MIN;

struct PackedPosition {
    std::array<std::uint16_t, MAX_ACTIVE> red;  // Red's active features, the first `count` used
    std::uint8_t count = 0;
    std::uint8_t stm = 0;           // Color
    std::int16_t score = NO_SCORE;  // centipawns, Red's view
    float result = 0.5f;            // Red's score 0..1
};
static_assert(sizeof(PackedPosition) == 72);

// The side to move's and the other side's features of p; returns the count (the same for both).
inline int perspectiveFeatures(const PackedPosition& p, std::uint16_t* stm, std::uint16_t* other) {
    std::uint16_t* red = p.stm == RED ? stm : other;
    std::uint16_t* black = p.stm == RED ? other : stm;
    for (int i = 0; i < p.count; ++i) {
        red[i] = p.red[std::size_t(i)];
        black[i] = BlackFeatureOfRed[p.red[std::size_t(i)]];
    }
    return p.count;
}

// Throws DataError for a position with more than 32 pieces (the contract's limit).
PackedPosition packPosition(const Position& pos, float result, std::optional<int> score);

inline double sigmoid(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

// lambda * sigmoid(score_stm / K) + (1 - lambda) * result_stm; the result alone without a score.
inline double trainingTarget(const PackedPosition& p, double lambda, double wdlK) {
    const double result = p.stm == RED ? p.result : 1.0 - p.result;
    if (p.score == NO_SCORE) return result;
    const double score = p.stm == RED ? p.score : -p.score;
    return lambda * sigmoid(score / wdlK) + (1 - lambda) * result;
}

struct NnueData {
    std::vector<PackedPosition> positions;
    std::int64_t withScore = 0;      // positions whose line carried a score
    std::int64_t duplicates = 0;     // positions dropped as repeats (readNnueData with seen keys)
    std::vector<std::string> files;  // what was read, in order
    std::int64_t size() const { return std::int64_t(positions.size()); }
    std::size_t memoryBytes() const { return positions.capacity() * sizeof(PackedPosition); }
    // FNV-1a 64 of the records: a checkpoint refuses to resume on other data.
    std::uint64_t fingerprint() const;
};

// The data files a --data argument names: the file itself, or a directory's `*.txt` and `*.txt.gz` files
// in name order (hidden files and `tmp-*`, files a generator is still writing, are left out). Throws
// DataError for a path that does not exist or a directory without data files.
std::vector<std::string> dataFiles(const std::vector<std::string>& paths);

// The Zobrist keys (Position::key: the pieces and the side to move, no move counters; the key `xq data
// export` deduplicates by) of the positions read so far, for --dedup.
using PositionKeys = std::unordered_set<std::uint64_t>;

// Reads and packs every position of the files, parsing on `threads` threads (0: all cores); stops after
// maxPositions (positions kept) when that is positive. Throws DataError naming file:line for a bad line, and
// for a chess position. onFile (if set) runs after each file with what was read so far. With `seen`, a
// position whose key is in it is dropped (counted in duplicates) and the others' keys are added: the first of
// repeated positions is kept, across the files and across calls given the same set.
NnueData readNnueData(const std::vector<std::string>& files, int threads, std::int64_t maxPositions = 0,
                      const std::function<void(const std::string&, const NnueData&)>& onFile = {},
                      PositionKeys* seen = nullptr);

// Which positions are held out for validation: a seeded shuffle picks them (the default), or the last ones
// of the data as read. Self-play files hold a game's positions together, so the tail is (nearly) a split
// by games, while a shuffle puts positions of most games on both sides, which a large network can exploit
// (the validation loss then hides over-fitting to games). File: the validation positions come from files
// of their own, read after the training files, so they are the data's last ones (splitLast).
enum class SplitMode { Shuffle, Tail, File };

struct Split {
    std::vector<std::uint32_t> train, validation;  // each in ascending order
};
Split splitData(std::int64_t size, double validationFraction, std::uint64_t seed,
                SplitMode mode = SplitMode::Shuffle);
// The last `validation` of `size` positions held out (SplitMode::File).
Split splitLast(std::int64_t size, std::int64_t validation);

}  // namespace xq::tuner::nnue
