#include "sprt.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "llr.h"
#include "util/text.h"

namespace xq::stats {

namespace {

std::vector<double> ascendingCounts(const Penta& p) {
    return {p.pairs.begin(), p.pairs.end()};
}
std::vector<double> ascendingCounts(const Wdl& w) {
    const auto a = w.ascending();
    return {a.begin(), a.end()};
}

double llrOf(std::span<const double> counts, const SprtConfig& cfg) {
    return cfg.model == EloModel::Normalized ? llrNormalized(cfg.elo0, cfg.elo1, counts)
                                             : llrLogistic(cfg.elo0, cfg.elo1, counts);
}

Decision decide(double llr, double lower, double upper) {
    if (llr < lower) return Decision::AcceptH0;
    if (llr > upper) return Decision::AcceptH1;
    return Decision::Continue;
}

SprtState stateless(std::span<const double> counts, const SprtConfig& cfg) {
    validate(cfg);
    SprtState s;
    s.llr = llrOf(counts, cfg);
    s.lower = cfg.lowerBound();
    s.upper = cfg.upperBound();
    s.decision = decide(s.llr, s.lower, s.upper);
    return s;
}

// Drift and variance per sample of the LLR when samples follow `truth`: the LLR grows by
// log(p1_i / p0_i) for an outcome i, where p0, p1 are the constrained MLEs (here of the truth itself,
// which is what the running LLR's jumps converge to).
struct Drift {
    double mean;
    double variance;
};

Drift llrDrift(const Pdf& truth, const SprtConfig& cfg) {
    Pdf pdf0, pdf1;
    if (cfg.model == EloModel::Normalized) {
        const double scale = truth.prob.size() == 5 ? std::sqrt(2.0) : 1.0;
        pdf0 = mleTValue(truth, 0.5, cfg.elo0 / kNeloPerT * scale);
        pdf1 = mleTValue(truth, 0.5, cfg.elo1 / kNeloPerT * scale);
    } else {
        pdf0 = mleExpected(truth, scoreFromElo(cfg.elo0));
        pdf1 = mleExpected(truth, scoreFromElo(cfg.elo1));
    }
    std::vector<double> jump(truth.prob.size(), 0.0);
    double mean = 0;
    for (std::size_t i = 0; i < jump.size(); ++i) {
        if (truth.prob[i] == 0) continue;  // impossible outcome: its jump never happens
        jump[i] = std::log(pdf1.prob[i]) - std::log(pdf0.prob[i]);
        mean += truth.prob[i] * jump[i];
    }
    double variance = 0;
    for (std::size_t i = 0; i < jump.size(); ++i)
        if (truth.prob[i] != 0) variance += truth.prob[i] * (jump[i] - mean) * (jump[i] - mean);
    return {mean, variance};
}

// Exit of a Brownian motion with drift mu and variance var per unit time from (a, b), started at x:
// probability of leaving through b and expected exit time (Wald's identities).
SprtForecast brownianExit(double mu, double var, double a, double b, double x) {
    SprtForecast f;
    if (x <= a || x >= b) {
        f.passProbability = x >= b ? 1 : 0;
        return f;
    }
    if (!(var > 0)) {  // a deterministic walk
        f.passProbability = mu > 0 ? 1 : mu < 0 ? 0 : 0.5;
        f.expectedSamples = mu > 0   ? (b - x) / mu
                            : mu < 0 ? (a - x) / mu
                                     : std::numeric_limits<double>::infinity();
        return f;
    }
    const double h = 2 * mu / var;
    if (std::fabs(h * (b - a)) < 1e-6) {
        f.passProbability = (x - a) / (b - a);
        f.expectedSamples = (x - a) * (b - x) / var;
        return f;
    }
    // Written so that no exponential overflows, whatever the sign of the drift.
    f.passProbability = h > 0 ? std::expm1(-h * (x - a)) / std::expm1(-h * (b - a))
                              : (std::exp(h * (b - x)) - std::exp(h * (b - a))) / -std::expm1(h * (b - a));
    f.expectedSamples = (f.passProbability * (b - x) + (1 - f.passProbability) * (a - x)) / mu;
    return f;
}

SprtForecast forecastFrom(const Pdf& truth, const SprtConfig& cfg, double startLlr) {
    validate(cfg);
    const Drift d = llrDrift(truth, cfg);
    SprtForecast f = brownianExit(d.mean, d.variance, cfg.lowerBound(), cfg.upperBound(), startLlr);
    f.expectedGames = f.expectedSamples * (truth.prob.size() == 5 ? 2 : 1);
    return f;
}

}  // namespace

double SprtConfig::lowerBound() const {
    return std::log(beta / (1 - alpha));
}
double SprtConfig::upperBound() const {
    return std::log((1 - beta) / alpha);
}

void validate(const SprtConfig& cfg) {
    if (!std::isfinite(cfg.elo0) || !std::isfinite(cfg.elo1))
        throw std::invalid_argument("elo0 and elo1 must be finite numbers");
    if (!(cfg.elo0 < cfg.elo1))
        throw std::invalid_argument("elo0 must be smaller than elo1 (got elo0 = " + fixed(cfg.elo0, 2) +
                                    ", elo1 = " + fixed(cfg.elo1, 2) + ")");
    // Beyond these the maths has no solution for some results (normalized: from about 230 nElo on, as in
    // fishtest; logistic: the expected score rounds to 1), so such a test could fail midway.
    const double limit = cfg.model == EloModel::Normalized ? kMaxNormalizedBound : kMaxLogisticBound;
    if (std::fabs(cfg.elo0) > limit || std::fabs(cfg.elo1) > limit)
        throw std::invalid_argument(std::string(toString(cfg.model)) + " Elo bounds must lie within +-" +
                                    fixed(limit, 0) + " (got [" + fixed(cfg.elo0, 2) + ", " +
                                    fixed(cfg.elo1, 2) + "])");
    if (!(cfg.alpha > 0 && cfg.alpha < 1))
        throw std::invalid_argument("alpha must be in (0, 1), got " + fixed(cfg.alpha, 4));
    if (!(cfg.beta > 0 && cfg.beta < 1))
        throw std::invalid_argument("beta must be in (0, 1), got " + fixed(cfg.beta, 4));
    if (!(cfg.alpha + cfg.beta < 1)) throw std::invalid_argument("alpha + beta must be below 1");
}

const char* toString(Decision d) {
    switch (d) {
        case Decision::AcceptH0:
            return "H0";
        case Decision::AcceptH1:
            return "H1";
        default:
            return "continue";
    }
}

const char* toString(EloModel m) {
    return m == EloModel::Normalized ? "normalized" : "logistic";
}

EloModel parseEloModel(const std::string& name) {
    if (name == "normalized") return EloModel::Normalized;
    if (name == "logistic") return EloModel::Logistic;
    throw std::invalid_argument("unknown Elo model '" + name + "' (expected normalized or logistic)");
}

SprtState sprt(const Penta& penta, const SprtConfig& cfg) {
    validate(penta);
    return stateless(ascendingCounts(penta), cfg);
}

SprtState sprt(const Wdl& wdl, const SprtConfig& cfg) {
    validate(wdl);
    return stateless(ascendingCounts(wdl), cfg);
}

SprtTracker::SprtTracker(SprtConfig cfg, std::int64_t batchSize) : cfg_(cfg), batchSize_(batchSize) {
    validate(cfg_);
    if (batchSize_ < 1) throw std::invalid_argument("SPRT batch size must be at least 1");
}

SprtState SprtTracker::update(const Penta& totals) {
    validate(totals);
    return update(llrOf(ascendingCounts(totals), cfg_), totals.pairCount());
}

SprtState SprtTracker::update(const Wdl& totals) {
    validate(totals);
    return update(llrOf(ascendingCounts(totals), cfg_), totals.games());
}

SprtState SprtTracker::update(double llr, std::int64_t samples) {
    if (samples % batchSize_ != 0) overshootOn_ = false;  // the batch contract is broken
    if (overshootOn_) {
        if (samples < lastSamples_) {
            overshootOn_ = false;  // results were purged
        } else {
            if (samples == lastSamples_ + batchSize_) {
                if (llr < ref0_) {
                    const double delta = llr - ref0_;
                    sum0_ += delta, sumSq0_ += delta * delta, ref0_ = llr;
                }
                if (llr > ref1_) {
                    const double delta = llr - ref1_;
                    sum1_ += delta, sumSq1_ += delta * delta, ref1_ = llr;
                }
            } else if (samples != lastSamples_) {
                ref0_ = ref1_ = llr;  // updates were lost: restart the record from here
            }
            lastSamples_ = samples;
        }
    }
    // Expected overshoot past a bound ~ E[jump^2] / (2 E[jump]) over the record-breaking jumps.
    const double over0 = overshootOn_ && sum0_ != 0 ? -sumSq0_ / sum0_ / 2 : 0;
    const double over1 = overshootOn_ && sum1_ != 0 ? sumSq1_ / sum1_ / 2 : 0;
    SprtState s;
    s.llr = llr;
    s.lower = cfg_.lowerBound() + over0;
    s.upper = cfg_.upperBound() - over1;
    s.decision = decide(llr, s.lower, s.upper);
    return s;
}

SprtForecast forecastRemaining(const Penta& penta, const SprtConfig& cfg) {
    const SprtState s = sprt(penta, cfg);
    return forecastFrom(resultsToPdf(ascendingCounts(penta)).pdf, cfg, s.llr);
}

SprtForecast forecastRemaining(const Wdl& wdl, const SprtConfig& cfg) {
    const SprtState s = sprt(wdl, cfg);
    return forecastFrom(resultsToPdf(ascendingCounts(wdl)).pdf, cfg, s.llr);
}

SprtForecast forecast(std::span<const double> probabilities, const SprtConfig& cfg, double startLlr) {
    if (probabilities.size() != 3 && probabilities.size() != 5)
        throw std::invalid_argument("forecast needs 3 or 5 outcome probabilities");
    double total = 0;
    for (double p : probabilities) {
        if (!(p >= 0) || !std::isfinite(p)) throw std::invalid_argument("outcome probabilities must be >= 0");
        total += p;
    }
    int possible = 0;
    for (double p : probabilities) possible += p > 0;
    // With a single possible outcome the LLR moves deterministically and its maths degenerates.
    if (possible < 2) throw std::invalid_argument("forecast needs at least two possible outcomes");
    Pdf truth;
    for (std::size_t i = 0; i < probabilities.size(); ++i) {
        truth.value.push_back(double(i) / double(probabilities.size() - 1));
        truth.prob.push_back(probabilities[i] / total);
    }
    return forecastFrom(truth, cfg, startLlr);
}

std::array<double, 3> trinomialModel(double elo, double drawRatio) {
    const double s = scoreFromElo(elo);
    const double win = s - drawRatio / 2, loss = 1 - s - drawRatio / 2;
    if (!(drawRatio >= 0 && win >= 0 && loss >= 0))
        throw std::invalid_argument("draw ratio " + fixed(drawRatio, 3) + " is impossible at Elo " +
                                    fixed(elo, 1));
    return {loss, drawRatio, win};
}

std::array<double, 5> pentanomialModel(double elo, double drawRatio) {
    const auto g = trinomialModel(elo, drawRatio);
    std::array<double, 5> pair{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) pair[i + j] += g[i] * g[j];
    return pair;
}

std::string summaryLine(const EloEstimate& e, const SprtState& s, const SprtConfig& cfg) {
    return "Elo " + fixed(e.elo, 2) + " +- " + fixed(e.eloError, 2) + ", nElo " + fixed(e.nelo, 2) + " +- " +
           fixed(e.neloError, 2) + ", LOS " + fixed(e.los * 100, 1) + "%, LLR " + fixed(s.llr, 2) + " (" +
           fixed(s.lower, 2) + ", " + fixed(s.upper, 2) + ") [" + fixed(cfg.elo0, 2) + ", " +
           fixed(cfg.elo1, 2) + "]";
}

std::string summaryLine(const Penta& penta, const SprtConfig& cfg) {
    return summaryLine(elo(penta), sprt(penta, cfg), cfg);
}

std::string summaryLine(const Wdl& wdl, const SprtConfig& cfg) {
    return summaryLine(elo(wdl), sprt(wdl, cfg), cfg);
}

std::string formatPenta(const Penta& p) {
    return "Ptnml(0-2): " + std::to_string(p.pairs[0]) + ", " + std::to_string(p.pairs[1]) + ", " +
           std::to_string(p.pairs[2]) + ", " + std::to_string(p.pairs[3]) + ", " + std::to_string(p.pairs[4]);
}

}  // namespace xq::stats
