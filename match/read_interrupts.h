// Blocking reads for a game's thread. Waiting for an engine's output in poll() and then read() costs two
// system calls a wake-up; one blocking read() costs one. A blocking read cannot time out by itself, so a
// timer interrupts this thread's system calls every ReadInterruptMs (a signal whose handler does nothing,
// installed without SA_RESTART: the read returns EINTR), and the reader then looks at its clock and its
// stop flag as it does after a poll that timed out. A wait therefore ends up to ReadInterruptMs later than
// its limit: fine for a stall limit of seconds and for Ctrl-C, not for a clock, so only games without
// clocks use it (MatchRunner, with preferNotToPreempt).
#pragma once

#include <cstdint>

namespace xq::match {

inline constexpr std::int64_t ReadInterruptMs = 100;

// While one lives, the calling thread's reads of engine output block and are interrupted as above.
// Where the timer or the signal cannot be had (another handler owns the signal), it does nothing and
// reads go on through poll.
class ScopedReadInterrupts {
  public:
    ScopedReadInterrupts();
    ~ScopedReadInterrupts();
    ScopedReadInterrupts(const ScopedReadInterrupts&) = delete;
    ScopedReadInterrupts& operator=(const ScopedReadInterrupts&) = delete;

    bool active() const { return active_; }

  private:
    void* timer_ = nullptr;  // the POSIX timer_t (whose first value is a null pointer)
    bool active_ = false;
};

// Whether the calling thread's reads are interrupted (a ScopedReadInterrupts of its own is active).
bool readsInterruptedHere();

}  // namespace xq::match
