#include "tuner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

namespace xq::tuner {

namespace {

double secondsSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::vector<double> evaluateRows(const TrainingSet& set, std::int64_t first, std::int64_t last,
                                 const ParamMatrix& params, int threads) {
    std::vector<double> e(std::size_t(std::max<std::int64_t>(0, last - first)));
#pragma omp parallel for num_threads(resolveThreads(threads)) schedule(static)
    for (std::int64_t i = first; i < last; ++i) e[std::size_t(i - first)] = set.evaluate(i, params);
    return e;
}

double meanAbsolute(const std::vector<double>& v) {
    double sum = 0;
    for (double x : v) sum += std::abs(x);
    return v.empty() ? 0 : sum / double(v.size());
}

double lossForK(const std::vector<double>& evals, const TrainingSet& set, std::int64_t first, double k) {
    double sum = 0;
    for (std::size_t i = 0; i < evals.size(); ++i) {
        double d = sigmoid(k * evals[i]) - set.result[Eigen::Index(first + std::int64_t(i))];
        sum += d * d;
    }
    return evals.empty() ? 0 : sum / double(evals.size());
}

struct OptimizerState {
    Optimizer kind;
    double lr;
    ParamMatrix m, v;
    long steps = 0;

    OptimizerState(Optimizer k, double rate)
        : kind(k),
          lr(rate),
          m(ParamMatrix::Zero(eval::WEIGHT_NB, 2)),
          v(ParamMatrix::Zero(eval::WEIGHT_NB, 2)) {}

    void step(ParamMatrix& params, const ParamMatrix& grad, const ParamMask& active) {
        ++steps;
        constexpr double beta1 = 0.9, beta2 = 0.999, eps = 1e-10;
        const double c1 = 1 - std::pow(beta1, double(steps)), c2 = 1 - std::pow(beta2, double(steps));
        for (int i = 0; i < eval::WEIGHT_NB; ++i)
            for (int j = 0; j < 2; ++j) {
                if (!active(i, j)) continue;
                const double g = grad(i, j);
                if (kind == Optimizer::Adam) {
                    m(i, j) = beta1 * m(i, j) + (1 - beta1) * g;
                    v(i, j) = beta2 * v(i, j) + (1 - beta2) * g * g;
                    params(i, j) -= lr * (m(i, j) / c1) / (std::sqrt(v(i, j) / c2) + eps);
                } else {
                    v(i, j) += g * g;
                    params(i, j) -= lr * g / (std::sqrt(v(i, j)) + eps);
                }
            }
    }
};

}  // namespace

double fitK(const TrainingSet& set, std::int64_t first, std::int64_t last, const ParamMatrix& params,
            int threads) {
    std::vector<double> evals = evaluateRows(set, first, last, params, threads);
    // The loss is smooth and, in practice, unimodal in log K: a coarse scan finds the valley, golden
    // section refines it.
    const double lo = std::log(1e-5), hi = std::log(1.0);
    constexpr int SCAN = 60;
    int best = 0;
    double bestLoss = std::numeric_limits<double>::infinity();
    for (int s = 0; s <= SCAN; ++s) {
        double loss = lossForK(evals, set, first, std::exp(lo + (hi - lo) * s / SCAN));
        if (loss < bestLoss) bestLoss = loss, best = s;
    }
    double a = lo + (hi - lo) * std::max(0, best - 1) / SCAN,
           b = lo + (hi - lo) * std::min(SCAN, best + 1) / SCAN;
    const double phi = (std::sqrt(5.0) - 1) / 2;
    double x1 = b - phi * (b - a), x2 = a + phi * (b - a);
    double f1 = lossForK(evals, set, first, std::exp(x1)), f2 = lossForK(evals, set, first, std::exp(x2));
    for (int it = 0; it < 60; ++it) {
        if (f1 < f2) {
            b = x2, x2 = x1, f2 = f1;
            x1 = b - phi * (b - a);
            f1 = lossForK(evals, set, first, std::exp(x1));
        } else {
            a = x1, x1 = x2, f1 = f2;
            x2 = a + phi * (b - a);
            f2 = lossForK(evals, set, first, std::exp(x2));
        }
    }
    return std::exp((a + b) / 2);
}

TuneResult tune(const TrainingSet& set, std::int64_t trainRows, const eval::Weights& start,
                const TunerOptions& options, const std::function<void(const EpochReport&)>& onEpoch) {
    TuneResult r;
    const std::int64_t total = set.size();
    trainRows = std::clamp<std::int64_t>(trainRows, 0, total);
    const bool hasValidation = trainRows < total;
    const int threads = resolveThreads(options.threads);
    const double lr = options.learningRate > 0               ? options.learningRate
                      : options.optimizer == Optimizer::Adam ? 1.0
                                                             : 5.0;
    const std::int64_t batch = std::max<std::int64_t>(1, options.batchSize);

    ParamMatrix params = toParams(start);
    const ParamMatrix startParams = params;
    // Weights without a coefficient in the training rows have no evidence: they keep their values.
    const ParamMask active = set.activeParameters(0, trainRows);
    r.tunedParameters = int(active.count());
    r.frozenParameters = int(active.size()) - r.tunedParameters;

    r.k = options.k > 0 ? options.k : fitK(set, 0, trainRows, params, threads);
    auto validationLoss = [&](const ParamMatrix& p) {
        return hasValidation ? lossAndGradient(set, trainRows, total, p, r.k, threads, nullptr)
                             : std::numeric_limits<double>::quiet_NaN();
    };
    r.initialTrainLoss = lossAndGradient(set, 0, trainRows, params, r.k, threads, nullptr);
    r.initialValidationLoss = validationLoss(params);

    OptimizerState opt(options.optimizer, lr);
    ParamMatrix best = params, grad;
    double bestLoss = hasValidation ? r.initialValidationLoss : r.initialTrainLoss;
    int sinceBest = 0;
    std::vector<std::int64_t> order(std::size_t((trainRows + batch - 1) / batch));
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 rng(options.seed);

    for (int epoch = 1; epoch <= options.epochs && trainRows > 0; ++epoch) {
        auto t0 = std::chrono::steady_clock::now();
        std::shuffle(order.begin(), order.end(), rng);  // rows were shuffled at load; batches are not
        for (std::int64_t b : order) {
            std::int64_t first = b * batch, last = std::min(trainRows, first + batch);
            lossAndGradient(set, first, last, params, r.k, threads, &grad);
            if (options.l2 > 0) grad += (2 * options.l2 / 1e4) * (params - startParams);
            opt.step(params, grad, active);
        }
        EpochReport e;
        e.epoch = epoch;
        e.trainLoss = lossAndGradient(set, 0, trainRows, params, r.k, threads, nullptr);
        e.validationLoss = validationLoss(params);
        e.seconds = secondsSince(t0);
        r.epochs.push_back(e);
        if (onEpoch) onEpoch(e);

        double watched = hasValidation ? e.validationLoss : e.trainLoss;
        if (watched < bestLoss * (1 - options.minDelta)) {
            bestLoss = watched;
            best = params;
            r.bestEpoch = epoch;
            sinceBest = 0;
        } else if (watched < bestLoss) {
            // A sliver of improvement: keep the weights but count towards patience.
            bestLoss = watched;
            best = params;
            r.bestEpoch = epoch;
            ++sinceBest;
        } else {
            ++sinceBest;
        }
        if (options.patience > 0 && sinceBest >= options.patience) {
            r.stoppedEarly = epoch < options.epochs;
            break;
        }
    }
    r.finalK = r.k;
    if (options.preserveScale && trainRows > 0) {
        double before = meanAbsolute(evaluateRows(set, 0, trainRows, toParams(start), threads));
        double after = meanAbsolute(evaluateRows(set, 0, trainRows, best, threads));
        if (before > 0 && after > 0) {
            r.scale = before / after;
            for (int i = 0; i < eval::WEIGHT_NB; ++i)
                for (int j = 0; j < 2; ++j)
                    if (active(i, j)) best(i, j) *= r.scale;
            r.finalK = r.k / r.scale;
        }
    }
    r.params = best;
    r.weights = toWeights(best);
    ParamMatrix rounded = toParams(r.weights);
    r.finalTrainLoss = lossAndGradient(set, 0, trainRows, rounded, r.finalK, threads, nullptr);
    r.finalValidationLoss = hasValidation
                                ? lossAndGradient(set, trainRows, total, rounded, r.finalK, threads, nullptr)
                                : std::numeric_limits<double>::quiet_NaN();
    return r;
}

}  // namespace xq::tuner
