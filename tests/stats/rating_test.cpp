// Ratings of many players by maximum likelihood: synthetic tournaments whose true ratings are known
// (drawn from a seeded random source) are recovered within their intervals at the stated rate, and the
// fit agrees with a second, plain iterative maximiser of the same likelihood written here.
#include "rating.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <tuple>

namespace rating_test {

using namespace xq::stats;

namespace {

struct Tournament {
    std::vector<std::string> names;
    std::vector<RatedGame> games;
};

// A double round robin: every ordered pair plays `games` games; outcomes follow the model with the
// given true ratings, red advantage and drawElo.
Tournament playTournament(const std::vector<double>& truth, double adv, double drawElo, int games,
                          std::mt19937_64& rng) {
    Tournament t;
    for (std::size_t i = 0; i < truth.size(); ++i) t.names.push_back("p" + std::to_string(i));
    std::uniform_real_distribution<double> u(0, 1);
    for (int a = 0; a < int(truth.size()); ++a)
        for (int b = 0; b < int(truth.size()); ++b) {
            if (a == b) continue;
            for (int g = 0; g < games; ++g) {
                double w, d, l;
                outcomeProbabilities(truth[std::size_t(a)] + adv - truth[std::size_t(b)], drawElo, w, d, l);
                double x = u(rng);
                t.games.push_back({a, b, x < w ? 1.0 : x < w + d ? 0.5 : 0.0});
            }
        }
    return t;
}

// The same objective, written independently: log-likelihood of the model plus the Gaussian prior.
double objective(const std::vector<double>& r, double adv, double drawElo, const Tournament& t,
                 double priorSd) {
    double ll = 0;
    for (const auto& g : t.games) {
        double diff = r[std::size_t(g.first)] + adv - r[std::size_t(g.second)];
        double pw = 1 / (1 + std::pow(10.0, -(diff - drawElo) / 400));
        double pl = 1 / (1 + std::pow(10.0, -(-diff - drawElo) / 400));
        ll += std::log(g.score == 1 ? pw : g.score == 0 ? pl : 1 - pw - pl);
    }
    double mean = 0;
    for (double x : r) mean += x / double(r.size());
    for (double x : r) ll -= (x - mean) * (x - mean) / (2 * priorSd * priorSd);
    return ll;
}

// Cyclic coordinate ascent by golden-section search on each parameter in turn.
std::vector<double> plainMaximiser(const Tournament& t, double priorSd) {
    std::vector<double> params(t.names.size() + 2, 0);  // ratings, adv, drawElo
    params.back() = 100;
    auto f = [&](const std::vector<double>& p) {
        std::vector<double> r(p.begin(), p.end() - 2);
        return objective(r, p[p.size() - 2], p.back(), t, priorSd);
    };
    for (int sweep = 0; sweep < 300; ++sweep) {
        double moved = 0;
        for (std::size_t k = 0; k < params.size(); ++k) {
            double lo = params[k] - 200, hi = params[k] + 200;
            if (k + 1 == params.size()) lo = std::max(lo, 1e-3);
            const double phi = (std::sqrt(5.0) - 1) / 2;
            for (int it = 0; it < 80; ++it) {
                double a = hi - phi * (hi - lo), b = lo + phi * (hi - lo);
                auto pa = params, pb = params;
                pa[k] = a, pb[k] = b;
                (f(pa) > f(pb) ? hi : lo) = f(pa) > f(pb) ? b : a;
            }
            moved = std::max(moved, std::abs((lo + hi) / 2 - params[k]));
            params[k] = (lo + hi) / 2;
        }
        if (moved < 1e-4) break;
    }
    return params;
}

}  // namespace

TEST(Ratings, RecoverKnownRatingsWithinTheirIntervalsAtTheStatedRate) {
    std::mt19937_64 rng(20261202);
    const std::vector<double> truth = {-200, -50, 0, 100, 150};  // mean 0: the default anchor
    int inside = 0, total = 0;
    for (int tournament = 0; tournament < 60; ++tournament) {
        auto t = playTournament(truth, 30, 150, 40, rng);
        auto fit = fitRatings(t.names, t.games);
        for (std::size_t i = 0; i < truth.size(); ++i) {
            const auto& p = fit.players[i];
            EXPECT_LT(p.low, p.elo);
            EXPECT_GT(p.high, p.elo);
            inside += truth[i] >= p.low && truth[i] <= p.high;
            ++total;
        }
        EXPECT_NEAR(fit.advantage, 30, 40);
        EXPECT_NEAR(fit.drawElo, 150, 40);
    }
    double rate = double(inside) / total;
    // 300 intervals at 95%: the binomial's 3-sigma band is about 0.91 .. 0.99.
    EXPECT_GE(rate, 0.91) << inside << " of " << total;
    EXPECT_LE(rate, 0.99) << inside << " of " << total;
}

TEST(Ratings, AgreeWithAPlainIterativeMaximiserToATenthOfAnElo) {
    std::mt19937_64 rng(7);
    auto t = playTournament({-120, 0, 40, 200}, 25, 120, 30, rng);
    auto fit = fitRatings(t.names, t.games);
    auto plain = plainMaximiser(t, 1000);
    double mean = 0;
    for (std::size_t i = 0; i < t.names.size(); ++i) mean += plain[i] / double(t.names.size());
    for (std::size_t i = 0; i < t.names.size(); ++i)
        EXPECT_NEAR(fit.players[i].elo, plain[i] - mean, 0.1) << t.names[i];
    EXPECT_NEAR(fit.advantage, plain[t.names.size()], 0.1);
    EXPECT_NEAR(fit.drawElo, plain[t.names.size() + 1], 0.1);
}

TEST(Ratings, AnchorAPlayerAndCountGamesAndScores) {
    std::vector<std::string> names = {"base", "dev", "fairy"};
    std::vector<RatedGame> games = {{0, 1, 0}, {1, 0, 0.5}, {2, 0, 1}, {0, 2, 0.5}, {1, 2, 1}, {2, 1, 0.5}};
    RatingOptions o;
    o.anchor = 0;
    o.anchorElo = 2000;
    auto fit = fitRatings(names, games, o);
    EXPECT_DOUBLE_EQ(fit.players[0].elo, 2000);
    EXPECT_DOUBLE_EQ(fit.players[0].low, 2000) << "the anchor has no uncertainty of its own";
    EXPECT_EQ(fit.players[1].games, 4);
    EXPECT_DOUBLE_EQ(fit.players[1].score, 3);  // won 1, drew 2... 1 + 0.5 + 1 + 0.5
    EXPECT_GT(fit.players[1].elo, fit.players[0].elo);
}

TEST(Ratings, APlayerWhoWonEveryGameStaysFiniteAndOnTop) {
    std::vector<RatedGame> games;
    for (int i = 0; i < 20; ++i) games.push_back({i % 2 ? 0 : 1, i % 2 ? 1 : 0, i % 2 ? 1.0 : 0.0});
    for (int i = 0; i < 20; ++i) games.push_back({1, 2, i % 3 == 0 ? 0.5 : 1.0});
    auto fit = fitRatings({"strong", "middle", "weak"}, games);
    for (const auto& p : fit.players) EXPECT_TRUE(std::isfinite(p.elo) && std::isfinite(p.high)) << p.name;
    EXPECT_GT(fit.players[0].elo, fit.players[1].elo);
    EXPECT_GT(fit.players[1].elo, fit.players[2].elo);
}

TEST(Ratings, RefuseGamesThatCannotBe) {
    EXPECT_THROW(fitRatings({"a"}, {{0, 1, 1}}), std::invalid_argument);
    EXPECT_THROW(fitRatings({"a", "b"}, {{0, 0, 1}}), std::invalid_argument);
    EXPECT_THROW(fitRatings({"a", "b"}, {{0, 1, 0.7}}), std::invalid_argument);
}

TEST(Ratings, TotalsFitAsTheGamesTheyCount) {
    RatingInput totals, games;
    totals.addTotals("a", "b", {30, 50, 20});
    totals.addTotals("b", "c", {25, 40, 35});
    for (auto [first, second, wdl] : {std::tuple{"a", "b", std::array<int, 3>{30, 50, 20}},
                                      std::tuple{"b", "c", std::array<int, 3>{25, 40, 35}}})
        for (int k = 0; k < 3; ++k)
            for (int i = 0; i < wdl[std::size_t(k)]; ++i) {
                double score = k == 0 ? 1 : k == 1 ? 0.5 : 0;
                // Half of each result with either colour, as addTotals splits them.
                if (i % 2 == 0)
                    games.addGame(first, second, score);
                else
                    games.addGame(second, first, 1 - score);
            }
    EXPECT_LE(totals.games.size(), 12u) << "a few weighted records, not one per game";
    RatingOptions o;
    o.fitAdvantage = false;
    auto a = fitRatings(totals.names, totals.games, o), b = fitRatings(games.names, games.games, o);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_NEAR(a.players[i].elo, b.players[i].elo, 1e-6);
        EXPECT_NEAR(a.players[i].high, b.players[i].high, 1e-6);
        EXPECT_EQ(a.players[i].games, b.players[i].games);
    }
}

// Without draws the model is the plain logistic (Bradley-Terry) one and drawElo sits at its lower bound. The
// fit once stopped there with ratings far too close together: a 75% scorer came out well under the 191
// Elo the score implies.
TEST(Ratings, WithoutDrawsAThreeQuarterScoreIsAbout191EloAbove) {
    std::vector<RatedGame> games;
    for (int colour : {0, 1}) {  // both colours alike: no first-move advantage to fit
        games.push_back({colour ? 1 : 0, colour ? 0 : 1, colour ? 0.0 : 1.0, 150});
        games.push_back({colour ? 1 : 0, colour ? 0 : 1, colour ? 1.0 : 0.0, 50});
    }
    auto fit = fitRatings({"strong", "weak"}, games);
    const double expected = 400 * std::log10(3.0);  // 190.85
    EXPECT_NEAR(fit.players[0].elo - fit.players[1].elo, expected, 0.5);
    EXPECT_NEAR(fit.advantage, 0, 0.5);
    EXPECT_LT(fit.drawElo, 0.01);
    // 400 games: the interval of the difference is about +-70 Elo wide, not collapsed and not unbounded.
    EXPECT_GT(fit.players[0].high - fit.players[0].low, 20);
    EXPECT_LT(fit.players[0].high - fit.players[0].low, 150);
}

// Hunter's MM algorithm for the Bradley-Terry model (no draws, no advantage, no prior): an independent
// maximiser of the plain logistic likelihood. Returns ratings in Elo with mean 0.
std::vector<double> bradleyTerryMm(int n, const std::vector<RatedGame>& games) {
    std::vector<double> wins(std::size_t(n), 0), gamma(std::size_t(n), 1);
    std::vector<std::vector<double>> played(std::size_t(n), std::vector<double>(std::size_t(n), 0));
    for (const auto& g : games) {
        wins[std::size_t(g.score == 1 ? g.first : g.second)] += double(g.count);
        played[std::size_t(g.first)][std::size_t(g.second)] += double(g.count);
        played[std::size_t(g.second)][std::size_t(g.first)] += double(g.count);
    }
    for (int it = 0; it < 20000; ++it) {
        std::vector<double> next(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) {
            double denominator = 0;
            for (int j = 0; j < n; ++j)
                if (j != i)
                    denominator += played[std::size_t(i)][std::size_t(j)] /
                                   (gamma[std::size_t(i)] + gamma[std::size_t(j)]);
            next[std::size_t(i)] = wins[std::size_t(i)] / denominator;
        }
        gamma = next;
    }
    std::vector<double> elo(static_cast<std::size_t>(n));
    double mean = 0;
    for (int i = 0; i < n; ++i) mean += (elo[std::size_t(i)] = 400 * std::log10(gamma[std::size_t(i)])) / n;
    for (double& e : elo) e -= mean;
    return elo;
}

TEST(Ratings, DecisiveOnlyTournamentsFitAsAPlainLogisticMaximumLikelihood) {
    std::mt19937_64 rng(20261205);
    for (int tournament = 0; tournament < 5; ++tournament) {
        // Draws never happen (drawElo 0); the weakest still wins some games, so the maximum exists.
        auto t = playTournament({-250, -90, 0, 60, 280}, 0, 0, 30, rng);
        for (const auto& g : t.games) ASSERT_NE(g.score, 0.5);
        RatingOptions o;
        o.priorElo = 0;
        o.fitAdvantage = false;
        auto fit = fitRatings(t.names, t.games, o);
        auto reference = bradleyTerryMm(int(t.names.size()), t.games);
        for (std::size_t i = 0; i < t.names.size(); ++i)
            EXPECT_NEAR(fit.players[i].elo, reference[i], 0.1)
                << "tournament " << tournament << " " << t.names[i];
        EXPECT_LT(fit.drawElo, 0.01);
    }
}

}  // namespace rating_test
