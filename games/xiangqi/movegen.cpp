#include "movegen.h"

#include "movegen_impl.h"

namespace xq {

namespace {

using movegen_detail::ListSink;

template <GenType T, bool IncludeKing = true>
void generatePseudo(const Position& pos, MoveList& list) {
    movegen_detail::generatePseudo<T, IncludeKing>(pos, ListSink{list});
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

namespace {

// Hands each move to `legal` as it comes and stops at the first it accepts: every piece after it is passed
// over (skip), and the sliders' remaining moves cost a test of `found` each.
template <typename Test>
struct FirstLegalSink {
    Test legal;
    bool found = false;

    void begin(Square, PieceType) {}
    bool skip(Square, PieceType, Bitboard) const { return found; }
    void quiet(Square from, Square to, PieceType) { found = found || legal(from, to); }
    void capture(Square from, Square to, PieceType, Piece) { found = found || legal(from, to); }
};

template <typename Test>
FirstLegalSink(Test) -> FirstLegalSink<Test>;

}  // namespace

bool hasLegalMove(const Position& pos) {
    const Color us = pos.sideToMove();
    const Square ksq = pos.kingSquare(us);
    // The tests of generate<LEGAL>, up to the first move that passes.
    if (pos.inCheck()) {
        const auto evades = [&pos, ksq](Square from, Square to) {
            return (from == ksq || mayCheck(ksq, from, to)) && pos.isSafeAfter(makeMove(from, to));
        };
        return movegen_detail::generatePseudo<PSEUDO_LEGAL>(pos, FirstLegalSink{evades}).found;
    }
    if (!pos.st().safetyKnown) pos.computeKingSafety();
    const Bitboard shields = pos.st().kingBlockers, screens = pos.st().screenSquares;
    const auto safe = [&pos, shields, screens](Square from, Square to) {
        return (!testBit(shields, from) && !testBit(screens, to)) ||
               pos.isSafeAfterOutOfCheck(makeMove(from, to));
    };
    if (movegen_detail::generatePseudo<PSEUDO_LEGAL, false>(pos, FirstLegalSink{safe}).found) return true;
    const Geometry& g = geometry;
    for (int i = 0; i < g.kingMoveCount[ksq]; ++i) {
        const Square to = g.kingMoves[ksq][i];
        const Piece target = pos.pieceOn(to);
        if ((target == NO_PIECE || colorOf(target) != us) && pos.isSafeAfter(makeMove(ksq, to))) return true;
    }
    return false;
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
