#include "time_control.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tc_scaling.h"

namespace time_control_test {

using xq::match::GameClock;
using xq::match::TimeControl;

namespace {

// What TimeControl::parse says about text ("no error" when it accepts it).
std::string message(const char* text) {
    try {
        TimeControl::parse(text);
    } catch (const std::invalid_argument& e) {
        return std::string(e.what());
    }
    return std::string("no error");
}

}  // namespace

TEST(TimeControl, ParsesIncrementClock) {
    TimeControl tc = TimeControl::parse("tc=10+0.1");
    ASSERT_EQ(tc.periods.size(), 1u);
    EXPECT_EQ(tc.periods[0].moves, 0);
    EXPECT_EQ(tc.periods[0].timeMs, 10000);
    EXPECT_EQ(tc.periods[0].incrementMs, 100);
    EXPECT_EQ(tc.marginMs, TimeControl::DefaultMarginMs);
    EXPECT_EQ(TimeControl::parse("10+0.1"), tc);  // a bare clock means tc=
}

TEST(TimeControl, ParsesMultiPeriodClock) {
    TimeControl tc = TimeControl::parse("tc=40/5400:20/1800");
    ASSERT_EQ(tc.periods.size(), 2u);
    EXPECT_EQ(tc.periods[0].moves, 40);
    EXPECT_EQ(tc.periods[0].timeMs, 5400000);
    EXPECT_EQ(tc.periods[1].moves, 20);
    EXPECT_EQ(tc.periods[1].timeMs, 1800000);
}

TEST(TimeControl, ParsesOtherLimitsTogether) {
    TimeControl tc = TimeControl::parse("st=0.5, nodes=5000 depth=8 margin=250");
    EXPECT_FALSE(tc.hasClock());
    EXPECT_EQ(tc.moveTimeMs, 500);
    EXPECT_EQ(tc.nodes, 5000);
    EXPECT_EQ(tc.depth, 8);
    EXPECT_EQ(tc.marginMs, 250);
    EXPECT_TRUE(tc.isLimited());
    EXPECT_FALSE(TimeControl::parse("margin=5").isLimited());
}

TEST(TimeControl, ToStringRoundTrips) {
    for (const char* text : {"tc=10+0.1", "tc=40/5400:20/1800", "st=0.25", "nodes=5000", "depth=8 margin=0",
                             "tc=60+0.6 nodes=20000", "tc=1.5", "tc=40/60+0.6:20/30"}) {
        TimeControl tc = TimeControl::parse(text);
        EXPECT_EQ(tc.toString(), text);
        EXPECT_EQ(TimeControl::parse(tc.toString()), tc) << text;
    }
}

TEST(TimeControl, RejectsBadInputWithClearMessages) {
    EXPECT_NE(message("").find("empty"), std::string::npos);
    EXPECT_NE(message("tc=abc").find("seconds"), std::string::npos);
    EXPECT_NE(message("tc=10+x").find("increment"), std::string::npos);
    EXPECT_NE(message("nodes=-5").find("nodes"), std::string::npos);
    EXPECT_NE(message("nodes=0").find("nodes"), std::string::npos);
    EXPECT_NE(message("depth=0").find("depth"), std::string::npos);
    EXPECT_NE(message("speed=3").find("unknown setting 'speed'"), std::string::npos);
    EXPECT_NE(message("tc=5400:20/1800").find("only the last period"), std::string::npos);
    EXPECT_NE(message("tc=0").find("needs time"), std::string::npos);
    EXPECT_NE(message("st=0").find("st"), std::string::npos);
    // Found by fuzzing: a period's moves beyond an int wrapped around instead of being refused.
    EXPECT_NE(message("tc=4060215044/12:20/44").find("more than 100000 moves"), std::string::npos);
}

TEST(GameClock, IncrementIsAddedAfterEachMove) {
    TimeControl tc = TimeControl::parse("tc=10+0.1 margin=50");
    GameClock clock(tc);
    EXPECT_EQ(clock.remainingMs(), 10000);
    EXPECT_EQ(clock.deadlineMs(), 10050);
    EXPECT_EQ(clock.movesToGo(), 0);
    EXPECT_TRUE(clock.charge(600));
    EXPECT_EQ(clock.remainingMs(), 9500);
    EXPECT_TRUE(clock.charge(9540));  // within the margin
    EXPECT_EQ(clock.remainingMs(), 60);
    EXPECT_FALSE(clock.charge(200));  // the flag falls
}

TEST(GameClock, PeriodsAddTimeAndTheLastRepeats) {
    TimeControl tc = TimeControl::parse("tc=2/10:1/5");
    GameClock clock(tc);
    EXPECT_EQ(clock.movesToGo(), 2);
    EXPECT_TRUE(clock.charge(4000));
    EXPECT_EQ(clock.movesToGo(), 1);
    EXPECT_TRUE(clock.charge(4000));  // second move ends period 1: +5 s
    EXPECT_EQ(clock.remainingMs(), 2000 + 5000);
    EXPECT_EQ(clock.movesToGo(), 1);
    EXPECT_TRUE(clock.charge(1000));  // the last period repeats: +5 s again
    EXPECT_EQ(clock.remainingMs(), 6000 + 5000);
    EXPECT_EQ(clock.movesToGo(), 1);
}

TEST(GameClock, FixedMoveTimeAndNoClock) {
    TimeControl st = TimeControl::parse("st=0.2 margin=30");
    GameClock a(st);
    EXPECT_EQ(a.deadlineMs(), 230);
    EXPECT_TRUE(a.charge(229));
    EXPECT_FALSE(a.charge(231));
    TimeControl nodes = TimeControl::parse("nodes=100");
    GameClock b(nodes);
    EXPECT_EQ(b.deadlineMs(), -1);
    EXPECT_TRUE(b.charge(100000));
}

TEST(TimeControl, ParsesThePerMoveSystemWithABank) {
    TimeControl tc = TimeControl::parse("tc=permove120+bank1800");
    EXPECT_TRUE(tc.hasClock());
    EXPECT_TRUE(tc.periods.empty());
    EXPECT_EQ(tc.perMoveMs, 120000);
    EXPECT_EQ(tc.bankMs, 1800000);
    EXPECT_EQ(tc.toString(), "tc=permove120+bank1800");
    EXPECT_EQ(TimeControl::parse(tc.toString()), tc);
    TimeControl noBank = TimeControl::parse("tc=permove0.5");
    EXPECT_EQ(noBank.perMoveMs, 500);
    EXPECT_EQ(noBank.bankMs, 0);
    EXPECT_EQ(noBank.toString(), "tc=permove0.5");
    EXPECT_NE(message("tc=permove0").find("time per move must be positive"), std::string::npos);
    EXPECT_NE(message("tc=permove120+1800").find("+bankSECONDS"), std::string::npos);
    EXPECT_NE(message("tc=permove+bank10").find("time per move"), std::string::npos);
    EXPECT_NE(message("tc=permove10+bankx").find("bank"), std::string::npos);
}

TEST(GameClock, ThePerMoveSystemDrawsOverrunsFromTheBankUntilItIsSpent) {
    TimeControl tc = TimeControl::parse("tc=permove2+bank5 margin=50");
    GameClock clock(tc);
    EXPECT_EQ(clock.remainingMs(), 5000);  // the bank
    EXPECT_EQ(clock.incrementMs(), 2000);  // the limit, told to engines as an increment
    EXPECT_EQ(clock.movesToGo(), 0);
    EXPECT_EQ(clock.deadlineMs(), 2000 + 5000 + 50);
    EXPECT_TRUE(clock.charge(1500));  // within the limit: the bank is untouched
    EXPECT_EQ(clock.remainingMs(), 5000);
    EXPECT_TRUE(clock.charge(4000));  // 2 s over
    EXPECT_EQ(clock.remainingMs(), 3000);
    EXPECT_TRUE(clock.charge(5020));  // 3.02 s over: the bank is spent, the margin forgives the rest
    EXPECT_EQ(clock.remainingMs(), 0);
    EXPECT_EQ(clock.deadlineMs(), 2050);
    EXPECT_TRUE(clock.charge(2000));   // a move within the limit is still fine
    EXPECT_FALSE(clock.charge(2100));  // over the limit with no bank: the flag falls
}

TEST(TimeControl, ClockScalingScalesTheLimitAndTheBank) {
    TimeControl tc = scaleTimeControl(TimeControl::parse("tc=permove10+bank100"), 0.5);
    EXPECT_EQ(tc.perMoveMs, 5000);
    EXPECT_EQ(tc.bankMs, 50000);
}

}  // namespace time_control_test
