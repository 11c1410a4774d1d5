#include "timeman.h"

#include <algorithm>

namespace xq {

void TimeManager::init(const SearchLimits& limits, Color us, int moveOverhead) {
    enabled_ = false;
    optimum_ = maximum_ = 0;
    // A year of thinking is no limit at all; beyond it, the sums below could overflow.
    constexpr TimePoint Longest = TimePoint(365) * 24 * 3600 * 1000;
    if (limits.movetime) {
        enabled_ = true;
        optimum_ = maximum_ = std::max<TimePoint>(1, std::min(limits.movetime, Longest) - moveOverhead);
        return;
    }
    if (!limits.useTimeManagement()) return;
    enabled_ = true;
    const TimePoint time = std::clamp<TimePoint>(limits.time[us], 0, Longest);
    const TimePoint inc = std::clamp<TimePoint>(limits.inc[us], 0, Longest);
    // The most we may spend on this move and still have the overhead left for sending it.
    const TimePoint safe = std::max<TimePoint>(1, time - moveOverhead);
    if (limits.movestogo > 0) {
        // Multi-period clock: share what is left over the moves to the next time control, keeping a reserve
        // for the overhead of each of them.
        const int mtg = std::min(limits.movestogo, 50);
        TimePoint pool = std::max<TimePoint>(safe / 2, time + inc * (mtg - 1) - moveOverhead * (mtg + 1));
        optimum_ = pool / mtg;
        maximum_ = mtg == 1 ? safe * 9 / 10 : std::min(safe * 7 / 10, optimum_ * 4);
    } else {
        // Sudden death (with or without increment): plan as if 40 more moves had to be played. An iteration
        // can run well past the optimum before the search notices, so the hard limit stays a small share of
        // the clock: running the clock down loses more games than it wins.
        // The reserve for the overhead of 41 moves would eat a short clock whole (300 ms at the default 10 ms
        // overhead); half of what is safe to spend still leaves every later move most of the clock.
        TimePoint pool = std::max<TimePoint>(safe / 2, time + inc * 39 - moveOverhead * 41);
        optimum_ = pool / 40;
        maximum_ = std::min(safe * 4 / 10, optimum_ * 4);
        // With an increment the base time must last: never plan past what the increment restores plus a
        // share.
        optimum_ = std::min(optimum_, safe / 10 + inc * 3 / 4);
    }
    maximum_ = std::max<TimePoint>(1, std::min(maximum_, safe));
    optimum_ = std::max<TimePoint>(1, std::min(optimum_, maximum_));
}

}  // namespace xq
