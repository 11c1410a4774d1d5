// Whether a position is quiet enough to train an evaluation on: the side to move is not in check and
// no sequence of captures wins material (a material-only quiescence search from the side to move).
#pragma once

#include "xiangqi/position.h"

namespace xq::tuner {

// Simple material values for the quiescence test (centipawns).
int quietPieceValue(PieceType pt);

// Material from the side to move's view.
int materialBalance(const Position& pos);

// The best material the side to move can reach by captures alone (alpha-beta over captures, standing
// pat allowed), minus the current balance: 0 when no capture wins anything.
int captureGain(Position& pos);

bool isQuiet(Position& pos);

}  // namespace xq::tuner
