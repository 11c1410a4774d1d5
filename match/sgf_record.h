// Capture Go and Go games of the match runner as SGF (FF[4] GM[1], written by capturego/sgf.h): the start
// position and rules (SZ KM RU), the players (PB PW), the moves, and the result RE as the runner decided it:
// the rules' verdict (B+C, W+3.5, 0), a resignation (B+R), a time loss (W+T), an engine's failure (an
// illegal move, a crash, a stall or an unreadable answer: B+F with the reason in the root comment), a
// draw by the length limit (0).
#pragma once

#include <string>

#include "match.h"

namespace xq::match {

// One game as an SGF game tree (ending with a newline), for appending to a file of games.
std::string formatSgf(const GameRecord& game, const MatchConfig& config);

}  // namespace xq::match
