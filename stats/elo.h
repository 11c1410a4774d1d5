// Elo estimates from match results, as fishtest reports them.
//
// - Logistic Elo with its confidence interval and LOS: fishtest's stat_util.get_elo (a normal
//   approximation on the mean score, per game; for pentanomial counts the variance is the pairs'
//   variance, which accounts for the correlation between the two games of a pair).
// - Normalized Elo (nElo) with its interval: fishtest's results page (elo_results.mak): the t-value
//   (mu - 1/2) / sigma scaled by 800 / ln 10 per game, with the skewness/kurtosis-corrected variance
//   of the t-value. nElo measures how fast a test resolves: the same nElo needs the same number of
//   games whatever the draw rate.
// Empty cells are regularized (replaced by 1e-3) as in fishtest, so every result is finite: no games
// at all gives Elo 0 with a huge error, all draws gives Elo 0 with a tiny one.
#pragma once

#include <cstdint>

#include "results.h"

namespace xq::stats {

struct EloEstimate {
    std::int64_t games = 0;  // real games (2 per pair), not the regularized count
    double score = 0.5;      // mean score per game, 0..1
    double elo = 0;          // logistic Elo
    double eloError = 0;     // half-width of the confidence interval (fishtest's "+-")
    double eloLower = 0;     // the interval's ends (Elo is not linear in the score, so they are not
    double eloUpper = 0;     //   exactly elo -+ eloError)
    double los = 0.5;        // likelihood of superiority, 0..1
    double nelo = 0;         // normalized Elo
    double neloError = 0;    // half-width of nElo's confidence interval
    double drawRatio = 0;    // draws / games (trinomial); DD+WL pairs / pairs (pentanomial)
    double pairsRatio = 0;   // (WD+WW) / (LL+LD), pentanomial only; inf if no losing pairs, 0 for trinomial
};

// `confidence` is the two-sided level of the intervals (0.95 = 95%).
EloEstimate elo(const Penta& penta, double confidence = 0.95);
EloEstimate elo(const Wdl& wdl, double confidence = 0.95);

// Logistic Elo of a mean score; fishtest clamps the score to [0.001, 0.999], so the answer stays
// within about +-1200.
double eloFromScore(double score);

// The standard normal distribution: cumulative probability and its inverse.
double normalCdf(double x);
double normalQuantile(double p);

}  // namespace xq::stats
