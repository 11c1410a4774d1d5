#include "quiet.h"

#include <gtest/gtest.h>

namespace xq::tuner {
namespace quiet_test {

TEST(QuietTest, StartPositionIsQuiet) {
    // Cannon takes horse (h2h9) loses the cannon to the rook: no gain.
    Position pos;
    EXPECT_EQ(captureGain(pos), 0);
    EXPECT_TRUE(isQuiet(pos));
    EXPECT_EQ(pos.fen(), Position::StartFEN);  // the search left the position as it was
}

TEST(QuietTest, HangingPieceIsNotQuiet) {
    Position pos("3k5/9/9/9/r8/9/9/9/9/R4K3 w - - 0 1");
    EXPECT_EQ(captureGain(pos), 900);
    EXPECT_FALSE(isQuiet(pos));
    // For the other side to move the same capture is theirs.
    Position black("3k5/9/9/9/r8/9/9/9/9/R4K3 b - - 0 1");
    EXPECT_EQ(captureGain(black), 900);
}

TEST(QuietTest, DefendedPawnIsNoGainForARook) {
    Position pos("3k5/9/9/9/pr7/9/9/9/9/R4K3 w - - 0 1");
    EXPECT_EQ(captureGain(pos), 0);
    EXPECT_TRUE(isQuiet(pos));
    // Without the defender the pawn is simply won.
    Position undefended("3k5/9/9/9/p8/9/9/9/9/R4K3 w - - 0 1");
    EXPECT_EQ(captureGain(undefended), 100);
}

TEST(QuietTest, ExchangeSequenceIsCounted) {
    // Red cannon b2 over its screen b5 takes the horse b9; the rook a9 recaptures: 400 - 450 < 0.
    // Red's rook c0... takes nothing. The best is to stand pat.
    Position pos("rn1k5/9/9/9/1P7/9/9/1C7/9/5K3 w - - 0 1");
    EXPECT_EQ(captureGain(pos), 0);
    // Without the recapturing rook the horse is won.
    Position free("1n1k5/9/9/9/1P7/9/9/1C7/9/5K3 w - - 0 1");
    EXPECT_EQ(captureGain(free), 400);
}

TEST(QuietTest, CheckIsNotQuiet) {
    Position pos("3k5/9/9/9/9/9/9/9/9/3r1K3 w - - 0 1");
    ASSERT_TRUE(pos.inCheck());
    EXPECT_FALSE(isQuiet(pos));
}

TEST(QuietTest, MaterialBalanceIsFromTheMoverView) {
    Position red("3k5/9/9/9/9/9/9/9/9/R4K3 w - - 0 1");
    Position black("3k5/9/9/9/9/9/9/9/9/R4K3 b - - 0 1");
    EXPECT_EQ(materialBalance(red), 900);
    EXPECT_EQ(materialBalance(black), -900);
}

}  // namespace quiet_test
}  // namespace xq::tuner
