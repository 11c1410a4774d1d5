// The generalized SPRT log-likelihood ratio, computed the way fishtest computes it
// (server/fishtest/stats/LLRcalc.py), so that a test run here and a test run there stop at the same
// point given the same counts.
//
// The model: the results are draws from an unknown discrete distribution on the scores 0..1. H0 and
// H1 each fix one statistic of that distribution (the expected score for logistic Elo, the t-value
// (mu - 1/2) / sigma for normalized Elo); the LLR compares the maximum-likelihood distributions under
// each constraint. Those maximisers come from a Lagrange multiplier found by solving the "secular
// equation" sum_i p_i a_i / (1 + x a_i) = 0 with Brent's method; the t-value case iterates that
// (at most 10 times, as fishtest does) since sigma depends on the solution.
//
// Faithful to fishtest down to its quirks, because matching its numbers is the point:
// - an empty cell is replaced by 1e-3 games ("regularisation"), so zero counts never give log(0);
// - the root finder is Brent's method with scipy's defaults (xtol 2e-12, rtol 4 eps, 100 iterations)
//   on [-1/max(a) + 1e-9, -1/min(a) - 1e-9];
// - the t-value MLE starts from the uniform distribution and stops after 10 rounds or when no
//   probability moves by 1e-9.
// Where fishtest raises because the maths has no solution (no sign change in the secular equation,
// which only happens for absurd bounds such as |nElo| in the hundreds), these functions throw
// std::domain_error. Where fishtest trips over its own consistency asserts (the MLE's probabilities
// summing to 1 +- 1e-6; seen only with millions of extremely lopsided games, |LLR| > 100), they
// return the value the same algorithm computes, which decides such a test the obvious way.
// Cross-checked against a transliteration of fishtest's code on ~3800 cases: bit-identical results.
#pragma once

#include <cmath>
#include <span>
#include <vector>

namespace xq::stats {

// 800 / ln 10: converts a t-value per game into normalized Elo.
inline const double kNeloPerT = 800 / std::log(10.0);  // 347.4355855226...

// Logistic Elo -> expected score.
double scoreFromElo(double elo);

// A discrete distribution: score values (ascending) and their probabilities.
struct Pdf {
    std::vector<double> value;
    std::vector<double> prob;
};

// fishtest's results_to_pdf: counts in ascending-score order (3 or 5 of them) -> (total, distribution)
// after replacing empty cells by 1e-3. Values are i / (n - 1), so a pentanomial pdf is on the per-game
// score scale (a pair's average score).
struct RegularizedPdf {
    double total;  // sum of the regularized counts: games (trinomial) or pairs (pentanomial)
    Pdf pdf;
};
RegularizedPdf resultsToPdf(std::span<const double> ascendingCounts);

// Mean and variance of a distribution.
struct Moments {
    double mean;
    double variance;
};
Moments moments(const Pdf& pdf);

// Solves sum_i p_i a_i / (1 + x a_i) = 0 for x; a must have both signs.
double solveSecular(const std::vector<double>& a, const std::vector<double>& p);

// Maximum-likelihood distribution with expectation s (resp. t-value (mu - ref) / sigma = t) closest to
// the observed one; the support is kept, only probabilities change.
Pdf mleExpected(const Pdf& observed, double s);
Pdf mleTValue(const Pdf& observed, double ref, double t);

// LLR for logistic Elo bounds; counts in ascending-score order (L,D,W or the five pair cells).
double llrLogistic(double elo0, double elo1, std::span<const double> ascendingCounts);
// LLR for normalized Elo bounds (fishtest's default since 2023).
double llrNormalized(double nelo0, double nelo1, std::span<const double> ascendingCounts);

}  // namespace xq::stats
