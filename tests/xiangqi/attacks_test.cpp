#include "xiangqi/attacks.h"

#include <gtest/gtest.h>

#include "reference_data.h"
#include "xiangqi/movegen.h"
#include "xiangqi/rules.h"

using namespace xq;

namespace {

// The squares of a rank mask (bit = file) and of a file mask (bit = rank) as a bitboard.
Bitboard onRank(unsigned mask, int rank) {
    Bitboard b = 0;
    for (int f = 0; f < FILE_NB; ++f)
        if (mask >> f & 1) b |= squareBB(makeSquare(f, rank));
    return b;
}
Bitboard onFile(unsigned mask, int file) {
    Bitboard b = 0;
    for (int r = 0; r < RANK_NB; ++r)
        if (mask >> r & 1) b |= squareBB(makeSquare(file, r));
    return b;
}

// Checks the rank and file occupancy masks against the mailbox, and the line tables against the ray walk of
// attacksFrom for every rook and cannon, in pos and in every position up to `depth` plies below it.
void checkLines(Position& pos, int depth) {
    for (Color c : {RED, BLACK}) {
        for (int r = 0; r < RANK_NB; ++r) {
            unsigned expected = 0;
            for (int f = 0; f < FILE_NB; ++f) {
                const Piece p = pos.pieceOn(makeSquare(f, r));
                if (p != NO_PIECE && colorOf(p) == c) expected |= 1u << f;
            }
            ASSERT_EQ(pos.rankOcc(c, r), expected) << pos.fen() << " rank " << r;
        }
        for (int f = 0; f < FILE_NB; ++f) {
            unsigned expected = 0;
            for (int r = 0; r < RANK_NB; ++r) {
                const Piece p = pos.pieceOn(makeSquare(f, r));
                if (p != NO_PIECE && colorOf(p) == c) expected |= 1u << r;
            }
            ASSERT_EQ(pos.fileOcc(c, f), expected) << pos.fen() << " file " << f;
        }
    }
    for (Square s = 0; s < SQUARE_NB; ++s) {
        const Piece p = pos.pieceOn(s);
        if (p == NO_PIECE || (typeOf(p) != ROOK && typeOf(p) != CANNON)) continue;
        const int f = fileOf(s), r = rankOf(s);
        const LineAttacks& alongRank = rankAttacks(f, pos.rankOcc(r));
        const LineAttacks& alongFile = fileAttacks(r, pos.fileOcc(f));
        const Bitboard reach = onRank(alongRank.reach, r) | onFile(alongFile.reach, f);
        const Bitboard hit = onRank(alongRank.hit, r) | onFile(alongFile.hit, f);
        const Bitboard occ = pos.occupied();
        EXPECT_EQ(reach, attacksFrom(ROOK, colorOf(p), s, occ)) << pos.fen() << " " << squareName(s);
        // A cannon attacks only what it could capture: the piece beyond its screen.
        EXPECT_EQ(hit, attacksFrom(CANNON, colorOf(p), s, occ)) << pos.fen() << " " << squareName(s);
        // Beyond the screen: every square a cannon passes over or lands on after it, up to what it hits.
        const Bitboard beyond = onRank(alongRank.beyond, r) | onFile(alongFile.beyond, f);
        EXPECT_EQ(beyond & occ & ~hit, Bitboard(0)) << "only the piece hit may stand beyond the screen";
        EXPECT_EQ(hit & ~beyond, Bitboard(0));
        // quiet: the empty squares a slider reaches, which are its non-capturing moves.
        EXPECT_EQ(alongRank.quiet + alongFile.quiet, popcount(reach & ~occ))
            << pos.fen() << " " << squareName(s);
    }
    if (depth == 0) return;
    for (Move m : legalMoves(pos)) {
        pos.doMove(m);
        checkLines(pos, depth - 1);
        pos.undoMove();
    }
}

}  // namespace

TEST(LineTables, OccupancyAndSliderAttacksAgreeWithTheBoardThroughMovesAndUndo) {
    int positions = 0;
    for (const auto& c : testdata::perftCases()) {
        if (++positions > 12) break;
        Position pos(c.fen);
        checkLines(pos, 2);
    }
    EXPECT_GE(positions, 12);
}

TEST(LineTables, EmptyLineAndEdges) {
    // A rook alone on a rank reaches every other square; a cannon hits nothing.
    EXPECT_EQ(rankAttacks(4, 1u << 4).reach, 0x1FFu & ~(1u << 4));
    EXPECT_EQ(rankAttacks(4, 1u << 4).hit, 0u);
    // Screen on file 2, target on file 0: a cannon on file 4 hits file 0, passing file 1 (beyond the screen).
    const unsigned occ = 1u << 4 | 1u << 2 | 1u << 0;
    EXPECT_EQ(rankAttacks(4, occ).reach, (1u << 3 | 1u << 2 | 0x1F0u) & ~(1u << 4));
    EXPECT_EQ(rankAttacks(4, occ).hit, 1u << 0);
    EXPECT_EQ(rankAttacks(4, occ).beyond, 1u << 1 | 1u << 0);
    // At the top of a file with nothing below but a screen on rank 0: nothing to hit, the line just ends.
    EXPECT_EQ(fileAttacks(9, 1u << 9 | 1u << 0).hit, 0u);
    EXPECT_EQ(fileAttacks(9, 1u << 9 | 1u << 0).beyond, 0u);
}
