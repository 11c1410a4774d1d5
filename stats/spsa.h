// SPSA's schedules and update, as fishtest's classic SPSA computes them. For N iterations (game pairs),
// a parameter with perturbation c_end and learning rate r_end at the end gets
//   c = c_end * N^gamma,  a = r_end * c_end^2 * (A + N)^alpha,
// and at k iterations already counted
//   c_k = c / (k + 1)^gamma,  a_k = a / (A + k + 1)^alpha,
// so that the last iteration (k = N - 1) perturbs by c_end and steps with a_k / c_k^2 = r_end. A result of
// `wins - losses` (of θ + c_k Δ against θ − c_k Δ) moves θ by (a_k / c_k) * result * Δ, clamped.
#pragma once

#include <cstdint>

namespace xq::stats {

struct SpsaSchedule {
    std::int64_t iterations = 0;  // N
    double alpha = 0.602;
    double gamma = 0.101;
    double A = 0;  // fishtest's stability constant (commonly a tenth of N)
};

struct SpsaAxis {
    double min = 0, max = 0;
    double cEnd = 0, rEnd = 0;
};

// The perturbation and the step size at k iterations counted.
double spsaPerturbation(const SpsaAxis& axis, const SpsaSchedule& s, std::int64_t k);
double spsaStepSize(const SpsaAxis& axis, const SpsaSchedule& s, std::int64_t k);
// θ after a result of `result` (wins − losses) for a lease made at k with sign `flip` (+1 or −1),
// clamped to [min, max].
double spsaUpdate(const SpsaAxis& axis, const SpsaSchedule& s, std::int64_t k, double theta, double result,
                  int flip);
// θ ± c_k for the engines of a lease made at k (sign +1: the θ+ engine), clamped to [min, max].
double spsaProbe(const SpsaAxis& axis, const SpsaSchedule& s, std::int64_t k, double theta, int sign);

}  // namespace xq::stats
