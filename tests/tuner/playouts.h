// Real positions for the tuner tests: random legal playouts from the start position.
#pragma once

#include <random>
#include <vector>

#include "dataset.h"
#include "xiangqi/movegen.h"
#include "xiangqi/position.h"

namespace xq::tuner::test {

// Up to `count` positions, several from each playout (every third ply after the sixth), all distinct
// FENs not guaranteed but overwhelmingly likely. Results are placeholders (0.5).
inline std::vector<LabeledPosition> randomPositions(int count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<LabeledPosition> out;
    while (int(out.size()) < count) {
        Position pos;
        int plies = 20 + int(rng() % 160);
        for (int p = 0; p < plies && int(out.size()) < count; ++p) {
            MoveList legal = legalMoves(pos);
            if (legal.size == 0) break;
            pos.doMove(legal.moves[rng() % std::uint64_t(legal.size)]);
            if (p >= 6 && p % 3 == 0) out.push_back({pos.fen(), 0.5f});
        }
    }
    return out;
}

}  // namespace xq::tuner::test
