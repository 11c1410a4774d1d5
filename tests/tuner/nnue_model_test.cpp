#include "nnue_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "nnue_test_util.h"

namespace xq::tuner::nnue {
namespace {

// docs/nnue.md's float model in double precision, written from the contract rather than from the trainer.
double referenceOutput(const Model& m, const PackedPosition& p) {
    std::array<std::uint16_t, MAX_ACTIVE> stm{}, other{};
    const int n = perspectiveFeatures(p, stm.data(), other.data());
    const int h = m.hidden;
    double out = m.b2;
    for (int side = 0; side < 2; ++side)
        for (int j = 0; j < h; ++j) {
            double acc = m.b1[std::size_t(j)];
            for (int i = 0; i < n; ++i)
                acc += m.w1[std::size_t(side == 0 ? stm[std::size_t(i)] : other[std::size_t(i)]) *
                                std::size_t(h) +
                            std::size_t(j)];
            const double c = std::clamp(acc, 0.0, 1.0);
            out += c * c * m.w2[std::size_t(side * h + j)];
        }
    return out;
}

double referenceLoss(const Model& m, const NnueData& data, const LossSpec& loss) {
    double sum = 0;
    for (const PackedPosition& p : data.positions) {
        const double d =
            sigmoid(referenceOutput(m, p) * SCALE / loss.wdlK) - trainingTarget(p, loss.lambda, loss.wdlK);
        sum += d * d;
    }
    return sum / double(data.size());
}

// A start with larger output weights, so every part of the gradient is well away from zero.
Model tinyModel(int hidden, std::uint64_t seed) {
    Model m = Model::initial(hidden, seed);
    std::mt19937_64 rng(seed + 1);
    std::uniform_real_distribution<float> u(-0.6f, 0.6f);
    for (float& w : m.w2) w = u(rng);
    for (float& b : m.b1) b = 0.3f * u(rng);
    m.b2 = 0.1f;
    return m;
}

TEST(NnueModelTest, ForwardMatchesTheContractInDouble) {
    NnueData data = test::evaluatedPositions(200, 11);
    Model m = tinyModel(32, 2);
    Scratch s;
    s.reset(m.hidden);
    for (const PackedPosition& p : data.positions) EXPECT_NEAR(forward(m, p, s), referenceOutput(m, p), 2e-5);
}

TEST(NnueModelTest, GradientsMatchFiniteDifferences) {
    NnueData data = test::evaluatedPositions(6, 21);
    const LossSpec loss{0.6, 350};
    Model m = tinyModel(16, 5);
    Gradient g;
    g.reset(m.hidden);
    Scratch s;
    s.reset(m.hidden);
    double lossSum = 0;
    for (const PackedPosition& p : data.positions)
        lossSum += accumulateGradient(m, p, trainingTarget(p, loss.lambda, loss.wdlK), loss,
                                      float(1.0 / double(data.size())), s, g);
    EXPECT_NEAR(lossSum / double(data.size()), referenceLoss(m, data, loss), 1e-6);

    int checked = 0, bad = 0;
    // Central differences with the float step actually taken as the denominator.
    auto check = [&](float& w, double analytic, const char* what) {
        const float saved = w;
        w = saved + 1e-4f;
        const double up = referenceLoss(m, data, loss), wUp = w;
        w = saved - 1e-4f;
        const double down = referenceLoss(m, data, loss), wDown = w;
        w = saved;
        const double numeric = (up - down) / (wUp - wDown);
        ++checked;
        if (std::abs(numeric - analytic) > 1e-7 + 2e-3 * std::abs(numeric)) {
            ++bad;
            ADD_FAILURE() << what << ": numeric " << numeric << ", analytic " << analytic;
        }
    };
    check(m.b2, g.b2, "b2");
    for (std::size_t i = 0; i < m.w2.size(); ++i) check(m.w2[i], g.w2[i], "w2");
    for (std::size_t i = 0; i < m.b1.size(); ++i) check(m.b1[i], g.b1[i], "b1");
    int touched = 0;
    for (int f = 0; f < INPUTS; ++f) {
        if (!g.touched[std::size_t(f)]) continue;
        ++touched;
        for (int j = 0; j < m.hidden; ++j) {
            const std::size_t at = std::size_t(f) * std::size_t(m.hidden) + std::size_t(j);
            check(m.w1[at], g.w1[at], "w1");
        }
    }
    EXPECT_GT(touched, 40);
    EXPECT_EQ(bad, 0) << "of " << checked;
    // Rows of features no position has get no gradient and are not marked.
    for (int f = 0; f < INPUTS; f += 7)
        if (!g.touched[std::size_t(f)]) {
            float unused = m.w1[std::size_t(f) * std::size_t(m.hidden)];
            check(m.w1[std::size_t(f) * std::size_t(m.hidden)], 0.0, "untouched w1");
            EXPECT_EQ(unused, m.w1[std::size_t(f) * std::size_t(m.hidden)]);
        }
}

TEST(NnueModelTest, MeanLossIsTheSameOnAnyNumberOfThreads) {
    NnueData data = test::evaluatedPositions(1500, 4);
    std::vector<std::uint32_t> all(std::size_t(data.size()));
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = std::uint32_t(i);
    Model m = tinyModel(32, 9);
    const LossSpec loss;
    const double one = meanLoss(m, data, all, loss, 1);
    EXPECT_NEAR(one, referenceLoss(m, data, loss), 1e-6);
    EXPECT_NEAR(meanLoss(m, data, all, loss, 2), one, 1e-12);
    EXPECT_NEAR(meanLoss(m, data, all, loss, 3), one, 1e-12);
}

TEST(NnueModelTest, ClipKeepsWeightsInTheQuantisedRange) {
    Model m = Model::initial(16, 1);
    m.w1[0] = 5;
    m.b1[1] = -3;
    m.w2[2] = 2.5f;
    m.b2 = 7;
    m.clip();
    EXPECT_EQ(m.w1[0], CLIP);
    EXPECT_EQ(m.b1[1], -CLIP);
    EXPECT_EQ(m.w2[2], CLIP);
    EXPECT_EQ(m.b2, 7);  // the output bias is an int32 in the file: not clipped
}

}  // namespace
}  // namespace xq::tuner::nnue
