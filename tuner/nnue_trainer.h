// The network trainer's loop: epochs of shuffled mini-batches over the training positions, gradients on
// every thread (OpenMP; one thread without it), AdamW (nnue_optimizer.h), the validation loss after each
// epoch. Everything a run needs to continue lives in TrainerState, which a checkpoint saves
// (nnue_checkpoint.h): the same state, data and thread count give the same weights whether a run was
// interrupted or not.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "nnue_data.h"
#include "nnue_model.h"
#include "nnue_optimizer.h"

namespace xq::tuner::nnue {

struct TrainerOptions {
    int hidden = 256;
    int epochs = 10;
    std::int64_t batchSize = 4096;  // see README: 16384 takes too few steps on data of 10^5..10^7 positions
    double learningRate = 5e-3;
    double finalLearningRateRatio = 0.1;  // the cosine schedule ends at learningRate * this
    LossSpec loss;
    AdamWSettings adam;
    double validationFraction = 0.05;  // Shuffle and Tail
    SplitMode validationSplit = SplitMode::Shuffle;
    std::int64_t validationPositions = 0;  // File: the data's last positions are the validation file's
    std::uint64_t seed = 1;                // the start weights, the split and each epoch's shuffle
    bool denseOptimizer = false;
};

struct EpochStats {
    int epoch = 0;              // 1-based
    double trainLoss = 0;       // mean of the epoch's mini-batch losses (the weights move meanwhile)
    double validationLoss = 0;  // after the epoch; NaN without validation positions
    double trainSeconds = 0;    // the mini-batches only
    double seconds = 0;         // with the validation pass
    double positionsPerSecond = 0;
    double learningRate = 0;  // at the epoch's last step
};

struct TrainerState {
    TrainerOptions options;
    Model model;
    AdamState adam;
    int epochsDone = 0;
    std::int64_t steps = 0;
    std::vector<EpochStats> history;
    std::int64_t dataPositions = 0;  // the data the run trains on (checked on resume)
    std::uint64_t dataFingerprint = 0;
    // The network the run started from (`--init`: its xq-<hash>.nnue name), empty for seeded random weights.
    std::string initNetwork;
};

struct Progress {
    int epoch = 0, epochs = 0;
    std::int64_t done = 0, total = 0;  // positions of this epoch
    double trainLoss = 0;              // so far in this epoch
    double positionsPerSecond = 0;     // this epoch so far
    double etaSeconds = 0;             // to the end of the run
};

struct TrainerCallbacks {
    std::function<void(const Progress&)> onProgress;  // at most every progressSeconds
    double progressSeconds = 5;
    std::function<void(const EpochStats&, const TrainerState&)> onEpoch;
};

TrainerState initialState(const TrainerOptions& options, const NnueData& data);

// The training and validation positions the options choose in data of `size` positions.
Split splitFor(const TrainerOptions& options, std::int64_t size);

// Trains from state.epochsDone to state.options.epochs on `threads` threads (0: all cores).
void train(TrainerState& state, const NnueData& data, const Split& split, int threads,
           const TrainerCallbacks& callbacks = {});

// The training indices of epoch `epoch` (1-based), in the order its mini-batches take them: a function of
// the seed and the epoch only, so a resumed run sees the order an uninterrupted one would.
std::vector<std::uint32_t> epochOrder(const std::vector<std::uint32_t>& train, std::uint64_t seed, int epoch);

}  // namespace xq::tuner::nnue
