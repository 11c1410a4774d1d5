#include "llr.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <stdexcept>
#include <string>

#include "brent.h"

namespace xq::stats {

namespace {

constexpr const char* kTooExtreme =
    "SPRT bounds too extreme for the model: no result distribution meets them (fishtest fails here too)";

// Python's sum() over a list: left to right. Kept explicit so the order matches fishtest.
template <typename F>
double sumOver(std::size_t n, F&& term) {
    double s = 0;
    for (std::size_t i = 0; i < n; ++i) s += term(i);
    return s;
}

double llrOfPdfs(const Pdf& observed, const Pdf& pdf0, const Pdf& pdf1) {
    return sumOver(observed.prob.size(), [&](std::size_t i) {
        return observed.prob[i] * (std::log(pdf1.prob[i]) - std::log(pdf0.prob[i]));
    });
}

}  // namespace

double scoreFromElo(double elo) {
    return 1 / (1 + std::pow(10.0, -elo / 400));
}

RegularizedPdf resultsToPdf(std::span<const double> counts) {
    if (counts.size() != 3 && counts.size() != 5)
        throw std::invalid_argument("expected 3 (trinomial) or 5 (pentanomial) counts, got " +
                                    std::to_string(counts.size()));
    constexpr double emptyCell = 1e-3;
    std::vector<double> regularized(counts.begin(), counts.end());
    for (double& c : regularized) {
        if (c < 0 || !std::isfinite(c)) throw std::invalid_argument("counts must be finite and non-negative");
        if (c == 0) c = emptyCell;
    }
    RegularizedPdf out;
    out.total = sumOver(regularized.size(), [&](std::size_t i) { return regularized[i]; });
    const double last = double(regularized.size() - 1);
    for (std::size_t i = 0; i < regularized.size(); ++i) {
        out.pdf.value.push_back(double(i) / last);
        out.pdf.prob.push_back(regularized[i] / out.total);
    }
    return out;
}

Moments moments(const Pdf& pdf) {
    const std::size_t n = pdf.prob.size();
    const double mean = sumOver(n, [&](std::size_t i) { return pdf.prob[i] * pdf.value[i]; });
    const double variance = sumOver(n, [&](std::size_t i) {
        const double d = pdf.value[i] - mean;
        return pdf.prob[i] * (d * d);
    });
    return {mean, variance};
}

double solveSecular(const std::vector<double>& a, const std::vector<double>& p) {
    constexpr double margin = 1e-9;
    const double v = *std::min_element(a.begin(), a.end());
    const double w = *std::max_element(a.begin(), a.end());
    if (!(v * w < 0)) throw std::domain_error(kTooExtreme);
    auto f = [&](double x) {
        return sumOver(a.size(), [&](std::size_t i) { return p[i] * a[i] / (1 + x * a[i]); });
    };
    const detail::Root root = detail::brentq(f, -1 / w + margin, -1 / v - margin);
    if (root.status == detail::RootStatus::NoSignChange) throw std::domain_error(kTooExtreme);
    // fishtest asserts convergence; 100 Brent iterations on this smooth monotone function always
    // converge, so failing means the input was pathological.
    if (root.status == detail::RootStatus::NotConverged)
        throw std::domain_error("SPRT: the secular equation solver did not converge");
    return root.x;
}

Pdf mleExpected(const Pdf& observed, double s) {
    std::vector<double> shifted(observed.value.size());
    for (std::size_t i = 0; i < shifted.size(); ++i) shifted[i] = observed.value[i] - s;
    const double x = solveSecular(shifted, observed.prob);
    Pdf out{observed.value, {}};
    for (std::size_t i = 0; i < shifted.size(); ++i)
        out.prob.push_back(observed.prob[i] / (1 + x * shifted[i]));
    return out;
}

Pdf mleTValue(const Pdf& observed, double ref, double t) {
    const std::size_t n = observed.prob.size();
    Pdf current{observed.value, std::vector<double>(n, 1.0 / double(n))};
    std::vector<double> a(n);
    for (int round = 0; round < 10; ++round) {
        const Pdf previous = current;
        const Moments m = moments(current);
        const double sigma = std::pow(m.variance, 0.5);  // as fishtest writes it, to the last bit
        for (std::size_t i = 0; i < n; ++i) {
            const double z = (m.mean - observed.value[i]) / sigma;
            a[i] = observed.value[i] - ref - t * sigma * (1 + z * z) / 2;
        }
        const double x = solveSecular(a, observed.prob);
        double maxChange = 0;
        for (std::size_t i = 0; i < n; ++i) {
            current.prob[i] = observed.prob[i] / (1 + x * a[i]);
            maxChange = std::max(maxChange, std::fabs(previous.prob[i] - current.prob[i]));
        }
        if (maxChange < 1e-9) break;
    }
    return current;
}

double llrLogistic(double elo0, double elo1, std::span<const double> counts) {
    const RegularizedPdf r = resultsToPdf(counts);
    const Pdf pdf0 = mleExpected(r.pdf, scoreFromElo(elo0));
    const Pdf pdf1 = mleExpected(r.pdf, scoreFromElo(elo1));
    return r.total * llrOfPdfs(r.pdf, pdf0, pdf1);
}

double llrNormalized(double nelo0, double nelo1, std::span<const double> counts) {
    const RegularizedPdf r = resultsToPdf(counts);
    // A pair's average score has 1/sqrt(2) of a game's standard deviation (if the games were
    // independent), so the same per-game nElo is a sqrt(2) larger t-value on the pair scale.
    const double scale = counts.size() == 5 ? std::sqrt(2.0) : 1.0;
    const double t0 = nelo0 / kNeloPerT * scale;
    const double t1 = nelo1 / kNeloPerT * scale;
    const Pdf pdf0 = mleTValue(r.pdf, 0.5, t0);
    const Pdf pdf1 = mleTValue(r.pdf, 0.5, t1);
    return r.total * llrOfPdfs(r.pdf, pdf0, pdf1);
}

}  // namespace xq::stats
