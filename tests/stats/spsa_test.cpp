// SPSA's schedules and update (stats/spsa.h), against the values fishtest's formulas give by hand.
#include "spsa.h"

#include <gtest/gtest.h>

#include <cmath>

namespace spsa_test {

using namespace xq::stats;

TEST(Spsa, TheLastIterationPerturbsByCEndAndStepsAtREnd) {
    SpsaSchedule s{1000, 0.602, 0.101, 100};
    SpsaAxis a{0, 400, 10, 0.002};
    EXPECT_NEAR(spsaPerturbation(a, s, 999), 10, 1e-9);
    // a_k / c_k^2 is the learning rate: r_end at the end.
    double c = spsaPerturbation(a, s, 999);
    EXPECT_NEAR(spsaStepSize(a, s, 999) / (c * c), 0.002, 1e-12);
    // At the start: c = c_end * N^gamma and a = r_end * c_end^2 * (A + N)^alpha / (A + 1)^alpha.
    EXPECT_NEAR(spsaPerturbation(a, s, 0), 10 * std::pow(1000.0, 0.101), 1e-9);
    EXPECT_NEAR(spsaStepSize(a, s, 0), 0.002 * 100 * std::pow(1100.0, 0.602) / std::pow(101.0, 0.602), 1e-9);
}

TEST(Spsa, AResultMovesThetaTowardTheWinningSideAndStaysInItsRange) {
    SpsaSchedule s{100, 0.602, 0.101, 10};
    SpsaAxis a{0, 100, 5, 0.01};
    double step = spsaStepSize(a, s, 20) / spsaPerturbation(a, s, 20);
    EXPECT_NEAR(spsaUpdate(a, s, 20, 50, 2, +1), 50 + 2 * step, 1e-9);  // θ+ won: θ moves up
    EXPECT_NEAR(spsaUpdate(a, s, 20, 50, 2, -1), 50 - 2 * step, 1e-9);  // θ+ was θ − c: θ moves down
    EXPECT_EQ(spsaUpdate(a, s, 20, 50, 0, +1), 50);
    EXPECT_EQ(spsaUpdate(a, s, 20, 99.9, 1000, +1), 100);
    EXPECT_EQ(spsaUpdate(a, s, 20, 0.1, -1000, +1), 0);
    EXPECT_NEAR(spsaProbe(a, s, 20, 50, +1), 50 + spsaPerturbation(a, s, 20), 1e-9);
    EXPECT_EQ(spsaProbe(a, s, 20, 99, +1), 100);
}

}  // namespace spsa_test
