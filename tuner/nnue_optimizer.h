// AdamW for the network trainer: decoupled weight decay, bias-corrected moments, a cosine learning-rate
// schedule, and the contract's clipping after every step (W2 also projected onto the L1 ball that keeps the
// engine's int32 output sum from overflowing, nnue_model.h). The first layer is updated row by row: a step
// touches only the W1 rows that had a gradient in the mini-batch (their moments decay only then, as
// PyTorch's SparseAdam), unless the dense mode updates every row.
#pragma once

#include <cstdint>
#include <vector>

#include "nnue_model.h"

namespace xq::tuner::nnue {

struct AdamWSettings {
    double beta1 = 0.9;
    double beta2 = 0.999;
    double epsilon = 1e-8;
    double weightDecay = 0.01;  // per unit learning rate: w -= lr * weightDecay * w
};

// The learning rate of step `step` (0-based) of `total`: cosine from lr down to lr * finalRatio.
double cosineLearningRate(double lr, double finalRatio, std::int64_t step, std::int64_t total);

// Adam's moments, shaped like the model.
struct AdamState {
    Model m, v;
    static AdamState zeros(int hidden);
};

// One step (t: 1-based count of steps so far, for the bias corrections) with the gradient that is the sum
// of `parts` (the threads' gradients, added in their order, so the sum does not depend on timing). The W1
// rows updated are those any part touched (all rows when dense); each row is summed, updated, clipped and
// cleared in one pass on `threads` threads (one fork and join per step: on a shared machine every join
// can wait for a descheduled thread). The parts are left zeroed.
void adamwStep(Model& model, AdamState& state, std::vector<Gradient>& parts, double learningRate,
               std::int64_t t, const AdamWSettings& s, bool dense, int threads);

}  // namespace xq::tuner::nnue
