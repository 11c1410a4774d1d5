// The hand-crafted, tapered evaluation, and its trace: the same evaluation as a linear form over the
// weights table, for the tuner.
//
// THE TRACE CONTRACT (the tuner depends on it; evaluate_test.cpp proves it on many positions):
//
//   Trace t = trace(pos);
//   mg = sum over i of t.coef[i] * weights[i].mg
//   eg = sum over i of t.coef[i] * weights[i].eg
//   v  = (mg * t.phase + eg * (PHASE_MAX - t.phase)) / PHASE_MAX      (C++ integer division)
//   v  = v * t.scale / SCALE_NORMAL                                     (C++ integer division)
//   evaluate(pos, weights) == v == evaluateTrace(t, weights)            exactly, for any weights
//
// Coefficients are net counts from Red's view (Red's features count +1, Black's -1); t.coef does not depend
// on the weights. phase is 0 (bare endgame) .. PHASE_MAX (all rooks, horses and cannons on the board).
// scale is SCALE_NORMAL except in drawish material (0 when neither side can ever cross the river).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "weights.h"
#include "xiangqi/position.h"

namespace xq::eval {

constexpr int PHASE_MAX = 32;  // rook 4, horse 2, cannon 2 per piece, both sides
constexpr int SCALE_NORMAL = 64;

struct Trace {
    std::array<int, WEIGHT_NB> coef{};
    int phase = 0;
    int scale = SCALE_NORMAL;
};

// The weights evaluate() uses when none are given; set by the EvalFile option.
const Weights& activeWeights();
void setActiveWeights(const Weights& weights);  // only while no search runs

// The static evaluation in centipawns from Red's view.
int evaluate(const Position& pos, const Weights& weights);
inline int evaluate(const Position& pos) {
    return evaluate(pos, activeWeights());
}
// The search's evaluations stay within +-EVAL_LIMIT, below every mate score and inside the table's 16 bits:
// a weights file may hold any weight up to 30000, and the sum of such weights would otherwise wrap there.
constexpr int EVAL_LIMIT = 20000;
// From the side to move's view, as the search wants it.
inline int evaluateForSideToMove(const Position& pos) {
    int v = std::clamp(evaluate(pos), -EVAL_LIMIT, EVAL_LIMIT);
    return pos.sideToMove() == RED ? v : -v;
}

// Material, piece counts and piece-square sums (with the active weights, Red's view): the part of the
// evaluation a move changes only on its two squares, which the searcher updates move by move instead of
// recounting at every node. evaluate(pos, accumulate(pos)) == evaluate(pos), and afterMove keeps it so.
struct Accumulator {
    int mg = 0, eg = 0;
    std::array<std::int8_t, PIECE_NB> count{};
};
Accumulator accumulate(const Position& pos);
namespace detail {
// Material plus piece-square weight of each piece on each square, signed for Red's view; rebuilt from the
// active weights by setActiveWeights.
extern Weight psqTable[PIECE_NB][SQUARE_NB];
}  // namespace detail
// The accumulator after `moved` goes from `from` to `to`, taking `captured` (NO_PIECE if none) there.
inline Accumulator afterMove(Accumulator acc, Piece moved, Square from, Square to, Piece captured) {
    const auto& psq = detail::psqTable;
    acc.mg += psq[moved][to].mg - psq[moved][from].mg;
    acc.eg += psq[moved][to].eg - psq[moved][from].eg;
    if (captured != NO_PIECE) {
        acc.mg -= psq[captured][to].mg;
        acc.eg -= psq[captured][to].eg;
        --acc.count[captured];
    }
    return acc;
}
// The same value as evaluate(pos), with the material and piece squares taken from acc.
int evaluate(const Position& pos, const Accumulator& acc);
inline int evaluateForSideToMove(const Position& pos, const Accumulator& acc) {
    int v = std::clamp(evaluate(pos, acc), -EVAL_LIMIT, EVAL_LIMIT);
    return pos.sideToMove() == RED ? v : -v;
}

Trace trace(const Position& pos);
int evaluateTrace(const Trace& t, const Weights& weights);

// The `eval` command's report: the terms by group (middlegame, endgame, tapered) from Red's view, the phase,
// and a last line "Final evaluation: N".
std::string evalReport(const Position& pos);

}  // namespace xq::eval
