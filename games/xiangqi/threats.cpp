#include "threats.h"

#include <algorithm>
#include <vector>

#include "movegen.h"

namespace xq {

namespace {

struct Threat {
    Square attacker, target;
    bool operator==(const Threat&) const = default;
};

// Whether side-to-move's capture a x t could be answered by a legal recapture on t.
bool isProtected(Position& pos, Square attacker, Square target) {
    pos.doMove(makeMove(attacker, target));
    MoveList replies;
    generate<CAPTURES>(pos, replies);
    bool recapture = false;
    for (Move m : replies)
        if (toSq(m) == target && pos.isLegal(m)) {
            recapture = true;
            break;
        }
    pos.undoMove();
    return recapture;
}

bool isUncrossedPawn(const Position& pos, Square s) {
    const Piece pc = pos.pieceOn(s);
    return typeOf(pc) == PAWN && !hasCrossedRiver(colorOf(pc), s);
}

// Pieces the side to move could win or harass by capture: the threats whose renewal on every move makes a
// chase (see chasedByLastMove for what counts).
std::vector<Threat> threatsOfSideToMove(Position& pos) {
    std::vector<Threat> threats;
    const Color us = pos.sideToMove(), them = ~us;
    const Bitboard occ = pos.occupied();
    Bitboard targets = pos.pieces(them) & ~pos.pieces(them, KING);
    for (Bitboard b = pos.pieces(them, PAWN); b;) {
        const Square s = popLsb(b);
        if (isUncrossedPawn(pos, s)) targets ^= squareBB(s);
    }
    Bitboard attackers = pos.pieces(us) & ~pos.pieces(us, KING) & ~pos.pieces(us, PAWN);
    while (attackers) {
        const Square a = popLsb(attackers);
        if (pos.isPinned(a)) continue;
        const PieceType ta = typeOf(pos.pieceOn(a));
        Bitboard hits = attacksFrom(ta, us, a, occ) & targets;
        while (hits) {
            const Square t = popLsb(hits);
            const PieceType tt = typeOf(pos.pieceOn(t));
            if (!pos.isLegal(makeMove(a, t))) continue;
            const bool strongerTarget =
                (tt == ROOK && (ta == KNIGHT || ta == CANNON)) ||
                ((ta == ADVISOR || ta == BISHOP) && (tt == ROOK || tt == CANNON || tt == KNIGHT));
            if (!strongerTarget) {
                if (tt == ta && testBit(attacksFrom(tt, them, t, occ), a) && pos.captureIsLegal(t, a))
                    continue;
                if (isProtected(pos, a, t)) continue;
            }
            threats.push_back({a, t});
        }
    }
    return threats;
}

// Whether the side to move mates at once.
bool hasMateInOne(Position& pos) {
    for (Move m : legalMoves(pos)) {
        if (!pos.givesCheck(m)) continue;
        pos.doMove(m);
        const bool mate = legalMoves(pos).size == 0;
        pos.undoMove();
        if (mate) return true;
    }
    return false;
}

// Whether the side to move has a discovered check that wins material: the check comes (also) from another
// piece than the one moving, and the moving piece captures a piece other than an uncrossed pawn, or after
// every answer to the check still threatens one (or there is no answer).
bool hasDiscoveredWin(Position& pos) {
    const Color us = pos.sideToMove();
    for (Move m : legalMoves(pos)) {
        if (!pos.givesCheck(m)) continue;
        const Square to = toSq(m);
        const bool wins = pos.pieceOn(to) != NO_PIECE && !isUncrossedPawn(pos, to);
        pos.doMove(m);
        const Bitboard checkers = pos.attackersTo(pos.kingSquare(~us), us) & ~squareBB(to);
        bool threat = false;
        if (checkers) {
            threat = wins;
            if (!threat) {
                threat = true;
                for (Move reply : legalMoves(pos)) {
                    pos.doMove(reply);
                    const std::vector<Threat> next =
                        pos.pieceOn(to) != NO_PIECE && colorOf(pos.pieceOn(to)) == us
                            ? threatsOfSideToMove(pos)
                            : std::vector<Threat>{};
                    pos.undoMove();
                    if (std::none_of(next.begin(), next.end(),
                                     [&](const Threat& t) { return t.attacker == to; })) {
                        threat = false;
                        break;
                    }
                }
            }
        }
        pos.undoMove();
        if (threat) return true;
    }
    return false;
}

// Whether the side to move can legally capture on s.
bool canCapture(Position& pos, Square s) {
    MoveList captures;
    generate<CAPTURES>(pos, captures);
    for (Move m : captures)
        if (toSq(m) == s && pos.isLegal(m)) return true;
    return false;
}

// Whether the piece of the side to move on s has no move to a square where it cannot be captured.
bool isTrapped(Position& pos, Square s) {
    for (Move m : legalMoves(pos)) {
        if (fromSq(m) != s) continue;
        pos.doMove(m);
        const bool lost = canCapture(pos, toSq(m));
        pos.undoMove();
        if (!lost) return false;
    }
    return true;
}

}  // namespace

Bitboard chasersOfTrappedPieces(Position& pos) {
    if (pos.inCheck()) return 0;
    pos.doNullMove();
    const std::vector<Threat> threats = threatsOfSideToMove(pos);
    pos.undoNullMove();
    Bitboard chasers = 0;
    for (const Threat& t : threats)
        if (!testBit(chasers, t.attacker) && isTrapped(pos, t.target)) chasers |= squareBB(t.attacker);
    return chasers;
}

Bitboard chasedByLastMove(Position& pos) {
    const Move m = pos.state().move;
    if (!isOk(m)) return 0;
    const Square from = fromSq(m), to = toSq(m);
    pos.doNullMove();  // let the mover move again to ask what it threatens now
    const std::vector<Threat> after = threatsOfSideToMove(pos);
    pos.undoNullMove();
    if (after.empty()) return 0;
    pos.undoMove();
    const std::vector<Threat> before = threatsOfSideToMove(pos);
    pos.doMove(m);
    Bitboard chased = 0;
    for (const Threat& t : after) {
        const Threat old{t.attacker == to ? from : t.attacker, t.target};
        if (std::find(before.begin(), before.end(), old) == before.end()) chased |= squareBB(t.target);
    }
    return chased;
}

MoveThreats threatsOfLastMove(Position& pos, bool deep, bool allKinds) {
    MoveThreats t;
    t.check = pos.inCheck();
    t.chased = chasedByLastMove(pos);
    const Move m = pos.state().move;
    if (!deep || t.check || (t.chased && !allKinds) || !isOk(m)) return t;
    pos.doNullMove();
    const bool mateAfter = hasMateInOne(pos), winAfter = !mateAfter && hasDiscoveredWin(pos);
    pos.undoNullMove();
    if (!mateAfter && !winAfter) return t;
    pos.undoMove();
    if (mateAfter) t.mateThreat = !hasMateInOne(pos);
    if (winAfter) t.discoveredWin = !hasDiscoveredWin(pos);
    pos.doMove(m);
    return t;
}

}  // namespace xq
