// The LLR against numbers computed by fishtest's own Python code (server/fishtest/stats/LLRcalc.py),
// and the properties the maths must have whatever the implementation.
#include "llr.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sprt.h"

namespace xq::stats {
namespace llr_test {

constexpr double kTolerance = 1e-6;

Penta penta(std::int64_t ll, std::int64_t ld, std::int64_t dd, std::int64_t wd, std::int64_t ww) {
    Penta p;
    p.pairs = {ll, ld, dd, wd, ww};
    return p;
}

Wdl wdl(std::int64_t w, std::int64_t d, std::int64_t l) {
    return Wdl{w, d, l};
}

SprtConfig config(double elo0, double elo1, EloModel model) {
    SprtConfig c;
    c.elo0 = elo0, c.elo1 = elo1, c.model = model;
    return c;
}

// Reference values computed with fishtest's code.
TEST(LlrFishtest, PentaNormalizedZeroTwo) {
    EXPECT_NEAR(sprt(penta(100, 2600, 6100, 3150, 150), config(0, 2, EloModel::Normalized)).llr,
                6.685197881585151, kTolerance);
}

TEST(LlrFishtest, PentaNormalizedFishtestExample) {
    EXPECT_NEAR(sprt(penta(39, 2226, 31451, 2412, 40), config(0.764, 3.439, EloModel::Normalized)).llr,
                2.162940869584568, kTolerance);
}

TEST(LlrFishtest, PentaLogistic) {
    EXPECT_NEAR(sprt(penta(50, 800, 1500, 900, 60), config(0, 5, EloModel::Logistic)).llr, 3.22328046562682,
                kTolerance);
}

TEST(LlrFishtest, TrinomialLogistic) {
    EXPECT_NEAR(sprt(wdl(716, 2163, 591), config(0, 5, EloModel::Logistic)).llr, 3.8253568113680387,
                kTolerance);
}

TEST(LlrFishtest, RawFunctionsTakeAscendingCounts) {
    const std::vector<double> ldw = {591, 2163, 716};
    EXPECT_NEAR(llrLogistic(0, 5, ldw), 3.8253568113680387, kTolerance);
    const std::vector<double> five = {100, 2600, 6100, 3150, 150};
    EXPECT_NEAR(llrNormalized(0, 2, five), 6.685197881585151, kTolerance);
}

// More cases, small, large, lopsided and all-draw, computed by a throwaway Python transliteration of
// fishtest's LLRcalc.py (with scipy's brentq ported to Python) that reproduces the four references
// above to the last digit. They pin fishtest's quirks: the 1e-3 regularisation of empty cells makes a
// clean sweep move the normalized LLR slowly, and a single game barely moves it at all.
struct CrossCheck {
    EloModel model;
    double elo0, elo1;
    std::vector<double> ascending;
    double llr;
};

TEST(LlrFishtest, EdgeCasesLikeFishtest) {
    const EloModel N = EloModel::Normalized, L = EloModel::Logistic;
    const std::vector<CrossCheck> cases = {
        {N, 0, 2, {0, 0, 0, 0, 0}, -1.656807473997572e-07},
        {N, 0, 2, {0, 0, 0, 0, 1}, 0.00811156447337613},
        {L, 0, 5, {1, 0, 0}, -0.014494884709035021},
        {N, 0, 2, {0, 0, 1000, 0, 0}, -0.061913479011022336},
        {L, 0, 2, {0, 0, 1000, 0, 0}, -5.7637958146343635},
        {N, 0, 5, {0, 500, 0}, -0.09927894408175829},
        {L, 0, 5, {0, 500, 0}, -7.238179394665814},
        {N, 0, 5, {0, 0, 0, 0, 200}, 4.028749910752937},
        {N, 0, 5, {200, 0, 0, 0, 0}, -4.111576210601552},
        {N, -1.75, 0.25, {10789, 19328, 33806, 19402, 10543}, -0.6271679157328218},
        {L, -3, 1, {65804, 56553, 65388}, 2.0490426179674808},
        {N, 0.5, 2.5, {2, 30000, 400000, 30000, 1}, -22.912516867072526},
        {L, 0, 2, {100000, 0, 0, 0, 100000}, -3.313668109482498},
        {N, 0, 5, {0, 3, 0, 3, 0}, -0.0012429966789068527},
        {N, 0, 2, {3, 1, 0, 0, 0}, -0.030587466734918137},
        {L, -10, 0, {5, 5, 0}, -0.2835913356120611},
    };
    for (const CrossCheck& c : cases) {
        const double llr = c.model == N ? llrNormalized(c.elo0, c.elo1, c.ascending)
                                        : llrLogistic(c.elo0, c.elo1, c.ascending);
        EXPECT_NEAR(llr, c.llr, kTolerance) << toString(c.model) << " [" << c.elo0 << ", " << c.elo1 << "] "
                                            << c.ascending.size() << " cells, first " << c.ascending[0];
    }
}

// Mirroring the results (swapping the engines) and the hypotheses (elo -> -elo) must negate nothing:
// LLR(results, [a, b]) == LLR(mirrored, [-b, -a]) with the roles of H0/H1 swapped, i.e. -LLR.
TEST(LlrProperties, MirrorSymmetry) {
    const std::vector<double> counts = {120, 900, 2100, 1100, 90};
    const std::vector<double> mirrored = {90, 1100, 2100, 900, 120};
    EXPECT_NEAR(llrLogistic(-1, 4, counts), -llrLogistic(-4, 1, mirrored), 1e-9);
    EXPECT_NEAR(llrNormalized(-1, 4, counts), -llrNormalized(-4, 1, mirrored), 1e-7);
    const std::vector<double> tri = {300, 1000, 380};
    const std::vector<double> triMirrored = {380, 1000, 300};
    EXPECT_NEAR(llrLogistic(0, 5, tri), -llrLogistic(-5, 0, triMirrored), 1e-9);
    EXPECT_NEAR(llrNormalized(0, 5, tri), -llrNormalized(-5, 0, triMirrored), 1e-7);
}

// Swapping H0 and H1 negates the LLR.
TEST(LlrProperties, SwappingHypothesesNegates) {
    const std::vector<double> counts = {30, 400, 900, 500, 40};
    EXPECT_NEAR(llrLogistic(0, 5, counts), -llrLogistic(5, 0, counts), 1e-9);
    EXPECT_NEAR(llrNormalized(0, 3, counts), -llrNormalized(3, 0, counts), 1e-9);
}

// The sign follows where the observed strength lies relative to the midpoint of the hypotheses.
TEST(LlrProperties, SignFollowsTheData) {
    const SprtConfig normalized = config(0, 10, EloModel::Normalized);
    const SprtConfig logistic = config(0, 10, EloModel::Logistic);
    const Penta strong = penta(20, 300, 800, 500, 60);  // clearly better than +10
    const Penta weak = penta(60, 500, 800, 300, 20);    // clearly worse than 0
    EXPECT_GT(sprt(strong, normalized).llr, 0);
    EXPECT_GT(sprt(strong, logistic).llr, 0);
    EXPECT_LT(sprt(weak, normalized).llr, 0);
    EXPECT_LT(sprt(weak, logistic).llr, 0);
    EXPECT_GT(sprt(wdl(500, 300, 350), logistic).llr, 0);
    EXPECT_LT(sprt(wdl(350, 300, 500), logistic).llr, 0);
}

// The LLR is N times a per-sample quantity: doubling every count doubles it (the regularisation of
// empty cells aside, which is why no cell is empty here).
TEST(LlrProperties, ScalesWithSampleSize) {
    const std::vector<double> counts = {12, 130, 300, 150, 14};
    const std::vector<double> doubled = {24, 260, 600, 300, 28};
    EXPECT_NEAR(llrNormalized(0, 2, doubled), 2 * llrNormalized(0, 2, counts), 1e-6);
    EXPECT_NEAR(llrLogistic(0, 2, doubled), 2 * llrLogistic(0, 2, counts), 1e-6);
}

// The constrained maximum-likelihood distributions satisfy their constraints.
TEST(LlrProperties, MleMeetsConstraints) {
    const std::vector<double> counts = {39, 2226, 31451, 2412, 40};
    const RegularizedPdf r = resultsToPdf(counts);
    const Pdf e = mleExpected(r.pdf, 0.51);
    double total = 0;
    for (double p : e.prob) total += p;
    EXPECT_NEAR(total, 1, 1e-9);
    EXPECT_NEAR(moments(e).mean, 0.51, 1e-9);

    const Pdf t = mleTValue(r.pdf, 0.5, 0.02);
    const Moments m = moments(t);
    EXPECT_NEAR((m.mean - 0.5) / std::sqrt(m.variance), 0.02, 1e-5);
}

TEST(LlrProperties, EmptyCellsAreRegularizedNotLogZero) {
    const std::vector<double> counts = {0, 0, 5, 0, 0};
    const RegularizedPdf r = resultsToPdf(counts);
    EXPECT_NEAR(r.total, 5.004, 1e-12);
    EXPECT_NEAR(r.pdf.prob[0], 1e-3 / 5.004, 1e-15);
    EXPECT_TRUE(std::isfinite(llrNormalized(0, 2, counts)));
    EXPECT_TRUE(std::isfinite(llrLogistic(0, 5, counts)));
}

TEST(LlrProperties, RejectsWrongShapes) {
    const std::vector<double> four = {1, 2, 3, 4};
    EXPECT_THROW(llrLogistic(0, 5, four), std::invalid_argument);
    const std::vector<double> negative = {1, -2, 3};
    EXPECT_THROW(llrLogistic(0, 5, negative), std::invalid_argument);
}

}  // namespace llr_test
}  // namespace xq::stats
