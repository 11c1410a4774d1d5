// Move generation. Pseudo-legal generators feed the searcher (which tests legality lazily with
// Position::isLegal); LEGAL is for everything else.
#pragma once

#include "position.h"

namespace xq {

// Enough for any Xiangqi position (the known maximum is well under 128 legal moves).
constexpr int MAX_MOVES = 160;

struct MoveList {
    Move moves[MAX_MOVES];
    int size = 0;

    void add(Move m) { moves[size++] = m; }
    const Move* begin() const { return moves; }
    const Move* end() const { return moves + size; }
    bool contains(Move m) const {
        for (Move x : *this)
            if (x == m) return true;
        return false;
    }
};

template <GenType T>
void generate(const Position& pos, MoveList& list);

inline MoveList legalMoves(const Position& pos) {
    MoveList list;
    generate<LEGAL>(pos, list);
    return list;
}

// Whether the side to move has a legal move: legalMoves(pos).size > 0, stopping at the first one found.
bool hasLegalMove(const Position& pos);

// Counts the leaves of the legal move tree to the given depth (bulk counting at the last ply).
std::uint64_t perft(Position& pos, int depth);

}  // namespace xq
