#include "nnue_trainer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "nnue_checkpoint.h"
#include "nnue_test_util.h"

namespace xq::tuner::nnue {
namespace {

TrainerOptions smallOptions() {
    TrainerOptions o;
    o.hidden = 32;
    o.epochs = 4;
    o.batchSize = 256;
    o.learningRate = 3e-3;
    o.validationFraction = 0.1;
    o.seed = 3;
    return o;
}

double maxDifference(const Floats& a, const Floats& b) {
    double d = 0;
    for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, double(std::abs(a[i] - b[i])));
    return d;
}

bool sameModel(const Model& a, const Model& b) {
    return a.hidden == b.hidden && a.w1 == b.w1 && a.b1 == b.b1 && a.w2 == b.w2 && a.b2 == b.b2;
}

// The variance of the targets: the loss of the best constant prediction.
double constantPredictionLoss(const NnueData& data, const std::vector<std::uint32_t>& indices,
                              const LossSpec& l) {
    double sum = 0, sumSquares = 0;
    for (std::uint32_t i : indices) {
        const double t = trainingTarget(data.positions[i], l.lambda, l.wdlK);
        sum += t;
        sumSquares += t * t;
    }
    const double n = double(indices.size());
    return sumSquares / n - (sum / n) * (sum / n);
}

TEST(NnueTrainerTest, TrainingLowersTheLossOnEvaluatedPlayouts) {
    const NnueData data = test::evaluatedPositions(3000, 31);
    TrainerOptions o = smallOptions();
    o.epochs = 8;
    o.batchSize = 128;
    TrainerState state = initialState(o, data);
    const Split split = splitData(data.size(), o.validationFraction, o.seed);
    const double before = meanLoss(state.model, data, split.validation, o.loss, 2);
    const double constant = constantPredictionLoss(data, split.validation, o.loss);
    int epochsSeen = 0;
    TrainerCallbacks cb;
    cb.onEpoch = [&](const EpochStats& e, const TrainerState&) {
        ++epochsSeen;
        EXPECT_GT(e.positionsPerSecond, 0);
        EXPECT_TRUE(std::isfinite(e.validationLoss));
    };
    train(state, data, split, 2, cb);
    ASSERT_EQ(epochsSeen, 8);
    ASSERT_EQ(state.history.size(), 8u);
    const double after = state.history.back().validationLoss;
    EXPECT_NEAR(after, meanLoss(state.model, data, split.validation, o.loss, 1), 1e-9);
    // Well below the start and below what a constant prediction (the targets' variance) achieves.
    EXPECT_LT(after, 0.5 * before) << "validation loss " << before << " -> " << after;
    EXPECT_LT(after, 0.7 * constant) << "constant prediction " << constant << ", trained " << after;
    EXPECT_LT(state.history.back().trainLoss, state.history.front().trainLoss);
    // The schedule decays from lr towards lr * finalRatio.
    EXPECT_LT(state.history.back().learningRate, state.history.front().learningRate);
    EXPECT_EQ(state.steps, 8 * ((std::int64_t(split.train.size()) + 127) / 128));
}

TEST(NnueTrainerTest, ACheckpointResumesToTheSameState) {
    const NnueData data = test::evaluatedPositions(1500, 41);
    const TrainerOptions o = smallOptions();
    const Split split = splitData(data.size(), o.validationFraction, o.seed);
    test::TempDir dir;
    TrainerState straight = initialState(o, data);
    TrainerCallbacks cb;
    cb.onEpoch = [&](const EpochStats& e, const TrainerState& s) {
        if (e.epoch == 2) saveCheckpoint(dir.file("epoch-2.ckpt"), s);
    };
    train(straight, data, split, 2, cb);

    TrainerState resumed = loadCheckpoint(dir.file("epoch-2.ckpt"));
    EXPECT_EQ(resumed.epochsDone, 2);
    EXPECT_EQ(resumed.dataFingerprint, data.fingerprint());
    train(resumed, data, split, 2);
    EXPECT_TRUE(sameModel(resumed.model, straight.model));
    EXPECT_TRUE(sameModel(resumed.adam.m, straight.adam.m));
    EXPECT_TRUE(sameModel(resumed.adam.v, straight.adam.v));
    EXPECT_EQ(resumed.steps, straight.steps);
    ASSERT_EQ(resumed.history.size(), 4u);
    EXPECT_EQ(resumed.history[3].validationLoss, straight.history[3].validationLoss);
    EXPECT_EQ(resumed.history[0].trainLoss, straight.history[0].trainLoss);
}

TEST(NnueTrainerTest, ADamagedCheckpointIsRefused) {
    const NnueData data = test::evaluatedPositions(100, 2);
    TrainerOptions o = smallOptions();
    o.validationSplit = SplitMode::Tail;
    o.loss.lambda = 0.25;
    std::string bytes = serializeCheckpoint(initialState(o, data));
    const TrainerState back = parseCheckpoint(bytes);
    EXPECT_EQ(back.options.validationSplit, SplitMode::Tail);
    EXPECT_EQ(back.options.loss.lambda, 0.25);
    EXPECT_EQ(back.options.hidden, o.hidden);
    std::string damaged = bytes;
    damaged[damaged.size() / 2] ^= 1;
    EXPECT_THROW(parseCheckpoint(damaged), CheckpointError);
    EXPECT_THROW(parseCheckpoint(bytes.substr(0, bytes.size() - 9)), CheckpointError);
    EXPECT_THROW(parseCheckpoint("XQNNUE\r\n" + bytes.substr(8)), CheckpointError);
    EXPECT_THROW(loadCheckpoint("/nonexistent/epoch-001.ckpt"), CheckpointError);

    // A validation file's split keeps its position count.
    o.validationSplit = SplitMode::File;
    o.validationPositions = 17;
    const TrainerState file = parseCheckpoint(serializeCheckpoint(initialState(o, data)));
    EXPECT_EQ(file.options.validationSplit, SplitMode::File);
    EXPECT_EQ(file.options.validationPositions, 17);
    EXPECT_EQ(splitFor(file.options, 100).validation.size(), 17u);
    EXPECT_EQ(splitFor(file.options, 100).validation.front(), 83u);
}

TEST(NnueTrainerTest, ACheckpointKeepsItsStartNetworkAndVersionTwoStillReads) {
    const NnueData data = test::evaluatedPositions(50, 4);
    TrainerState s = initialState(smallOptions(), data);
    s.initNetwork = "xq-0123456789ab.nnue";
    std::string bytes = serializeCheckpoint(s);
    EXPECT_EQ(parseCheckpoint(bytes).initNetwork, "xq-0123456789ab.nnue");

    // Version 2 had no name: the bytes from before the name (146: magic to fingerprint), without the name's
    // length and bytes, version 2 in the header, the hash recomputed. It reads as a random start.
    s.initNetwork.clear();
    bytes = serializeCheckpoint(s);
    constexpr std::size_t NAME_AT = 146;
    ASSERT_EQ(bytes.substr(NAME_AT, 4), std::string(4, '\0'));
    std::string v2 = bytes.substr(0, NAME_AT) + bytes.substr(NAME_AT + 4, bytes.size() - NAME_AT - 4 - 8);
    const std::uint32_t two = 2;
    std::memcpy(v2.data() + 8, &two, 4);
    const std::uint64_t hash = fnv1a64(v2);
    v2.append(reinterpret_cast<const char*>(&hash), 8);
    const TrainerState old = parseCheckpoint(v2);
    EXPECT_EQ(old.initNetwork, "");
    EXPECT_TRUE(sameModel(old.model, s.model));
    EXPECT_EQ(serializeCheckpoint(old), bytes);
}

TEST(NnueTrainerTest, OneThreadAndTwoThreadsGiveCloseResults) {
    const NnueData data = test::evaluatedPositions(1500, 51);
    const TrainerOptions o = smallOptions();
    const Split split = splitData(data.size(), o.validationFraction, o.seed);
    TrainerState one = initialState(o, data), two = initialState(o, data), twoAgain = initialState(o, data);
    train(one, data, split, 1);
    train(two, data, split, 2);
    train(twoAgain, data, split, 2);
    EXPECT_TRUE(sameModel(two.model, twoAgain.model));  // the same thread count repeats exactly
    EXPECT_LT(maxDifference(one.model.w1, two.model.w1), 1e-3);
    EXPECT_LT(maxDifference(one.model.w2, two.model.w2), 1e-3);
    EXPECT_NEAR(one.history.back().validationLoss, two.history.back().validationLoss,
                1e-3 * one.history.back().validationLoss);
}

TEST(NnueTrainerTest, FeaturesNoPositionHasKeepTheirStartWeights) {
    const NnueData data = test::evaluatedPositions(1000, 61);
    const TrainerOptions o = smallOptions();
    TrainerState state = initialState(o, data);
    const Model start = state.model;
    train(state, data, splitData(data.size(), o.validationFraction, o.seed), 2);
    // Feature 0 is a king on a1, outside every palace: no position has it, so the sparse optimizer never
    // moves its row. Feature 4, the own king on e1, is in most positions and moves.
    const auto h = std::size_t(o.hidden);
    EXPECT_TRUE(std::equal(start.w1.begin(), start.w1.begin() + std::ptrdiff_t(h), state.model.w1.begin()));
    EXPECT_FALSE(std::equal(start.w1.begin() + std::ptrdiff_t(4 * h),
                            start.w1.begin() + std::ptrdiff_t(5 * h),
                            state.model.w1.begin() + std::ptrdiff_t(4 * h)));
}

TEST(NnueTrainerTest, DenseOptimizerAlsoLearns) {
    const NnueData data = test::evaluatedPositions(1500, 71);
    TrainerOptions o = smallOptions();
    o.denseOptimizer = true;
    TrainerState state = initialState(o, data);
    const Split split = splitData(data.size(), o.validationFraction, o.seed);
    const double before = meanLoss(state.model, data, split.validation, o.loss, 2);
    train(state, data, split, 2);
    EXPECT_LT(state.history.back().validationLoss, 0.8 * before);
}

}  // namespace
}  // namespace xq::tuner::nnue
