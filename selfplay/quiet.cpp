#include "quiet.h"

#include <algorithm>

#include "xiangqi/movegen.h"

namespace xq::tuner {

namespace {

// Deep enough for any real exchange on one square plus a recapture elsewhere; bounds the cost.
constexpr int MAX_CAPTURE_PLIES = 12;

int qsearch(Position& pos, int alpha, int beta, int ply) {
    int standPat = materialBalance(pos);
    if (standPat >= beta || ply >= MAX_CAPTURE_PLIES) return standPat;
    alpha = std::max(alpha, standPat);
    MoveList captures;
    generate<CAPTURES>(pos, captures);
    // Most valuable victim first, least valuable attacker next: cutoffs come early.
    std::sort(captures.moves, captures.moves + captures.size, [&](Move a, Move b) {
        auto key = [&](Move m) {
            return quietPieceValue(typeOf(pos.pieceOn(toSq(m)))) * 16 -
                   quietPieceValue(typeOf(pos.movedPiece(m))) / 64;
        };
        return key(a) > key(b);
    });
    for (Move m : captures) {
        if (typeOf(pos.pieceOn(toSq(m))) == KING || !pos.isLegal(m)) continue;
        pos.doMove(m);
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

int quietPieceValue(PieceType pt) {
    switch (pt) {
        case ADVISOR:
            return 200;
        case BISHOP:
            return 200;
        case KNIGHT:
            return 400;
        case ROOK:
            return 900;
        case CANNON:
            return 450;
        case PAWN:
            return 100;
        default:
            return 0;
    }
}

int materialBalance(const Position& pos) {
    int v = 0;
    for (int pt = ADVISOR; pt <= PAWN; ++pt)
        v += quietPieceValue(PieceType(pt)) *
             (pos.count(RED, PieceType(pt)) - pos.count(BLACK, PieceType(pt)));
    return pos.sideToMove() == RED ? v : -v;
}

int captureGain(Position& pos) {
    int standPat = materialBalance(pos);
    return qsearch(pos, standPat - 1, 1 << 20, 0) - standPat;
}

bool isQuiet(Position& pos) {
    return !pos.inCheck() && captureGain(pos) <= 0;
}

}  // namespace xq::tuner
