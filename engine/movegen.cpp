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

// Captures only, by two line-table lookups per piece (attacks.h). A rook or cannon has at most one target
// each way; they are added in ray order (up, down, right, left), the order of the walk below, so the move
// order and with it the search do not depend on how the moves are found.
void generateSliderCaptures(const Position& pos, MoveList& list, Color us) {
    const Color them = ~us;
    for (PieceType pt : {ROOK, CANNON})
        forEachSquare(pos.pieces(us, pt), [&](Square from) {
            const int f = fileOf(from), r = rankOf(from);
            const LineAttacks& onFile = fileAttacks(r, pos.fileOcc(f));
            const LineAttacks& onRank = rankAttacks(f, pos.rankOcc(r));
            const unsigned alongFile = (pt == ROOK ? onFile.reach : onFile.hit) & pos.fileOcc(them, f);
            const unsigned alongRank = (pt == ROOK ? onRank.reach : onRank.hit) & pos.rankOcc(them, r);
            if (!(alongFile | alongRank)) return;
            if (const unsigned up = alongFile >> (r + 1))
                list.add(makeMove(from, from + FILE_NB * (1 + __builtin_ctz(up))));
            if (const unsigned down = alongFile & ((1u << r) - 1))
                list.add(makeMove(from, makeSquare(f, 31 - __builtin_clz(down))));
            if (const unsigned right = alongRank >> (f + 1))
                list.add(makeMove(from, from + 1 + __builtin_ctz(right)));
            if (const unsigned left = alongRank & ((1u << f) - 1))
                list.add(makeMove(from, makeSquare(31 - __builtin_clz(left), r)));
        });
}

template <GenType T>
void generateSliders(const Position& pos, const Emitter<T>& emit, Color us) {
    if constexpr (T == CAPTURES) {
        generateSliderCaptures(pos, emit.list, us);
        return;
    }
    const Geometry& g = geometry;
    forEachSquare(pos.pieces(us, ROOK), [&](Square from) {
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
    });
    forEachSquare(pos.pieces(us, CANNON), [&](Square from) {
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
    });
}

// The pawns of `us` with an enemy piece ahead or, past the river, beside them: all at once by shifting the
// enemy pieces, instead of a test per pawn.
Bitboard pawnsThatCanCapture(const Position& pos, Color us) {
    static constexpr auto Masks = [] {
        struct {
            Bitboard crossed[COLOR_NB]{}, notFileA = 0, notFileI = 0;
        } m;
        for (Square s = 0; s < SQUARE_NB; ++s) {
            const Bitboard bit = Bitboard(1) << s;
            for (Color c : {RED, BLACK})
                if (hasCrossedRiver(c, s)) m.crossed[c] |= bit;
            if (fileOf(s) != 0) m.notFileA |= bit;
            if (fileOf(s) != FILE_NB - 1) m.notFileI |= bit;
        }
        return m;
    }();
    const Bitboard enemies = pos.pieces(~us), pawns = pos.pieces(us, PAWN);
    const Bitboard ahead = us == RED ? enemies >> FILE_NB : enemies << FILE_NB;
    const Bitboard beside = ((enemies << 1) & Masks.notFileA) | ((enemies >> 1) & Masks.notFileI);
    return pawns & (ahead | (beside & Masks.crossed[us]));
}

template <GenType T, bool IncludeKing = true>
void generatePseudo(const Position& pos, MoveList& list) {
    const Geometry& g = geometry;
    const Color us = pos.sideToMove();
    const Emitter<T> emit{pos, list, us};

    generateSliders<T>(pos, emit, us);

    forEachSquare(pos.pieces(us, KNIGHT), [&](Square from) {
        // Captures only: most horses have no enemy piece on any target square.
        if (T == CAPTURES && !(pos.pieces(~us) & g.horseMoveBB[from])) return;
        for (int i = 0; i < g.horseMoveCount[from]; ++i)
            if (pos.pieceOn(g.horseMoves[from][i].via) == NO_PIECE) emit(from, g.horseMoves[from][i].to);
    });
    Bitboard pawns = pos.pieces(us, PAWN);
    if constexpr (T == CAPTURES) pawns &= pawnsThatCanCapture(pos, us);
    forEachSquare(pawns, [&](Square from) {
        for (int i = 0; i < g.pawnMoveCount[us][from]; ++i) emit(from, g.pawnMoves[us][from][i]);
    });
    forEachSquare(pos.pieces(us, BISHOP), [&](Square from) {
        if (T == CAPTURES && !(pos.pieces(~us) & g.bishopMoveBB[from])) return;
        for (int i = 0; i < g.bishopMoveCount[from]; ++i)
            if (pos.pieceOn(g.bishopMoves[from][i].via) == NO_PIECE) emit(from, g.bishopMoves[from][i].to);
    });
    forEachSquare(pos.pieces(us, ADVISOR), [&](Square from) {
        if (T == CAPTURES && !(pos.pieces(~us) & g.advisorMoveBB[from])) return;
        for (int i = 0; i < g.advisorMoveCount[from]; ++i) emit(from, g.advisorMoves[from][i]);
    });
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
