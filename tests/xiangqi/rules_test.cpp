#include "xiangqi/rules.h"

#include <gtest/gtest.h>

#include <sstream>

#include "reference_data.h"
#include "xiangqi/movegen.h"

using namespace xq;

namespace {

// Plays the moves and returns the first verdict reached (as xq judge does); fails the test on an
// illegal move.
Verdict play(const std::string& fen, const std::string& moves, const RuleConfig& rules = {}) {
    Position pos(fen);
    std::istringstream in(moves);
    Verdict v;
    for (std::string text; in >> text;) {
        std::string why;
        auto m = parseMove(pos, text, &why);
        EXPECT_TRUE(m.has_value()) << text << ": " << why;
        if (!m) return {};
        pos.doMove(*m);
        if (!v.isOver()) v = adjudicate(pos, rules);
    }
    return v;
}

}  // namespace

TEST(Repetition, AgreesWithEveryReferenceCase) {
    int checked = 0;
    for (const auto& c : testdata::repetitionCases()) {
        Verdict v = play(c.fen, c.moves);
        EXPECT_EQ(resultString(v.result), c.result) << c.fen << " | " << c.moves << " -> " << reasonString(v);
        ++checked;
    }
    EXPECT_GE(checked, 14);
}

TEST(Repetition, NothingIsJudgedBeforeTheThirdOccurrence) {
    // Perpetual check by black (pawn checks from e2/f2), but only twice so far.
    Verdict v = play("3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1", "f1e1 f2e2 e1f1 e2f2");
    EXPECT_FALSE(v.isOver());
}

TEST(Repetition, PerpetualCheckLosesForEitherColour) {
    Verdict v = play("3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1", "f1e1 f2e2 e1f1 e2f2 f1e1 f2e2 e1f1 e2f2");
    EXPECT_EQ(v.result, GameResult::RED_WINS);
    EXPECT_EQ(v.reason, EndReason::PERPETUAL_CHECK);
    EXPECT_EQ(reasonString(v), "perpetual check by black");
    // The same pattern mirrored: red checks with the rook from the side, black king steps back and forth.
    Verdict w = play("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9");
    EXPECT_EQ(w.result, GameResult::BLACK_WINS) << reasonString(w);
    EXPECT_EQ(reasonString(w), "perpetual check by red");
}

TEST(Repetition, PerpetualChaseOfOnePieceLoses) {
    // The red rook follows the black cannon from file to file: red chases an unprotected cannon.
    Verdict v = play("3k5/9/9/6c2/9/9/9/6R2/9/5K3 b - - 2 30", "g6h6 g2h2 h6g6 h2g2 g6h6 g2h2 h6g6 h2g2");
    EXPECT_EQ(v.result, GameResult::BLACK_WINS);
    EXPECT_EQ(reasonString(v), "perpetual chase by red");
    // A protected cannon (its own rook defends it along the rank) is not chased: a draw.
    Verdict w = play("3k5/9/9/6c1r/9/9/9/6R2/9/5K3 b - - 2 30", "g6h6 g2h2 h6g6 h2g2 g6h6 g2h2 h6g6 h2g2");
    EXPECT_EQ(w.result, GameResult::DRAW) << reasonString(w);
}

TEST(Repetition, AMoveThatAnswersACheckIsNoChase) {
    // From a match against Fairy-Stockfish 11.1: red's cannon checks from f2 through the horse on f3 and
    // steps back to e2, where it pins black's rook on e3 against the king on e9 (through the cannon on e5).
    // Each black king step makes the rook's capture of the unprotected horse legal again, but one of every
    // two answers a check: no perpetual chase, so the repetition is a draw.
    Verdict v = play("rnba1kb2/9/3a2n2/p1p3p2/4C4/9/P1P1rNP1P/R3C4/1c2A2c1/1NBAK1BR1 w - - 2 15",
                     "e2f2 f9e9 f2e2 e9f9 e2f2 f9e9 f2e2 e9f9");
    EXPECT_EQ(v.result, GameResult::DRAW) << reasonString(v);
    EXPECT_EQ(v.reason, EndReason::REPETITION);
}

TEST(Repetition, IdleShufflingIsADraw) {
    Verdict v = play(Position::StartFEN, "b0c2 b9c7 c2b0 c7b9 b0c2 b9c7 c2b0 c7b9");
    EXPECT_EQ(v.result, GameResult::DRAW);
    EXPECT_EQ(v.reason, EndReason::REPETITION);
}

TEST(Repetition, SearchSeesASecondOccurrence) {
    Position pos("3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1");
    for (const char* t : {"f1e1", "f2e2", "e1f1", "e2f2"}) pos.doMove(*parseMove(pos, t));
    // Red is to move; black has checked on each of its moves: black loses, so red wins.
    EXPECT_EQ(searchRepetition(pos), RepetitionOutcome::WIN);
    Position quiet(Position::StartFEN);
    for (const char* t : {"b0c2", "b9c7", "c2b0", "c7b9"}) quiet.doMove(*parseMove(quiet, t));
    EXPECT_EQ(searchRepetition(quiet), RepetitionOutcome::DRAW);
    quiet.doMove(*parseMove(quiet, "h0g2"));
    EXPECT_EQ(searchRepetition(quiet), RepetitionOutcome::NONE);
}

TEST(GameEnd, CheckmateAndStalemateLoseForTheSideToMove) {
    // Red rook mates on the back rank: d8 is covered by the pawn, e9 would face the red king.
    Verdict mate = play("3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a9");
    EXPECT_EQ(mate.result, GameResult::RED_WINS);
    EXPECT_EQ(mate.reason, EndReason::CHECKMATE);
    // Black to move, not in check, without a legal move: stalemate loses in Xiangqi.
    Position stale("3k5/8R/9/9/9/9/9/9/9/4K4 b - - 0 1");
    Verdict v = adjudicate(stale);
    EXPECT_FALSE(stale.inCheck());
    EXPECT_EQ(legalMoves(stale).size, 0);
    EXPECT_EQ(v.result, GameResult::RED_WINS);
    EXPECT_EQ(v.reason, EndReason::STALEMATE);
}

TEST(GameEnd, MoveLimitDrawsAndIsConfigurable) {
    const std::string fen = "3k5/9/9/9/9/9/9/4R4/9/4K4 w - - 0 1";
    std::string moves;
    for (int i = 0; i < 10; ++i) moves += i % 2 == 0 ? "e2f2 d9d8 f2e2 d8d9 " : "e2g2 d9d8 g2e2 d8d9 ";
    RuleConfig noRepetition;
    noRepetition.repetitionCount = 1000;
    noRepetition.moveLimitPlies = 40;
    Verdict v = play(fen, moves, noRepetition);
    EXPECT_EQ(v.result, GameResult::DRAW);
    EXPECT_EQ(v.reason, EndReason::MOVE_LIMIT);
    Position pos("3k5/9/9/9/9/9/9/4R4/9/4K4 w - - 119 80");
    EXPECT_FALSE(adjudicate(pos).isOver());
    pos.doMove(*parseMove(pos, "e2f2"));
    EXPECT_EQ(adjudicate(pos).reason, EndReason::MOVE_LIMIT);
}

TEST(GameEnd, NoPieceThatCanCrossTheRiverIsADraw) {
    Position pos("3akab2/9/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1");
    Verdict v = adjudicate(pos);
    EXPECT_EQ(v.result, GameResult::DRAW);
    EXPECT_EQ(v.reason, EndReason::INSUFFICIENT_MATERIAL);
    Position withRook("3akab2/9/4b4/9/9/9/9/4B4/4A4/3AK2R1 w - - 0 1");
    EXPECT_FALSE(adjudicate(withRook).isOver());
}

TEST(MoveParsing, SaysWhyAMoveIsRejected) {
    Position pos;
    std::string why;
    EXPECT_TRUE(parseMove(pos, "h2e2", &why).has_value());
    EXPECT_FALSE(parseMove(pos, "h2e", &why));
    EXPECT_NE(why.find("ICCS"), std::string::npos);
    EXPECT_FALSE(parseMove(pos, "z2e2", &why));
    EXPECT_FALSE(parseMove(pos, "e5e6", &why));
    EXPECT_NE(why.find("no piece on e5"), std::string::npos);
    EXPECT_FALSE(parseMove(pos, "h7e7", &why));
    EXPECT_NE(why.find("not red's"), std::string::npos);
    EXPECT_FALSE(parseMove(pos, "a0a4", &why));
    EXPECT_NE(why.find("rook on a0 cannot move to a4"), std::string::npos);
    EXPECT_FALSE(parseMove(pos, "a0a3", &why));
    EXPECT_NE(why.find("holds a piece of the side to move"), std::string::npos);
    EXPECT_EQ(moveToString(*parseMove(pos, "b2b9")), "b2b9");  // cannon captures over the screen
    Position check("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1");
    EXPECT_FALSE(parseMove(check, "e9e8", &why));
    EXPECT_NE(why.find("check"), std::string::npos);
}
