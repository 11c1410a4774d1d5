#include "quiet_chess.h"

#include <algorithm>

#include "chess/movegen.h"

namespace xq::tuner {

namespace {

using chess::Move;

constexpr int MAX_CHESS_CAPTURE_PLIES = 12;  // as for Xiangqi: bounds the cost of a long exchange

// What a move wins at once: the piece it takes and, for a promotion, the new piece over the pawn.
int gainOf(const chess::Position& pos, Move m) {
    int gain = m.kind() == Move::EN_PASSANT ? quietPieceValue(chess::PAWN)
                                            : quietPieceValue(chess::typeOf(pos.pieceOn(m.to())));
    if (m.kind() == Move::PROMOTION) gain += quietPieceValue(m.promotion()) - quietPieceValue(chess::PAWN);
    return gain;
}

int qsearch(chess::Position& pos, int alpha, int beta, int ply) {
    int standPat = materialBalance(pos);
    if (standPat >= beta || ply >= MAX_CHESS_CAPTURE_PLIES) return standPat;
    alpha = std::max(alpha, standPat);
    chess::MoveList legal = chess::legalMoves(pos);
    Move noisy[256];
    int count = 0;
    for (Move m : legal)
        if (gainOf(pos, m) > 0) noisy[count++] = m;
    // Most valuable victim first, least valuable attacker next.
    std::sort(noisy, noisy + count, [&](Move a, Move b) {
        auto key = [&](Move m) {
            return gainOf(pos, m) * 16 - quietPieceValue(chess::typeOf(pos.pieceOn(m.from()))) / 64;
        };
        return key(a) > key(b);
    });
    for (int i = 0; i < count; ++i) {
        pos.doMove(noisy[i]);
        int score = -qsearch(pos, -beta, -alpha, ply + 1);
        pos.undoMove();
        if (score > alpha) {
            alpha = score;
            if (alpha >= beta) break;
        }
    }
    return alpha;
}

}  // namespace

int quietPieceValue(chess::PieceType pt) {
    switch (pt) {
        case chess::PAWN:
            return 100;
        case chess::KNIGHT:
        case chess::BISHOP:
            return 300;
        case chess::ROOK:
            return 500;
        case chess::QUEEN:
            return 900;
        default:
            return 0;
    }
}

int materialBalance(const chess::Position& pos) {
    int v = 0;
    for (int pt = chess::PAWN; pt <= chess::QUEEN; ++pt)
        v += quietPieceValue(chess::PieceType(pt)) *
             (chess::popcount(pos.pieces(chess::WHITE, chess::PieceType(pt))) -
              chess::popcount(pos.pieces(chess::BLACK, chess::PieceType(pt))));
    return pos.sideToMove() == chess::WHITE ? v : -v;
}

int captureGain(chess::Position& pos) {
    int standPat = materialBalance(pos);
    return qsearch(pos, standPat - 1, 1 << 20, 0) - standPat;
}

bool isQuiet(chess::Position& pos) {
    return !pos.inCheck() && captureGain(pos) <= 0;
}

}  // namespace xq::tuner
