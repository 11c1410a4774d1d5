// The repetition judge under both rule sets: the public cases, our own positions for each pattern, and the
// pieces of the chase rule (threats by any piece, pinned attackers and targets, trapped pieces).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "reference_data.h"
#include "xiangqi/movegen.h"
#include "xiangqi/rules.h"
#include "xiangqi/threats.h"

using namespace xq;

namespace {

Position played(const std::string& fen, const std::string& moves) {
    Position pos(fen);
    std::istringstream in(moves);
    for (std::string text; in >> text;) {
        std::string why;
        auto m = parseMove(pos, text, &why);
        EXPECT_TRUE(m.has_value()) << text << ": " << why;
        if (!m) break;
        pos.doMove(*m);
    }
    return pos;
}

// The first verdict reached while playing the moves, as xq judge reports it.
Verdict judge(const testdata::RuleCase& c) {
    RuleConfig config;
    config.ruleSet = *parseRuleSet(c.rules);
    config.moveLimitPlies = defaultMoveLimitPlies(config.ruleSet);
    Position pos(c.fen);
    std::istringstream in(c.moves);
    Verdict v;
    for (std::string text; in >> text;) {
        auto m = parseMove(pos, text);
        EXPECT_TRUE(m.has_value()) << text << " in " << c.fen;
        if (!m) return {};
        pos.doMove(*m);
        if (!v.isOver()) v = adjudicate(pos, config);
    }
    return v;
}

int expectAllAgree(const std::string& file) {
    int checked = 0;
    for (const auto& c : testdata::ruleCases(file)) {
        EXPECT_TRUE(parseRuleSet(c.rules)) << c.rules;
        Verdict v = judge(c);
        EXPECT_EQ(resultString(v.result), c.result) << c.rules << " | " << c.fen << " | " << c.moves << " -> "
                                                    << reasonString(v) << "  (" << c.note << ")";
        ++checked;
    }
    return checked;
}

Square sq(const char* name) {
    return makeSquare(name[0] - 'a', name[1] - '0');
}

Bitboard squares(std::initializer_list<const char*> names) {
    Bitboard b = 0;
    for (const char* n : names) b |= squareBB(sq(n));
    return b;
}

}  // namespace

TEST(RuleSet, NamesParseInAnyCaseAndSetTheMoveLimit) {
    EXPECT_EQ(parseRuleSet("Chinese"), RuleSet::CHINESE);
    EXPECT_EQ(parseRuleSet("ASIAN"), RuleSet::ASIAN);
    EXPECT_FALSE(parseRuleSet("axf"));
    EXPECT_FALSE(parseRuleSet(""));
    EXPECT_STREQ(ruleSetName(RuleSet::CHINESE), "chinese");
    EXPECT_EQ(defaultMoveLimitPlies(RuleSet::ASIAN), 120);
    EXPECT_EQ(defaultMoveLimitPlies(RuleSet::CHINESE), 80);
}

TEST(RepetitionRules, PublicCasesAgreeUnderBothRuleSets) {
    EXPECT_GE(expectAllAgree("repetition_public.txt"), 62);
}

TEST(RepetitionRules, OwnPositionsAgreeUnderBothRuleSets) {
    EXPECT_GE(expectAllAgree("repetition_rules.txt"), 112);
}

TEST(RepetitionRules, EveryOwnPositionIsJudgedUnderBothRuleSets) {
    std::map<std::string, std::set<std::string>> ruleSetsOf;
    for (const auto& c : testdata::ruleCases("repetition_rules.txt"))
        ruleSetsOf[c.fen + "|" + c.moves].insert(c.rules);
    for (const auto& [position, sets] : ruleSetsOf) EXPECT_EQ(sets.size(), 2u) << position;
}

TEST(Chase, EachWayAMoveUncoversAnAttackIsANewThreat) {
    // The first move of each own discovery case chases the piece named: through a line uncovered behind
    // the moved piece, a cannon screen added, a cannon screen removed, a horse leg and an elephant eye
    // cleared.
    const struct {
        const char *fen, *move, *target;
    } cases[] = {
        {"3ak4/9/9/9/2n3R2/9/2N6/9/9/2R2K3 w - - 0 1", "c3d5", "c5"},
        {"5k3/9/9/9/C1N1n4/9/9/9/9/3KC4 w - - 0 1", "c5e4", "e5"},
        {"5k3/9/9/9/CPN1n4/9/9/9/4A4/3KC4 w - - 0 1", "c5e4", "e5"},
        {"4k4/9/9/9/4c4/2NR2N2/9/9/9/3K5 w - - 0 1", "d4f4", "e5"},
        {"4k4/9/9/9/9/9/9/4c4/3R5/2B1K1B2 w - - 0 1", "d1f1", "e2"},
    };
    for (const auto& c : cases) {
        Position pos = played(c.fen, c.move);
        EXPECT_EQ(chasedByLastMove(pos), squares({c.target})) << c.fen << " " << c.move;
        // The moved piece attacks nothing itself: the threat is another piece's.
        const Square to = sq(c.move + 2);
        EXPECT_FALSE(testBit(attacksFrom(typeOf(pos.pieceOn(to)), RED, to, pos.occupied()), sq(c.target)));
    }
}

TEST(Chase, APinnedTargetOfTheChasersKindIsChased) {
    // The black rook on f8 blocks the leg of the horse on g8 that would check e9: it cannot take back,
    // so the rooks that take turns attacking it chase it, though it is a rook too.
    Position pos = played("4k4/R2N1rN2/9/9/9/9/p8/5R3/9/3K5 w - - 0 1", "d8f7");
    EXPECT_TRUE(pos.isPinned(sq("f8")));
    EXPECT_EQ(chasedByLastMove(pos), squares({"f8"}));
    // One rook attacking another that can take back offers an exchange; pinned, the rook is chased.
    Position offer = played("4k4/5r3/9/9/9/9/9/9/9/R2K5 w - - 0 1", "a0a8");
    EXPECT_EQ(chasedByLastMove(offer), 0u);
    Position pinned = played("4k4/5rN2/9/9/9/9/9/9/9/R2K5 w - - 0 1", "a0a8");
    EXPECT_EQ(chasedByLastMove(pinned), squares({"f8"}));
}

TEST(Chase, APinnedPieceChasesNothingNotEvenItsPinner) {
    // Public case 21: red's rook on d1 is pinned by the horse on c1 (it blocks the horse's leg to e0).
    // The advisor's step takes away the screen through which black's cannon protected the horse, but the
    // rook that could take it is pinned: red chases nothing, black's rook and cannon chase the pinned rook.
    Position pos = played("5k3/9/9/9/9/9/7r1/9/2nRA3c/4K4 w - - 0 1", "e1f0");
    EXPECT_TRUE(pos.isPinned(sq("d1")));
    EXPECT_EQ(chasedByLastMove(pos), 0u);
    pos.doMove(*parseMove(pos, "h3h1"));
    EXPECT_EQ(chasedByLastMove(pos), squares({"d1"}));
}

TEST(Threats, MateThreatsAndDiscoveredCheckThreatsAreNewWithTheMove) {
    // The rook leaves the file the black rook blocks: it threatens Rh9 mate (rank 8 is the other rook's).
    Position mate = played("4k4/R8/9/9/1r7/9/9/9/3K5/1R7 w - - 0 1", "b0h0");
    MoveThreats t = threatsOfLastMove(mate, true);
    EXPECT_TRUE(t.mateThreat);
    EXPECT_FALSE(t.check);
    EXPECT_EQ(t.chased, 0u);
    EXPECT_FALSE(threatsOfLastMove(mate, false).mateThreat);  // only asked for under the Chinese rules
    // The cannon in front of the rook moves up a rank: next it could take the cannon on a6 with a
    // discovered check from the rook on e1 (the a-file rook protects it, so this is no chase).
    Position win = played("r3k4/9/9/c1P6/2P1C4/9/9/9/4R4/3K5 w - - 0 1", "e5e6");
    t = threatsOfLastMove(win, true);
    EXPECT_TRUE(t.discoveredWin);
    EXPECT_FALSE(t.mateThreat);
    EXPECT_EQ(t.chased, 0u);
    // Idle moves threaten nothing.
    Position idle = played(Position::StartFEN, "b0c2");
    t = threatsOfLastMove(idle, true);
    EXPECT_FALSE(t.check || t.mateThreat || t.discoveredWin || t.chased);
}

TEST(Threats, TheChaserOfATrappedUnprotectedPieceIsFound) {
    // The black pawn on a0 can only step to b0, which the horse on a2 covers; the cannon on a4 attacks it
    // through that horse. Black's horse attacking the cannon is a rescue, not a chase, under Chinese rules.
    Position pos = played("4k4/9/9/1n7/9/C8/9/N8/9/p2K5 w - - 0 1", "a4a5");
    EXPECT_EQ(chasersOfTrappedPieces(pos), squares({"a5"}));
    // With b0 free the pawn can run: nothing is trapped.
    Position runs = played("4k4/9/9/1n7/9/C8/9/9/N8/p2K5 w - - 0 1", "a4a5");
    EXPECT_EQ(chasersOfTrappedPieces(runs), 0u);
}

TEST(Repetition, SearchScoresADiscoveredChaseAsALossForTheChaserUnderBothRuleSets) {
    Position pos = played("3ak4/9/9/9/2n3R2/9/2N6/9/9/2R2K3 w - - 0 1", "c3d5 d9e8 d5c3 e8d9");
    // Red is to move; each of red's moves chased the black horse through a rook it uncovered.
    EXPECT_EQ(searchRepetition(pos, RuleSet::ASIAN), RepetitionOutcome::LOSS);
    EXPECT_EQ(searchRepetition(pos, RuleSet::CHINESE), RepetitionOutcome::LOSS);
}

TEST(Repetition, ChineseOnlyPatternsAreLostOnlyUnderTheChineseRules) {
    // One check one chase: a draw under the AXF rules, forbidden under the Chinese.
    Position pos = played("4k4/9/c5R2/9/9/9/9/9/9/3K5 w - - 0 1", "g7g9 e9e8 g9g7 e8e9");
    EXPECT_EQ(searchRepetition(pos, RuleSet::ASIAN), RepetitionOutcome::DRAW);
    EXPECT_EQ(searchRepetition(pos, RuleSet::CHINESE), RepetitionOutcome::LOSS);
    Verdict v;
    judgeCycle(pos, 4, RuleSet::CHINESE, &v);
    EXPECT_EQ(reasonString(v), "perpetual threats (check, chase) by red");
}

TEST(GameEnd, TheChineseRulesDrawAfterFortyMovesWithoutACapture) {
    RuleConfig chinese;
    chinese.ruleSet = RuleSet::CHINESE;
    chinese.moveLimitPlies = defaultMoveLimitPlies(RuleSet::CHINESE);
    Position pos("3k5/9/9/9/9/9/9/4R4/9/4K4 w - - 79 80");
    EXPECT_FALSE(adjudicate(pos, chinese).isOver());
    pos.doMove(*parseMove(pos, "e2f2"));
    EXPECT_EQ(adjudicate(pos, chinese).reason, EndReason::MOVE_LIMIT);
    EXPECT_FALSE(adjudicate(pos).isOver());  // 40 moves is nothing under the AXF limit of 60
}
