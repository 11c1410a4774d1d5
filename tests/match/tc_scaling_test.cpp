#include "tc_scaling.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace tc_scaling_test {

using xq::match::clockScaleFactor;
using xq::match::scaleTimeControl;
using xq::match::TimeControl;

TEST(TcScaling, FactorIsReferenceOverMeasured) {
    EXPECT_DOUBLE_EQ(clockScaleFactor(1'000'000, 500'000), 2.0);    // half as fast: twice the time
    EXPECT_DOUBLE_EQ(clockScaleFactor(1'000'000, 2'000'000), 0.5);  // twice as fast: half the time
    EXPECT_DOUBLE_EQ(clockScaleFactor(750, 750), 1.0);
}

TEST(TcScaling, FactorRefusesUnknownSpeeds) {
    EXPECT_THROW(clockScaleFactor(0, 1000), std::invalid_argument);
    EXPECT_THROW(clockScaleFactor(1000, 0), std::invalid_argument);
}

TEST(TcScaling, ScalesClockAndIncrement) {
    TimeControl tc = scaleTimeControl(TimeControl::parse("tc=10+0.1"), 2.0);
    ASSERT_EQ(tc.periods.size(), 1u);
    EXPECT_EQ(tc.periods[0].timeMs, 20000);
    EXPECT_EQ(tc.periods[0].incrementMs, 200);
    EXPECT_EQ(tc.marginMs, TimeControl::DefaultMarginMs);  // latency does not depend on speed
}

TEST(TcScaling, ScalesEveryPeriodAndKeepsMoveCounts) {
    TimeControl tc = scaleTimeControl(TimeControl::parse("tc=40/60:20/30"), 0.5);
    ASSERT_EQ(tc.periods.size(), 2u);
    EXPECT_EQ(tc.periods[0].moves, 40);
    EXPECT_EQ(tc.periods[0].timeMs, 30000);
    EXPECT_EQ(tc.periods[1].moves, 20);
    EXPECT_EQ(tc.periods[1].timeMs, 15000);
}

TEST(TcScaling, ScalesFixedMoveTimeButNotNodesOrDepth) {
    TimeControl tc = scaleTimeControl(TimeControl::parse("st=0.5 nodes=5000 depth=8"), 3.0);
    EXPECT_EQ(tc.moveTimeMs, 1500);
    EXPECT_EQ(tc.nodes, 5000);
    EXPECT_EQ(tc.depth, 8);
    TimeControl fixed = TimeControl::parse("nodes=5000");
    EXPECT_EQ(scaleTimeControl(fixed, 0.25), fixed);
}

TEST(TcScaling, RoundsToMillisecondsAndKeepsTinyTimesPositive) {
    TimeControl tc = scaleTimeControl(TimeControl::parse("tc=1+0.001"), 0.0001);
    EXPECT_EQ(tc.periods[0].timeMs, 1);       // 0.1 ms would round to 0: a clock that is already out
    EXPECT_EQ(tc.periods[0].incrementMs, 1);  // stays positive
    TimeControl noInc = scaleTimeControl(TimeControl::parse("tc=3+0"), 1.5);
    EXPECT_EQ(noInc.periods[0].timeMs, 4500);
    EXPECT_EQ(noInc.periods[0].incrementMs, 0);  // no increment stays none
}

TEST(TcScaling, RefusesNonPositiveFactor) {
    TimeControl tc = TimeControl::parse("tc=10+0.1");
    EXPECT_THROW(scaleTimeControl(tc, 0.0), std::invalid_argument);
    EXPECT_THROW(scaleTimeControl(tc, -1.0), std::invalid_argument);
}

}  // namespace tc_scaling_test
