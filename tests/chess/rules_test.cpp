// How chess games end: mate, stalemate, the fifty-move rule, threefold repetition, dead material.
#include "chess/rules.h"

#include <gtest/gtest.h>

#include "chess/notation.h"
#include "chess_test_util.h"

using namespace xq::chess;
using namespace xq::chess::testing;

TEST(ChessRules, FoolsMateIsCheckmateForBlack) {
    Position pos;
    play(pos, {"f2f3", "e7e5", "g2g4", "d8h4"});
    auto v = judge(pos);
    EXPECT_EQ(v.result, Result::BLACK_WINS);
    EXPECT_EQ(v.reason, EndReason::CHECKMATE);
    EXPECT_STREQ(resultText(v.result), "0-1");
}

TEST(ChessRules, StalemateIsADraw) {
    auto v = judge(at("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"));
    EXPECT_EQ(v.result, Result::DRAW);
    EXPECT_EQ(v.reason, EndReason::STALEMATE);
}

TEST(ChessRules, TheFiftyMoveRuleDrawsAtTheHundredthPlyButMateComesFirst) {
    Position pos = at("4k3/8/8/8/8/8/R7/4K3 w - - 99 80");
    EXPECT_FALSE(judge(pos).isOver());
    play(pos, {"a2b2"});
    EXPECT_EQ(judge(pos).reason, EndReason::FIFTY_MOVES);
    Position realMate = at("4k3/R7/4K3/8/8/8/8/8 w - - 99 80");
    play(realMate, {"a7a8"});
    EXPECT_EQ(judge(realMate).reason, EndReason::CHECKMATE);
}

TEST(ChessRules, TheThirdOccurrenceOfAPositionIsADraw) {
    Position pos;
    play(pos, {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"});
    EXPECT_FALSE(judge(pos).isOver())
        << "the start position has occurred twice only, with black to move once";
    play(pos, {"f6g8"});
    EXPECT_EQ(judge(pos).reason, EndReason::THREEFOLD_REPETITION);
}

TEST(ChessRules, AnEnPassantChanceMakesAPositionDifferent) {
    // After d7d5 black's pawn may be taken en passant: the same placement later, without that chance, is
    // another position (so only two occurrences of it follow).
    Position pos = at("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    play(pos, {"d7d5"});
    std::uint64_t withChance = pos.key();
    play(pos, {"e1e2", "e8e7", "e2e1", "e7e8"});
    EXPECT_NE(pos.key(), withChance);
    play(pos, {"e1e2", "e8e7", "e2e1", "e7e8"});
    EXPECT_FALSE(judge(pos).isOver());
    play(pos, {"e1e2", "e8e7", "e2e1", "e7e8"});
    EXPECT_EQ(judge(pos).reason, EndReason::THREEFOLD_REPETITION);
}

TEST(ChessRules, MaterialThatCannotMateIsADraw) {
    EXPECT_TRUE(insufficientMaterial(at("4k3/8/8/8/8/8/8/4K3 w - - 0 1")));
    EXPECT_TRUE(insufficientMaterial(at("4k3/8/8/8/8/8/8/4KN2 w - - 0 1")));
    EXPECT_TRUE(insufficientMaterial(at("4k3/8/8/8/8/8/8/4KB2 w - - 0 1")));
    EXPECT_TRUE(insufficientMaterial(at("4kb2/8/8/8/8/8/8/4K1B1 w - - 0 1"))) << "bishops on one colour";
    EXPECT_FALSE(insufficientMaterial(at("4k1b1/8/8/8/8/8/8/4K1B1 w - - 0 1"))) << "bishops on both colours";
    EXPECT_FALSE(insufficientMaterial(at("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1")));
    EXPECT_FALSE(insufficientMaterial(at("4k3/8/8/8/8/8/7P/4K3 w - - 0 1")));
    EXPECT_EQ(judge(at("4k3/8/8/8/8/8/8/4KN2 w - - 0 1")).reason, EndReason::INSUFFICIENT_MATERIAL);
}
