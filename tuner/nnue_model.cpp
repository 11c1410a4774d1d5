#include "nnue_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "training_set.h"

namespace xq::tuner::nnue {

namespace {

// dst += src over n floats; a plain loop, which g++ vectorises.
inline void addRow(float* __restrict dst, const float* __restrict src, int n) {
    for (int j = 0; j < n; ++j) dst[j] += src[j];
}

// The accumulators of both perspectives: b1 plus the rows of the active features.
inline int accumulate(const Model& m, const PackedPosition& p, Scratch& s) {
    const int h = m.hidden, n = perspectiveFeatures(p, s.stm.data(), s.other.data());
    float* accStm = s.acc.data();
    float* accOther = accStm + h;
    std::copy(m.b1.begin(), m.b1.end(), accStm);
    std::copy(m.b1.begin(), m.b1.end(), accOther);
    for (int i = 0; i < n; ++i) {
        addRow(accStm, &m.w1[std::size_t(s.stm[std::size_t(i)]) * std::size_t(h)], h);
        addRow(accOther, &m.w1[std::size_t(s.other[std::size_t(i)]) * std::size_t(h)], h);
    }
    return n;
}

inline float screlu(float v) {
    v = std::min(std::max(v, 0.f), 1.f);
    return v * v;
}

// The output layer: sum_i screlu(x_i) * W2_i + b2. Sixteen partial sums, so that g++ vectorises the
// reduction without -ffast-math (2H is a multiple of 32). Eigen's sum() does this too, but trips a false
// -Wmaybe-uninitialized inside g++ 12's AVX-512 reduction intrinsics.
inline float output(const Model& m, const Scratch& s) {
    constexpr int LANES = 16;
    float lanes[LANES] = {};
    const float* x = s.acc.data();
    const float* w2 = m.w2.data();
    for (int j = 0; j < 2 * m.hidden; j += LANES)
        for (int k = 0; k < LANES; ++k) lanes[k] += screlu(x[j + k]) * w2[j + k];
    float sum = 0;
    for (float v : lanes) sum += v;
    return sum + m.b2;
}

}  // namespace

Model Model::initial(int hidden, std::uint64_t seed) {
    Model m;
    m.hidden = hidden;
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> n1(0.f, float(0.5 / std::sqrt(double(MAX_ACTIVE))));
    std::uniform_real_distribution<float> u2(-1.f, 1.f);
    m.w1.resize(std::size_t(INPUTS) * std::size_t(hidden));
    for (float& w : m.w1) w = n1(rng);
    m.b1.assign(std::size_t(hidden), 0.f);
    m.w2.resize(std::size_t(2 * hidden));
    const float r2 = float(1.0 / std::sqrt(2.0 * hidden));
    for (float& w : m.w2) w = r2 * u2(rng);
    m.b2 = 0;
    m.clip();
    return m;
}

void Model::clip() {
    auto clamp = [](Floats& v) {
        for (float& x : v) x = std::clamp(x, -CLIP, CLIP);
    };
    clamp(w1);
    clamp(b1);
    projectOutputWeights(w2, hidden);
}

double outputWeightBound(int hidden) {
    const std::int64_t quantisedSum =
        (std::numeric_limits<std::int32_t>::max()) / (std::int64_t(::xq::nnue::QA) * ::xq::nnue::QA);
    return double(quantisedSum - hidden - 1) / ::xq::nnue::QB;
}

bool projectOutputWeights(Floats& w2, int hidden) {
    double sum = 0, top = 0;
    for (float& w : w2) {
        w = std::clamp(w, -CLIP, CLIP);
        sum += std::abs(double(w));
        top = std::max(top, std::abs(double(w)));
    }
    const double bound = outputWeightBound(hidden);
    if (sum <= bound) return false;
    // The L1 ball's projection is a soft threshold: |w| - theta (at least 0) with the theta that makes the
    // sum the bound; bisection finds it (the sum falls as theta grows), hi keeping the sum within. The
    // target is a millionth below the bound: rounding the results to float must not cross it.
    const double target = bound * (1 - 1e-6);
    auto shrunkSum = [&](double theta) {
        double s = 0;
        for (float w : w2) s += std::max(0.0, std::abs(double(w)) - theta);
        return s;
    };
    double lo = 0, hi = top;
    for (int i = 0; i < 60; ++i) {
        const double mid = 0.5 * (lo + hi);
        (shrunkSum(mid) > target ? lo : hi) = mid;
    }
    for (float& w : w2) w = float(std::copysign(std::max(0.0, std::abs(double(w)) - hi), double(w)));
    return true;
}

void Gradient::reset(int hidden) {
    w1.assign(std::size_t(INPUTS) * std::size_t(hidden), 0.f);
    b1.assign(std::size_t(hidden), 0.f);
    w2.assign(std::size_t(2 * hidden), 0.f);
    b2 = 0;
    touched.assign(INPUTS, 0);
}

void Gradient::clearTouched() {
    const std::size_t h = b1.size();
    for (std::size_t f = 0; f < touched.size(); ++f)
        if (touched[f]) {
            std::fill_n(&w1[f * h], h, 0.f);
            touched[f] = 0;
        }
    std::fill(b1.begin(), b1.end(), 0.f);
    std::fill(w2.begin(), w2.end(), 0.f);
    b2 = 0;
}

float forward(const Model& m, const PackedPosition& p, Scratch& s) {
    accumulate(m, p, s);
    return output(m, s);
}

double accumulateGradient(const Model& m, const PackedPosition& p, double target, const LossSpec& loss,
                          float weight, Scratch& s, Gradient& g) {
    const int h = m.hidden, n = accumulate(m, p, s);
    const double out = output(m, s);
    const double k = SCALE / loss.wdlK;
    const double predicted = sigmoid(out * k);
    const double diff = predicted - target;
    // d/d out (predicted - target)^2 = 2 (predicted - target) predicted (1 - predicted) SCALE / K
    const float d = float(2 * diff * predicted * (1 - predicted) * k) * weight;

    const float* x = s.acc.data();
    const float* w2 = m.w2.data();
    float* dx = s.dx.data();
    float* gw2 = g.w2.data();
    for (int i = 0; i < 2 * h; ++i) {
        const float c = std::min(std::max(x[i], 0.f), 1.f);
        gw2[i] += d * c * c;
        // screlu'(v) = 2v inside (0, 1) and 0 outside: c is 0 below, the test masks above.
        dx[i] = x[i] < 1.f ? 2 * d * w2[i] * c : 0.f;
    }
    g.b2 += d;
    for (int j = 0; j < h; ++j) g.b1[std::size_t(j)] += dx[j] + dx[j + h];
    const float* dStm = s.dx.data();
    const float* dOther = dStm + h;
    for (int i = 0; i < n; ++i) {
        const std::size_t fs = s.stm[std::size_t(i)], fo = s.other[std::size_t(i)];
        addRow(&g.w1[fs * std::size_t(h)], dStm, h);
        addRow(&g.w1[fo * std::size_t(h)], dOther, h);
        g.touched[fs] = 1;
        g.touched[fo] = 1;
    }
    return diff * diff;
}

double meanLoss(const Model& m, const NnueData& data, const std::vector<std::uint32_t>& indices,
                const LossSpec& loss, int threads) {
    const auto n = std::int64_t(indices.size());
    if (n == 0) return 0;
    threads = std::max(1, std::min<int>(resolveThreads(threads), int((n + 255) / 256)));
    const double k = SCALE / loss.wdlK;
    // Per-slice sums added in slice order, so the result does not depend on timing.
    std::vector<double> sums(std::size_t(threads), 0.0);
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int t = 0; t < threads; ++t) {
        Scratch s;
        s.reset(m.hidden);
        double sum = 0;
        for (std::int64_t i = n * t / threads; i < n * (t + 1) / threads; ++i) {
            const PackedPosition& p = data.positions[indices[std::size_t(i)]];
            const double d = sigmoid(forward(m, p, s) * k) - trainingTarget(p, loss.lambda, loss.wdlK);
            sum += d * d;
        }
        sums[std::size_t(t)] = sum;
    }
    double total = 0;
    for (double v : sums) total += v;
    return total / double(n);
}

}  // namespace xq::tuner::nnue
