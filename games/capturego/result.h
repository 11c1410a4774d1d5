// How a game of Capture Go or Go ends: the rules' verdict on a position (capture target reached, or two
// passes and the decision that follows), the game events (resignation, time, forfeit), the reason in words,
// and the SGF spelling of the result (RE).
//
// The decision after two passes (the project README quotes this):
//   capture rule set — the game normally ends when a player has captured `target` stones (B+C / W+C). If
//     both players pass in a row before anyone reaches the target:
//       1. the player who has captured more stones wins (B+C / W+C);
//       2. with equal captures, Tromp-Taylor area decides: each player's stones plus the empty regions that
//          reach only that player's stones, with komi (0 by default in this rule set) added to White; the
//          higher total wins (B+3 / W+0.5), equal totals are a draw (0).
//   go rule set — two passes end the game and the Tromp-Taylor area score with komi (7.5 by default)
//     decides (B+3.5 / W+0.5); equal totals (only possible with an integer komi) are a draw (0).
// Captured counts are per player: the opponent's stones that player removed from the board.
//
// SGF results: B+C / W+C (capture target, or more captures after two passes), B+R / W+R (resignation),
// B+T / W+T (time), B+F / W+F (forfeit: an illegal move), B+<points> / W+<points> (area score), 0 (draw).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "capturego/position.h"

namespace xq::capturego {

enum class Outcome : std::uint8_t { Ongoing, BlackWins, WhiteWins, Draw };

enum class Ending : std::uint8_t {
    None,           // still going
    CaptureTarget,  // capture rule set: a player captured `target` stones
    MoreCaptures,   // capture rule set: two passes, one player had captured more
    Score,          // two passes decided by the area score (a win or a draw)
    Resignation,
    Time,
    Forfeit,  // an illegal move, or any other reason the framework forfeits a player
};

struct Result {
    Outcome outcome = Outcome::Ongoing;
    Ending ending = Ending::None;
    double margin = 0;   // Ending::Score: the winner's lead in points, komi included (0 for a draw)
    std::string reason;  // "black captured 1 stone (target 1)", "white resigned", "two passes: ..."

    bool isOver() const { return outcome != Outcome::Ongoing; }
    std::string sgf() const;  // "B+C", "W+R", "B+3.5", "0"; "" while the game goes on
};

// The rules' verdict on a position reached in play (position.rules()): the capture target reached
// (checked first; the player who moved last is looked at first), else two consecutive passes and the
// decision above, else Ongoing.
Result judge(const Position& pos);

Result resignation(Color loser);                      // "white resigned"
Result timeLoss(Color loser);                         // "white lost on time"
Result forfeit(Color loser, const std::string& why);  // "white forfeited: D4 is occupied"

// An SGF RE value read back: winner, kind and margin. nullopt for "Void", "?" or anything unreadable.
// "B+C" reads as Ending::CaptureTarget; "B+" (a win of unknown kind) as Ending::None with a winner;
// "0", "Draw" and "B+0" as a draw by score. The reason is left empty.
std::optional<Result> parseSgfResult(std::string_view text);

}  // namespace xq::capturego
