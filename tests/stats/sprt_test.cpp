// The SPRT API: bounds, decisions, the overshoot-correcting tracker, forecasts, edge cases.
#include "sprt.h"

#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <random>

namespace xq::stats {

void PrintTo(Decision d, std::ostream* os) {
    *os << toString(d);
}

namespace sprt_test {

Penta penta(std::int64_t ll, std::int64_t ld, std::int64_t dd, std::int64_t wd, std::int64_t ww) {
    Penta p;
    p.pairs = {ll, ld, dd, wd, ww};
    return p;
}

SprtConfig config(double elo0, double elo1, EloModel model = EloModel::Normalized) {
    SprtConfig c;
    c.elo0 = elo0, c.elo1 = elo1, c.model = model;
    return c;
}

TEST(Sprt, BoundsFormula) {
    SprtConfig c = config(0, 2);
    EXPECT_NEAR(c.lowerBound(), std::log(0.05 / 0.95), 1e-15);
    EXPECT_NEAR(c.upperBound(), std::log(0.95 / 0.05), 1e-15);
    EXPECT_NEAR(c.upperBound(), 2.9444389791664403, 1e-12);
    c.alpha = 0.01, c.beta = 0.1;
    EXPECT_NEAR(c.lowerBound(), std::log(0.1 / 0.99), 1e-15);
    EXPECT_NEAR(c.upperBound(), std::log(0.9 / 0.01), 1e-15);
    const SprtState s = sprt(penta(1, 2, 3, 2, 1), c);
    EXPECT_EQ(s.lower, c.lowerBound());
    EXPECT_EQ(s.upper, c.upperBound());
}

TEST(Sprt, Decisions) {
    const SprtConfig c = config(0, 2);
    const SprtState pass = sprt(penta(100, 2600, 6100, 3150, 150), c);  // LLR 6.69
    EXPECT_EQ(pass.decision, Decision::AcceptH1);
    const SprtState fail = sprt(penta(150, 3150, 6100, 2600, 100), c);
    EXPECT_LT(fail.llr, fail.lower);
    EXPECT_EQ(fail.decision, Decision::AcceptH0);
    const SprtState undecided = sprt(penta(10, 260, 610, 315, 15), c);
    EXPECT_GT(undecided.llr, undecided.lower);
    EXPECT_LT(undecided.llr, undecided.upper);
    EXPECT_EQ(undecided.decision, Decision::Continue);
    EXPECT_STREQ(toString(Decision::AcceptH1), "H1");
    EXPECT_STREQ(toString(Decision::AcceptH0), "H0");
    EXPECT_STREQ(toString(Decision::Continue), "continue");
}

TEST(Sprt, TinySamplesAreFiniteAndUndecided) {
    const std::vector<Penta> pentas = {penta(0, 0, 0, 0, 0), penta(1, 0, 0, 0, 0), penta(0, 0, 0, 0, 1),
                                       penta(0, 0, 1, 0, 0), penta(0, 1, 0, 1, 0), penta(0, 0, 50, 0, 0),
                                       penta(0, 0, 0, 0, 3), penta(2, 0, 0, 0, 0)};
    for (EloModel model : {EloModel::Normalized, EloModel::Logistic}) {
        for (const Penta& p : pentas) {
            const SprtState s = sprt(p, config(0, 2, model));
            EXPECT_TRUE(std::isfinite(s.llr)) << formatPenta(p);
            EXPECT_EQ(s.decision, Decision::Continue) << formatPenta(p) << " llr " << s.llr;
        }
        for (const Wdl& w : {Wdl{}, Wdl{1, 0, 0}, Wdl{0, 1, 0}, Wdl{0, 0, 1}, Wdl{0, 50, 0}, Wdl{3, 0, 0}}) {
            const SprtState s = sprt(w, config(0, 5, model));
            EXPECT_TRUE(std::isfinite(s.llr));
            EXPECT_EQ(s.decision, Decision::Continue);
        }
    }
    // All draws is evidence for "equal", so it speaks for H0 = 0 against H1 = 2 (slowly, as the
    // regularisation keeps a little doubt).
    EXPECT_LT(sprt(penta(0, 0, 1000, 0, 0), config(0, 2)).llr, 0);
    EXPECT_LT(sprt(penta(0, 0, 1000, 0, 0), config(0, 2, EloModel::Logistic)).llr, 0);
    // With logistic bounds, where the variance does not enter the hypotheses, many draws settle it.
    EXPECT_EQ(sprt(Wdl{0, 500, 0}, config(0, 5, EloModel::Logistic)).decision, Decision::AcceptH0);
}

// A clean sweep decides, but (as in fishtest, through the 1e-3 regularisation of the empty cells,
// which leaves the variance almost zero) only after a couple of hundred pairs in the normalized model.
TEST(Sprt, LopsidedResultsDecide) {
    EXPECT_EQ(sprt(penta(0, 0, 0, 0, 30), config(0, 5)).decision, Decision::Continue);
    EXPECT_EQ(sprt(penta(0, 0, 0, 0, 200), config(0, 5)).decision, Decision::AcceptH1);
    EXPECT_EQ(sprt(penta(200, 0, 0, 0, 0), config(0, 5)).decision, Decision::AcceptH0);
    EXPECT_EQ(sprt(penta(0, 0, 0, 0, 300), config(0, 5, EloModel::Logistic)).decision, Decision::AcceptH1);
    EXPECT_EQ(sprt(penta(300, 0, 0, 0, 0), config(0, 5, EloModel::Logistic)).decision, Decision::AcceptH0);
    EXPECT_EQ(sprt(Wdl{1000, 0, 0}, config(0, 5, EloModel::Logistic)).decision, Decision::AcceptH1);
}

TEST(Sprt, RejectsBadConfig) {
    EXPECT_THROW(sprt(Wdl{1, 1, 1}, config(2, 2)), std::invalid_argument);
    EXPECT_THROW(sprt(Wdl{1, 1, 1}, config(3, 2)), std::invalid_argument);
    SprtConfig c = config(0, 2);
    c.alpha = 0;
    EXPECT_THROW(sprt(Wdl{1, 1, 1}, c), std::invalid_argument);
    c.alpha = 1;
    EXPECT_THROW(sprt(Wdl{1, 1, 1}, c), std::invalid_argument);
    c.alpha = 0.6, c.beta = 0.5;
    EXPECT_THROW(sprt(Wdl{1, 1, 1}, c), std::invalid_argument);
    c = config(0, NAN);
    EXPECT_THROW(sprt(Wdl{1, 1, 1}, c), std::invalid_argument);
    EXPECT_THROW(sprt(Wdl{-1, 1, 1}, config(0, 2)), std::invalid_argument);
    EXPECT_THROW(sprt(Wdl{1, 1, 1}, config(0, 250)), std::invalid_argument);
    EXPECT_THROW(sprt(Wdl{1, 1, 1}, config(-1500, 0, EloModel::Logistic)), std::invalid_argument);
    EXPECT_NO_THROW(sprt(Wdl{1, 1, 1}, config(-200, 200)));
    EXPECT_NO_THROW(sprt(Wdl{1, 1, 1}, config(-1000, 1000, EloModel::Logistic)));
    EXPECT_THROW(parseEloModel("bayes"), std::invalid_argument);
    EXPECT_EQ(parseEloModel("logistic"), EloModel::Logistic);
    EXPECT_EQ(parseEloModel("normalized"), EloModel::Normalized);
}

// Pairs drawn from a model where the tested engine is clearly stronger than elo1.
Penta randomPair(std::mt19937_64& rng, double win, double draw) {
    std::uniform_real_distribution<double> u(0, 1);
    auto game = [&] {
        const double x = u(rng);
        return x < win ? Outcome::Win : x < win + draw ? Outcome::Draw : Outcome::Loss;
    };
    Penta p;
    p.addPair(game(), game());
    return p;
}

TEST(SprtTracker, MatchesStatelessLlrAndTightensBounds) {
    const SprtConfig c = config(0, 5);
    SprtTracker tracker(c);
    std::mt19937_64 rng(12345);
    Penta totals;
    SprtState s;
    int pairs = 0;
    do {
        totals += randomPair(rng, 0.36, 0.34);  // ~ +35 Elo
        s = tracker.update(totals);
        ++pairs;
        ASSERT_NEAR(s.llr, sprt(totals, c).llr, 1e-12);
        ASSERT_GE(s.lower, c.lowerBound());
        ASSERT_LE(s.upper, c.upperBound());
    } while (s.decision == Decision::Continue && pairs < 20000);
    EXPECT_EQ(s.decision, Decision::AcceptH1);
    EXPECT_LT(s.upper, c.upperBound());  // some overshoot was observed and corrected for
    EXPECT_EQ(totals.pairCount(), pairs);
}

TEST(SprtTracker, RepeatedTotalsChangeNothingAndGoingBackTurnsCorrectionOff) {
    const SprtConfig c = config(0, 5);
    SprtTracker tracker(c);
    std::mt19937_64 rng(7);
    Penta totals;
    for (int i = 0; i < 200; ++i) {
        totals += randomPair(rng, 0.4, 0.3);
        tracker.update(totals);
    }
    const SprtState before = tracker.update(totals);
    const SprtState again = tracker.update(totals);
    EXPECT_EQ(before.upper, again.upper);
    EXPECT_LT(before.upper, c.upperBound());
    Penta fewer = totals;
    fewer.pairs[2] -= 1;
    const SprtState purged = tracker.update(fewer);
    EXPECT_EQ(purged.upper, c.upperBound());
    EXPECT_EQ(purged.lower, c.lowerBound());
    EXPECT_EQ(tracker.update(totals).upper, c.upperBound());  // off for good
}

TEST(SprtTracker, BatchSizeContract) {
    const SprtConfig c = config(0, 5);
    EXPECT_THROW(SprtTracker(c, 0), std::invalid_argument);
    SprtTracker tracker(c, 4);
    Penta totals;
    totals.pairs = {0, 1, 1, 1, 1};
    tracker.update(totals);  // 4 pairs: fine
    totals.pairs = {0, 1, 2, 1, 1};
    const SprtState s = tracker.update(totals);  // 5 pairs: not a multiple of 4
    EXPECT_EQ(s.upper, c.upperBound());
}

TEST(Forecast, PassProbabilityNearTheDesignErrorRates) {
    const SprtConfig c = config(0, 5, EloModel::Logistic);
    // For a simple SPRT whose LLR were an exact Brownian motion, P(pass) would be exactly 1 - beta at
    // elo1 and alpha at elo0; the GSPRT is close to that.
    const auto atElo1 = pentanomialModel(5, 0.5);
    const auto atElo0 = pentanomialModel(0, 0.5);
    const SprtForecast pass = forecast(atElo1, c);
    const SprtForecast fail = forecast(atElo0, c);
    EXPECT_NEAR(pass.passProbability, 0.95, 0.01);
    EXPECT_NEAR(fail.passProbability, 0.05, 0.01);
    EXPECT_GT(pass.expectedSamples, 1000);
    EXPECT_NEAR(pass.expectedGames, 2 * pass.expectedSamples, 1e-9);
    // Far above elo1 the test ends sooner.
    EXPECT_LT(forecast(pentanomialModel(20, 0.5), c).expectedSamples, pass.expectedSamples);
    // Trinomial: same story with games.
    const SprtForecast tri = forecast(trinomialModel(5, 0.5), c);
    EXPECT_NEAR(tri.passProbability, 0.95, 0.01);
    EXPECT_NEAR(tri.expectedGames, tri.expectedSamples, 1e-9);

    const SprtConfig n = config(0, 2);
    EXPECT_GT(forecast(pentanomialModel(10, 0.5), n).passProbability, 0.5);
    EXPECT_LT(forecast(pentanomialModel(-5, 0.5), n).passProbability, 0.05);
}

TEST(Forecast, RemainingFromTheCurrentState) {
    const SprtConfig c = config(0, 2);
    const SprtForecast done = forecastRemaining(penta(100, 2600, 6100, 3150, 150), c);
    EXPECT_EQ(done.expectedSamples, 0);
    EXPECT_EQ(done.passProbability, 1);
    const SprtForecast going = forecastRemaining(penta(10, 260, 610, 315, 15), c);
    EXPECT_GT(going.expectedSamples, 0);
    EXPECT_TRUE(std::isfinite(going.expectedSamples));
    EXPECT_GT(going.passProbability, 0.5);  // strong so far
    const SprtForecast empty = forecastRemaining(Penta{}, c);
    EXPECT_TRUE(std::isfinite(empty.expectedSamples));
    EXPECT_THROW(trinomialModel(0, 1.5), std::invalid_argument);
    EXPECT_THROW(forecast(trinomialModel(0, 1.0), c), std::invalid_argument);  // draws only
    EXPECT_NO_THROW(forecast(pentanomialModel(3, 0.0), c));                    // no draws at all
}

TEST(Summary, OneLine) {
    const SprtConfig c = config(0, 2);
    const std::string line = summaryLine(penta(100, 2600, 6100, 3150, 150), c);
    EXPECT_NE(line.find("LLR 6.69 (-2.94, 2.94) [0.00, 2.00]"), std::string::npos) << line;
    EXPECT_EQ(line.rfind("Elo ", 0), 0u) << line;
    EXPECT_NE(line.find("nElo "), std::string::npos) << line;
    EXPECT_NE(line.find("LOS 100.0%"), std::string::npos) << line;
    EXPECT_EQ(formatPenta(penta(1, 2, 3, 4, 5)), "Ptnml(0-2): 1, 2, 3, 4, 5");
}

}  // namespace sprt_test
}  // namespace xq::stats
