// Whether a chess position is quiet enough to train an evaluation on, as quiet.h decides it for Xiangqi:
// the side to move is not in check and no sequence of captures (or promotions) wins material.
#pragma once

#include "chess/position.h"

namespace xq::tuner {

// Simple material values for the quiescence test (centipawns): pawn 100, knight and bishop 300, rook 500,
// queen 900.
int quietPieceValue(chess::PieceType pt);

// Material from the side to move's view.
int materialBalance(const chess::Position& pos);

// The best material the side to move can reach by captures and promotions alone (standing pat allowed),
// minus the current balance: 0 when none wins anything.
int captureGain(chess::Position& pos);

bool isQuiet(chess::Position& pos);

}  // namespace xq::tuner
