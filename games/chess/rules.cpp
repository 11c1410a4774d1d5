// How a chess game ends (rules.h).
#include "rules.h"

#include "movegen.h"

namespace xq::chess {

bool insufficientMaterial(const Position& pos) {
    if (pos.pieces(PAWN) | pos.pieces(ROOK) | pos.pieces(QUEEN)) return false;
    Bitboard minors = pos.pieces(KNIGHT) | pos.pieces(BISHOP);
    if (popcount(minors) <= 1) return true;
    // Only bishops, all on one colour of square: neither king can ever be mated.
    Bitboard bishops = pos.pieces(BISHOP);
    return !pos.pieces(KNIGHT) && (!(bishops & DARK_SQUARES) || !(bishops & ~DARK_SQUARES));
}

Verdict judge(const Position& pos) {
    if (legalMoves(pos).size == 0) {
        if (!pos.inCheck()) return {Result::DRAW, EndReason::STALEMATE};
        return {pos.sideToMove() == WHITE ? Result::BLACK_WINS : Result::WHITE_WINS, EndReason::CHECKMATE};
    }
    if (insufficientMaterial(pos)) return {Result::DRAW, EndReason::INSUFFICIENT_MATERIAL};
    if (pos.rule50() >= 100) return {Result::DRAW, EndReason::FIFTY_MOVES};
    if (pos.repetitions() >= 2) return {Result::DRAW, EndReason::THREEFOLD_REPETITION};
    return {};
}

const char* resultText(Result r) {
    switch (r) {
        case Result::WHITE_WINS:
            return "1-0";
        case Result::BLACK_WINS:
            return "0-1";
        case Result::DRAW:
            return "1/2-1/2";
        default:
            return "*";
    }
}

const char* reasonText(EndReason reason) {
    switch (reason) {
        case EndReason::CHECKMATE:
            return "checkmate";
        case EndReason::STALEMATE:
            return "stalemate";
        case EndReason::FIFTY_MOVES:
            return "fifty-move rule";
        case EndReason::THREEFOLD_REPETITION:
            return "threefold repetition";
        case EndReason::INSUFFICIENT_MATERIAL:
            return "insufficient material";
        default:
            return "none";
    }
}

}  // namespace xq::chess
