#include "tc_scaling.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace xq::match {

double clockScaleFactor(std::uint64_t referenceNps, std::uint64_t measuredNps) {
    if (referenceNps == 0) throw std::invalid_argument("reference nps must be positive");
    if (measuredNps == 0) throw std::invalid_argument("measured nps must be positive to scale a clock");
    return double(referenceNps) / double(measuredNps);
}

namespace {

std::int64_t scaled(std::int64_t ms, double factor) {
    if (ms <= 0) return ms;
    return std::max<std::int64_t>(1, std::llround(double(ms) * factor));
}

}  // namespace

TimeControl scaleTimeControl(const TimeControl& tc, double factor) {
    if (!(factor > 0) || !std::isfinite(factor))
        throw std::invalid_argument("clock scale factor must be a positive number, got " +
                                    std::to_string(factor));
    TimeControl out = tc;
    for (TimePeriod& p : out.periods) {
        p.timeMs = scaled(p.timeMs, factor);
        p.incrementMs = scaled(p.incrementMs, factor);
    }
    out.moveTimeMs = scaled(out.moveTimeMs, factor);
    out.perMoveMs = scaled(out.perMoveMs, factor);
    out.bankMs = scaled(out.bankMs, factor);
    return out;
}

}  // namespace xq::match
