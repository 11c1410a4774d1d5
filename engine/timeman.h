// Time management: how long to think about one move under sudden death, increment and moves-to-go
// (multi-period) clocks.
#pragma once

#include <chrono>
#include <cstdint>

#include "xiangqi/types.h"

namespace xq {

using TimePoint = std::int64_t;  // milliseconds
inline TimePoint now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// What `go` asked for.
struct SearchLimits {
    TimePoint time[COLOR_NB]{};
    TimePoint inc[COLOR_NB]{};
    int movestogo = 0;
    int depth = 0;
    TimePoint movetime = 0;
    std::uint64_t nodes = 0;
    bool infinite = false;
    TimePoint startTime = 0;

    bool useTimeManagement() const { return time[RED] || time[BLACK]; }
};

class TimeManager {
  public:
    // moveOverhead: milliseconds lost per move to communication and the GUI.
    void init(const SearchLimits& limits, Color us, int moveOverhead);
    TimePoint optimum() const { return optimum_; }  // aim to stop after an iteration past this
    TimePoint maximum() const { return maximum_; }  // never think longer than this
    TimePoint elapsed(const SearchLimits& limits) const { return now() - limits.startTime; }
    bool enabled() const { return enabled_; }

  private:
    TimePoint optimum_ = 0;
    TimePoint maximum_ = 0;
    bool enabled_ = false;
};

}  // namespace xq
