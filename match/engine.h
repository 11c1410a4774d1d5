// One engine seen from a game: its process, its protocol dialect, the handshake, and a search with
// deadlines. Every way an engine can fail comes back as a status, never as a hang.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "affinity.h"
#include "engine_process.h"
#include "match.h"
#include "protocol.h"

namespace xq::match {

using StopCheck = std::function<bool()>;
// For callers that never stop a wait early (the play page's games).
inline const StopCheck neverStop = [] { return false; };

struct SearchOutcome {
    enum Status {
        Move,      // `move` holds the answer in ICCS (legality is the game's business)
        TimeLoss,  // no answer before the clock's deadline
        Stall,     // no answer within the stall timeout (no clock)
        Crash,     // the engine's output closed
        Garbage,   // a bestmove that is no move at all (`move` is empty, `detail` has the text)
        NoMove,    // nobestmove / bestmove (none)
        Resign,    // GTP: genmove answered "resign"
        Stopped,   // the match was stopped while waiting
    } status = Stopped;
    std::string move;
    SearchInfo info;
    std::int64_t elapsedMs = 0;
    std::string detail;  // for failures: what happened
};

class GtpSession;

class EngineClient {
  public:
    EngineClient(EngineConfig config, int startupTimeoutMs, int stallTimeoutMs);
    ~EngineClient();

    const EngineConfig& config() const { return config_; }
    // The process (from its next start) runs only on these CPUs; empty: anywhere.
    void pinTo(CpuSet cpus) { cpus_ = std::move(cpus); }
    bool isStarted() const { return started_; }

    // Starts the process and completes the handshake and options; throws std::runtime_error saying
    // what went wrong (cannot run, crashed, no uciok/readyok in time).
    void start(const StopCheck& stop);
    // Kills the process; the next start() begins afresh.
    void shutdown();
    // Tells the engine a new game starts and waits until it is ready. False if it failed (then
    // `error` says why); the caller restarts it.
    bool newGame(const StopCheck& stop, std::string& error);
    // Searches the position after `moves` from `fen` for the side to move (redToMove: the first player,
    // Black in Go). The position command extends the last one sent when `moves` extends its moves, which
    // are compared one by one, unless `movesOnlyGrew`: the caller's word that `moves` still begins with the
    // moves of this engine's previous go() since newGame(), having only been appended to (a game's loop;
    // the play page, whose takebacks change the moves, does not give it). Then only the last of them is
    // looked at: a game of 150 plies no longer reads both lists of moves at every move.
    SearchOutcome go(const std::string& fen, const std::vector<std::string>& moves, const GameClock* clocks,
                     bool redToMove, const StopCheck& stop, bool movesOnlyGrew = false);
    // After a time loss: whether the engine still answers (stop, then isready) within a moment.
    bool resync(const StopCheck& stop);

  private:
    // Waits for a line starting with `prefix`, handing the lines before it to `skipped` when given; false on
    // timeout, closed output or stop.
    bool waitFor(std::string_view prefix, std::int64_t timeoutMs, const StopCheck& stop, std::string& error,
                 std::vector<std::string>* skipped = nullptr);

    EngineConfig config_;
    int startupTimeoutMs_, stallTimeoutMs_;
    std::unique_ptr<EngineProcess> process_;
    std::unique_ptr<ProtocolAdapter> protocol_;  // UCI, UCCI, Fairy; null for GTP
    std::unique_ptr<GtpSession> gtp_;            // GTP; null for the others
    CpuSet cpus_;
    bool started_ = false;
    std::string line_;
    // The last position command sent and the game it describes: the next one extends it by the moves played
    // since, instead of writing the whole game out again.
    std::string positionFen_, positionCommand_;
    std::vector<std::string> positionMoves_;
    // The last go command; without a clock made once and sent at every move.
    std::string goCommand_;
    // Of a search's info lines only the last with a score, and the last one after it, are read (when the
    // move comes): the others would be parsed for nothing.
    std::string scoreLine_, tailLine_;
};

}  // namespace xq::match
