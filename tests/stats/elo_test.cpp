// Elo, nElo and LOS estimates, checked against direct computations from their definitions.
#include "elo.h"

#include <gtest/gtest.h>

#include <cmath>

namespace xq::stats {
namespace elo_test {

double logisticElo(double score) {
    return -400 * std::log10(1 / score - 1);
}

void expectFinite(const EloEstimate& e) {
    EXPECT_TRUE(std::isfinite(e.score));
    EXPECT_TRUE(std::isfinite(e.elo));
    EXPECT_TRUE(std::isfinite(e.eloError));
    EXPECT_TRUE(std::isfinite(e.eloLower));
    EXPECT_TRUE(std::isfinite(e.eloUpper));
    EXPECT_TRUE(std::isfinite(e.los));
    EXPECT_TRUE(std::isfinite(e.nelo));
    EXPECT_TRUE(std::isfinite(e.neloError));
}

TEST(Normal, QuantileAndCdf) {
    EXPECT_NEAR(normalQuantile(0.975), 1.959963984540054, 1e-14);
    EXPECT_NEAR(normalQuantile(0.025), -1.959963984540054, 1e-14);
    EXPECT_NEAR(normalQuantile(0.5), 0, 1e-15);
    EXPECT_NEAR(normalQuantile(0.001), -3.090232306167813, 1e-12);
    EXPECT_NEAR(normalCdf(1.959963984540054), 0.975, 1e-15);
    EXPECT_NEAR(normalCdf(0), 0.5, 1e-15);
    for (double p : {1e-10, 0.01, 0.2, 0.7, 0.99, 1 - 1e-9})
        EXPECT_NEAR(normalCdf(normalQuantile(p)), p, 1e-12 * (p < 0.5 ? 1 : 1e3));
}

TEST(Elo, KnownTrinomialScore) {
    const Wdl w{600, 200, 200};  // score 0.7
    const EloEstimate e = elo(w);
    EXPECT_EQ(e.games, 1000);
    EXPECT_NEAR(e.score, 0.7, 1e-12);
    EXPECT_NEAR(e.elo, logisticElo(0.7), 1e-9);  // 147.19
    EXPECT_NEAR(e.elo, 147.1906, 1e-3);
    // Per-game variance: 0.6*0.3^2 + 0.2*0.2^2 + 0.2*0.7^2 = 0.16.
    const double stdErr = std::sqrt(0.16 / 1000);
    EXPECT_NEAR(e.eloLower, logisticElo(0.7 - 1.959963984540054 * stdErr), 1e-9);
    EXPECT_NEAR(e.eloUpper, logisticElo(0.7 + 1.959963984540054 * stdErr), 1e-9);
    EXPECT_NEAR(e.eloError, (e.eloUpper - e.eloLower) / 2, 1e-12);
    EXPECT_NEAR(e.los, normalCdf(0.2 / stdErr), 1e-12);
    EXPECT_NEAR(e.nelo, 0.2 / std::sqrt(0.16) * 800 / std::log(10.0), 1e-9);
    EXPECT_NEAR(e.drawRatio, 0.2, 1e-12);
}

TEST(Elo, KnownPentanomialScore) {
    Penta p;
    p.pairs = {10, 20, 40, 20, 10};  // symmetric: score 1/2
    EloEstimate e = elo(p);
    EXPECT_EQ(e.games, 200);
    EXPECT_NEAR(e.score, 0.5, 1e-12);
    EXPECT_NEAR(e.elo, 0, 1e-9);
    EXPECT_NEAR(e.los, 0.5, 1e-12);
    EXPECT_NEAR(e.nelo, 0, 1e-9);
    EXPECT_GT(e.eloError, 0);

    p.pairs = {0, 10, 50, 30, 10};  // pair scores 0.5..2; mean per game (5 + 50 + 45 + 20) / 200 = 0.6
    e = elo(p);
    EXPECT_NEAR(e.score, 0.6, 1e-5);  // 1e-3 regularisation of the empty LL cell
    EXPECT_NEAR(e.elo, logisticElo(0.6), 0.01);
    // The error comes from the variance of pair averages: values 0.25, 0.5, 0.75, 1 with weights
    // 0.1, 0.5, 0.3, 0.1 around 0.6; standard error = sqrt(var / pairs).
    const double var = 0.1 * 0.35 * 0.35 + 0.5 * 0.1 * 0.1 + 0.3 * 0.15 * 0.15 + 0.1 * 0.4 * 0.4;
    const double stdErr = std::sqrt(var / 100);
    EXPECT_NEAR(e.eloLower, logisticElo(0.6 - 1.959963984540054 * stdErr), 0.02);
    EXPECT_NEAR(e.eloUpper, logisticElo(0.6 + 1.959963984540054 * stdErr), 0.02);
    EXPECT_NEAR(e.los, normalCdf(0.1 / stdErr), 1e-6);
    // nElo per game = t-value of pair averages / sqrt(2) * 800 / ln 10.
    EXPECT_NEAR(e.nelo, 0.1 / std::sqrt(var) / std::sqrt(2.0) * 800 / std::log(10.0), 0.05);
    EXPECT_NEAR(e.pairsRatio, 4.0, 1e-12);
    EXPECT_NEAR(e.drawRatio, 0.5, 1e-12);
}

TEST(Elo, PairsAreNotIndependentGames) {
    // Same W/D/L totals (200 wins, 200 losses, 0 draws), but pairs that always split (WL) carry no
    // noise from the opening, so the error must be far smaller than for unpaired results.
    Penta split;
    split.pairs = {0, 0, 100, 0, 0};
    Penta lumpy;
    lumpy.pairs = {50, 0, 0, 0, 50};
    EXPECT_LT(elo(split).eloError * 10, elo(lumpy).eloError);
    EXPECT_NEAR(elo(lumpy).eloError, elo(Wdl{100, 0, 100}).eloError * std::sqrt(2.0), 1.0);
}

TEST(Elo, AllDrawsIsZeroAndFinite) {
    Penta p;
    p.pairs = {0, 0, 500, 0, 0};
    const EloEstimate e = elo(p);
    expectFinite(e);
    EXPECT_NEAR(e.elo, 0, 1e-9);
    EXPECT_NEAR(e.los, 0.5, 1e-9);
    EXPECT_LT(e.eloError, 1);
    const EloEstimate t = elo(Wdl{0, 300, 0});
    expectFinite(t);
    EXPECT_NEAR(t.elo, 0, 1e-9);
    EXPECT_NEAR(t.drawRatio, 1, 1e-12);
}

TEST(Elo, TinyAndLopsidedSamplesStayFinite) {
    expectFinite(elo(Penta{}));
    expectFinite(elo(Wdl{}));
    expectFinite(elo(Wdl{1, 0, 0}));
    expectFinite(elo(Wdl{0, 0, 1}));
    Penta one;
    one.pairs = {0, 0, 0, 0, 1};
    expectFinite(elo(one));
    Penta crushing;
    crushing.pairs = {0, 0, 0, 0, 5000};
    const EloEstimate e = elo(crushing);
    expectFinite(e);
    EXPECT_GT(e.elo, 1000);  // clamped at a score of 0.999: about +1200
    EXPECT_LT(e.elo, 1201);
    EXPECT_GT(e.los, 0.999);
}

TEST(Elo, RejectsBadInput) {
    EXPECT_THROW(elo(Wdl{-1, 2, 3}), std::invalid_argument);
    Penta p;
    p.pairs = {1, 2, -3, 4, 5};
    EXPECT_THROW(elo(p), std::invalid_argument);
    EXPECT_THROW(elo(Wdl{1, 2, 3}, 1.5), std::invalid_argument);
}

TEST(Elo, FromScoreClamps) {
    EXPECT_NEAR(eloFromScore(0.5), 0, 1e-12);
    EXPECT_NEAR(eloFromScore(0.75), 190.848, 1e-3);
    EXPECT_NEAR(eloFromScore(1.0), eloFromScore(0.999), 1e-12);
    EXPECT_NEAR(eloFromScore(0.0), -eloFromScore(0.999), 1e-9);
}

}  // namespace elo_test
}  // namespace xq::stats
