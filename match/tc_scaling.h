// Clocks stated for a reference speed: a test says "10+0.1 at 1,000,000 nodes/s" and each worker scales the
// clock by reference / measured nps, so a slow machine gets more time and every game searches about as
// many nodes as on the reference machine. Node and depth limits already mean the same everywhere.
#pragma once

#include <cstdint>

#include "time_control.h"

namespace xq::match {

// The factor a clock is multiplied by: referenceNps / measuredNps. Throws std::invalid_argument when
// either speed is not positive (an unmeasured worker must not silently play at an arbitrary speed).
double clockScaleFactor(std::uint64_t referenceNps, std::uint64_t measuredNps);

// The control with every time (period time, increment, fixed move time) multiplied by `factor`, rounded
// to whole milliseconds and never below 1 ms where the original was positive. Node and depth limits and
// the flag margin are kept as they are. Throws std::invalid_argument for a factor that is not positive.
TimeControl scaleTimeControl(const TimeControl& tc, double factor);

}  // namespace xq::match
