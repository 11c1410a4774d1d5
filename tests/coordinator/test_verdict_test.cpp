// coordinator/client/test_verdict.h: what each way a test can end means as `xq wait`'s exit status.
#include "test_verdict.h"

#include <gtest/gtest.h>

namespace test_verdict_test {

namespace v1 = xq::v1;
using xq::coord::testVerdict;

v1::TestView view(v1::TestState state, bool sprt, const std::string& result, std::uint64_t games = 40) {
    v1::TestView v;
    v.mutable_summary()->set_state(state);
    v.mutable_summary()->set_is_sprt(sprt);
    v.mutable_summary()->set_result(result);
    v.mutable_summary()->set_games(games);
    return v;
}

TEST(TestVerdict, ARunningOrPendingTestHasNoVerdictYet) {
    EXPECT_FALSE(testVerdict(view(v1::TEST_STATE_RUNNING, true, "")));
    EXPECT_FALSE(testVerdict(view(v1::TEST_STATE_PENDING, true, "")));
}

TEST(TestVerdict, AnSprtPassesOnH1AndFailsOnH0OrWhenItsCapEndsItUndecided) {
    auto h1 = testVerdict(view(v1::TEST_STATE_FINISHED, true, "H1 accepted"));
    ASSERT_TRUE(h1);
    EXPECT_EQ(h1->exitCode, 0);
    EXPECT_EQ(h1->text, "passed: H1 accepted");
    auto h0 = testVerdict(view(v1::TEST_STATE_FINISHED, true, "H0 accepted"));
    EXPECT_EQ(h0->exitCode, 1);
    EXPECT_EQ(h0->text, "failed: H0 accepted");
    auto capped = testVerdict(view(v1::TEST_STATE_FINISHED, true, "no verdict within the game cap"));
    EXPECT_EQ(capped->exitCode, 1);
    EXPECT_EQ(capped->text, "failed: no verdict within the game cap");
}

TEST(TestVerdict, AFixedGamesTestPassesWhenItHasPlayedThem) {
    auto fixed = testVerdict(view(v1::TEST_STATE_FINISHED, false, "finished", 200));
    EXPECT_EQ(fixed->exitCode, 0);
    EXPECT_NE(fixed->text.find("played its 200 games"), std::string::npos) << fixed->text;
}

TEST(TestVerdict, AStoppedTestOrAnUnknownStateHasNoVerdictAndSaysWhy) {
    auto stopped = testVerdict(view(v1::TEST_STATE_STOPPED, true, "the author pushed again"));
    EXPECT_EQ(stopped->exitCode, 2);
    EXPECT_EQ(stopped->text, "no verdict: stopped (the author pushed again)");
    auto plain = testVerdict(view(v1::TEST_STATE_STOPPED, true, "stopped"));
    EXPECT_EQ(plain->text, "no verdict: stopped") << "the state is not said twice";
    auto unknown = testVerdict(view(v1::TEST_STATE_UNSPECIFIED, true, ""));
    EXPECT_EQ(unknown->exitCode, 2);
}

}  // namespace test_verdict_test
