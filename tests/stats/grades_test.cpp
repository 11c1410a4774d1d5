// The seeds' grade points (seed 003): every row of its table, by hand-computed cases, the boundaries we
// chose, and a sequence of games.
#include "grades.h"

#include <gtest/gtest.h>

namespace grades_test {

using namespace xq::stats;

TEST(GradePoints, ADrawGivesTheLowerHalfOfTenPlusATenthOfTheDifference) {
    EXPECT_DOUBLE_EQ(gradePointsExchanged(100, 105, 0.5), 0);     // within 10: nothing
    EXPECT_DOUBLE_EQ(gradePointsExchanged(100, 150, 0.5), 7.5);   // (10 + 50/10) / 2 to the lower (first)
    EXPECT_DOUBLE_EQ(gradePointsExchanged(150, 100, 0.5), -7.5);  // the lower is second
    EXPECT_DOUBLE_EQ(gradePointsExchanged(0, 200, 0.5), 50);      // over 100: a quarter of it
    EXPECT_DOUBLE_EQ(gradePointsExchanged(0, 10, 0.5), 5.5);      // 10 is in "10-99"
    EXPECT_DOUBLE_EQ(gradePointsExchanged(0, 100, 0.5), 25);      // 100 is in "greater than 100"
}

TEST(GradePoints, TheLowerWinningGainsTenOrMore) {
    EXPECT_DOUBLE_EQ(gradePointsExchanged(100, 105, 1), 10);  // within 10
    EXPECT_DOUBLE_EQ(gradePointsExchanged(100, 150, 1), 15);  // 10 + 50/10
    EXPECT_DOUBLE_EQ(gradePointsExchanged(150, 0, 0), -75);   // the second is lower and wins: 150/2
    EXPECT_DOUBLE_EQ(gradePointsExchanged(0, 100, 1), 50);    // 100: half of it
}

TEST(GradePoints, TheHigherWinningGainsLessTheWiderTheGap) {
    EXPECT_DOUBLE_EQ(gradePointsExchanged(105, 100, 1), 10);   // within 10
    EXPECT_DOUBLE_EQ(gradePointsExchanged(150, 100, 1), 6);    // 10 - 50/12.5
    EXPECT_DOUBLE_EQ(gradePointsExchanged(250, 100, 1), 2);    // 100-199: 2
    EXPECT_DOUBLE_EQ(gradePointsExchanged(100, 299, 0), -2);   // the second is higher and wins at 199: 2
    EXPECT_DOUBLE_EQ(gradePointsExchanged(400, 100, 1), 0);    // more than 200: nothing
    EXPECT_DOUBLE_EQ(gradePointsExchanged(300, 100, 1), 0);    // exactly 200: nothing
    EXPECT_DOUBLE_EQ(gradePointsExchanged(100, 100, 0), -10);  // equal points: 10 to the winner
}

TEST(GradePoints, GradesRunFromThirtyToOneAHundredPointsEach) {
    EXPECT_EQ(gradeOf(0), 30);
    EXPECT_EQ(gradeOf(99.9), 30);
    EXPECT_EQ(gradeOf(100), 29);
    EXPECT_EQ(gradeOf(-40), 30);
    EXPECT_EQ(gradeOf(2900), 1);
    EXPECT_EQ(gradeOf(10000), 1);
}

TEST(GradePoints, GamesInOrderMovePointsBetweenPlayersAndKeepTheirSum) {
    // a beats b at 0-0 (+10); b, now 20 below, beats a (lower wins: 10 + 20/10 = 12); a and c draw at
    // a = -2, c = 0 (within 10: nothing).
    auto players = gradePlayers(3, {{{0, 1}, 1.0}, {{1, 0}, 1.0}, {{0, 2}, 0.5}});
    EXPECT_DOUBLE_EQ(players[0].points, -2);
    EXPECT_DOUBLE_EQ(players[1].points, 2);
    EXPECT_DOUBLE_EQ(players[2].points, 0);
    EXPECT_EQ(players[0].grade, 30);
    EXPECT_THROW(gradePlayers(2, {{{0, 2}, 1.0}}), std::invalid_argument);
}

}  // namespace grades_test
