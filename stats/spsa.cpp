#include "spsa.h"

#include <algorithm>
#include <cmath>

namespace xq::stats {

double spsaPerturbation(const SpsaAxis& axis, const SpsaSchedule& s, std::int64_t k) {
    double c = axis.cEnd * std::pow(double(std::max<std::int64_t>(s.iterations, 1)), s.gamma);
    return c / std::pow(double(k + 1), s.gamma);
}

double spsaStepSize(const SpsaAxis& axis, const SpsaSchedule& s, std::int64_t k) {
    double a = axis.rEnd * axis.cEnd * axis.cEnd *
               std::pow(s.A + double(std::max<std::int64_t>(s.iterations, 1)), s.alpha);
    return a / std::pow(s.A + double(k + 1), s.alpha);
}

double spsaUpdate(const SpsaAxis& axis, const SpsaSchedule& s, std::int64_t k, double theta, double result,
                  int flip) {
    double step = spsaStepSize(axis, s, k) / spsaPerturbation(axis, s, k) * result * flip;
    return std::clamp(theta + step, axis.min, axis.max);
}

double spsaProbe(const SpsaAxis& axis, const SpsaSchedule& s, std::int64_t k, double theta, int sign) {
    return std::clamp(theta + sign * spsaPerturbation(axis, s, k), axis.min, axis.max);
}

}  // namespace xq::stats
