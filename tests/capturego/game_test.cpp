// How games end: the capture target, two passes and each branch of the decision that follows, the go rule
// set's area score with komi, resignation, time and forfeit, undo, replay, and the SGF result spellings.
#include "capturego/game.h"

#include <gtest/gtest.h>

#include "capturego/notation.h"
#include "capturego/position_text.h"
#include "capturego/result.h"

using namespace xq::capturego;

namespace {

void play(Game& game, std::initializer_list<const char*> moves) {
    for (const char* m : moves) {
        std::string why;
        ASSERT_TRUE(game.play(parseMove(m, game.position().size()), &why)) << m << ": " << why;
    }
}

// 6x6, a black wall on column C and a white one on D: 18 points each.
const char* kWalls = "2XO2/2XO2/2XO2/2XO2/2XO2/2XO2 b 0 0 0 ";

Game walls(const std::string& rules) {
    return Game(parsePositionText(std::string(kWalls) + rules));
}

}  // namespace

TEST(CaptureGoEnding, AtariGoEndsAtTheFirstCapture) {
    Game game(Position(5));
    EXPECT_EQ(game.rules(), Rules::capture(1));
    play(game, {"A2", "A1"});
    EXPECT_FALSE(game.isOver());
    play(game, {"B1"});
    ASSERT_TRUE(game.isOver());
    EXPECT_EQ(game.result().outcome, Outcome::BlackWins);
    EXPECT_EQ(game.result().ending, Ending::CaptureTarget);
    EXPECT_EQ(game.result().sgf(), "B+C");
    EXPECT_EQ(game.result().reason, "black captured 1 stone (target 1)");
    std::string why;
    EXPECT_FALSE(game.play(Move::pass(), &why));
    EXPECT_EQ(why, "the game is over: black captured 1 stone (target 1)");
    EXPECT_EQ(game.moves().size(), 3u);
}

TEST(CaptureGoEnding, ATargetOfThreeNeedsThreeCapturedStones) {
    // Black has 1 capture; the white pair A2-B2 is in atari at C2.
    Game game(parsePositionText("5/5/XXX2/OO1X1/XXX2 b 1 0 0 capture:3 0"));
    EXPECT_FALSE(game.isOver());
    play(game, {"C2"});
    ASSERT_TRUE(game.isOver());
    EXPECT_EQ(game.result().reason, "black captured 3 stones (target 3)");
    EXPECT_EQ(game.result().sgf(), "B+C");

    Game white(parsePositionText("5/5/OOO2/XX1O1/OOO2 w 0 2 0 capture:3 0"));
    play(white, {"C2"});
    EXPECT_EQ(white.result().reason, "white captured 4 stones (target 3)");
    EXPECT_EQ(white.result().sgf(), "W+C");
}

TEST(CaptureGoEnding, TwoPassesGoToThePlayerWhoCapturedMore) {
    Game game(Position(5, Rules::capture(5)));
    play(game, {"A2", "A1", "B1", "pass"});
    EXPECT_FALSE(game.isOver());
    play(game, {"pass"});
    ASSERT_TRUE(game.isOver());
    EXPECT_EQ(game.result().outcome, Outcome::BlackWins);
    EXPECT_EQ(game.result().ending, Ending::MoreCaptures);
    EXPECT_EQ(game.result().sgf(), "B+C");
    EXPECT_EQ(game.result().reason, "two passes: black captured 1 stone, white 0 (target 5)");

    // More captures win even against a larger area: white has 1, black 0 and nearly the whole board.
    Game white(parsePositionText("5/5/5/1X3/XO3 w 0 1 0 capture:5 0"));
    play(white, {"pass", "pass"});
    EXPECT_EQ(white.result().sgf(), "W+C");
    EXPECT_EQ(white.result().reason, "two passes: black captured 0 stones, white 1 (target 5)");
}

TEST(CaptureGoEnding, TwoPassesWithEqualCapturesAreDecidedByAreaWithKomi) {
    Game game(Position(5, Rules::capture(1)));
    play(game, {"C3", "pass", "pass"});
    ASSERT_TRUE(game.isOver());
    EXPECT_EQ(game.result().ending, Ending::Score);
    EXPECT_EQ(game.result().sgf(), "B+25");
    EXPECT_EQ(game.result().reason, "two passes, captures equal (0 each): black 25 points, white 0 (komi 0)");

    Game komi = walls("capture:1 0.5");
    play(komi, {"pass", "pass"});
    EXPECT_EQ(komi.result().sgf(), "W+0.5");
    EXPECT_EQ(komi.result().margin, 0.5);
    EXPECT_EQ(komi.result().reason,
              "two passes, captures equal (0 each): black 18 points, white 18.5 (komi 0.5)");
}

TEST(CaptureGoEnding, EqualCapturesAndEqualAreaAreADraw) {
    Game game = walls("capture:2 0");
    play(game, {"pass", "pass"});
    ASSERT_TRUE(game.isOver());
    EXPECT_EQ(game.result().outcome, Outcome::Draw);
    EXPECT_EQ(game.result().sgf(), "0");
    EXPECT_EQ(game.result().reason,
              "two passes, captures equal (0 each): black 18 points, white 18 (komi 0), a draw");
}

TEST(CaptureGoEnding, TheGoRuleSetScoresByAreaWithKomi) {
    Game game = walls("go 7.5");
    play(game, {"pass", "pass"});
    EXPECT_EQ(game.result().sgf(), "W+7.5");
    EXPECT_EQ(game.result().reason, "two passes: black 18 points, white 25.5 (komi 7.5)");

    Game draw = walls("go 0");
    play(draw, {"pass", "pass"});
    EXPECT_EQ(draw.result().sgf(), "0");

    // Captures neither end a go game nor decide it.
    Game go(Position(5, Rules::go()));
    play(go, {"A2", "A1", "B1"});
    EXPECT_FALSE(go.isOver());
    EXPECT_EQ(go.position().captures(Color::Black), 1);
    play(go, {"pass", "pass"});
    EXPECT_EQ(go.result().sgf(), "B+17.5");
    EXPECT_EQ(go.result().reason, "two passes: black 25 points, white 7.5 (komi 7.5)");
}

TEST(CaptureGoEnding, OnlyTwoConsecutivePassesEndTheGame) {
    Game game(Position(5));
    play(game, {"pass", "C3", "pass", "D4", "pass"});
    EXPECT_FALSE(game.isOver());
    EXPECT_EQ(game.position().consecutivePasses(), 1);
    play(game, {"pass"});
    EXPECT_TRUE(game.isOver());
}

TEST(CaptureGoEnding, ResignationTimeAndForfeitEndTheGameWithTheirReason) {
    Game resigned;
    play(resigned, {"E5"});
    EXPECT_TRUE(resigned.resign(Color::White));
    EXPECT_EQ(resigned.result().sgf(), "B+R");
    EXPECT_EQ(resigned.result().reason, "white resigned");
    EXPECT_FALSE(resigned.resign(Color::Black));  // already over
    EXPECT_FALSE(resigned.play(Move::pass()));

    Game late;
    EXPECT_TRUE(late.loseOnTime(Color::Black));
    EXPECT_EQ(late.result().sgf(), "W+T");
    EXPECT_EQ(late.result().reason, "black lost on time");

    Game illegal;
    play(illegal, {"D4"});
    EXPECT_TRUE(illegal.forfeit(Color::White, illegal.position().whyIllegal(parseMove("D4", 9))));
    EXPECT_EQ(illegal.result().sgf(), "B+F");
    EXPECT_EQ(illegal.result().reason, "white forfeited: D4 is occupied");
}

TEST(CaptureGoEnding, UndoTakesBackAnEventOrTheMoveThatEndedTheGame) {
    Game game(Position(5));
    play(game, {"A2", "A1", "B1"});
    ASSERT_TRUE(game.isOver());
    EXPECT_TRUE(game.undo());
    EXPECT_FALSE(game.isOver());
    EXPECT_EQ(game.moves().size(), 2u);
    EXPECT_TRUE(game.resign(Color::Black));
    EXPECT_TRUE(game.undo());  // the resignation only
    EXPECT_FALSE(game.isOver());
    EXPECT_EQ(game.moves().size(), 2u);
    EXPECT_TRUE(game.undo());
    EXPECT_TRUE(game.undo());
    EXPECT_FALSE(game.undo());
}

TEST(CaptureGoEnding, ReplayNamesTheFirstMoveThatCannotBePlayed) {
    auto replayError = [](const std::vector<Move>& moves) {
        try {
            Game::replay(Position(5), moves);
        } catch (const ParseError& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    auto m = [](const char* text) { return parseMove(text, 5); };
    EXPECT_EQ(replayError({m("C3"), m("D4"), m("C3")}), "move 3 (black C3): C3 is occupied");
    EXPECT_EQ(replayError({m("A2"), m("A1"), m("B1"), m("C3")}),
              "move 4 (white C3): the game is over: black captured 1 stone (target 1)");
    Game game = Game::replay(Position(5), {m("C3"), m("pass"), m("D4")});
    EXPECT_EQ(game.moves().size(), 3u);
    EXPECT_EQ(game.toMove(), Color::White);
}

TEST(CaptureGoEnding, AStartPositionPastTheTargetIsAlreadyOver) {
    Game game(parsePositionText("5/5/5/5/5 w 3 0 0 capture:3 0"));
    EXPECT_TRUE(game.isOver());
    EXPECT_EQ(game.result().reason, "black captured 3 stones (target 3)");
    EXPECT_FALSE(game.undo());
}

TEST(CaptureGoEnding, SgfResultsAreSpelledAndReadBack) {
    EXPECT_EQ(Result{}.sgf(), "");
    EXPECT_EQ(resignation(Color::Black).sgf(), "W+R");
    EXPECT_EQ(timeLoss(Color::White).sgf(), "B+T");
    EXPECT_EQ(forfeit(Color::Black, "").sgf(), "W+F");
    EXPECT_EQ(forfeit(Color::Black, "").reason, "black forfeited");
    for (const char* text :
         {"B+C", "W+C", "B+R", "W+R", "B+T", "W+T", "B+F", "W+F", "B+3.5", "W+0.5", "B+41", "0"}) {
        std::optional<Result> read = parseSgfResult(text);
        ASSERT_TRUE(read) << text;
        EXPECT_EQ(read->sgf(), text);
    }
    EXPECT_EQ(parseSgfResult("W+Resign")->ending, Ending::Resignation);
    EXPECT_EQ(parseSgfResult("B+9.0")->margin, 9.0);
    EXPECT_EQ(parseSgfResult("Draw")->outcome, Outcome::Draw);
    EXPECT_EQ(parseSgfResult("B+")->outcome, Outcome::BlackWins);
    EXPECT_FALSE(parseSgfResult("Void"));
    EXPECT_FALSE(parseSgfResult("?"));
    EXPECT_FALSE(parseSgfResult("X+3"));
    EXPECT_FALSE(parseSgfResult("B+3.25"));
}
