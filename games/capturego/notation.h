// GTP coordinates of Go points and moves, as engines, GNU Go and people write them: a column letter A..T
// with I skipped (A is the left edge), then the row number 1..N counted from the bottom, so A1 is the
// bottom-left corner and D4 the fourth point of the fourth row; "pass" for a pass. Input is
// case-insensitive ("d4", "PASS") and may carry surrounding whitespace; output is "D4" and "pass".
#pragma once

#include <string>
#include <string_view>

#include "capturego/types.h"

namespace xq::capturego {

// "D4" for a point of the 19x19 area, "(col,row)" for anything outside it (which no board has).
std::string pointName(Point p);
std::string moveName(Move m);  // "D4" or "pass"

// Throws ParseError naming what is wrong: "'I5': GTP columns skip I", "'D0': rows count from 1",
// "K10 is off the 9x9 board", "'resign' is not a board move (resigning ends the game)", ...
Point parsePoint(std::string_view text, int boardSize);
Move parseMove(std::string_view text, int boardSize);  // a point or "pass"

}  // namespace xq::capturego
