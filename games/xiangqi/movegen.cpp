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

bool hasLegalMove(const Position& pos) {
    MoveList list;
    const Color us = pos.sideToMove();
    const Square ksq = pos.kingSquare(us);
    if (pos.inCheck()) {
        generatePseudo<PSEUDO_LEGAL>(pos, list);
        for (Move m : list)
            if ((fromSq(m) == ksq || mayCheck(ksq, fromSq(m), toSq(m))) && pos.isSafeAfter(m)) return true;
        return false;
    }
    // The same tests as generate<LEGAL> out of check, up to the first move that passes.
    if (!pos.st().safetyKnown) pos.computeKingSafety();
    const Bitboard shields = pos.st().kingBlockers, screens = pos.st().screenSquares;
    generatePseudo<PSEUDO_LEGAL, false>(pos, list);
    for (Move m : list)
        if ((!testBit(shields, fromSq(m)) && !testBit(screens, toSq(m))) || pos.isSafeAfterOutOfCheck(m))
            return true;
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
