// The pseudo-legal generators as templates over where the moves go, so that the move picker can score each
// move as it is produced instead of copying a MoveList. Only movegen.cpp and movepick.cpp include this.
//
// A sink has three members, called in generation order:
//   begin(from, pt)                 before the moves of our piece of type pt on `from` (where a sink can look
//                                   up what all of them share);
//   quiet(from, to, pt)             a move of our piece of type pt to an empty square;
//   capture(from, to, pt, captured) a capture of the enemy piece `captured`.
// It may also have skip(from, pt, targets) (see skipPiece), to pass over a non-slider piece.
// The order of the calls is the order of generate<T>'s MoveList, which the search's move order (ties in
// score) depends on.
#pragma once

#include "movegen.h"
#include "position.h"

namespace xq::movegen_detail {

// The pawns of `us` with an enemy piece ahead or, past the river, beside them: all at once by shifting the
// enemy pieces, instead of a test per pawn.
inline Bitboard pawnsThatCanCapture(const Position& pos, Color us) {
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

// Hands from-to to the sink if the target square suits T: empty for quiets, an enemy piece for captures.
template <GenType T, typename Sink>
[[gnu::always_inline]] inline void emit(const Position& pos, Sink& sink, Color us, Square from, Square to,
                                        PieceType pt) {
    const Piece target = pos.pieceOn(to);
    if (target == NO_PIECE) {
        if constexpr (T != CAPTURES) sink.quiet(from, to, pt);
    } else if (colorOf(target) != us) {
        if constexpr (T != QUIETS) sink.capture(from, to, pt, target);
    }
}

// Captures only, by two line-table lookups per piece (attacks.h). A rook or cannon has at most one target
// each way; they are added in ray order (up, down, right, left), the order of the walk below, so the move
// order and with it the search do not depend on how the moves are found.
template <typename Sink>
[[gnu::always_inline]] inline void generateSliderCaptures(const Position& pos, Sink& sink, Color us) {
    const Color them = ~us;
    for (PieceType pt : {ROOK, CANNON})
        forEachSquare(pos.pieces(us, pt), [&](Square from) {
            const int f = fileOf(from), r = rankOf(from);
            const LineAttacks& onFile = fileAttacks(r, pos.fileOcc(f));
            const LineAttacks& onRank = rankAttacks(f, pos.rankOcc(r));
            const unsigned alongFile = (pt == ROOK ? onFile.reach : onFile.hit) & pos.fileOcc(them, f);
            const unsigned alongRank = (pt == ROOK ? onRank.reach : onRank.hit) & pos.rankOcc(them, r);
            if (!(alongFile | alongRank)) return;
            sink.begin(from, pt);
            const auto add = [&](Square to) { sink.capture(from, to, pt, pos.pieceOn(to)); };
            if (const unsigned up = alongFile >> (r + 1)) add(from + FILE_NB * (1 + __builtin_ctz(up)));
            if (const unsigned down = alongFile & ((1u << r) - 1))
                add(makeSquare(f, 31 - __builtin_clz(down)));
            if (const unsigned right = alongRank >> (f + 1)) add(from + 1 + __builtin_ctz(right));
            if (const unsigned left = alongRank & ((1u << f) - 1))
                add(makeSquare(31 - __builtin_clz(left), r));
        });
}

template <GenType T, typename Sink>
[[gnu::always_inline]] inline void generateSliders(const Position& pos, Sink& sink, Color us) {
    if constexpr (T == CAPTURES) {
        generateSliderCaptures(pos, sink, us);
        return;
    }
    const Geometry& g = geometry;
    forEachSquare(pos.pieces(us, ROOK), [&](Square from) {
        sink.begin(from, ROOK);
        for (int d = 0; d < 4; ++d) {
            const std::int8_t* ray = g.ray[from][d];
            for (int i = 0, n = g.rayLen[from][d]; i < n; ++i) {
                const Piece p = pos.pieceOn(ray[i]);
                if (p == NO_PIECE) {
                    sink.quiet(from, ray[i], ROOK);
                    continue;
                }
                if constexpr (T != QUIETS)
                    if (colorOf(p) != us) sink.capture(from, ray[i], ROOK, p);
                break;
            }
        }
    });
    forEachSquare(pos.pieces(us, CANNON), [&](Square from) {
        sink.begin(from, CANNON);
        for (int d = 0; d < 4; ++d) {
            const std::int8_t* ray = g.ray[from][d];
            int i = 0;
            const int n = g.rayLen[from][d];
            for (; i < n && pos.pieceOn(ray[i]) == NO_PIECE; ++i) sink.quiet(from, ray[i], CANNON);
            if constexpr (T != QUIETS)
                for (++i; i < n; ++i) {
                    const Piece p = pos.pieceOn(ray[i]);
                    if (p == NO_PIECE) continue;
                    if (colorOf(p) != us) sink.capture(from, ray[i], CANNON, p);
                    break;
                }
        }
    });
}

// A sink may also have skip(from, pt, targets), asked before a piece's moves with the squares it could move
// to: true passes the piece over, for a sink that can tell none of its moves would be kept.
template <typename Sink>
[[gnu::always_inline]] inline bool skipPiece(Sink& sink, Square from, PieceType pt, Bitboard targets) {
    if constexpr (requires { sink.skip(from, pt, targets); })
        return sink.skip(from, pt, targets);
    else
        return false;
}

// The sink is taken and handed back by value: a local whose address does not escape stays in registers,
// while one behind a reference is loaded and stored again for every move.
// IncludeSliders false leaves out the rooks and cannons, for a caller that finds their moves its own way
// (they come first, so it can keep the order).
template <GenType T, bool IncludeKing = true, bool IncludeSliders = true, typename Sink>
Sink generatePseudo(const Position& pos, Sink sink) {
    static_assert(T != LEGAL);
    const Geometry& g = geometry;
    const Color us = pos.sideToMove();

    if constexpr (IncludeSliders) generateSliders<T>(pos, sink, us);

    forEachSquare(pos.pieces(us, KNIGHT), [&](Square from) {
        // Captures only: most horses have no enemy piece on any target square.
        if (T == CAPTURES && !(pos.pieces(~us) & g.horseMoveBB[from])) return;
        if (skipPiece(sink, from, KNIGHT, g.horseMoveBB[from])) return;
        sink.begin(from, KNIGHT);
        for (int i = 0; i < g.horseMoveCount[from]; ++i)
            if (pos.pieceOn(g.horseMoves[from][i].via) == NO_PIECE)
                emit<T>(pos, sink, us, from, g.horseMoves[from][i].to, KNIGHT);
    });
    Bitboard pawns = pos.pieces(us, PAWN);
    if constexpr (T == CAPTURES) pawns &= pawnsThatCanCapture(pos, us);
    forEachSquare(pawns, [&](Square from) {
        if (skipPiece(sink, from, PAWN, g.pawnMoveBB[us][from])) return;
        sink.begin(from, PAWN);
        for (int i = 0; i < g.pawnMoveCount[us][from]; ++i)
            emit<T>(pos, sink, us, from, g.pawnMoves[us][from][i], PAWN);
    });
    forEachSquare(pos.pieces(us, BISHOP), [&](Square from) {
        if (T == CAPTURES && !(pos.pieces(~us) & g.bishopMoveBB[from])) return;
        if (skipPiece(sink, from, BISHOP, g.bishopMoveBB[from])) return;
        sink.begin(from, BISHOP);
        for (int i = 0; i < g.bishopMoveCount[from]; ++i)
            if (pos.pieceOn(g.bishopMoves[from][i].via) == NO_PIECE)
                emit<T>(pos, sink, us, from, g.bishopMoves[from][i].to, BISHOP);
    });
    forEachSquare(pos.pieces(us, ADVISOR), [&](Square from) {
        if (T == CAPTURES && !(pos.pieces(~us) & g.advisorMoveBB[from])) return;
        if (skipPiece(sink, from, ADVISOR, g.advisorMoveBB[from])) return;
        sink.begin(from, ADVISOR);
        for (int i = 0; i < g.advisorMoveCount[from]; ++i)
            emit<T>(pos, sink, us, from, g.advisorMoves[from][i], ADVISOR);
    });
    if constexpr (IncludeKing) {
        const Square ksq = pos.kingSquare(us);
        if ((T != CAPTURES || (pos.pieces(~us) & g.kingMoveBB[ksq])) &&
            !skipPiece(sink, ksq, KING, g.kingMoveBB[ksq])) {
            sink.begin(ksq, KING);
            for (int i = 0; i < g.kingMoveCount[ksq]; ++i)
                emit<T>(pos, sink, us, ksq, g.kingMoves[ksq][i], KING);
        }
    }
    return sink;
}

// The sink of generate<T>: a MoveList.
struct ListSink {
    MoveList& list;
    void begin(Square, PieceType) {}
    void quiet(Square from, Square to, PieceType) { list.add(makeMove(from, to)); }
    void capture(Square from, Square to, PieceType, Piece) { list.add(makeMove(from, to)); }
};

}  // namespace xq::movegen_detail
