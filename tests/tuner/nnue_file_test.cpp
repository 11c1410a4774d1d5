#include "nnue_file.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "nnue_accumulator.h"
#include "nnue_network.h"
#include "nnue_test_util.h"
#include "nnue_trainer.h"

namespace xq::tuner::nnue {
namespace {

// A model with weights spread over the ranges training reaches (W2 within +-0.9 so the output bound holds
// at H = 64).
Model spreadModel(int hidden, std::uint64_t seed) {
    Model m = Model::initial(hidden, seed);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> u(-1, 1);
    for (float& w : m.w1) w *= 2.5f;
    for (float& b : m.b1) b = 0.5f + 0.4f * u(rng);
    for (float& w : m.w2) w = 0.9f * u(rng);
    m.b2 = 0.37f;
    m.clip();
    return m;
}

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

template <typename T>
T at(const std::string& bytes, std::size_t offset) {
    T v;
    std::memcpy(&v, bytes.data() + offset, sizeof v);
    return v;
}

TEST(NnueFileTest, WrittenNetworkReadsBackTheSameWithTheContractsHeader) {
    test::TempDir dir;
    const QuantisedNet net = quantise(spreadModel(64, 1), "test net, 12 positions");
    const std::string path = writeNetFile(dir.path(), net);
    const std::string bytes = readBytes(path);
    // Named by content in a directory: xq- and the first 12 hex digits of the file's SHA-256.
    EXPECT_EQ(std::filesystem::path(path).filename().string(), netFileName(bytes));
    EXPECT_EQ(netFileName(bytes).size(), std::string("xq-0123456789ab.nnue").size());
    ASSERT_EQ(bytes.size(), 112 + 2 * 1260 * 64 + 2 * 64 + 2 * 128 + 4);
    EXPECT_EQ(bytes.substr(0, 8), std::string("XQNNUE\r\n"));
    EXPECT_EQ(at<std::uint32_t>(bytes, 8), 2u);      // version
    EXPECT_EQ(at<std::uint32_t>(bytes, 12), 1u);     // PS-1260
    EXPECT_EQ(at<std::uint32_t>(bytes, 16), 1260u);  // inputs
    EXPECT_EQ(at<std::uint32_t>(bytes, 20), 64u);    // H
    EXPECT_EQ(at<std::uint32_t>(bytes, 24), 1u);     // buckets
    EXPECT_EQ(at<std::int32_t>(bytes, 28), 255);
    EXPECT_EQ(at<std::int32_t>(bytes, 32), 64);
    EXPECT_EQ(at<std::int32_t>(bytes, 36), 400);
    EXPECT_EQ(at<std::uint64_t>(bytes, 40), xq::nnue::fileHash(bytes, 2));
    EXPECT_EQ(std::string(bytes.data() + 48), "test net, 12 positions");
    EXPECT_EQ(at<std::int16_t>(bytes, 112), net.w1[0]);  // W1 feature-major first

    const QuantisedNet back = readNetFile(path);
    EXPECT_EQ(back.hidden, 64);
    EXPECT_EQ(back.w1, net.w1);
    EXPECT_EQ(back.b1, net.b1);
    EXPECT_EQ(back.w2, net.w2);
    EXPECT_EQ(back.b2, net.b2);
    EXPECT_EQ(back.b2, std::lround(0.37 * 255 * 64));
    EXPECT_EQ(back.description, net.description);

    // A file path is written as given.
    EXPECT_EQ(writeNetFile(dir.file("named.nnue"), net), dir.file("named.nnue"));
    EXPECT_EQ(readBytes(dir.file("named.nnue")), bytes);
}

// The trainer reads with the engine's reader (engine/nnue_network.h): the same refusals, named the same way,
// and the file named in each.
TEST(NnueFileTest, TheTrainerReadsWithTheEnginesReader) {
    test::TempDir dir;
    const std::string path = writeNetFile(dir.path(), quantise(spreadModel(32, 2), "x"));
    const std::string bytes = readBytes(path);
    EXPECT_NO_THROW(readNetFile(path));
    auto refused = [&](const std::string& b, const std::string& why) {
        const std::string file = dir.file("changed.nnue");
        std::ofstream(file, std::ios::binary | std::ios::trunc) << b;
        try {
            readNetFile(file);
            ADD_FAILURE() << "accepted; expected: " << why;
        } catch (const NetError& e) {
            EXPECT_NE(std::string(e.what()).find("network file '" + file + "': " + why), std::string::npos)
                << e.what();
        }
    };
    refused(bytes.substr(0, 100), "file too short");
    refused(bytes.substr(0, bytes.size() - 2), "file truncated");
    refused(bytes + "xx", "file too long");
    std::string b = bytes;
    b[0] = 'Y';
    refused(b, "wrong magic");
    b = bytes;
    b[bytes.size() - 7] ^= 4;
    refused(b, "hash mismatch");
    // A changed SCALE (400 -> 401) is a damaged file: the hash covers the header.
    b = bytes;
    b[36] = char(0x91);
    ASSERT_EQ(at<std::int32_t>(b, 36), 401);
    refused(b, "hash mismatch");
    // A SCALE out of range in a correctly hashed file is refused for its value.
    b = bytes;
    const std::int32_t zero = 0;
    std::memcpy(b.data() + 36, &zero, 4);
    const std::uint64_t hash = xq::nnue::fileHash(b, 2);
    std::memcpy(b.data() + 40, &hash, 8);
    refused(b, "SCALE = 0 is not in 1..100000");
    // The shipped network is a version-1 file: it still loads.
    const QuantisedNet shipped =
        readNetFile(std::string(XQ_SOURCE_DIR) + "/engine/nets/xq-f62c1752bf61.nnue");
    EXPECT_EQ(shipped.version, 1u);
    EXPECT_EQ(shipped.hidden, 128);
}

TEST(NnueFileTest, IntegerEvaluationMatchesTheDequantisedFloatWithinTheDivisionsRounding) {
    const NnueData data = test::evaluatedPositions(2000, 8);
    const QuantisedNet net = quantise(spreadModel(64, 3), "");
    const Model deq = dequantise(net);
    Scratch s;
    s.reset(deq.hidden);
    // Two truncating divisions: sum / QA loses under 1 unit, which is SCALE / (QA * QB) cp after the last;
    // the last loses under 1 cp.
    const double bound = 1.0 + double(net.scale) / (QA * QB) + 1e-3;
    double worst = 0;
    int nonZero = 0;
    for (const PackedPosition& p : data.positions) {
        const int cp = evaluateQuantised(net, p);
        const double reference = double(forward(deq, p, s)) * SCALE;
        worst = std::max(worst, std::abs(cp - reference));
        nonZero += std::abs(cp) > 50;
    }
    EXPECT_LT(worst, bound);
    EXPECT_GT(nonZero, 1000);  // the values are not trivially small
}

TEST(NnueFileTest, QuantisedNetworkStaysCloseToTheTrainedFloatModel) {
    const NnueData data = test::evaluatedPositions(2500, 9);
    TrainerOptions o;
    o.hidden = 32;
    o.epochs = 3;
    o.batchSize = 256;
    o.learningRate = 3e-3;
    TrainerState state = initialState(o, data);
    const Split split = splitData(data.size(), 0.1, 1);
    train(state, data, split, 2);
    const QuantisedNet net = quantise(state.model, "");
    Scratch s;
    s.reset(o.hidden);
    double sum = 0;
    for (std::uint32_t i : split.validation)
        sum += std::abs(evaluateQuantised(net, data.positions[i]) -
                        forward(state.model, data.positions[i], s) * SCALE);
    EXPECT_LT(sum / double(split.validation.size()), 10.0);  // cp, mostly W2's step of 1/64
    const double floatLoss = meanLoss(state.model, data, split.validation, o.loss, 2);
    EXPECT_NEAR(quantisedLoss(net, data, split.validation, o.loss, 2), floatLoss, 0.05 * floatLoss);
}

// The engine's side of the contract (engine/nnue_network.h, nnue_accumulator.h): it reads what the trainer
// writes, writes the same bytes back, and evaluates every position to the trainer's integer.
TEST(NnueFileTest, EngineReadsTheFileAndEvaluatesAsTheTrainer) {
    QuantisedNet net = quantise(spreadModel(64, 6), "for the engine");
    const std::string bytes = xq::nnue::serializeNetwork(net);
    xq::nnue::Network engineNet = xq::nnue::parseNetwork(bytes);
    EXPECT_EQ(engineNet.hidden, 64);
    EXPECT_EQ(engineNet.description, "for the engine");
    EXPECT_EQ(engineNet.name, netFileName(bytes));
    EXPECT_EQ(xq::nnue::serializeNetwork(engineNet), bytes);
    int nonZero = 0;
    for (const LabeledPosition& lp : tuner::test::randomPositions(600, 12)) {
        const Position pos(lp.fen);
        const int cp = evaluateQuantised(net, packPosition(pos, 0.5f, std::nullopt));
        ASSERT_EQ(xq::nnue::evaluate(engineNet, pos), cp) << lp.fen;
        nonZero += cp != 0;
    }
    EXPECT_GT(nonZero, 500);
}

double outputL1(const Model& m) {
    double sum = 0;
    for (float w : m.w2) sum += std::abs(double(w));
    return sum;
}

// The engine sums the output layer in int32, so QA^2 * sum |W2q| must stay below 2^31, which +-CLIP alone
// does not ensure at the trainer's default H = 256 (2H * CLIP = 1014 > 512). A training whose steps push W2
// outward (a learning rate that throws the weights about, no decay: without the bound, sum |W2| ends at
// 1010 and the export fails) ends within the bound, and its network exports, the engine loads it, and it
// evaluates as the float model up to the quantisation: the integers as the contract computes them from the
// file's weights, and those weights the trained ones rounded, nothing rescaled at export.
TEST(NnueFileTest, ATrainingThatPushesTheOutputWeightsPastTheInt32BoundStillExports) {
    const NnueData data = test::evaluatedPositions(1200, 17);
    TrainerOptions o;
    o.hidden = 256;
    o.epochs = 3;
    o.batchSize = 32;
    o.learningRate = 0.5;
    o.finalLearningRateRatio = 1;
    o.adam.weightDecay = 0;
    o.loss.lambda = 1;
    TrainerState state = initialState(o, data);
    const Split split = splitData(data.size(), 0.1, 1);
    train(state, data, split, 2);
    const double bound = outputWeightBound(256);
    EXPECT_NEAR(bound, 512.0, 1e-9);
    // The training reached the bound and stayed within it.
    EXPECT_LE(outputL1(state.model), bound);
    EXPECT_GT(outputL1(state.model), 0.99 * bound);

    test::TempDir dir;
    const std::string path = writeNetFile(dir.path(), quantise(state.model, "pushed to the bound"));
    const xq::nnue::Network engineNet = xq::nnue::loadNetworkFile(path);
    EXPECT_LT(xq::nnue::networkBounds(engineNet).outputWorstCase, std::int64_t(1) << 31);
    for (std::size_t i = 0; i < state.model.w2.size(); ++i)
        ASSERT_LE(std::abs(double(state.model.w2[i]) * QB - engineNet.w2[i]), 0.5 + 1e-4) << i;
    for (std::size_t i = 0; i < state.model.w1.size(); ++i)
        ASSERT_LE(std::abs(double(state.model.w1[i]) * QA - engineNet.w1[i]), 0.5 + 1e-3) << i;
    const Model deq = dequantise(engineNet);
    Scratch s;
    s.reset(o.hidden);
    double worstInteger = 0, sumDiff = 0, sumAbs = 0;
    const auto positions = tuner::test::randomPositions(300, 23);
    for (const LabeledPosition& lp : positions) {
        const Position pos(lp.fen);
        const PackedPosition p = packPosition(pos, 0.5f, std::nullopt);
        const int cp = xq::nnue::evaluate(engineNet, pos);
        worstInteger = std::max(worstInteger, std::abs(cp - double(forward(deq, p, s)) * SCALE));
        const double trained = double(forward(state.model, p, s)) * SCALE;
        sumDiff += std::abs(cp - trained);
        sumAbs += std::abs(trained);
    }
    EXPECT_LT(worstInteger, 1.0 + double(engineNet.scale) / (QA * QB) + 1e-3);
    // The rounding's effect on the output: a small fraction of the (here very large) evaluations.
    EXPECT_LT(sumDiff, 0.005 * sumAbs) << "mean |int - float| " << sumDiff / double(positions.size())
                                       << " cp of mean |float| " << sumAbs / double(positions.size());
}

TEST(NnueFileTest, ANetworkThatCouldOverflowIsNotWritten) {
    Model m = spreadModel(256, 4);
    for (float& w : m.w2) w = 1.5f;  // QA^2 * sum |W2q| = 65025 * 512 * 96, beyond 2^31
    try {
        quantise(m, "");
        FAIL() << "an overflowing network was quantised";
    } catch (const NetError& e) {
        EXPECT_NE(std::string(e.what()).find("2^31"), std::string::npos) << e.what();
    }
    QuantisedNet net = quantise(spreadModel(32, 5), "");
    const NetBounds b = netBounds(net);
    EXPECT_LE(b.accumulator, 32767);
    EXPECT_LT(b.outputSum, std::int64_t(1) << 31);
    net.w1.assign(net.w1.size(), 2000);  // 32 features of 2000 exceed int16
    EXPECT_THROW(checkNetBounds(net), NetError);
    test::TempDir dir;
    EXPECT_THROW(writeNetFile(dir.path(), net), NetError);
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

}  // namespace
}  // namespace xq::tuner::nnue
