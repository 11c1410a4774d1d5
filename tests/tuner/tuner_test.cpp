#include "tuner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "evaluate.h"
#include "playouts.h"

namespace xq::tuner {
namespace {

// A known weight set: the defaults with every weight moved (material by up to 15%, the rest by up
// to 30 cp). The tuner, starting from the defaults, must find evaluations that agree with it.
eval::Weights perturbedWeights(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(-1, 1);
    eval::Weights w = eval::defaultWeights();
    for (int i = 0; i < eval::WEIGHT_NB; ++i) {
        if (i < eval::W_PST) {
            w[i].mg = int(w[i].mg * (1 + 0.15 * unit(rng)));
            w[i].eg = int(w[i].eg * (1 + 0.15 * unit(rng)));
        } else {
            w[i].mg += int(30 * unit(rng));
            w[i].eg += int(30 * unit(rng));
        }
    }
    return w;
}

struct Synthetic {
    std::vector<LabeledPosition> positions;
    eval::Weights truth;
    double k;
};

// Positions labelled with sigmoid(k * E_truth): the loss floor is (nearly) zero.
Synthetic makeSynthetic(int count, std::uint64_t seed, double k) {
    Synthetic s{test::randomPositions(count, seed), perturbedWeights(seed + 100), k};
    for (auto& p : s.positions) p.result = float(sigmoid(k * eval::evaluate(Position(p.fen), s.truth)));
    return s;
}

struct Agreement {
    double rmsError;  // of the logits k * E against the truth's, expressed in cp at the true scale
    double correlation;
};

// K and the scale of the weights are one degree of freedom (only k * E reaches the loss), so the
// evaluations are compared as logits.
Agreement agreement(const TrainingSet& set, std::int64_t first, std::int64_t last, const ParamMatrix& p,
                    double k, const ParamMatrix& truth, double trueK) {
    double se = 0, sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    const double n = double(last - first);
    for (std::int64_t i = first; i < last; ++i) {
        double x = k * set.evaluate(i, p) / trueK, y = set.evaluate(i, truth);
        se += (x - y) * (x - y);
        sx += x, sy += y, sxx += x * x, syy += y * y, sxy += x * y;
    }
    double cov = sxy / n - sx / n * sy / n;
    double vx = sxx / n - sx / n * sx / n, vy = syy / n - sy / n * sy / n;
    return {std::sqrt(se / n), cov / std::sqrt(vx * vy)};
}

void expectRecovery(Optimizer optimizer, double maxErrorShare, int epochs, double lr) {
    const double trueK = 1.0 / 300;
    Synthetic s = makeSynthetic(24000, 21, trueK);
    TrainingSet set = buildTrainingSet(s.positions, 2);
    const std::int64_t trainRows = 20000;
    const ParamMatrix truth = toParams(s.truth), start = toParams(eval::defaultWeights());

    TunerOptions o;
    o.optimizer = optimizer;
    o.epochs = epochs;
    o.batchSize = 1024;
    o.learningRate = lr;
    o.threads = 2;
    o.patience = 0;  // the labels are noiseless: run every epoch
    TuneResult r = tune(set, trainRows, eval::defaultWeights(), o);

    // K is fitted with the defaults, close to the truth, so within a factor of 1.5.
    EXPECT_GT(r.k, trueK / 1.5);
    EXPECT_LT(r.k, trueK * 1.5);
    ASSERT_EQ(int(r.epochs.size()), epochs);

    Agreement before = agreement(set, trainRows, set.size(), start, trueK, truth, trueK);
    Agreement after = agreement(set, trainRows, set.size(), toParams(r.weights), r.finalK, truth, trueK);
    std::printf(
        "held-out evaluations vs truth: rms error %.1f -> %.1f cp, correlation %.5f -> %.5f; "
        "loss %.3g -> %.3g (validation %.3g -> %.3g)\n",
        before.rmsError, after.rmsError, before.correlation, after.correlation, r.initialTrainLoss,
        r.finalTrainLoss, r.initialValidationLoss, r.finalValidationLoss);
    EXPECT_GT(before.rmsError, 30);  // the perturbation is large enough to matter
    EXPECT_LT(after.rmsError, maxErrorShare * before.rmsError);
    EXPECT_GT(after.correlation, 0.999);
    EXPECT_LT(r.finalValidationLoss, 0.1 * r.initialValidationLoss);
    EXPECT_LT(r.finalTrainLoss, 0.1 * r.initialTrainLoss);
    // The evaluation keeps its starting overall scale (mean |E| over the training positions).
    double meanStart = 0, meanTuned = 0;
    for (std::int64_t i = 0; i < trainRows; ++i) {
        meanStart += std::abs(set.evaluate(i, start));
        meanTuned += std::abs(set.evaluate(i, toParams(r.weights)));
    }
    EXPECT_NEAR(meanTuned / meanStart, 1.0, 0.01);
    EXPECT_NEAR(r.finalK * r.scale, r.k, 1e-12);
    // The loss curve goes down overall.
    EXPECT_LT(r.epochs.back().trainLoss, r.epochs.front().trainLoss);

    // Weights without any coefficient in the training data keep their starting values.
    ParamMask active = set.activeParameters(0, trainRows);
    int frozen = 0;
    for (int i = 0; i < eval::WEIGHT_NB; ++i) {
        if (!active(i, 0)) {
            EXPECT_EQ(r.weights[i].mg, eval::defaultWeights()[i].mg) << eval::weightName(i);
            ++frozen;
        }
        if (!active(i, 1)) {
            EXPECT_EQ(r.weights[i].eg, eval::defaultWeights()[i].eg) << eval::weightName(i);
            ++frozen;
        }
    }
    EXPECT_GT(frozen, 0);  // e.g. king squares outside the palace
    EXPECT_EQ(frozen, r.frozenParameters);
}

TEST(TunerTest, AdamRecoversKnownWeights) {
    expectRecovery(Optimizer::Adam, 0.2, 60, 1.0);
}

TEST(TunerTest, AdaGradRecoversKnownWeights) {
    expectRecovery(Optimizer::AdaGrad, 0.3, 60, 10.0);
}

TEST(TunerTest, FitKFindsTheLabellingScale) {
    for (double trueK : {1.0 / 150, 1.0 / 600}) {
        std::vector<LabeledPosition> ps = test::randomPositions(5000, 8);
        for (auto& p : ps) p.result = float(sigmoid(trueK * eval::evaluate(Position(p.fen))));
        TrainingSet set = buildTrainingSet(ps, 2);
        double k = fitK(set, 0, set.size(), toParams(eval::defaultWeights()), 2);
        EXPECT_NEAR(k, trueK, trueK * 0.02);
    }
}

// Validation loss that stops improving ends the run early and keeps the best epoch's weights.
TEST(TunerTest, EarlyStoppingKeepsTheBestEpoch) {
    // Results unrelated to the positions: nothing generalises, validation loss rises soon.
    std::vector<LabeledPosition> ps = test::randomPositions(3000, 9);
    std::mt19937_64 rng(9);
    for (auto& p : ps) p.result = float(rng() % 3) / 2;
    TrainingSet set = buildTrainingSet(ps, 2);
    TunerOptions o;
    o.epochs = 200;
    o.batchSize = 256;
    o.learningRate = 5;
    o.patience = 3;
    o.threads = 2;
    TuneResult r = tune(set, 2000, eval::defaultWeights(), o);
    EXPECT_TRUE(r.stoppedEarly);
    EXPECT_LT(int(r.epochs.size()), 200);
    EXPECT_LE(int(r.epochs.size()), r.bestEpoch + 3);
    double best = r.initialValidationLoss;
    for (const auto& e : r.epochs) best = std::min(best, e.validationLoss);
    if (r.bestEpoch > 0) {
        EXPECT_DOUBLE_EQ(r.epochs[std::size_t(r.bestEpoch - 1)].validationLoss, best);
    }
    // The kept weights are the best epoch's (rounded): their validation loss is close to the best one.
    EXPECT_NEAR(r.finalValidationLoss, best, 2e-3);
}

// The ridge penalty holds weights near the start in proportion to its strength; off, the fit moves them.
TEST(TunerTest, L2PenaltyKeepsWeightsNearTheStart) {
    Synthetic s = makeSynthetic(6000, 31, 1.0 / 300);
    TrainingSet set = buildTrainingSet(s.positions, 2);
    const ParamMatrix start = toParams(eval::defaultWeights());
    const ParamMask active = set.activeParameters(0, 5000);
    auto fit = [&](double l2) {
        TunerOptions o;
        o.epochs = 8;
        o.batchSize = 500;
        o.learningRate = 2;
        o.patience = 0;
        o.threads = 2;
        o.k = 1.0 / 300;
        o.preserveScale = false;  // compare the raw fits
        o.l2 = l2;
        TuneResult r = tune(set, 5000, eval::defaultWeights(), o);
        double moved = 0;  // mean |change| over the tuned weights, in cp
        for (int i = 0; i < eval::WEIGHT_NB; ++i)
            for (int j = 0; j < 2; ++j)
                if (active(i, j)) moved += std::abs(r.params(i, j) - start(i, j));
        return std::pair{moved / double(active.count()), r.finalValidationLoss};
    };
    const auto [freeMove, freeLoss] = fit(0);
    const auto [mildMove, mildLoss] = fit(1e-4);
    // Much stronger penalties end the same way: Adam's steps of about the learning rate keep the weights
    // bouncing within about 1 cp of the start.
    const auto [strongMove, strongLoss] = fit(1e-2);
    std::printf("mean |change| %.2f / %.2f / %.2f cp, validation loss %.5f / %.5f / %.5f\n", freeMove,
                mildMove, strongMove, freeLoss, mildLoss, strongLoss);
    EXPECT_GT(freeMove, 5.0);
    EXPECT_LT(mildMove, 0.7 * freeMove);
    EXPECT_LT(strongMove, 0.3 * mildMove);
    // The labels come from other weights: holding still costs accuracy.
    EXPECT_LT(freeLoss, mildLoss);
    EXPECT_LT(mildLoss, strongLoss);
}

}  // namespace
}  // namespace xq::tuner
