#include <gtest/gtest.h>

#include "reference_data.h"
#include "xiangqi/movegen.h"
#include "xiangqi/rules.h"

using namespace xq;

TEST(Perft, MatchesEveryReferenceCaseUpToDepth4) {
    int checked = 0;
    for (const auto& c : testdata::perftCases()) {
        if (c.depth > 4) continue;
        Position pos(c.fen);
        EXPECT_EQ(perft(pos, c.depth), c.nodes) << c.fen << " depth " << c.depth;
        EXPECT_EQ(pos.fen(), Position(c.fen).fen()) << "perft must leave the position as it found it";
        ++checked;
    }
    EXPECT_GE(checked, 25);
}

// Walks the tree and checks at every node that the incrementally updated key equals a key computed
// from scratch, and that undo restores the board exactly.
static void checkKeys(Position& pos, int depth) {
    ASSERT_EQ(pos.key(), Position(pos.fen()).key()) << pos.fen();
    if (depth == 0) return;
    for (Move m : legalMoves(pos)) {
        const std::string before = pos.fen();
        pos.doMove(m);
        checkKeys(pos, depth - 1);
        pos.undoMove();
        ASSERT_EQ(pos.fen(), before) << moveToString(m);
    }
}

TEST(Position, IncrementalKeysAndUndoAgreeWithScratch) {
    for (const char* fen :
         {Position::StartFEN, "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
          "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1"}) {
        Position pos(fen);
        checkKeys(pos, 3);
    }
}

TEST(Movegen, PseudoLegalSplitsIntoCapturesAndQuiets) {
    for (const auto& c : testdata::perftCases()) {
        Position pos(c.fen);
        MoveList all, captures, quiets;
        generate<PSEUDO_LEGAL>(pos, all);
        generate<CAPTURES>(pos, captures);
        generate<QUIETS>(pos, quiets);
        EXPECT_EQ(all.size, captures.size + quiets.size);
        for (Move m : captures) EXPECT_TRUE(pos.isCapture(m));
        for (Move m : quiets) EXPECT_FALSE(pos.isCapture(m));
        for (Move m : all) EXPECT_TRUE(pos.isPseudoLegal(m)) << moveToString(m);
        for (Move m : legalMoves(pos)) EXPECT_TRUE(all.contains(m));
    }
}

TEST(Movegen, GivesCheckAgreesWithTheMoveMade) {
    for (const auto& c : testdata::perftCases()) {
        Position pos(c.fen);
        for (Move m : legalMoves(pos)) {
            bool predicted = pos.givesCheck(m);
            pos.doMove(m);
            EXPECT_EQ(predicted, pos.inCheck()) << c.fen << " " << moveToString(m);
            pos.undoMove();
        }
    }
}

TEST(Movegen, FlyingGeneralForbidsFacingKings) {
    Position pos("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    std::string why;
    EXPECT_FALSE(parseMove(pos, "d0e0", &why).has_value()) << "king may not step onto the open file";
    EXPECT_TRUE(parseMove(pos, "d0d1", &why).has_value()) << why;
    Position pinned("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1");
    EXPECT_FALSE(parseMove(pinned, "e1d2").has_value()) << "the advisor is pinned by the facing kings";
}

TEST(Movegen, NothingCrossesTheRiverThatMayNot) {
    Position pos("3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1");
    EXPECT_FALSE(parseMove(pos, "c4e6").has_value());
    EXPECT_FALSE(parseMove(pos, "c4a6").has_value());
    EXPECT_TRUE(parseMove(pos, "c4e2").has_value());
    Position eye("3k5/9/9/9/9/2B6/3n5/9/9/4K4 w - - 0 1");  // d3 blocks the elephant's eye toward e2
    EXPECT_FALSE(parseMove(eye, "c4e2").has_value());
    Position leg("3k5/9/9/9/9/9/9/1R7/1N7/4K4 w - - 0 1");  // b2 blocks the horse's leg upward
    EXPECT_FALSE(parseMove(leg, "b1c3").has_value());
    EXPECT_FALSE(parseMove(leg, "b1a3").has_value());
    EXPECT_TRUE(parseMove(leg, "b1d2").has_value());
}

// hasLegalMove stops at the first legal move; it must agree with the full list everywhere, in check,
// with pinned shields and cannon screens, at mate and at stalemate.
static void checkHasLegalMove(Position& pos, int depth, int& withNone) {
    const MoveList all = legalMoves(pos);
    ASSERT_EQ(hasLegalMove(pos), all.size > 0) << pos.fen();
    withNone += all.size == 0;
    if (depth == 0) return;
    for (Move m : all) {
        pos.doMove(m);
        checkHasLegalMove(pos, depth - 1, withNone);
        pos.undoMove();
    }
}

TEST(Movegen, HasLegalMoveAgreesWithTheLegalMoveList) {
    int withNone = 0;
    for (const auto& c : testdata::perftCases()) {
        Position pos(c.fen);
        checkHasLegalMove(pos, 2, withNone);
    }
    for (const char* fen : {"3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1", "3k5/8R/9/9/9/9/9/9/9/4K4 b - - 0 1"}) {
        Position pos(fen);
        checkHasLegalMove(pos, 2, withNone);
    }
    EXPECT_GE(withNone, 2) << "the walk must reach positions without a legal move (mate, stalemate)";
}
