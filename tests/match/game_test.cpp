#include "game.h"

#include <gtest/gtest.h>

#include "test_util.h"
#include "xiangqi/movegen.h"

namespace game_test {

using namespace xq::match;
using namespace xq::match::test;

namespace {

struct Game {
    EngineClient a, b;
    AdjudicationConfig adj;
    Opening opening{xq::Position::StartFEN, {}};
    bool startFailed[2] = {false, false};

    Game(EngineConfig ea, EngineConfig eb, int stallMs = 2000)
        : a(std::move(ea), 2000, stallMs), b(std::move(eb), 2000, stallMs) {}

    GameRecord play(
        int redEngine = 0, StopCheck stop = [] { return false; }) {
        EngineClient* engines[2] = {&a, &b};
        GameSetup setup;
        setup.opening = &opening;
        setup.redEngine = redEngine;
        setup.adjudication = &adj;
        return playGame(engines, setup, stop, startFailed);
    }
};

// Replays a finished game through the rules core: every move legal, and a rules ending real.
void expectConsistent(const GameRecord& g, const xq::RuleConfig& rules) {
    xq::Position pos(g.startFen);
    for (const auto& m : g.openingMoves) pos.doMove(*xq::parseMove(pos, m));
    for (std::size_t i = 0; i < g.moves.size(); ++i) {
        EXPECT_FALSE(xq::adjudicate(pos, rules).isOver()) << "game went on after its end at ply " << i;
        auto m = xq::parseMove(pos, g.moves[i].move);
        ASSERT_TRUE(m.has_value()) << g.moves[i].move;
        pos.doMove(*m);
    }
    if (g.end == GameEnd::Rules) {
        xq::Verdict v = xq::adjudicate(pos, rules);
        EXPECT_EQ(v.result, g.result);
        EXPECT_EQ(xq::reasonString(v), g.reason);
    }
}

}  // namespace

TEST(Game, RandomGamesEndByTheRulesAndAreLegal) {
    int byRules = 0;
    for (unsigned seed = 1; seed <= 6; ++seed) {
        Game game(mock("a", {"--greedy", "--seed", std::to_string(seed)}),
                  mock("b", {"--greedy", "--seed", std::to_string(seed + 100)}));
        game.adj.maxPlies = 600;
        GameRecord g = game.play(int(seed % 2));
        EXPECT_NE(g.result, xq::GameResult::NONE);
        EXPECT_EQ(g.failure, Failure::None) << g.reason;
        expectConsistent(g, game.adj.rules);
        byRules += g.end == GameEnd::Rules;
    }
    EXPECT_GT(byRules, 0);  // capture-happy random play ends by mate or material within 600 plies
}

TEST(Game, AnOpeningThatIsAlreadyMateNeedsNoMove) {
    Game game(mock("a"), mock("b"));
    game.opening = {"3k5/4R4/3R5/9/9/9/9/9/9/4K4 b - - 0 1", {}};
    GameRecord g = game.play();
    EXPECT_EQ(g.end, GameEnd::Rules);
    EXPECT_EQ(g.result, xq::GameResult::RED_WINS);
    EXPECT_EQ(g.reason, "checkmate");
    EXPECT_TRUE(g.moves.empty());
}

TEST(Game, OpeningMovesArePlayedFirst) {
    Game game(mock("a"), mock("b"));
    game.opening = {xq::Position::StartFEN, {"h2e2", "h9g7", "h0g2"}};
    game.adj.maxPlies = 4;
    GameRecord g = game.play();
    EXPECT_EQ(g.openingMoves.size(), 3u);
    EXPECT_EQ(g.moves.size(), 4u);
    EXPECT_EQ(g.end, GameEnd::MaxLength);
    EXPECT_EQ(g.result, xq::GameResult::DRAW);
    expectConsistent(g, game.adj.rules);
}

TEST(Game, CrashLosesAndTheEngineIsRestartedNextGame) {
    Game game(mock("good"), mock("crashy", {"--crash-after", "2"}));
    GameRecord g = game.play(1);  // crashy plays red
    EXPECT_EQ(g.end, GameEnd::EngineFailure);
    EXPECT_EQ(g.failure, Failure::Crash);
    EXPECT_EQ(g.failedEngine, 1);
    EXPECT_EQ(g.result, xq::GameResult::BLACK_WINS);
    EXPECT_EQ(g.moves.size(), 4u);  // two moves each, then the crash
    EXPECT_NE(g.reason.find("crashy (red) crash"), std::string::npos) << g.reason;
    EXPECT_FALSE(game.b.isStarted());
    game.adj.maxPlies = 2;
    GameRecord next = game.play(1);  // restarted: plays again
    EXPECT_EQ(next.end, GameEnd::MaxLength) << next.reason;
}

TEST(Game, IllegalMoveGarbageAndNoMoveLose) {
    for (const char* flag : {"--illegal-after", "--garbage-after", "--nomove-after"}) {
        Game game(mock("good"), mock("bad", {flag, "1"}));
        GameRecord g = game.play(0);  // bad plays black
        EXPECT_EQ(g.failure, Failure::IllegalMove) << flag << ": " << g.reason;
        EXPECT_EQ(g.failedEngine, 1);
        EXPECT_EQ(g.result, xq::GameResult::RED_WINS);
        EXPECT_EQ(g.moves.size(), 3u) << flag;
        if (std::string(flag) == "--nomove-after") {
            // The reason says what the rules saw: moves to play, and how near the move limit the game was.
            EXPECT_NE(g.reason.find(" legal moves on the board, "), std::string::npos) << g.reason;
            EXPECT_NE(g.reason.find(" plies without a capture (the move limit is 120)"), std::string::npos)
                << g.reason;
        }
    }
}

TEST(Game, StallLosesWithoutClock) {
    Game game(mock("good"), mock("stuck", {"--stall-after", "1"}), 300);
    GameRecord g = game.play(0);
    EXPECT_EQ(g.failure, Failure::Stall) << g.reason;
    EXPECT_EQ(g.failedEngine, 1);
    EXPECT_EQ(g.result, xq::GameResult::RED_WINS);
}

TEST(Game, FlagFallLoses) {
    Game game(mock("fast", {}, "st=1"), mock("slow", {"--delay", "300"}, "st=0.1 margin=50"));
    GameRecord g = game.play(0);
    EXPECT_EQ(g.failure, Failure::TimeLoss) << g.reason;
    EXPECT_EQ(g.failedEngine, 1);
    EXPECT_EQ(g.result, xq::GameResult::RED_WINS);
    EXPECT_EQ(g.moves.size(), 1u);
    EXPECT_TRUE(game.b.isStarted());  // it still answers, so it is kept
}

TEST(Game, UnderThePerMoveSystemAnEngineThatIgnoresTheLimitLosesOnceItsBankIsSpent) {
    // 0.2 s a move against a limit of 0.1 s: each move draws 0.1 s from a bank of 0.35 s, so the fourth
    // move of the slow engine (black) finds the bank empty and loses on time.
    Game game(mock("fast", {}, "tc=permove0.1+bank0.35 margin=30"),
              mock("slow", {"--delay", "200"}, "tc=permove0.1+bank0.35 margin=30"));
    GameRecord g = game.play(0);
    EXPECT_EQ(g.failure, Failure::TimeLoss) << g.reason;
    EXPECT_EQ(g.failedEngine, 1);
    EXPECT_EQ(g.result, xq::GameResult::RED_WINS);
    EXPECT_EQ(g.moves.size(), 7u);  // four moves by red, three by black: its fourth came too late
}

TEST(Game, TheSameCheckAndChaseCycleIsADrawUnderAsianRulesAndALossUnderChinese) {
    // Red's rook checks from g9 and chases the cannon on a7 from g7 in turn; black's king steps between e9
    // and e8. The AXF rules call that a draw (not every move checks, nor chases one piece); the Chinese
    // rules forbid one check one chase.
    for (xq::RuleSet rules : {xq::RuleSet::ASIAN, xq::RuleSet::CHINESE}) {
        Game game(mock("red", {"--prefer", "g7g9,g9g7"}, "nodes=1"),
                  mock("black", {"--prefer", "e9e8,e8e9"}, "nodes=1"));
        game.opening = {"4k4/9/c5R2/9/9/9/9/9/9/3K5 w - - 0 1", {}};
        game.adj.rules.ruleSet = rules;
        GameRecord g = game.play(0);
        EXPECT_EQ(g.end, GameEnd::Rules) << g.reason;
        EXPECT_EQ(g.moves.size(), 8u);
        if (rules == xq::RuleSet::ASIAN) {
            EXPECT_EQ(g.result, xq::GameResult::DRAW) << g.reason;
            EXPECT_EQ(g.reason, "repetition");
        } else {
            EXPECT_EQ(g.result, xq::GameResult::BLACK_WINS) << g.reason;
            EXPECT_EQ(g.reason, "perpetual threats (check, chase) by red");
        }
    }
}

TEST(Game, ResignAdjudicationNeedsBothEngines) {
    // Both engines say red leads by 5 pawns: after 3 moves each, black resigns.
    Game game(mock("a", {"--red-score", "500"}), mock("b", {"--red-score", "500"}));
    game.adj.resignScore = 400;
    game.adj.resignMoves = 3;
    GameRecord g = game.play(0);
    EXPECT_EQ(g.end, GameEnd::ResignAdjudication);
    EXPECT_EQ(g.result, xq::GameResult::RED_WINS);
    EXPECT_EQ(g.moves.size(), 6u);
    // Each engine thinks it is winning: no agreement, no resignation.
    Game proud(mock("a", {"--red-score", "500"}), mock("b", {"--red-score", "-500"}));
    proud.adj.resignScore = 400;
    proud.adj.resignMoves = 3;
    proud.adj.maxPlies = 20;
    EXPECT_EQ(proud.play(0).end, GameEnd::MaxLength);
}

TEST(Game, DrawAdjudicationAfterMoveNumber) {
    Game game(mock("a", {"--red-score", "3"}), mock("b", {"--red-score", "3"}));
    game.adj.drawScore = 10;
    game.adj.drawMoves = 2;
    game.adj.drawAfterMove = 5;
    GameRecord g = game.play(0);
    EXPECT_EQ(g.end, GameEnd::DrawAdjudication);
    EXPECT_EQ(g.result, xq::GameResult::DRAW);
    EXPECT_EQ(g.moves.size(), 14u);  // after 5 full moves, 2 more by each side within the bounds
}

TEST(Game, StopAbandons) {
    Game game(mock("a"), mock("b"));
    GameRecord g = game.play(0, [] { return true; });
    EXPECT_EQ(g.end, GameEnd::Abandoned);
    EXPECT_EQ(g.result, xq::GameResult::NONE);
}

TEST(Game, EngineThatCannotStartLoses) {
    Game game(mock("a"), mock("ghost", {"--exit-at-start"}));
    GameRecord g = game.play(0);
    EXPECT_EQ(g.failure, Failure::Crash);
    EXPECT_EQ(g.failedEngine, 1);
    EXPECT_TRUE(game.startFailed[1]);
    EXPECT_FALSE(game.startFailed[0]);
    EXPECT_NE(g.reason.find("could not be started"), std::string::npos) << g.reason;
}

}  // namespace game_test
