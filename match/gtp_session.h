// A Go engine that speaks GTP (version 2), as the match runner drives it with proto=gtp: the start-up
// (list_commands decides which optional commands are sent), the game set-up from the start position text
// (boardsize, clear_board, komi, and the Capture Go rules with `xq-rules capture|go` and `cap N` when the
// engine lists them; the start position's stones as `play` commands), the moves as `play B D4`, the clock
// (time_settings and time_left when listed), and `genmove b|w`.
//
// Answers are "= text" or "? text" (an optional id after the sign) ending with an empty line. A '?' answer,
// an answer that is no GTP answer, or a genmove answer that is no move loses the game with the text; an
// answer of "resign" resigns it. The moves sent so far are remembered, so each genmove only sends the moves
// played since (a new game or a different history starts again from clear_board).
//
// The runner's time controls: tc=BASE+INC becomes `time_settings BASE 0 0` (absolute time; GTP has no
// increment, so the engine is told its real clock, increments included, by `time_left COLOR SECONDS 0`
// before each genmove); tc=MOVES/TIME becomes `time_settings 0 TIME MOVES` (Canadian byo-yomi: TIME for
// MOVES stones) with `time_left COLOR SECONDS STONES`; st=S becomes `time_settings 0 S 1` (S seconds per
// move, rounded up). GTP has no node or depth limit: with nodes= or depth= nothing about time is sent and
// the engine plays at its own settings (e.g. gnugo --level N); the runner's stall timeout still applies.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "engine_process.h"
#include "match.h"
#include "protocol.h"

namespace xq::match {

struct SearchOutcome;
using StopCheck = std::function<bool()>;

// One GTP answer: its kind and its text (the lines after the sign, joined by '\n', trimmed).
struct GtpAnswer {
    enum Kind { Success, Failure, Garbage, Closed, Timeout, Stopped } kind = Garbage;
    std::string text;
};

// The text of a genmove answer as a move in the seam's notation ("D4", "pass") for a board of `size`, or
// "resign"; empty when it is neither. Case does not matter ("d4", "PASS", "Resign").
std::string gtpMoveFromEngine(std::string_view text, int boardSize);

class GtpSession {
  public:
    GtpSession(EngineProcess& process, const EngineConfig& config, int startupTimeoutMs, int stallTimeoutMs);

    // After the process started: list_commands. Throws std::runtime_error saying what went wrong.
    void handshake(const StopCheck& stop);
    // A new game: forgets the engine's board and checks that it still answers.
    bool newGame(const StopCheck& stop, std::string& error);
    // Brings the engine to the position after `moves` from the start position text `fen`, then genmove.
    SearchOutcome go(const std::string& fen, const std::vector<std::string>& moves, const GameClock* clocks,
                     bool blackToMove, const StopCheck& stop);
    bool lists(const std::string& command) const { return commands_.count(command) > 0; }

  private:
    // Sends a command and reads its answer within timeoutMs.
    GtpAnswer command(const std::string& cmd, std::int64_t timeoutMs, const StopCheck& stop);
    GtpAnswer readAnswer(std::int64_t timeoutMs, const StopCheck& stop);
    // Sets up the board for `fen` with nothing played; "" or what went wrong.
    std::string setUp(const std::string& fen, const StopCheck& stop);

    EngineProcess& process_;
    const EngineConfig& config_;
    int startupTimeoutMs_, stallTimeoutMs_;
    std::set<std::string> commands_;
    bool synced_ = false;  // the engine holds syncedFen_ and sent_
    std::string syncedFen_;
    std::vector<std::string> sent_;
    std::string line_;
};

}  // namespace xq::match
