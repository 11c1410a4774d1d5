#include "quiet_chess.h"

#include <gtest/gtest.h>

namespace xq::tuner {
namespace quiet_chess_test {

chess::Position at(const char* fen) {
    chess::Position pos;
    EXPECT_TRUE(pos.setFen(fen)) << fen;
    return pos;
}

TEST(ChessQuiet, TheStartPositionIsQuietAndLeftAsItWas) {
    chess::Position pos;
    EXPECT_EQ(captureGain(pos), 0);
    EXPECT_TRUE(isQuiet(pos));
    EXPECT_EQ(pos.fen(), chess::START_FEN);
}

TEST(ChessQuiet, AHangingPieceIsNotQuietForWhicheverSideMoves) {
    // Two undefended rooks facing each other: whoever moves takes the other's.
    auto white = at("4k3/8/8/8/3r4/8/8/3R3K w - - 0 1");
    EXPECT_EQ(captureGain(white), 500);
    EXPECT_FALSE(isQuiet(white));
    auto black = at("4k3/8/8/8/3r4/8/8/3R3K b - - 0 1");
    EXPECT_EQ(captureGain(black), 500);
    // With the white king guarding d1, Rxd1 Kxd1 wins nothing for Black.
    auto guarded = at("4k3/8/8/8/3r4/8/8/3RK3 b - - 0 1");
    EXPECT_EQ(captureGain(guarded), 0);
}

TEST(ChessQuiet, ADefendedPawnIsNoGainForAQueenButAnExchangeUpIsCounted) {
    // Qxd5 exd5: the queen for a pawn, so standing pat is best.
    auto defended = at("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1");
    EXPECT_EQ(captureGain(defended), 0);
    EXPECT_TRUE(isQuiet(defended));
    // Without the defender the pawn is simply won.
    auto undefended = at("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1");
    EXPECT_EQ(captureGain(undefended), 100);
}

TEST(ChessQuiet, PromotionsAndEnPassantCountAsNoisy) {
    auto promotion = at("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    EXPECT_EQ(captureGain(promotion), 800);
    EXPECT_FALSE(isQuiet(promotion));
    auto enPassant = at("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    EXPECT_EQ(captureGain(enPassant), 100);
}

TEST(ChessQuiet, CheckIsNotQuietAndMaterialIsFromTheMoversView) {
    auto check = at("4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
    ASSERT_TRUE(check.inCheck());
    EXPECT_FALSE(isQuiet(check));
    EXPECT_EQ(materialBalance(at("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")), 900);
    EXPECT_EQ(materialBalance(at("4k3/8/8/8/8/8/8/Q3K3 b - - 0 1")), -900);
}

}  // namespace quiet_chess_test
}  // namespace xq::tuner
