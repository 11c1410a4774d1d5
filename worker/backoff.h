// Jittered exponential back-off for retrying calls to a coordinator that may be down, and a sleep that
// wakes early when the worker is told to stop.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>
#include <thread>

namespace xq::worker {

class Backoff {
  public:
    Backoff(std::int64_t initialMs = 250, std::int64_t maxMs = 30'000)
        : initialMs_(initialMs), maxMs_(maxMs) {}

    // The next delay: doubling from initialMs up to maxMs, each drawn uniformly from [d/2, d] so that a
    // fleet that lost the coordinator together does not come back in lockstep.
    std::int64_t nextMs() {
        std::int64_t d = initialMs_;
        for (int i = 0; i < attempts_ && d < maxMs_; ++i) d *= 2;
        d = std::min(d, maxMs_);
        ++attempts_;
        std::uniform_int_distribution<std::int64_t> jitter(d / 2, d);
        return jitter(rng_);
    }
    void reset() { attempts_ = 0; }
    int attempts() const { return attempts_; }

  private:
    std::int64_t initialMs_, maxMs_;
    int attempts_ = 0;
    std::mt19937_64 rng_{std::random_device{}()};
};

// Sleeps up to `ms`, returning early (false) once `stop` is set.
inline bool sleepUnless(const std::atomic<bool>& stop, std::int64_t ms) {
    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (!stop) {
        auto now = std::chrono::steady_clock::now();
        if (now >= end) return true;
        std::this_thread::sleep_for(
            std::min<std::chrono::steady_clock::duration>(end - now, std::chrono::milliseconds(50)));
    }
    return false;
}

}  // namespace xq::worker
