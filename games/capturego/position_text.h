// The one-line text form of a Capture Go / Go position (this game's FEN), the standard start positions,
// and a board diagram for people.
//
// Text form: seven fields separated by spaces
//     <board> <side> <black captures> <white captures> <passes> <rules> <komi>
//   board     the rows from the top (row N) down to row 1, separated by '/'; in a row, from column A:
//             'X' a black stone, 'O' a white stone, a number 1..19 for that many empty points (two digits
//             are one number; runs are merged, so canonical text never has two numbers in a row).
//             The board is square: N rows of N points, 5 <= N <= 19.
//   side      'b' or 'w', the side to move
//   captures  stones each player has captured so far (black's first), 0 or more
//   passes    consecutive passes just played, 0 or more (2 or more: a game is over)
//   rules     "capture:<target>" (target 1 or more) or "go"
//   komi      added to White's area score, a multiple of 0.5: "0", "7.5", "-3"
// Examples:
//     9/9/9/9/9/9/9/9/9 b 0 0 0 capture:1 0               empty 9x9, Atari Go
//     6/6/2OX2/2XO2/6/6 b 0 0 0 capture:1 0               the 6x6 crosscut start
//     19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19 b 0 0 0 go 7.5
// The text holds no history: a position read from text starts a new game (superko looks back to it only).
// Parsing is strict about the fields' contents (so that text -> position -> text is exact) and tolerant
// of extra whitespace between fields; a group without liberties, or both players past the capture target,
// is rejected.
//
// The crosscut start (Atari Go): two black and two white stones on a 2x2 square in the centre, each
// colour on one diagonal. The square's lower-left point is column and row (N-2)/2 counted from 0 (integer
// division): the exact centre on even boards, the square whose upper-right point is the centre point on
// odd boards. Black holds the lower-left and upper-right points, White the other two; Black moves first.
//   6x6: black C3 D4, white C4 D3      9x9: black D4 E5, white D5 E4      19x19: black J9 K10, white J10 K9
#pragma once

#include <string>
#include <string_view>

#include "capturego/position.h"

namespace xq::capturego {

std::string positionText(const Position& pos);
Position parsePositionText(std::string_view text);  // throws ParseError naming what is wrong

Position emptyPosition(int size = kDefaultBoardSize, Rules rules = Rules{});
Position crosscutPosition(int size = kDefaultBoardSize, Rules rules = Rules{});

// A multi-line picture: column letters, rows numbered from the top, X O and '.', then the side to move
// and the captures. For people and test failure messages; not read back.
std::string diagram(const Position& pos);

}  // namespace xq::capturego
