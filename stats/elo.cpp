#include "elo.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "llr.h"

namespace xq::stats {

namespace {

// fishtest's stat_util.get_elo on counts in ascending-score order (3 or 5 cells).
void logisticElo(std::span<const double> counts, double confidence, EloEstimate& out) {
    std::vector<double> r(counts.begin(), counts.end());
    for (double& c : r)
        if (c == 0) c = 1e-3;
    const std::size_t cells = r.size();
    double n = 0;
    for (double c : r) n += c;
    const double games = n * double(cells - 1) / 2;

    double points = 0;
    for (std::size_t i = 0; i < cells; ++i) points += r[i] * (double(i) / 2);
    const double mu = points / games;
    // Variance of the score per game; for pairs, of the pair's score divided over its two games.
    const double muPerCell = double(cells - 1) / 2 * mu;
    double sq = 0;
    for (std::size_t i = 0; i < cells; ++i) {
        const double d = double(i) / 2 - muPerCell;
        sq += r[i] * (d * d);
    }
    const double stdev = std::sqrt(sq / games);
    const double stdErr = stdev / std::sqrt(games);

    const double z = normalQuantile(1 - (1 - confidence) / 2);
    out.score = mu;
    out.elo = eloFromScore(mu);
    out.eloLower = eloFromScore(mu - z * stdErr);
    out.eloUpper = eloFromScore(mu + z * stdErr);
    out.eloError = (out.eloUpper - out.eloLower) / 2;
    out.los = normalCdf((mu - 0.5) / stdErr);
}

// fishtest's nElo (results page): t-value of the per-sample distribution and its asymptotic variance
// 1 - t*skew + t^2 (kurt - 1) / 4, which needs no normality assumption.
void normalizedElo(std::span<const double> counts, double confidence, EloEstimate& out) {
    const RegularizedPdf r = resultsToPdf(counts);
    const Moments m = moments(r.pdf);
    double m3 = 0, m4 = 0;
    for (std::size_t i = 0; i < r.pdf.prob.size(); ++i) {
        const double d = r.pdf.value[i] - m.mean;
        m3 += r.pdf.prob[i] * d * d * d;
        m4 += r.pdf.prob[i] * d * d * d * d;
    }
    const double skewness = m3 / std::pow(m.variance, 1.5);
    const double excessKurtosis = m4 / (m.variance * m.variance) - 3;
    const double t = (m.mean - 0.5) / std::sqrt(m.variance);
    const double varT = std::max(1 - t * skewness + 0.25 * t * t * (excessKurtosis + 2), 0.0);
    // A pair's t-value is sqrt(2) times a game's, for the same strength difference.
    const double perT = counts.size() == 5 ? kNeloPerT / std::sqrt(2.0) : kNeloPerT;
    const double z = normalQuantile(1 - (1 - confidence) / 2);
    out.nelo = perT * t;
    out.neloError = perT * z * std::sqrt(varT / r.total);
}

void checkConfidence(double confidence) {
    if (!(confidence > 0 && confidence < 1))
        throw std::invalid_argument("confidence level must be in (0, 1), got " + std::to_string(confidence));
}

}  // namespace

double eloFromScore(double score) {
    constexpr double clamp = 1e-3;
    const double x = std::min(std::max(score, clamp), 1 - clamp);
    return -400 * std::log10(1 / x - 1);
}

double normalCdf(double x) {
    return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

double normalQuantile(double p) {
    if (!(p > 0 && p < 1)) {
        if (p == 0) return -std::numeric_limits<double>::infinity();
        if (p == 1) return std::numeric_limits<double>::infinity();
        return std::numeric_limits<double>::quiet_NaN();
    }
    // Acklam's rational approximation (relative error 1e-9), then one Halley step on erfc, which brings
    // it to full double precision.
    static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                                   1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
    static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                   6.680131188771972e+01, -1.328068155288572e+01};
    static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                   -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
    static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                   3.754408661907416e+00};
    constexpr double low = 0.02425;
    double x;
    if (p < low) {
        const double q = std::sqrt(-2 * std::log(p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    } else if (p <= 1 - low) {
        const double q = p - 0.5, r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    } else {
        const double q = std::sqrt(-2 * std::log(1 - p));
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    const double e = normalCdf(x) - p;
    const double u = e * std::sqrt(2 * M_PI) * std::exp(x * x / 2);
    return x - u / (1 + x * u / 2);
}

EloEstimate elo(const Penta& penta, double confidence) {
    validate(penta);
    checkConfidence(confidence);
    const std::vector<double> counts(penta.pairs.begin(), penta.pairs.end());
    EloEstimate out;
    out.games = penta.games();
    logisticElo(counts, confidence, out);
    normalizedElo(counts, confidence, out);
    const std::int64_t pairs = penta.pairCount();
    out.drawRatio = pairs ? double(penta.pairs[2]) / double(pairs) : 0;
    const double losing = double(penta.pairs[0] + penta.pairs[1]);
    const double winning = double(penta.pairs[3] + penta.pairs[4]);
    out.pairsRatio = losing > 0    ? winning / losing
                     : winning > 0 ? std::numeric_limits<double>::infinity()
                                   : 0;
    return out;
}

EloEstimate elo(const Wdl& wdl, double confidence) {
    validate(wdl);
    checkConfidence(confidence);
    const auto asc = wdl.ascending();
    const std::vector<double> counts(asc.begin(), asc.end());
    EloEstimate out;
    out.games = wdl.games();
    logisticElo(counts, confidence, out);
    normalizedElo(counts, confidence, out);
    out.drawRatio = out.games ? double(wdl.draws) / double(out.games) : 0;
    return out;
}

}  // namespace xq::stats
