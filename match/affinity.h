// CPU pinning for game slots. A slot's thread and both of its engines share CPUs of their own: an
// engine's output then wakes the runner on the CPU the engine already occupies, instead of sending an
// interrupt to another CPU for every line. That more than halves the runner's cost, and engines no
// longer migrate between CPUs in the middle of a search.
#pragma once

#include <vector>

namespace xq::match {

using CpuSet = std::vector<int>;

// The CPUs this process may run on.
CpuSet usableCpus();

// `width` CPUs for each of `slots` slots, taken in order from `cpus`; empty when they do not fit.
std::vector<CpuSet> planSlotCpus(int slots, int width, const CpuSet& cpus);

// Pins the calling thread to `cpus`; false if the system refused.
bool pinCurrentThread(const CpuSet& cpus);

// Lets the calling thread wait for the CPU instead of preempting the engine it shares it with each
// time an output line wakes it (SCHED_BATCH): it then runs when the engine blocks after its move, once
// per move rather than once per line. Only for games without clocks, where that delay cannot matter.
bool preferNotToPreempt();

// Undoes preferNotToPreempt for its lifetime: an engine started meanwhile (a restart from a game's thread)
// gets the normal policy, as the engines started before the games did. Linux's SCHED_RESET_ON_FORK resets
// only real-time policies.
class ScopedNormalPolicy {
  public:
    ScopedNormalPolicy();
    ~ScopedNormalPolicy();
    ScopedNormalPolicy(const ScopedNormalPolicy&) = delete;
    ScopedNormalPolicy& operator=(const ScopedNormalPolicy&) = delete;

  private:
    bool restore_ = false;
};

// Pins the calling thread for its lifetime and restores the previous mask after: processes spawned
// meanwhile inherit the pinning from their first instruction, before they create threads.
class ScopedThreadPinning {
  public:
    explicit ScopedThreadPinning(const CpuSet& cpus);
    ~ScopedThreadPinning();
    ScopedThreadPinning(const ScopedThreadPinning&) = delete;
    ScopedThreadPinning& operator=(const ScopedThreadPinning&) = delete;

  private:
    CpuSet previous_;
    bool pinned_ = false;
};

}  // namespace xq::match
