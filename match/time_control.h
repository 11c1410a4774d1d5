// Time controls as the user writes them (`tc=10+0.1`, `tc=40/5400:20/1800`, `tc=permove120+bank1800`,
// `st=1`, `nodes=5000`, `depth=8`, `margin=100`) and the chess clock that runs them during a game.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace xq::match {

// One period of a clock: `moves` moves (0: the rest of the game) in `timeMs`, plus `incrementMs` after
// every move. The last period repeats when it has a move count (40/5400:20/1800 gives 20 moves per
// 1800 s for ever after the first 40 moves).
struct TimePeriod {
    int moves = 0;
    std::int64_t timeMs = 0;
    std::int64_t incrementMs = 0;

    bool operator==(const TimePeriod&) const = default;
};

struct TimeControl {
    static constexpr std::int64_t DefaultMarginMs = 100;

    std::vector<TimePeriod> periods;  // empty: no clock (unless perMoveMs)
    // The Chinese rules' per-move system (`tc=permove120+bank1800`): every move within perMoveMs; the time
    // a move runs over is drawn from a bank of bankMs for the game; once the bank is spent, a move over the
    // limit loses. Engines are told the bank as their remaining time and the limit as their increment
    // (`go wtime BANK winc LIMIT`, UCCI `go time BANK increment LIMIT`), which is exact for every move
    // that takes at least the limit. Excludes periods.
    std::int64_t perMoveMs = 0;
    std::int64_t bankMs = 0;
    std::int64_t moveTimeMs = 0;  // st=: fixed time per move (0: none)
    std::int64_t nodes = 0;       // nodes=: node limit per move (0: none)
    int depth = 0;                // depth=: depth limit per move (0: none)
    // How far past its time an engine may answer before its flag falls: pipes and the scheduler on a
    // loaded machine add latency the engine cannot see.
    std::int64_t marginMs = DefaultMarginMs;

    bool hasClock() const { return !periods.empty() || perMoveMs > 0; }
    // Whether anything bounds a search; an unlimited control would let an engine think for ever.
    bool isLimited() const { return hasClock() || moveTimeMs > 0 || nodes > 0 || depth > 0; }

    // Parses settings separated by spaces or commas: `tc=40/5400:20/1800`, `tc=10+0.1` (seconds),
    // `tc=permove120+bank1800` (seconds; `+bankB` optional),
    // `st=0.5` (seconds), `nodes=5000`, `depth=8`, `margin=100` (milliseconds; also `timemargin=`).
    // A bare clock (`10+0.1`) means tc=. Throws std::invalid_argument naming the bad part.
    static TimeControl parse(std::string_view text);
    // Canonical text that parse() reads back to an equal TimeControl.
    std::string toString() const;

    bool operator==(const TimeControl&) const = default;
};

// The clock of one side during a game.
class GameClock {
  public:
    explicit GameClock(const TimeControl& tc);

    // The clock's time left; under the per-move system, the bank.
    std::int64_t remainingMs() const { return remainingMs_; }
    std::int64_t incrementMs() const;
    // Moves left in the current period, 0 when the period runs to the end of the game.
    int movesToGo() const;
    // How long the coming move may take before the flag falls (margin included); -1: no time limit.
    std::int64_t deadlineMs() const;
    // Charges a move that took elapsedMs. Returns false when the flag fell (the move came too late).
    bool charge(std::int64_t elapsedMs);

  private:
    const TimeControl* tc_;
    std::int64_t remainingMs_ = 0;
    std::size_t period_ = 0;
    int movesInPeriod_ = 0;
};

}  // namespace xq::match
