#include "nnue_optimizer.h"

// g++ 12 warns of an uninitialised variable inside its own AVX-512 intrinsics when Eigen's packets are
// inlined here (a false positive; tests/tuner/training_set_test.cpp avoids the same with a plain loop).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace xq::tuner::nnue {

namespace {

struct StepConstants {
    float lr, beta1, beta2, c1, c2, epsilon, decay, lo, hi;
};

// One AdamW update of n parameters, then the clip. Eigen arrays: the square root and the division
// vectorise.
void update(float* w, float* m, float* v, const float* g, Eigen::Index n, const StepConstants& k) {
    Eigen::Map<Eigen::ArrayXf> W(w, n), M(m, n), V(v, n);
    Eigen::Map<const Eigen::ArrayXf> G(g, n);
    M = k.beta1 * M + (1 - k.beta1) * G;
    V = k.beta2 * V + (1 - k.beta2) * G.square();
    W -= k.lr * ((M / k.c1) / ((V / k.c2).sqrt() + k.epsilon) + k.decay * W);
    W = W.max(k.lo).min(k.hi);
}

}  // namespace

double cosineLearningRate(double lr, double finalRatio, std::int64_t step, std::int64_t total) {
    if (total <= 1) return lr;
    const double progress = std::clamp(double(step) / double(total - 1), 0.0, 1.0);
    const double low = lr * finalRatio;
    return low + (lr - low) * 0.5 * (1 + std::cos(std::numbers::pi * progress));
}

AdamState AdamState::zeros(int hidden) {
    AdamState s;
    for (Model* x : {&s.m, &s.v}) {
        x->hidden = hidden;
        x->w1.assign(std::size_t(INPUTS) * std::size_t(hidden), 0.f);
        x->b1.assign(std::size_t(hidden), 0.f);
        x->w2.assign(std::size_t(2 * hidden), 0.f);
        x->b2 = 0;
    }
    return s;
}

void adamwStep(Model& model, AdamState& state, std::vector<Gradient>& parts, double learningRate,
               std::int64_t t, const AdamWSettings& s, bool dense, int threads) {
    const StepConstants k{float(learningRate),
                          float(s.beta1),
                          float(s.beta2),
                          float(1 - std::pow(s.beta1, double(t))),
                          float(1 - std::pow(s.beta2, double(t))),
                          float(s.epsilon),
                          float(s.weightDecay),
                          -CLIP,
                          CLIP};
    const auto h = std::size_t(model.hidden);
    Gradient& sum = parts[0];
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int f = 0; f < INPUTS; ++f) {
        bool touched = sum.touched[std::size_t(f)];
        float* row = &sum.w1[std::size_t(f) * h];
        for (std::size_t p = 1; p < parts.size(); ++p) {
            if (!parts[p].touched[std::size_t(f)]) continue;
            float* other = &parts[p].w1[std::size_t(f) * h];
            for (std::size_t j = 0; j < h; ++j) row[j] += other[j];
            std::fill_n(other, h, 0.f);
            parts[p].touched[std::size_t(f)] = 0;
            touched = true;
        }
        if (!dense && !touched) continue;
        const std::size_t at = std::size_t(f) * h;
        update(&model.w1[at], &state.m.w1[at], &state.v.w1[at], row, Eigen::Index(h), k);
        std::fill_n(row, h, 0.f);
        sum.touched[std::size_t(f)] = 0;
    }
    for (std::size_t p = 1; p < parts.size(); ++p) {
        for (std::size_t j = 0; j < h; ++j) sum.b1[j] += parts[p].b1[j];
        for (std::size_t j = 0; j < 2 * h; ++j) sum.w2[j] += parts[p].w2[j];
        sum.b2 += parts[p].b2;
        parts[p].clearTouched();
    }
    update(model.b1.data(), state.m.b1.data(), state.v.b1.data(), sum.b1.data(), Eigen::Index(h), k);
    update(model.w2.data(), state.m.w2.data(), state.v.w2.data(), sum.w2.data(), Eigen::Index(2 * h), k);
    projectOutputWeights(model.w2, model.hidden);  // the int32 output sum's bound, kept at every step
    // b2: no clip (it is an int32 in the file) and no decay (a bias).
    const float gb2 = float(sum.b2);
    state.m.b2 = k.beta1 * state.m.b2 + (1 - k.beta1) * gb2;
    state.v.b2 = k.beta2 * state.v.b2 + (1 - k.beta2) * gb2 * gb2;
    model.b2 -= k.lr * (state.m.b2 / k.c1) / (std::sqrt(state.v.b2 / k.c2) + k.epsilon);
    sum.clearTouched();
}

}  // namespace xq::tuner::nnue
