// fishtest's stopping-rule-aware Elo estimate for SPRT tests.
#include "sprt_elo.h"

#include <gtest/gtest.h>

#include <cmath>

namespace xq::stats {
namespace sprt_elo_test {

SprtConfig config(double elo0, double elo1, EloModel model) {
    SprtConfig c;
    c.elo0 = elo0, c.elo1 = elo1, c.model = model;
    return c;
}

Penta penta(std::int64_t ll, std::int64_t ld, std::int64_t dd, std::int64_t wd, std::int64_t ww) {
    Penta p;
    p.pairs = {ll, ld, dd, wd, ww};
    return p;
}

// Values from a throwaway Python transliteration of fishtest's sprt.py / brownian.py / SPRT_elo (its
// LLR part reproduces the official fishtest reference values exactly); our C++ agrees with it to
// ~1e-11 on ~1000 cases, small, large, lopsided and all-draw.
TEST(SprtElo, AgreesWithFishtestTransliteration) {
    SprtEloEstimate e = sprtElo(penta(100, 2600, 6100, 3150, 150), config(0, 2, EloModel::Normalized));
    EXPECT_NEAR(e.elo, 9.155825865389463, 1e-6);
    EXPECT_NEAR(e.ciLower, 5.661110624270155, 1e-6);
    EXPECT_NEAR(e.ciUpper, 12.660514426354926, 1e-6);
    EXPECT_NEAR(e.los, 0.9999998553818851, 1e-9);
    EXPECT_TRUE(e.clamped);
    EXPECT_NEAR(e.llr, 6.685197881585151, 1e-6);

    e = sprtElo(Wdl{716, 2163, 591}, config(0, 5, EloModel::Logistic));
    EXPECT_NEAR(e.elo, 11.682053251211984, 1e-6);
    EXPECT_NEAR(e.ciLower, 3.3922890878879532, 1e-6);
    EXPECT_NEAR(e.ciUpper, 19.929729006358684, 1e-6);
    EXPECT_NEAR(e.los, 0.997030847848697, 1e-9);

    e = sprtElo(penta(39, 2226, 31451, 2412, 40), config(0.764, 3.439, EloModel::Normalized));
    EXPECT_NEAR(e.elo, 0.8651599891257022, 1e-6);
    EXPECT_NEAR(e.ciLower, 0.16828551651266144, 1e-6);
    EXPECT_NEAR(e.ciUpper, 1.5406522530041382, 1e-6);
    EXPECT_NEAR(e.los, 0.9920000189821488, 1e-9);
    EXPECT_FALSE(e.clamped);

    e = sprtElo(penta(10789, 19328, 33806, 19402, 10543), config(-3, 1, EloModel::Logistic));
    EXPECT_NEAR(e.elo, -0.9925365113328344, 1e-6);
    EXPECT_NEAR(e.ciLower, -3.4884921250151595, 1e-6);
    EXPECT_NEAR(e.ciUpper, 1.4885861022252398, 1e-6);
    EXPECT_NEAR(e.los, 0.18803493290026232, 1e-9);
}

TEST(SprtElo, EdgeCasesStayFinite) {
    // No games: nothing is known, fishtest answers the whole [-1000, 1000] range.
    SprtEloEstimate e = sprtElo(Penta{}, config(0, 2, EloModel::Normalized));
    EXPECT_NEAR(e.elo, 0, 1e-9);
    EXPECT_EQ(e.ciLower, -1000);
    EXPECT_EQ(e.ciUpper, 1000);
    // All draws: zero, tightly.
    e = sprtElo(penta(0, 0, 1000, 0, 0), config(0, 2, EloModel::Normalized));
    EXPECT_NEAR(e.elo, 0, 1e-9);
    EXPECT_NEAR(e.ciLower, -0.03412217174254789, 1e-6);
    EXPECT_NEAR(e.ciUpper, 0.03410485956167924, 1e-6);
    // A sweep runs into fishtest's search limit.
    e = sprtElo(penta(0, 0, 0, 0, 300), config(0, 5, EloModel::Logistic));
    EXPECT_EQ(e.elo, 1000);
    for (const Wdl& w : {Wdl{1, 0, 0}, Wdl{0, 1, 0}, Wdl{0, 0, 1}, Wdl{3, 1, 0}}) {
        e = sprtElo(w, config(0, 5, EloModel::Logistic));
        EXPECT_TRUE(std::isfinite(e.elo) && std::isfinite(e.ciLower) && std::isfinite(e.ciUpper) &&
                    std::isfinite(e.los));
        EXPECT_LE(e.ciLower, e.elo);
        EXPECT_LE(e.elo, e.ciUpper);
    }
}

// Before a bound is reached the stopping rule has not acted yet, so the estimate is close to the plain
// one; after a lucky pass it is pulled back towards the bounds.
TEST(SprtElo, CorrectsTowardsTheBoundsOnlyOnceStopped) {
    const SprtConfig c = config(0, 2, EloModel::Normalized);
    const Penta running = penta(10, 260, 610, 315, 15);
    EXPECT_NEAR(sprtElo(running, c).elo, elo(running).elo, 0.01);
    const Penta passed = penta(100, 2600, 6100, 3150, 150);
    EXPECT_LT(sprtElo(passed, c).elo, elo(passed).elo);
    EXPECT_LT(sprtElo(passed, c).ciLower, sprtElo(passed, c).elo);
    EXPECT_GT(sprtElo(passed, c).ciUpper, sprtElo(passed, c).elo);
}

TEST(SprtElo, RejectsBadInput) {
    EXPECT_THROW(sprtElo(Wdl{1, 2, 3}, config(2, 1, EloModel::Logistic)), std::invalid_argument);
    EXPECT_THROW(sprtElo(Wdl{-1, 2, 3}, config(0, 1, EloModel::Logistic)), std::invalid_argument);
    EXPECT_THROW(sprtElo(Wdl{1, 2, 3}, config(0, 1, EloModel::Logistic), 0), std::invalid_argument);
}

}  // namespace sprt_elo_test
}  // namespace xq::stats
