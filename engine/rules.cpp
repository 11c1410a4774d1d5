#include "rules.h"

#include <algorithm>

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

// Pieces the side to move could win or harass by capture: the threats whose renewal on every move makes a
// chase. The king and pawns never chase; the king and uncrossed pawns are never chased; an attack on a
// piece of the same kind that can take back is an offer to exchange, not a threat.
std::vector<Threat> threatsOfSideToMove(Position& pos) {
    std::vector<Threat> threats;
    const Color us = pos.sideToMove(), them = ~us;
    const Bitboard occ = pos.occupied();
    Bitboard targets = pos.pieces(them) & ~pos.pieces(them, KING);
    Bitboard uncrossed = pos.pieces(them, PAWN);
    for (Bitboard b = uncrossed; b;) {
        Square s = popLsb(b);
        if (hasCrossedRiver(them, s)) uncrossed ^= squareBB(s);
    }
    targets &= ~uncrossed;
    Bitboard attackers = pos.pieces(us) & ~pos.pieces(us, KING) & ~pos.pieces(us, PAWN);
    while (attackers) {
        const Square a = popLsb(attackers);
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

// The pieces (as squares in the current position) chased by the move that led here: threats of the mover
// that did not exist before the move, counting the moved piece as the same attacker.
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

}  // namespace

Bitboard chasedBy(Position& pos) {
    return chasedByLastMove(pos);
}

const char* resultString(GameResult r) {
    switch (r) {
        case GameResult::RED_WINS:
            return "1-0";
        case GameResult::BLACK_WINS:
            return "0-1";
        case GameResult::DRAW:
            return "1/2-1/2";
        default:
            return "*";
    }
}

std::string reasonString(const Verdict& v) {
    const std::string side = v.violator == RED ? "red" : "black";
    switch (v.reason) {
        case EndReason::CHECKMATE:
            return "checkmate";
        case EndReason::STALEMATE:
            return "stalemate";
        case EndReason::PERPETUAL_CHECK:
            return "perpetual check by " + side;
        case EndReason::PERPETUAL_CHASE:
            return "perpetual chase by " + side;
        case EndReason::REPETITION:
            return "repetition";
        case EndReason::MOVE_LIMIT:
            return "move limit";
        case EndReason::INSUFFICIENT_MATERIAL:
            return "insufficient material";
        default:
            return "";
    }
}

RepetitionOutcome judgeCycle(Position& pos, int plies, Verdict* verdict) {
    if (plies < 4 || plies % 2 || plies > pos.historyLength()) return RepetitionOutcome::NONE;
    std::vector<Move> moves(plies);
    for (int i = plies - 1; i >= 0; --i) {
        moves[i] = pos.state().move;
        if (!isOk(moves[i])) {  // a null move inside the span: nothing to judge
            for (int j = i + 1; j < plies; ++j) pos.doMove(moves[j]);
            return RepetitionOutcome::NONE;
        }
        pos.undoMove();
    }
    // Pieces keep their identity through the cycle: a chase of one piece that keeps running is one chase.
    int identity[SQUARE_NB];
    for (Square s = 0; s < SQUARE_NB; ++s) identity[s] = s;
    bool allChecks[COLOR_NB] = {true, true};
    Bitboard sameChased[COLOR_NB] = {~Bitboard(0), ~Bitboard(0)};
    for (Move m : moves) {
        const Color mover = pos.sideToMove();
        // A move that answers a check chases nothing: the check chose it. Otherwise a king driven back and
        // forth by checks would be found chasing whatever its steps happen to unpin or stop shielding (an
        // attack that was illegal while the king stood in check), and lose for the checker's benefit.
        // Pikafish draws such cycles too (any check in a cycle that is not perpetual makes it a draw).
        const bool answersCheck = pos.inCheck();
        pos.doMove(m);
        allChecks[mover] = allChecks[mover] && pos.inCheck();
        if (answersCheck) sameChased[mover] = 0;
        if (sameChased[mover]) {
            Bitboard chasedIds = 0;
            for (Bitboard b = chasedByLastMove(pos); b;) chasedIds |= squareBB(identity[popLsb(b)]);
            sameChased[mover] &= chasedIds;
        }
        identity[toSq(m)] = identity[fromSq(m)];
    }
    const Color stm = pos.sideToMove();
    Verdict v;
    auto loser = [&](Color c, EndReason why) {
        v.result = c == RED ? GameResult::BLACK_WINS : GameResult::RED_WINS;
        v.reason = why;
        v.violator = c;
    };
    if (allChecks[RED] != allChecks[BLACK])
        loser(allChecks[RED] ? RED : BLACK, EndReason::PERPETUAL_CHECK);
    else if (!allChecks[RED] && bool(sameChased[RED]) != bool(sameChased[BLACK]))
        loser(sameChased[RED] ? RED : BLACK, EndReason::PERPETUAL_CHASE);
    else
        v.result = GameResult::DRAW, v.reason = EndReason::REPETITION;
    if (verdict) *verdict = v;
    if (v.result == GameResult::DRAW) return RepetitionOutcome::DRAW;
    return v.violator == stm ? RepetitionOutcome::LOSS : RepetitionOutcome::WIN;
}

RepetitionOutcome searchRepetition(Position& pos) {
    const StateInfo& st = pos.state();
    const int end = std::min({st.rule60, st.pliesFromNull, pos.historyLength()});
    for (int i = 4; i <= end; i += 2)
        if (pos.state(i).key == st.key) return judgeCycle(pos, i);
    return RepetitionOutcome::NONE;
}

Verdict adjudicate(Position& pos, const RuleConfig& config) {
    Verdict v;
    const Color stm = pos.sideToMove();
    if (legalMoves(pos).size == 0) {
        v.result = stm == RED ? GameResult::BLACK_WINS : GameResult::RED_WINS;
        v.reason = pos.inCheck() ? EndReason::CHECKMATE : EndReason::STALEMATE;
        v.violator = stm;
        return v;
    }
    const StateInfo& st = pos.state();
    const int end = std::min({st.rule60, st.pliesFromNull, pos.historyLength()});
    int occurrences = 1, firstOccurrence = 0;
    for (int i = 4; i <= end; i += 2)
        if (pos.state(i).key == st.key) ++occurrences, firstOccurrence = i;
    if (occurrences >= std::max(2, config.repetitionCount)) {
        judgeCycle(pos, firstOccurrence, &v);
        return v;
    }
    if (config.moveLimitPlies > 0 && pos.rule60() >= config.moveLimitPlies) {
        v.result = GameResult::DRAW;
        v.reason = EndReason::MOVE_LIMIT;
        return v;
    }
    if (!pos.hasAttackingMaterial(RED) && !pos.hasAttackingMaterial(BLACK)) {
        v.result = GameResult::DRAW;
        v.reason = EndReason::INSUFFICIENT_MATERIAL;
    }
    return v;
}

std::optional<Move> parseMove(const Position& pos, std::string_view text, std::string* why) {
    auto fail = [&](std::string reason) -> std::optional<Move> {
        if (why) *why = std::move(reason);
        return std::nullopt;
    };
    const std::string t(text);
    if (t.size() != 4 || t[0] < 'a' || t[0] > 'i' || t[2] < 'a' || t[2] > 'i' || t[1] < '0' || t[1] > '9' ||
        t[3] < '0' || t[3] > '9')
        return fail("'" + t + "' is not a move in ICCS coordinates (like h2e2: files a-i, ranks 0-9)");
    const Square from = makeSquare(t[0] - 'a', t[1] - '0'), to = makeSquare(t[2] - 'a', t[3] - '0');
    const Move m = makeMove(from, to);
    const Piece pc = pos.pieceOn(from);
    const std::string stm = pos.sideToMove() == RED ? "red" : "black";
    if (pc == NO_PIECE) return fail("no piece on " + squareName(from));
    if (colorOf(pc) != pos.sideToMove())
        return fail("the piece on " + squareName(from) + " is not " + stm + "'s, and " + stm + " is to move");
    if (from == to) return fail("from and to are the same square");
    if (pos.pieceOn(to) != NO_PIECE && colorOf(pos.pieceOn(to)) == pos.sideToMove())
        return fail(squareName(to) + " holds a piece of the side to move");
    static constexpr const char* Names[] = {"",      "king", "advisor", "elephant",
                                            "horse", "rook", "cannon",  "pawn"};
    if (!pos.isPseudoLegal(m))
        return fail(std::string("the ") + Names[typeOf(pc)] + " on " + squareName(from) + " cannot move to " +
                    squareName(to));
    if (!pos.isLegal(m)) return fail("it leaves the " + stm + " king in check or facing the other king");
    return m;
}

}  // namespace xq
