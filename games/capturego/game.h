// A game record of Capture Go or Go: the start position (with its rules), the moves played from it, the
// players' names and date, and the ending — from the rules (capture target, two passes; see result.h) or
// from an event (resignation, time, forfeit). Replaying a list of moves names the first illegal one.
#pragma once

#include <string>
#include <vector>

#include "capturego/position.h"
#include "capturego/result.h"

namespace xq::capturego {

struct GameInfo {
    std::string black;  // players' names (SGF PB, PW)
    std::string white;
    std::string date;   // SGF DT, e.g. "2024-05-01"
    std::string event;  // SGF EV
    friend bool operator==(const GameInfo&, const GameInfo&) = default;
};

class Game {
  public:
    // A game from `start` (which may already be over, e.g. a target reached in a set-up position).
    explicit Game(const Position& start = Position());

    const Position& start() const { return start_; }
    const Position& position() const { return position_; }
    const Rules& rules() const { return start_.rules(); }
    const std::vector<Move>& moves() const { return moves_; }
    Color toMove() const { return position_.toMove(); }
    const Result& result() const { return result_; }
    bool isOver() const { return result_.isOver(); }

    // Plays a move for the side to move; false and why ("D4 is occupied", "the game is over: ...") when
    // it is illegal or the game has ended. The rules' ending (target, two passes) is applied at once.
    bool play(Move m, std::string* why = nullptr);
    // Game events; each returns false (and changes nothing) when the game is already over.
    bool resign(Color loser);
    bool loseOnTime(Color loser);
    bool forfeit(Color loser, const std::string& why);  // why: "D4 is occupied", "no reply"...

    // Takes back an event ending (resignation, time, forfeit) if there is one, else the last move (which
    // reopens a game the rules had ended). False at the start with nothing to take back.
    bool undo();

    // The game of `moves` played from `start`; throws ParseError naming the first move that cannot be
    // played: "move 12 (white D4): D4 is occupied", "move 9 (black C3): the game is over: ...".
    static Game replay(const Position& start, const std::vector<Move>& moves);

    GameInfo info;

  private:
    Position start_;
    Position position_;
    std::vector<Move> moves_;
    Result result_;
};

}  // namespace xq::capturego
