// The evaluation tuner: fits the sigmoid scale K, then the weights table by mini-batch Adam or AdaGrad
// on the mean squared error between results and sigmoid(K * evaluation), with early stopping on a
// validation split.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "training_set.h"
#include "weights.h"

namespace xq::tuner {

enum class Optimizer { Adam, AdaGrad };

struct TunerOptions {
    Optimizer optimizer = Optimizer::Adam;
    int epochs = 200;
    std::int64_t batchSize = 16384;
    double learningRate = 0;  // 0: the optimizer's default (Adam 1.0, AdaGrad 5.0 centipawns)
    // Stop when the validation loss has not improved by a relative minDelta for `patience` epochs; the
    // weights of the best epoch are kept.
    int patience = 8;
    double minDelta = 1e-6;
    int threads = 0;         // 0: all cores
    double k = 0;            // 0: fit K with the starting weights; otherwise use this K
    std::uint64_t seed = 1;  // shuffles the mini-batches
    // Only k * E reaches the loss, so the fit may grow or shrink the whole evaluation; the search's margins
    // (futility, razoring, aspiration windows) are set for the starting scale. When true, the tuned
    // weights are rescaled at the end so the mean |evaluation| over the training positions is the
    // starting one (K is divided by the same factor, the loss is unchanged).
    bool preserveScale = true;
    // Ridge penalty towards the starting weights: l2 * sum over the tuned weights of ((w - start) / 100 cp)^2
    // is added to the objective the mini-batches descend (the losses reported stay the plain mean squared
    // error). A weight that few positions touch then moves only as far as they justify; 0: off.
    double l2 = 0;
};

struct EpochReport {
    int epoch = 0;  // 1-based
    double trainLoss = 0;
    double validationLoss = 0;  // NaN without a validation split
    double seconds = 0;
};

struct TuneResult {
    double k = 0;           // fitted with the starting weights, used during the fit
    double finalK = 0;      // k / scale: the K that goes with the returned weights
    double scale = 1;       // the factor applied to the fitted weights (preserveScale)
    ParamMatrix params;     // unrounded, at the best epoch
    eval::Weights weights;  // rounded
    std::vector<EpochReport> epochs;
    int bestEpoch = 0;  // 0: no epoch beat the start
    bool stoppedEarly = false;
    double initialTrainLoss = 0, initialValidationLoss = 0;
    double finalTrainLoss = 0, finalValidationLoss = 0;  // with the rounded weights
    int tunedParameters = 0, frozenParameters = 0;
};

// Fits K for the given parameters: minimises the loss over K (golden-section on log K).
double fitK(const TrainingSet& set, std::int64_t first, std::int64_t last, const ParamMatrix& params,
            int threads);

// Rows [0, trainRows) train, [trainRows, size) validate. onEpoch runs after each epoch.
TuneResult tune(const TrainingSet& set, std::int64_t trainRows, const eval::Weights& start,
                const TunerOptions& options, const std::function<void(const EpochReport&)>& onEpoch = {});

}  // namespace xq::tuner
