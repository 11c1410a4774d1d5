// Zobrist keys: one random 64-bit key per colour and padded point of the general board, and the keys the
// search hashes add (side to move, a pending pass, capture counts). Fixed seeds: hashes, and so the
// bench node count, are the same on every run.
#pragma once

#include <array>
#include <cstdint>

#include "goengine/board.h"

namespace xq::go {

struct ZobristKeys {
    std::array<std::array<std::uint64_t, kMaxCells>, 2> stone;
    std::uint64_t whiteToMove;
    std::uint64_t passPending;
};
const ZobristKeys& zobrist();

// SplitMix64: the keys' generator, and a mixer for small counters.
constexpr std::uint64_t splitMix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

// The part of a search key that depends on the capture counts (0 when both are 0).
inline std::uint64_t captureKey(int byBlack, int byWhite) {
    if (byBlack == 0 && byWhite == 0) return 0;
    return splitMix64(0xC0FFEEULL ^ (std::uint64_t(byBlack) << 20) ^ std::uint64_t(byWhite));
}

}  // namespace xq::go
