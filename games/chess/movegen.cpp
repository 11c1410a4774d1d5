// Legal move generation for chess (movegen.h).
#include "movegen.h"

#include "notation.h"

namespace xq::chess {

bool MoveList::contains(Move m) const {
    for (Move x : *this)
        if (x == m) return true;
    return false;
}

namespace {

void addPawnMove(MoveList& list, Square from, Square to, bool promotes) {
    if (!promotes) {
        list.push(Move(from, to));
        return;
    }
    for (PieceType t : {QUEEN, ROOK, BISHOP, KNIGHT}) list.push(Move(from, to, Move::PROMOTION, t));
}

}  // namespace

MoveList legalMoves(const Position& pos) {
    MoveList list;
    const Color us = pos.sideToMove(), them = ~us;
    const Bitboard occ = pos.pieces(), own = pos.pieces(us), enemy = pos.pieces(them);
    const Square ksq = pos.kingSquare(us);
    const Bitboard checkers = pos.checkers();

    // The king: to every square no enemy attacks once the king has left its own (so a slider's ray
    // through the king's square counts).
    for (Bitboard b = kingAttacks(ksq) & ~own; b;) {
        Square to = popLsb(b);
        if (!(pos.attackersTo(to, occ ^ bit(ksq)) & enemy)) list.push(Move(ksq, to));
    }
    if (moreThanOne(checkers)) return list;  // double check: only the king moves

    const Bitboard target = checkers ? (between(ksq, lsb(checkers)) | checkers) : ~own;
    const Bitboard pinned = pos.pinned(us);
    auto allowed = [&](Square from, Bitboard to) {
        to &= target;
        if (pinned & bit(from)) to &= lineThrough(ksq, from);
        return to;
    };

    // Pawns.
    const int up = us == WHITE ? 8 : -8;
    const Bitboard lastRank = rankBB(us == WHITE ? 7 : 0), startRank = rankBB(us == WHITE ? 1 : 6);
    for (Bitboard b = pos.pieces(us, PAWN); b;) {
        Square from = popLsb(b);
        Bitboard to = 0;
        Square one = from + up;
        if (!(occ & bit(one))) {
            to |= bit(one);
            if ((startRank & bit(from)) && !(occ & bit(one + up))) to |= bit(one + up);
        }
        to |= pawnAttacks(us, from) & enemy;
        for (Bitboard t = allowed(from, to); t;) {
            Square s = popLsb(t);
            addPawnMove(list, from, s, (lastRank & bit(s)) != 0);
        }
    }
    // En passant: tried on the board, since taking removes two pieces from the king's lines at once.
    if (Square ep = pos.epSquare(); ep != NO_SQUARE) {
        Square captured = ep - up;
        for (Bitboard b = pawnAttacks(them, ep) & pos.pieces(us, PAWN); b;) {
            Square from = popLsb(b);
            Bitboard after = (occ ^ bit(from) ^ bit(captured)) | bit(ep);
            if (!(pos.attackersTo(ksq, after) & enemy & ~bit(captured)))
                list.push(Move(from, ep, Move::EN_PASSANT));
        }
    }
    // Knights (a pinned knight never moves), bishops, rooks, queens.
    for (Bitboard b = pos.pieces(us, KNIGHT) & ~pinned; b;) {
        Square from = popLsb(b);
        for (Bitboard t = knightAttacks(from) & ~own & target; t;) list.push(Move(from, popLsb(t)));
    }
    for (PieceType type : {BISHOP, ROOK, QUEEN}) {
        for (Bitboard b = pos.pieces(us, type); b;) {
            Square from = popLsb(b);
            Bitboard a = type == BISHOP ? bishopAttacks(from, occ)
                         : type == ROOK ? rookAttacks(from, occ)
                                        : queenAttacks(from, occ);
            for (Bitboard t = allowed(from, a & ~own); t;) list.push(Move(from, popLsb(t)));
        }
    }
    // Castling: the squares between king and rook empty, and the king neither in check nor passing or
    // landing on an attacked square.
    if (!checkers) {
        int rights = pos.castlingRights() & (us == WHITE ? (WHITE_OO | WHITE_OOO) : (BLACK_OO | BLACK_OOO));
        for (int right : {WHITE_OO | BLACK_OO, WHITE_OOO | BLACK_OOO}) {
            if (!(rights & right)) continue;
            bool kingSide = right == (WHITE_OO | BLACK_OO);
            Square rook = relative(us, kingSide ? 7 : 0), dest = relative(us, kingSide ? 6 : 2);
            if (between(ksq, rook) & occ) continue;
            bool safe = true;
            for (Bitboard path = between(ksq, dest) | bit(dest); path && safe;)
                safe = !(pos.attackersTo(popLsb(path), occ) & enemy);
            if (safe) list.push(Move(ksq, dest, Move::CASTLING));
        }
    }
    return list;
}

std::uint64_t perft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    MoveList moves = legalMoves(pos);
    if (depth == 1) return std::uint64_t(moves.size);
    std::uint64_t n = 0;
    for (Move m : moves) {
        pos.doMove(m);
        n += perft(pos, depth - 1);
        pos.undoMove();
    }
    return n;
}

std::vector<std::pair<std::string, std::uint64_t>> perftDivide(Position& pos, int depth) {
    std::vector<std::pair<std::string, std::uint64_t>> out;
    for (Move m : legalMoves(pos)) {
        pos.doMove(m);
        out.emplace_back(uciMove(m), perft(pos, depth - 1));
        pos.undoMove();
    }
    return out;
}

}  // namespace xq::chess
