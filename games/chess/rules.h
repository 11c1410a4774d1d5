// How a chess game ends by the rules (FIDE's Laws): checkmate, stalemate (a draw), the fifty-move rule,
// threefold repetition and insufficient material (no sequence of legal moves can mate: king against king,
// a lone minor piece, or bishops all on squares of one colour). Draws that a player must claim (fifty
// moves, threefold) are applied at once, as engine matches do.
#pragma once

#include <string>

#include "position.h"

namespace xq::chess {

enum class Result { NONE, WHITE_WINS, BLACK_WINS, DRAW };
enum class EndReason { NONE, CHECKMATE, STALEMATE, FIFTY_MOVES, THREEFOLD_REPETITION, INSUFFICIENT_MATERIAL };

struct Verdict {
    Result result = Result::NONE;
    EndReason reason = EndReason::NONE;
    bool isOver() const { return result != Result::NONE; }
};

bool insufficientMaterial(const Position& pos);
// The verdict on the position reached (its history decides repetitions).
Verdict judge(const Position& pos);

const char* resultText(Result r);          // "1-0", "0-1", "1/2-1/2", "*"
const char* reasonText(EndReason reason);  // "checkmate", "fifty-move rule", ...

}  // namespace xq::chess
