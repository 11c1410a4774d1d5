#include "sprt_elo.h"

#include <cmath>
#include <numbers>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "brent.h"
#include "llr.h"

namespace xq::stats {

namespace {

constexpr double kPi = std::numbers::pi;

// Probability that a Brownian motion with drift mu and deviation sigma per sample, started at 0 and
// stopped at the bounds a < 0 < b, ends "to the right of" (T, y): it passes, or it is still running
// at time T above y, or it fails later than T. This is the order in which fishtest ranks outcomes.
class StoppedBrownian {
  public:
    StoppedBrownian(double a, double b, double mu, double sigma)
        : a_(a), b_(b), mu_(mu), sigma2_(sigma * sigma) {}

    double outcomeCdf(double T, double y) const {
        const double gamma = mu_ / sigma2_;
        const double A = b_ - a_;
        // The series converges slowly for short times and overflows for strong drifts: there Siegmund's
        // approximation is used instead.
        if (sigma2_ * T / (A * A) < 1e-2 || std::fabs(gamma * A) > 15) return siegmund(T, y);
        return series(T, y);
    }

  private:
    // Exact solution as a Fourier series on the strip (a, b).
    double series(double T, double y) const {
        const double A = b_ - a_;
        const double x = 0 - a_;
        y = y - a_;
        const double gamma = mu_ / sigma2_;
        const double lambda1 = std::pow(kPi / A, 2) * sigma2_ / 2 + (mu_ * mu_ / sigma2_) / 2;
        const double t0 = std::exp(-lambda1 * T - x * gamma + y * gamma);
        double s = 0;
        for (int n = 1; n < 1000000; ++n) {
            const double lambdaN = std::pow(n * kPi / A, 2) * sigma2_ / 2 + (mu_ * mu_ / sigma2_) / 2;
            const double t1 = std::exp(-(lambdaN - lambda1) * T);
            const double t3 = primitive(n, gamma, A, y);
            const double t4 = std::sin(n * kPi * x / A);
            s += t1 * t3 * t4;
            if (std::fabs(t0 * t1 * t3) <= 1e-9) break;
        }
        double pre;
        if (gamma * A > 30)
            pre = std::exp(-2 * gamma * x);  // avoids overflow
        else if (std::fabs(gamma * A) < 1e-8)
            pre = (A - x) / A;  // avoids 0/0
        else
            pre = (1 - std::exp(2 * gamma * (A - x))) / (1 - std::exp(2 * gamma * A));
        return pre + t0 * s;
    }

    // A primitive of e^(gamma y) sin(n pi y / A), times 2/A e^(-gamma y).
    static double primitive(int n, double gamma, double A, double y) {
        return (2 * A * gamma * std::sin(kPi * n * y / A) - 2 * kPi * n * std::cos(kPi * n * y / A)) /
               ((A * A) * (gamma * gamma) + (kPi * kPi) * double(n * n));
    }

    // Siegmund's approximation, with the asymptotic expansion of Phi where exp() would overflow.
    double siegmund(double T, double y) const {
        const double denom = std::sqrt(T * sigma2_);
        const double offset = mu_ * T;
        const double gamma = mu_ / sigma2_;
        const double z = (y - offset) / denom;
        const double za = (-y + offset + 2 * a_) / denom;
        const double zb = (y - offset - 2 * b_) / denom;
        const double t1 = normalCdf(z);
        auto reflected = [&](double zz, double bound) {
            if (gamma * bound >= 5)
                return -std::exp(-(zz * zz) / 2 + 2 * gamma * bound) / std::sqrt(2 * kPi) *
                       (1 / zz - 1 / std::pow(zz, 3));
            return std::exp(2 * gamma * bound) * normalCdf(zz);
        };
        return t1 + reflected(za, a_) - reflected(zb, b_);
    }

    double a_, b_, mu_, sigma2_;
};

// fishtest's sprt class (sprt.py) after set_state(): the LLR's drift and variance per sample under
// the Brownian approximation, and the test's position (T, llr), clamped to the bounds.
class SprtModel {
  public:
    SprtModel(std::span<const double> counts, const SprtConfig& cfg)
        : cfg_(cfg), a_(cfg.lowerBound()), b_(cfg.upperBound()) {
        const RegularizedPdf r = resultsToPdf(counts);
        pdf_ = r.pdf;
        const Moments m = moments(pdf_);
        mean_ = m.mean;
        variance_ = m.variance;
        sigmaPerGame_ = std::pow(counts.size() == 5 ? 2 * variance_ : variance_, 0.5);
        s0_ = eloToScore(cfg.elo0);
        s1_ = eloToScore(cfg.elo1);
        llr_ = r.total * driftAt(mean_, variance_);
        T_ = r.total;
        const double slope = llr_ / r.total;
        clamped_ = llr_ > 1.03 * b_ || llr_ < 1.03 * a_;
        if (llr_ < a_) {
            T_ = a_ / slope;
            llr_ = a_;
        } else if (llr_ > b_) {
            T_ = b_ / slope;
            llr_ = b_;
        }
    }

    // Probability of an outcome at least as good for H0 as the observed one, at logistic Elo `elo`.
    double outcomeProb(double elo) const {
        const double s = scoreFromElo(elo);
        // The MLE of the variance when the mean is forced to s.
        const double v = variance_ + (s - mean_) * (s - mean_);
        const double mu = driftAt(s, v);
        const double var = (s1_ - s0_) * (s1_ - s0_) / v;
        return StoppedBrownian(a_, b_, mu, std::sqrt(var)).outcomeCdf(T_, llr_);
    }

    // Largest Elo at which the observed outcome has probability below p (sprt.lower_cb).
    double lowerConfidenceBound(double p) const {
        const double avg = (cfg_.elo0 + cfg_.elo1) / 2;
        const double delta = cfg_.elo1 - cfg_.elo0;
        double span = 30;
        while (true) {
            const double lo = std::max(avg - span * delta, -1000.0);
            const double hi = std::min(avg + span * delta, 1000.0);
            const detail::Root root =
                detail::brentq([&](double elo) { return outcomeProb(elo) - (1 - p); }, lo, hi);
            if (root.status != detail::RootStatus::NoSignChange) return root.x;
            if (lo > -1000 || hi < 1000) {
                span *= 2;
                continue;
            }
            return outcomeProb(lo) - (1 - p) > 0 ? hi : lo;
        }
    }

    bool clamped() const { return clamped_; }

  private:
    double eloToScore(double elo) const {
        if (cfg_.model == EloModel::Normalized) return elo / kNeloPerT * sigmaPerGame_ + 0.5;
        return scoreFromElo(elo);
    }
    // The LLR drift per sample of the Brownian approximation for a distribution with mean s, variance v.
    double driftAt(double s, double v) const { return (s - (s0_ + s1_) / 2) * (s1_ - s0_) / v; }

    SprtConfig cfg_;
    double a_, b_;
    Pdf pdf_;
    double mean_ = 0, variance_ = 0, sigmaPerGame_ = 0;
    double s0_ = 0, s1_ = 0;
    double llr_ = 0, T_ = 0;
    bool clamped_ = false;
};

SprtEloEstimate estimate(std::span<const double> counts, const SprtConfig& cfg, double confidence) {
    validate(cfg);
    if (!(confidence > 0 && confidence < 1))
        throw std::invalid_argument("confidence level must be in (0, 1), got " + std::to_string(confidence));
    const double p = 1 - confidence;
    const SprtModel model(counts, cfg);
    SprtEloEstimate e;
    e.elo = model.lowerConfidenceBound(0.5);
    e.ciLower = model.lowerConfidenceBound(p / 2);
    e.ciUpper = model.lowerConfidenceBound(1 - p / 2);
    e.los = model.outcomeProb(0);
    e.clamped = model.clamped();
    e.llr = cfg.model == EloModel::Normalized ? llrNormalized(cfg.elo0, cfg.elo1, counts)
                                              : llrLogistic(cfg.elo0, cfg.elo1, counts);
    return e;
}

}  // namespace

SprtEloEstimate sprtElo(const Penta& penta, const SprtConfig& cfg, double confidence) {
    validate(penta);
    const std::vector<double> counts(penta.pairs.begin(), penta.pairs.end());
    return estimate(counts, cfg, confidence);
}

SprtEloEstimate sprtElo(const Wdl& wdl, const SprtConfig& cfg, double confidence) {
    validate(wdl);
    const auto asc = wdl.ascending();
    const std::vector<double> counts(asc.begin(), asc.end());
    return estimate(counts, cfg, confidence);
}

}  // namespace xq::stats
