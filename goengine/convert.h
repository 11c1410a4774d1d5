// The bridge between the engine and the project's rules library (games/capturego, namespace
// xq::capturego): the engine's boards (board.h, small_board.h) and rules (types.h) are built from the
// library's Position and Rules, and points and moves are named and read with the library's GTP notation.
// The library is the one implementation of the rules, notation, position text, result judging and SGF;
// the engine's boards are fast copies for search, cross-checked against it by tests/goengine.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "capturego/position.h"
#include "goengine/board.h"
#include "goengine/small_board.h"
#include "goengine/types.h"

namespace xq::go {

namespace cg = xq::capturego;

Rules engineRules(const cg::Rules& rules);
cg::Rules referenceRules(const Rules& rules);

constexpr Color engineColor(cg::Color c) {
    return c == cg::Color::Black ? Black : White;
}
constexpr cg::Color referenceColor(Color c) {
    return c == White ? cg::Color::White : cg::Color::Black;
}

// A board point and a library point or move (kPass for a pass).
Point enginePoint(const Board& b, cg::Move m);
cg::Move referenceMove(const Board& b, Point p);

// The position (stones, side to move, captures, consecutive passes, rules) as a new game of the engine's
// board: no history, so superko looks back to this position only.
Board boardFromPosition(const cg::Position& pos);
// The game `start` + `moves` on the engine's board, history (superko, undo) included. Each move carries
// its colour (GTP lets either colour play). A move the engine's board refuses (never expected: the tests
// cross-check the boards) ends the replay there and sets `failed`.
struct ColoredMove {
    cg::Color color;
    cg::Move move;
};
Board boardFromGame(const cg::Position& start, const std::vector<ColoredMove>& moves, bool* failed = nullptr);

// The solver's board: stones, side to move, pending pass (consecutive passes > 0) and captures (capped at
// 255). Throws std::invalid_argument for boards larger than the solver takes (kSmallMaxSize).
SmallPos smallFromPosition(const SmallGeometry& g, const cg::Position& pos);
// The library's position of a solver board (rules as given; no history).
cg::Position positionFromSmall(const SmallGeometry& g, const SmallPos& pos, const cg::Rules& rules);

}  // namespace xq::go
