// Legal move generation for chess (pins and checks worked out while generating, so no move needs trying),
// and perft: the count of leaf positions to a depth, the move generator's proof against published counts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "position.h"

namespace xq::chess {

struct MoveList {
    Move moves[256];  // no chess position has more than 218 legal moves
    int size = 0;
    void push(Move m) { moves[size++] = m; }
    const Move* begin() const { return moves; }
    const Move* end() const { return moves + size; }
    bool contains(Move m) const;
};

// Every legal move of the side to move.
MoveList legalMoves(const Position& pos);

// Leaf positions `depth` plies ahead (1 for depth 0).
std::uint64_t perft(Position& pos, int depth);
// Perft split by the first move: each legal move in UCI text with its count, as `xq judge --perft` prints.
std::vector<std::pair<std::string, std::uint64_t>> perftDivide(Position& pos, int depth);

}  // namespace xq::chess
