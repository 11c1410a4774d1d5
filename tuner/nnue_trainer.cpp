#include "nnue_trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>

#include "training_set.h"

namespace xq::tuner::nnue {

namespace {

constexpr std::int64_t PREFETCH = 8;

double secondsSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

TrainerState initialState(const TrainerOptions& options, const NnueData& data) {
    TrainerState s;
    s.options = options;
    s.model = Model::initial(options.hidden, options.seed);
    s.adam = AdamState::zeros(options.hidden);
    s.dataPositions = data.size();
    s.dataFingerprint = data.fingerprint();
    return s;
}

Split splitFor(const TrainerOptions& o, std::int64_t size) {
    return o.validationSplit == SplitMode::File
               ? splitLast(size, o.validationPositions)
               : splitData(size, o.validationFraction, o.seed, o.validationSplit);
}

std::vector<std::uint32_t> epochOrder(const std::vector<std::uint32_t>& train, std::uint64_t seed,
                                      int epoch) {
    std::vector<std::uint32_t> order = train;
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ULL + std::uint64_t(epoch));
    std::shuffle(order.begin(), order.end(), rng);
    return order;
}

void train(TrainerState& state, const NnueData& data, const Split& split, int threads,
           const TrainerCallbacks& callbacks) {
    // Without OpenMP the slices run one after the other: the same sums in the same order.
    threads = resolveThreads(threads);
    const TrainerOptions& o = state.options;
    const auto trainSize = std::int64_t(split.train.size());
    const std::int64_t batch = std::max<std::int64_t>(1, o.batchSize);
    const std::int64_t batches = (trainSize + batch - 1) / batch;
    const std::int64_t totalSteps = batches * o.epochs;
    const int h = state.model.hidden;

    std::vector<Gradient> grads(static_cast<std::size_t>(threads));
    std::vector<Scratch> scratch(static_cast<std::size_t>(threads));
    for (int t = 0; t < threads; ++t) {
        grads[std::size_t(t)].reset(h);
        scratch[std::size_t(t)].reset(h);
    }
    std::vector<double> sums(static_cast<std::size_t>(threads));
    // A model from before the output bound (an old checkpoint) is brought within it too: every run ends in a
    // network that exports (the steps keep it so; for a model already within, this changes nothing).
    state.model.clip();

    for (int epoch = state.epochsDone + 1; epoch <= o.epochs && trainSize > 0; ++epoch) {
        const auto t0 = std::chrono::steady_clock::now();
        auto lastProgress = t0;
        const std::vector<std::uint32_t> order = epochOrder(split.train, o.seed, epoch);
        double lossSum = 0, lr = o.learningRate;
        for (std::int64_t b = 0; b < batches; ++b) {
            const std::int64_t first = b * batch, n = std::min(batch, trainSize - first);
            const float weight = float(1.0 / double(n));
            std::fill(sums.begin(), sums.end(), 0.0);
            // One slice per thread, indexed by slice rather than by the thread that runs it, so a team
            // smaller than asked for still covers the batch.
#pragma omp parallel for num_threads(threads) schedule(static, 1)
            for (int t = 0; t < threads; ++t) {
                const std::int64_t lo = first + n * t / threads, hi = first + n * (t + 1) / threads;
                Gradient& g = grads[std::size_t(t)];
                Scratch& s = scratch[std::size_t(t)];
                double sum = 0;
                for (std::int64_t i = lo; i < hi; ++i) {
                    // The records are read in shuffled order: fetch a few ahead (a 72-byte record may
                    // straddle two cache lines). Without it, the load of the record took 9% of the time.
                    if (i + PREFETCH < hi) {
                        const char* ahead =
                            reinterpret_cast<const char*>(&data.positions[order[std::size_t(i + PREFETCH)]]);
                        __builtin_prefetch(ahead);
                        __builtin_prefetch(ahead + sizeof(PackedPosition) - 1);
                    }
                    const PackedPosition& p = data.positions[order[std::size_t(i)]];
                    sum += accumulateGradient(state.model, p, trainingTarget(p, o.loss.lambda, o.loss.wdlK),
                                              o.loss, weight, s, g);
                }
                sums[std::size_t(t)] = sum;
            }
            lr = cosineLearningRate(o.learningRate, o.finalLearningRateRatio, state.steps, totalSteps);
            ++state.steps;
            adamwStep(state.model, state.adam, grads, lr, state.steps, o.adam, o.denseOptimizer, threads);
            for (double v : sums) lossSum += v;

            if (callbacks.onProgress && secondsSince(lastProgress) >= callbacks.progressSeconds) {
                lastProgress = std::chrono::steady_clock::now();
                Progress p;
                p.epoch = epoch;
                p.epochs = o.epochs;
                p.done = first + n;
                p.total = trainSize;
                p.trainLoss = lossSum / double(p.done);
                p.positionsPerSecond = double(p.done) / secondsSince(t0);
                const double left = double(trainSize - p.done) + double(o.epochs - epoch) * double(trainSize);
                p.etaSeconds = left / p.positionsPerSecond;
                callbacks.onProgress(p);
            }
        }
        EpochStats e;
        e.epoch = epoch;
        e.trainSeconds = secondsSince(t0);
        e.trainLoss = lossSum / double(trainSize);
        e.positionsPerSecond = double(trainSize) / e.trainSeconds;
        e.learningRate = lr;
        e.validationLoss = split.validation.empty()
                               ? std::numeric_limits<double>::quiet_NaN()
                               : meanLoss(state.model, data, split.validation, o.loss, threads);
        e.seconds = secondsSince(t0);
        state.epochsDone = epoch;
        state.history.push_back(e);
        if (callbacks.onEpoch) callbacks.onEpoch(e, state);
    }
}

}  // namespace xq::tuner::nnue
