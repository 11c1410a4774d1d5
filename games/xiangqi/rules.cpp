#include "rules.h"

#include <algorithm>
#include <cctype>

#include "movegen.h"
#include "threats.h"

namespace xq {

const char* ruleSetName(RuleSet r) {
    return r == RuleSet::CHINESE ? "chinese" : "asian";
}

std::optional<RuleSet> parseRuleSet(std::string_view text) {
    std::string t(text);
    for (char& c : t) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (t == "asian") return RuleSet::ASIAN;
    if (t == "chinese") return RuleSet::CHINESE;
    return std::nullopt;
}

int defaultMoveLimitPlies(RuleSet r) {
    return r == RuleSet::CHINESE ? 80 : 120;
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
        case EndReason::PERPETUAL_MATE_THREAT:
            return "perpetual mate threat by " + side;
        case EndReason::PERPETUAL_THREATS: {
            std::string kinds;
            const std::pair<unsigned, const char*> names[] = {
                {THREAT_CHECK, "check"},
                {THREAT_CHASE, "chase"},
                {THREAT_MATE, "mate threat"},
                {THREAT_DISCOVERED_WIN, "discovered-check threat"}};
            for (const auto& [bit, name] : names)
                if (v.kinds & bit) kinds += (kinds.empty() ? "" : ", ") + std::string(name);
            return "perpetual threats (" + kinds + ") by " + side;
        }
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

namespace {

// What each side did through a cycle, move by move.
struct CycleRecord {
    bool allChecks = true, anyCheck = false;
    bool allThreats = true, anyThreat = false;  // a rescue (see judgeCycle) counts as an answer, not a threat
    unsigned kinds = 0;                         // the kinds of threat made, over the cycle
    Bitboard sameChased = ~Bitboard(0);         // pieces (by identity) chased on every move
};

void lose(Verdict& v, Color c, EndReason why) {
    v.result = c == RED ? GameResult::BLACK_WINS : GameResult::RED_WINS;
    v.reason = why;
    v.violator = c;
}

Verdict asianVerdict(const CycleRecord (&side)[COLOR_NB]) {
    Verdict v;
    const bool chases[COLOR_NB] = {side[RED].sameChased != 0, side[BLACK].sameChased != 0};
    if (side[RED].allChecks != side[BLACK].allChecks)
        lose(v, side[RED].allChecks ? RED : BLACK, EndReason::PERPETUAL_CHECK);
    else if (!side[RED].allChecks && chases[RED] != chases[BLACK])
        lose(v, chases[RED] ? RED : BLACK, EndReason::PERPETUAL_CHASE);
    return v;
}

Verdict chineseVerdict(const CycleRecord (&side)[COLOR_NB]) {
    Verdict v;
    for (Color c : {RED, BLACK}) {
        const CycleRecord &us = side[c], &them = side[~c];
        // Perpetual check is never allowed, except when answered by check.
        if (us.allChecks && !them.anyCheck) {
            lose(v, c, EndReason::PERPETUAL_CHECK);
            return v;
        }
    }
    if (side[RED].allChecks || side[BLACK].allChecks) return v;
    for (Color c : {RED, BLACK}) {
        const CycleRecord &us = side[c], &them = side[~c];
        if (us.allThreats && !them.anyThreat) {
            lose(v, c,
                 us.kinds == THREAT_CHASE  ? EndReason::PERPETUAL_CHASE
                 : us.kinds == THREAT_MATE ? EndReason::PERPETUAL_MATE_THREAT
                                           : EndReason::PERPETUAL_THREATS);
            if (v.reason == EndReason::PERPETUAL_THREATS) v.kinds = us.kinds;
            return v;
        }
    }
    return v;
}

}  // namespace

RepetitionOutcome judgeCycle(Position& pos, int plies, RuleSet rules, Verdict* verdict) {
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
    const bool chinese = rules == RuleSet::CHINESE;
    // Pieces keep their identity through the cycle: a chase of one piece that keeps running is one chase.
    int identity[SQUARE_NB];
    for (Square s = 0; s < SQUARE_NB; ++s) identity[s] = s;
    CycleRecord side[COLOR_NB];
    for (Move m : moves) {
        const Color mover = pos.sideToMove();
        CycleRecord& r = side[mover];
        // A move that answers a check threatens nothing but a check of its own: the check chose it.
        // Otherwise a king driven back and forth by checks would be found chasing whatever its steps happen
        // to unpin or stop shielding (an attack that was illegal while the king stood in check), and lose
        // for the checker's benefit. Pikafish draws such cycles too.
        const bool answersCheck = pos.inCheck();
        pos.doMove(m);
        const bool needThreats = chinese ? r.allThreats || !r.anyThreat : r.sameChased != 0;
        MoveThreats t;
        t.check = pos.inCheck();
        // The search (no verdict asked for) needs to know whether a move threatens, not how.
        if (!answersCheck && needThreats) t = threatsOfLastMove(pos, chinese, verdict != nullptr);
        // Chinese rules: attacking, again and again, the piece that chases a trapped piece of one's own is
        // allowed. Such a move answers the chase (the other side's perpetual chase is then a draw) without
        // threatening.
        bool rescue = false;
        if (chinese && t.chased) {
            pos.undoMove();
            const Bitboard excused = chasersOfTrappedPieces(pos);
            pos.doMove(m);
            if (!(t.chased & ~excused)) t.chased = 0, rescue = true;
        }
        if (answersCheck) r.sameChased = 0;
        if (r.sameChased) {
            Bitboard chasedIds = 0;
            for (Bitboard b = t.chased; b;) chasedIds |= squareBB(identity[popLsb(b)]);
            r.sameChased &= chasedIds;
        }
        const unsigned kinds = (t.check ? THREAT_CHECK : 0u) | (t.chased ? THREAT_CHASE : 0u) |
                               (t.mateThreat ? THREAT_MATE : 0u) |
                               (t.discoveredWin ? THREAT_DISCOVERED_WIN : 0u);
        r.allChecks = r.allChecks && t.check;
        r.anyCheck = r.anyCheck || t.check;
        r.allThreats = r.allThreats && kinds;
        r.anyThreat = r.anyThreat || kinds || rescue;
        r.kinds |= kinds;
        identity[toSq(m)] = identity[fromSq(m)];
    }
    Verdict v = chinese ? chineseVerdict(side) : asianVerdict(side);
    if (!v.isOver()) v.result = GameResult::DRAW, v.reason = EndReason::REPETITION;
    if (verdict) *verdict = v;
    if (v.result == GameResult::DRAW) return RepetitionOutcome::DRAW;
    return v.violator == pos.sideToMove() ? RepetitionOutcome::LOSS : RepetitionOutcome::WIN;
}

RepetitionOutcome searchRepetition(Position& pos, RuleSet rules) {
    const StateInfo& st = pos.state();
    const int end = std::min({st.rule60, st.pliesFromNull, pos.historyLength()});
    for (int i = 4; i <= end; i += 2)
        if (pos.state(i).key == st.key) return judgeCycle(pos, i, rules);
    return RepetitionOutcome::NONE;
}

Verdict adjudicate(Position& pos, const RuleConfig& config) {
    Verdict v;
    const Color stm = pos.sideToMove();
    if (!hasLegalMove(pos)) {
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
        judgeCycle(pos, firstOccurrence, config.ruleSet, &v);
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
    const char* stm = pos.sideToMove() == RED ? "red" : "black";
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
    if (!pos.isLegal(m))
        return fail(std::string("it leaves the ") + stm + " king in check or facing the other king");
    return m;
}

}  // namespace xq
