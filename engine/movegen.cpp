#include "movegen.h"

namespace xq {

namespace {

template <GenType T>
struct Emitter {
    const Position& pos;
    MoveList& list;
    Color us;

    // Adds from-to if the target square suits T: empty for quiets, an enemy piece for captures.
    void operator()(Square from, Square to) const {
        const Piece target = pos.pieceOn(to);
        if (target == NO_PIECE) {
            if constexpr (T != CAPTURES) list.add(makeMove(from, to));
        } else if (colorOf(target) != us) {
            if constexpr (T != QUIETS) list.add(makeMove(from, to));
        }
    }
};

// Captures only: the nearest pieces on each ray come from bit scans of the occupancy, without walking the
// empty squares. Same moves in the same order as the walk below.
void generateSliderCaptures(const Position& pos, MoveList& list, Color us) {
    const Geometry& g = geometry;
    const Bitboard occ = pos.occupied();
    const auto isEnemy = [&](Square s) { return colorOf(pos.pieceOn(s)) != us; };
    for (Bitboard rooks = pos.pieces(us, ROOK); rooks;) {
        const Square from = popLsb(rooks);
        for (int d = 0; d < 4; ++d)
            if (const Bitboard blockers = occ & g.rayBB[from][d]) {
                const Square first = nearestOnRay(blockers, d);
                if (isEnemy(first)) list.add(makeMove(from, first));
            }
    }
    for (Bitboard cannons = pos.pieces(us, CANNON); cannons;) {
        const Square from = popLsb(cannons);
        for (int d = 0; d < 4; ++d) {
            Bitboard blockers = occ & g.rayBB[from][d];
            if (!blockers) continue;
            blockers ^= squareBB(nearestOnRay(blockers, d));  // the screen
            if (!blockers) continue;
            const Square target = nearestOnRay(blockers, d);
            if (isEnemy(target)) list.add(makeMove(from, target));
        }
    }
}

template <GenType T>
void generateSliders(const Position& pos, const Emitter<T>& emit, Color us) {
    if constexpr (T == CAPTURES) {
        generateSliderCaptures(pos, emit.list, us);
        return;
    }
    const Geometry& g = geometry;
    Bitboard rooks = pos.pieces(us, ROOK);
    while (rooks) {
        const Square from = popLsb(rooks);
        for (int d = 0; d < 4; ++d) {
            const std::int8_t* ray = g.ray[from][d];
            for (int i = 0, n = g.rayLen[from][d]; i < n; ++i) {
                const Piece p = pos.pieceOn(ray[i]);
                if (p == NO_PIECE) {
                    if constexpr (T != CAPTURES) emit.list.add(makeMove(from, ray[i]));
                    continue;
                }
                if constexpr (T != QUIETS)
                    if (colorOf(p) != us) emit.list.add(makeMove(from, ray[i]));
                break;
            }
        }
    }
    Bitboard cannons = pos.pieces(us, CANNON);
    while (cannons) {
        const Square from = popLsb(cannons);
        for (int d = 0; d < 4; ++d) {
            const std::int8_t* ray = g.ray[from][d];
            int i = 0;
            const int n = g.rayLen[from][d];
            for (; i < n && pos.pieceOn(ray[i]) == NO_PIECE; ++i)
                if constexpr (T != CAPTURES) emit.list.add(makeMove(from, ray[i]));
            if constexpr (T != QUIETS)
                for (++i; i < n; ++i) {
                    const Piece p = pos.pieceOn(ray[i]);
                    if (p == NO_PIECE) continue;
                    if (colorOf(p) != us) emit.list.add(makeMove(from, ray[i]));
                    break;
                }
        }
    }
}

template <GenType T, bool IncludeKing = true>
void generatePseudo(const Position& pos, MoveList& list) {
    const Geometry& g = geometry;
    const Color us = pos.sideToMove();
    const Emitter<T> emit{pos, list, us};

    generateSliders<T>(pos, emit, us);

    Bitboard horses = pos.pieces(us, KNIGHT);
    while (horses) {
        const Square from = popLsb(horses);
        // Captures only: most horses have no enemy piece on any target square.
        if (T == CAPTURES && !(pos.pieces(~us) & g.horseMoveBB[from])) continue;
        for (int i = 0; i < g.horseMoveCount[from]; ++i)
            if (pos.pieceOn(g.horseMoves[from][i].via) == NO_PIECE) emit(from, g.horseMoves[from][i].to);
    }
    Bitboard pawns = pos.pieces(us, PAWN);
    while (pawns) {
        const Square from = popLsb(pawns);
        // Captures only: skip the pieces with no enemy piece on any target square.
        if (T == CAPTURES && !(pos.pieces(~us) & g.pawnMoveBB[us][from])) continue;
        for (int i = 0; i < g.pawnMoveCount[us][from]; ++i) emit(from, g.pawnMoves[us][from][i]);
    }
    Bitboard bishops = pos.pieces(us, BISHOP);
    while (bishops) {
        const Square from = popLsb(bishops);
        if (T == CAPTURES && !(pos.pieces(~us) & g.bishopMoveBB[from])) continue;
        for (int i = 0; i < g.bishopMoveCount[from]; ++i)
            if (pos.pieceOn(g.bishopMoves[from][i].via) == NO_PIECE) emit(from, g.bishopMoves[from][i].to);
    }
    Bitboard advisors = pos.pieces(us, ADVISOR);
    while (advisors) {
        const Square from = popLsb(advisors);
        if (T == CAPTURES && !(pos.pieces(~us) & g.advisorMoveBB[from])) continue;
        for (int i = 0; i < g.advisorMoveCount[from]; ++i) emit(from, g.advisorMoves[from][i]);
    }
    if constexpr (IncludeKing) {
        const Square ksq = pos.kingSquare(us);
        if (T != CAPTURES || (pos.pieces(~us) & g.kingMoveBB[ksq]))
            for (int i = 0; i < g.kingMoveCount[ksq]; ++i) emit(ksq, g.kingMoves[ksq][i]);
    }
}

}  // namespace

template <GenType T>
void generate(const Position& pos, MoveList& list) {
    if constexpr (T == LEGAL) {
        if (pos.inCheck()) {
            generatePseudo<PSEUDO_LEGAL>(pos, list);
            int kept = 0;
            const Square ksq = pos.kingSquare(pos.sideToMove());
            for (int i = 0; i < list.size; ++i) {
                const Move m = list.moves[i];
                // Only king moves and moves touching the king's lines, horse squares or legs can end a check.
                if ((fromSq(m) == ksq || mayCheck(ksq, fromSq(m), toSq(m))) && pos.isSafeAfter(m))
                    list.moves[kept++] = m;
            }
            list.size = kept;
            return;
        }
        // Out of check only moves of pieces shielding the king and moves onto a cannon's line need the full
        // test, besides king moves; in most positions there are none of the former.
        if (!pos.st().safetyKnown) pos.computeKingSafety();
        const Bitboard shields = pos.st().kingBlockers, screens = pos.st().screenSquares;
        generatePseudo<PSEUDO_LEGAL, false>(pos, list);
        if (shields | screens) {
            int kept = 0;
            for (int i = 0; i < list.size; ++i) {
                const Move m = list.moves[i];
                if ((!testBit(shields, fromSq(m)) && !testBit(screens, toSq(m))) ||
                    pos.isSafeAfterOutOfCheck(m))
                    list.moves[kept++] = m;
            }
            list.size = kept;
        }
        const Geometry& g = geometry;
        const Color us = pos.sideToMove();
        const Square ksq = pos.kingSquare(us);
        for (int i = 0; i < g.kingMoveCount[ksq]; ++i) {
            const Square to = g.kingMoves[ksq][i];
            const Piece target = pos.pieceOn(to);
            if ((target == NO_PIECE || colorOf(target) != us) && pos.isSafeAfter(makeMove(ksq, to)))
                list.add(makeMove(ksq, to));
        }
    } else {
        generatePseudo<T>(pos, list);
    }
}

template void generate<CAPTURES>(const Position&, MoveList&);
template void generate<QUIETS>(const Position&, MoveList&);
template void generate<PSEUDO_LEGAL>(const Position&, MoveList&);
template void generate<LEGAL>(const Position&, MoveList&);

std::uint64_t perft(Position& pos, int depth) {
    MoveList list;
    generate<LEGAL>(pos, list);
    if (depth <= 1) return std::uint64_t(list.size);
    std::uint64_t nodes = 0;
    for (Move m : list) {
        pos.doMove(m);
        nodes += perft(pos, depth - 1);
        pos.undoMove();
    }
    return nodes;
}

}  // namespace xq
