#include "training_set.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "evaluate.h"
#include "playouts.h"

namespace xq::tuner {
namespace {

// A plain loop: Eigen's vectorised maxCoeff trips a false -Wmaybe-uninitialized in g++ 12 with AVX-512.
double maxAbs(const ParamMatrix& m) {
    double v = 0;
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j) v = std::max(v, std::abs(m(i, j)));
    return v;
}

eval::Weights randomWeights(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> d(-300, 300);
    eval::Weights w;
    for (int i = 0; i < eval::WEIGHT_NB; ++i) w[i] = {d(rng), d(rng)};
    return w;
}

// The linear form is the engine's evaluation without integer truncation: for any weights it must agree
// within the two truncations (under 2 cp).
TEST(TrainingSetTest, LinearFormMatchesEngineEvaluation) {
    auto positions = test::randomPositions(3000, 1);
    TrainingSet set = buildTrainingSet(positions, 2);
    ASSERT_EQ(set.size(), 3000);
    for (std::uint64_t seed : {0ull, 5ull, 9ull}) {
        eval::Weights w = seed == 0 ? eval::defaultWeights() : randomWeights(seed);
        ParamMatrix p = toParams(w);
        int zeroScale = 0;
        for (std::int64_t i = 0; i < set.size(); ++i) {
            Position pos(positions[std::size_t(i)].fen);
            double linear = set.evaluate(i, p);
            int exact = eval::evaluate(pos, w);
            ASSERT_NEAR(linear, exact, 2.0) << positions[std::size_t(i)].fen;
            zeroScale += set.mgFactor[i] == 0 && set.egFactor[i] == 0;
        }
        EXPECT_LT(zeroScale, set.size());
    }
    EXPECT_GT(set.coef.nonZeros(), 10 * set.size());  // real positions have many features
    EXPECT_EQ(set.coef.cols(), eval::WEIGHT_NB);
}

TEST(TrainingSetTest, ResultsAndOrderArePreserved) {
    auto positions = test::randomPositions(100, 2);
    for (std::size_t i = 0; i < positions.size(); ++i) positions[i].result = float(i % 3) / 2;
    TrainingSet set = buildTrainingSet(positions, 2);
    for (std::size_t i = 0; i < positions.size(); ++i) {
        EXPECT_EQ(set.result[Eigen::Index(i)], positions[i].result);
        Position pos(positions[i].fen);
        EXPECT_NEAR(set.evaluate(std::int64_t(i), toParams(eval::defaultWeights())), eval::evaluate(pos),
                    2.0);
    }
}

TEST(TrainingSetTest, BadFenIsReportedWithItsIndex) {
    auto positions = test::randomPositions(10, 3);
    positions[7].fen = "not a fen";
    try {
        buildTrainingSet(positions, 2);
        FAIL() << "no error";
    } catch (const DataError& e) {
        EXPECT_NE(std::string(e.what()).find("position 8"), std::string::npos) << e.what();
    }
}

// The analytic gradient against central differences of the loss, for every parameter that occurs.
TEST(TrainingSetTest, GradientMatchesFiniteDifferences) {
    auto positions = test::randomPositions(400, 4);
    std::mt19937_64 rng(4);
    for (auto& p : positions) p.result = float(rng() % 3) / 2;
    TrainingSet set = buildTrainingSet(positions, 2);
    ParamMatrix params = toParams(randomWeights(17)) * 0.2 + toParams(eval::defaultWeights());
    const double k = 0.004;
    ParamMatrix grad;
    double loss = lossAndGradient(set, 0, set.size(), params, k, 2, &grad);
    EXPECT_GT(loss, 0);
    // Same loss on one thread and without the gradient.
    EXPECT_NEAR(lossAndGradient(set, 0, set.size(), params, k, 1, nullptr), loss, 1e-12);

    ParamMask active = set.activeParameters(0, set.size());
    int checked = 0;
    double maxGrad = maxAbs(grad);
    ASSERT_GT(maxGrad, 0);
    for (int i = 0; i < eval::WEIGHT_NB; ++i)
        for (int j = 0; j < 2; ++j) {
            if (!active(i, j)) {
                EXPECT_EQ(grad(i, j), 0) << eval::weightName(i);
                continue;
            }
            const double h = 0.5;
            ParamMatrix plus = params, minus = params;
            plus(i, j) += h;
            minus(i, j) -= h;
            double numeric = (lossAndGradient(set, 0, set.size(), plus, k, 2, nullptr) -
                              lossAndGradient(set, 0, set.size(), minus, k, 2, nullptr)) /
                             (2 * h);
            ASSERT_NEAR(grad(i, j), numeric, 1e-3 * maxGrad + 1e-3 * std::abs(numeric))
                << eval::weightName(i) << (j ? " eg" : " mg");
            ++checked;
        }
    EXPECT_GT(checked, 100);
}

TEST(TrainingSetTest, BatchesSumToTheWhole) {
    auto positions = test::randomPositions(1000, 5);
    for (std::size_t i = 0; i < positions.size(); ++i) positions[i].result = float(i % 2);
    TrainingSet set = buildTrainingSet(positions, 2);
    ParamMatrix p = toParams(eval::defaultWeights()), g1, g2, gAll;
    double a = lossAndGradient(set, 0, 400, p, 0.003, 2, &g1);
    double b = lossAndGradient(set, 400, 1000, p, 0.003, 2, &g2);
    double all = lossAndGradient(set, 0, 1000, p, 0.003, 2, &gAll);
    EXPECT_NEAR(all, (a * 400 + b * 600) / 1000, 1e-12);
    EXPECT_LT(maxAbs(gAll - (g1 * 400 + g2 * 600) / 1000), 1e-12);
}

TEST(TrainingSetTest, ActiveParametersFollowTheData) {
    // Only the start position: no king on the a-file, no open-file rook.
    TrainingSetBuilder b;
    b.add(eval::trace(Position()), 0.5f);
    TrainingSet set = b.finish();
    ParamMask active = set.activeParameters(0, 1);
    EXPECT_FALSE(active(eval::weightIndex("Pst.King.a0"), 0));
    EXPECT_FALSE(active(eval::W_ROOK_OPEN_FILE, 0));
    // At the start position material cancels, but the side to move's tempo does not.
    EXPECT_FALSE(active(eval::W_MATERIAL, 0));
    EXPECT_TRUE(active(eval::W_TEMPO, 0));
    // Phase is full: the endgame halves carry no weight.
    EXPECT_FALSE(active(eval::W_TEMPO, 1));
}

TEST(TrainingSetTest, WeightsRoundTripThroughParams) {
    eval::Weights w = randomWeights(3);
    EXPECT_EQ(toWeights(toParams(w)), w);
    ParamMatrix p = toParams(w);
    p(0, 0) += 0.6;
    p(1, 1) -= 0.4;
    eval::Weights r = toWeights(p);
    EXPECT_EQ(r[0].mg, w[0].mg + 1);
    EXPECT_EQ(r[1].eg, w[1].eg);
}

}  // namespace
}  // namespace xq::tuner
