// Brent's root finder in the variant scipy.optimize.brentq implements (inverse quadratic
// extrapolation, secant, bisection fallback), with scipy's default tolerances. Internal to xq_stats:
// fishtest solves every equation with brentq, and following the same iterates keeps our numbers on top
// of fishtest's to the last bits, even where a root's last digits are multiplied by the sample count.
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace xq::stats::detail {

enum class RootStatus { Converged, NoSignChange, NotConverged };

struct Root {
    double x = 0;
    RootStatus status = RootStatus::Converged;
};

template <typename F>
Root brentq(F&& f, double lo, double hi) {
    constexpr double xtol = 2e-12;
    constexpr double rtol = 4 * DBL_EPSILON;
    constexpr int maxIterations = 100;

    double xPrev = lo, xCur = hi, xOther = 0;
    double fPrev = f(xPrev), fCur = f(xCur), fOther = 0;
    double stepPrev = 0, stepCur = 0;
    if (fPrev == 0) return {xPrev};
    if (fCur == 0) return {xCur};
    if (std::signbit(fPrev) == std::signbit(fCur)) return {0, RootStatus::NoSignChange};

    for (int i = 0; i < maxIterations; ++i) {
        // Keep the root bracketed between xCur and xOther.
        if (fPrev != 0 && fCur != 0 && std::signbit(fPrev) != std::signbit(fCur)) {
            xOther = xPrev;
            fOther = fPrev;
            stepPrev = stepCur = xCur - xPrev;
        }
        // xCur is the best estimate so far.
        if (std::fabs(fOther) < std::fabs(fCur)) {
            xPrev = xCur, xCur = xOther, xOther = xPrev;
            fPrev = fCur, fCur = fOther, fOther = fPrev;
        }
        const double tol = (xtol + rtol * std::fabs(xCur)) / 2;
        const double bisect = (xOther - xCur) / 2;
        if (fCur == 0 || std::fabs(bisect) < tol) return {xCur};

        if (std::fabs(stepPrev) > tol && std::fabs(fCur) < std::fabs(fPrev)) {
            double trial;
            if (xPrev == xOther) {
                trial = -fCur * (xCur - xPrev) / (fCur - fPrev);  // secant
            } else {
                const double dPrev = (fPrev - fCur) / (xPrev - xCur);
                const double dOther = (fOther - fCur) / (xOther - xCur);
                trial = -fCur * (fOther * dOther - fPrev * dPrev) / (dOther * dPrev * (fOther - fPrev));
            }
            if (2 * std::fabs(trial) < std::min(std::fabs(stepPrev), 3 * std::fabs(bisect) - tol)) {
                stepPrev = stepCur;
                stepCur = trial;
            } else {
                stepPrev = stepCur = bisect;
            }
        } else {
            stepPrev = stepCur = bisect;
        }

        xPrev = xCur;
        fPrev = fCur;
        xCur += std::fabs(stepCur) > tol ? stepCur : (bisect > 0 ? tol : -tol);
        fCur = f(xCur);
    }
    return {xCur, RootStatus::NotConverged};
}

}  // namespace xq::stats::detail
