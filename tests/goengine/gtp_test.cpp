// The GTP front end as a controller meets it: a real xq-go process over pipes.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "capturego/game.h"
#include "capturego/notation.h"
#include "capturego/position_text.h"
#include "capturego/sgf.h"
#include "goengine/board.h"
#include "gtp_process.h"

namespace gtp_test {

using xq::go::test::GtpProcess;
using namespace xq::go;
namespace cg = xq::capturego;

namespace {

bool isError(const std::optional<std::string>& r) {
    return r && !r->empty() && (*r)[0] == '?';
}

void send(GtpProcess& p, std::initializer_list<const char*> commands) {
    for (const char* c : commands) ASSERT_EQ(p.ask(c).value_or("timeout"), "=") << c;
}

}  // namespace

TEST(GoGtp, AnswersProtocolVersionNameAndVersion) {
    GtpProcess p;
    EXPECT_EQ(GtpProcess::value(p.ask("protocol_version")), "2");
    EXPECT_EQ(GtpProcess::value(p.ask("name")), "xq-go");
    EXPECT_FALSE(GtpProcess::value(p.ask("version")).empty());
}

TEST(GoGtp, EchoesCommandIds) {
    GtpProcess p;
    EXPECT_EQ(p.ask("7 name"), "=7 xq-go");
    EXPECT_EQ(p.ask("12 frobnicate"), "?12 unknown command");
}

TEST(GoGtp, UnknownCommandsAndBadArgumentsGetQuestionMarks) {
    GtpProcess p;
    EXPECT_EQ(p.ask("frobnicate"), "? unknown command");
    EXPECT_TRUE(isError(p.ask("boardsize x")));
    EXPECT_TRUE(isError(p.ask("komi")));
    EXPECT_TRUE(isError(p.ask("play purple C3")));
    EXPECT_TRUE(isError(p.ask("play b Z99")));
    EXPECT_TRUE(isError(p.ask("genmove")));
    EXPECT_TRUE(isError(p.ask("cap 0")));
    EXPECT_TRUE(isError(p.ask("xq-rules chess")));
    EXPECT_TRUE(isError(p.ask("xq-level 21")));
    EXPECT_EQ(GtpProcess::value(p.ask("known_command play")), "true");
    EXPECT_EQ(GtpProcess::value(p.ask("known_command frobnicate")), "false");
    std::string list = GtpProcess::value(p.ask("list_commands"));
    for (const char* c :
         {"genmove", "cap", "xq-rules", "gogui-rules_legal_moves", "gogui-rules_captured_count",
          "gogui-rules_final_result", "time_left", "undo", "showboard"})
        EXPECT_NE(list.find(c), std::string::npos) << c;
}

TEST(GoGtp, BoardSizesOutsideFiveToNineteenAreUnacceptable) {
    GtpProcess p;
    EXPECT_EQ(p.ask("boardsize 4"), "? unacceptable size");
    EXPECT_EQ(p.ask("boardsize 20"), "? unacceptable size");
    send(p, {"boardsize 5"});
    EXPECT_EQ(GtpProcess::value(p.ask("gogui-rules_board_size")), "5");
}

TEST(GoGtp, IllegalPlaysAreRefusedWithTheReason) {
    GtpProcess p;
    send(p, {"boardsize 9", "xq-rules capture", "cap 10", "play b C3"});
    EXPECT_EQ(p.ask("play w C3"), "? illegal move: C3 is occupied");
    send(p, {"play w A2", "play w B1"});
    EXPECT_EQ(p.ask("play b A1"), "? illegal move: A1 is suicide");
    // A ko: Black takes at C2... here with the shape of the board tests.
    send(p, {"clear_board", "play b B1", "play w C1", "play b A2", "play w D2", "play b B3", "play w C3",
             "play w B2", "play b C2"});
    EXPECT_EQ(p.ask("play w B2"), "? illegal move: B2 repeats an earlier position (superko)");
}

TEST(GoGtp, PlayingAfterTheEndIsRefusedAndUndoResumes) {
    GtpProcess p;
    send(p, {"boardsize 9", "play w A1", "play b A2", "play b B1"});
    EXPECT_EQ(GtpProcess::value(p.ask("gogui-rules_final_result")), "B+C");
    EXPECT_EQ(p.ask("play w E5"), "? illegal move: the game is over: black captured 1 stone (target 1)");
    EXPECT_EQ(GtpProcess::value(p.ask("gogui-rules_legal_moves")), "");
    send(p, {"undo"});
    EXPECT_EQ(GtpProcess::value(p.ask("gogui-rules_final_result")), "unknown");
    send(p, {"undo", "undo"});
    EXPECT_EQ(p.ask("undo"), "? cannot undo");
}

TEST(GoGtp, CapSetsTheTargetAndCapturedCountsFollowGoGuisOrder) {
    GtpProcess p;
    send(p, {"boardsize 9", "cap 2", "play w A1", "play b A2", "play b B1"});
    EXPECT_EQ(GtpProcess::value(p.ask("gogui-rules_final_result")), "unknown");
    EXPECT_EQ(GtpProcess::value(p.ask("gogui-rules_captured_count")),
              "0 1");  // black stones lost, white lost
    send(p, {"play w J9", "play b H9", "play b J8"});
    EXPECT_EQ(GtpProcess::value(p.ask("gogui-rules_final_result")), "B+C");
}

TEST(GoGtp, RulerCommandsDescribeTheGame) {
    GtpProcess p;
    send(p, {"boardsize 6", "xq-start crosscut", "clear_board"});
    EXPECT_EQ(GtpProcess::value(p.ask("gogui-rules_game_id")), "Capturego");
    EXPECT_EQ(GtpProcess::value(p.ask("gogui-rules_side_to_move")), "black");
    std::istringstream moves(GtpProcess::value(p.ask("gogui-rules_legal_moves")));
    int count = 0;
    for (std::string m; moves >> m;) ++count;
    EXPECT_EQ(count, 33);  // 32 empty points and the pass
    std::string board = GtpProcess::value(p.ask("gogui-rules_board"));
    EXPECT_NE(board.find(". . O X . ."), std::string::npos) << board;
    EXPECT_NE(board.find(". . X O . ."), std::string::npos) << board;
    std::string shown = GtpProcess::value(p.ask("showboard"));
    EXPECT_NE(shown.find("captures: black 0, white 0"), std::string::npos) << shown;
}

TEST(GoGtp, GenmoveCapturesAtOnceInAtariGo) {
    GtpProcess p;
    send(p, {"boardsize 9"});
    // A plain capture in one: Black to move takes White A1 at B1.
    send(p, {"play w A1", "play b A2", "play w E5"});
    EXPECT_EQ(GtpProcess::value(p.ask("genmove b", 20000)), "B1");
    EXPECT_EQ(GtpProcess::value(p.ask("gogui-rules_final_result")), "B+C");
    EXPECT_EQ(GtpProcess::value(p.ask("genmove w")), "pass");  // the game is over
}

TEST(GoGtp, GenmoveResignsAProvenLoss) {
    GtpProcess p;
    // Two black stones in atari on different liberties: saving one loses the other.
    send(p, {"boardsize 9", "play b A1", "play w A2", "play b J9", "play w H9", "xq-movetime 0.5"});
    EXPECT_EQ(GtpProcess::value(p.ask("genmove b", 20000)), "resign");
    EXPECT_EQ(GtpProcess::value(p.ask("gogui-rules_final_result")), "W+R");
    send(p, {"undo"});
    EXPECT_EQ(GtpProcess::value(p.ask("gogui-rules_final_result")), "unknown");
}

namespace {

// The engine's own report of its last search ("... nodes N time T" on stderr), -1 for a field it did not
// report (a random move of the weaker levels).
double reported(const GtpProcess& p, const std::string& field) {
    const std::string errors = p.errors();
    const std::size_t line = errors.rfind('\n', errors.size() >= 2 ? errors.size() - 2 : 0);
    const std::string last = errors.substr(line == std::string::npos ? 0 : line + 1);
    const std::size_t at = last.find(" " + field + " ");
    return at == std::string::npos ? -1 : std::stod(last.substr(at + field.size() + 2));
}

}  // namespace

// Time is judged on the engine's own clock report, not the test's wall clock, which load alone (the
// sanitizer run on a busy machine) can stretch: an engine that ignored the clock would report more than
// it was given, or not answer within the generous timeouts. The speed figures are in bench/go-gtp-latency.sh.
TEST(GoGtp, GenmoveAnswersWithinTheClock) {
    GtpProcess p({}, true);
    send(p, {"boardsize 13", "time_settings 0 1 1"});  // one second per move, byo-yomi only
    for (const char* c : {"genmove b", "genmove w"}) {
        auto r = p.ask(c, 30000);
        ASSERT_TRUE(r && (*r)[0] == '=') << c;
        const double seconds = reported(p, "time");
        EXPECT_GE(seconds, 0) << p.errors();
        EXPECT_LT(seconds, 1.0) << c;
    }
    // Two seconds of main time left for the whole game: the engine spends at most 40% of what is left.
    send(p, {"time_settings 60 0 0", "time_left b 2 0"});
    auto r = p.ask("genmove b", 30000);
    ASSERT_TRUE(r && (*r)[0] == '=');
    const double seconds = reported(p, "time");
    EXPECT_GE(seconds, 0) << p.errors();
    EXPECT_LT(seconds, 0.8);
}

TEST(GoGtp, ANodeLimitAndLevelsAreHonoured) {
    GtpProcess p({"--level", "3", "--nodes", "500"}, true);
    send(p, {"boardsize 9"});
    Board b(9);
    for (const char* c : {"genmove b", "genmove w", "genmove b", "genmove w"}) {
        std::string m = GtpProcess::value(p.ask(c, 30000));
        EXPECT_TRUE(b.parsePoint(m) != kNoPoint) << m;
        EXPECT_LE(reported(p, "nodes"), 500) << p.errors();  // -1 after a random move of level 3
    }
    send(p, {"xq-level 20", "xq-nodes 2000"});
    EXPECT_NE(GtpProcess::value(p.ask("genmove w", 30000)).find_first_of("ABCDEFGHJ"), std::string::npos);
    EXPECT_GT(reported(p, "nodes"), 500);
    EXPECT_LE(reported(p, "nodes"), 2000);
}

// Whole games through GTP, every answer refereed by the rules library; the engine's ruler commands
// agree with the library at every move.
TEST(GoGtp, EveryEnginePlaysLegalGamesUnderBothRuleSets) {
    for (const char* engine : {"auto", "alphabeta", "mcts", "random-mcts"}) {
        for (const char* rules : {"capture", "go"}) {
            GtpProcess p({"--engine", engine, "--movetime", "0.02"});
            send(p, {"boardsize 5"});
            ASSERT_EQ(p.ask(std::string("xq-rules ") + rules), "=");
            cg::Game game(cg::emptyPosition(
                5, std::string(rules) == "go" ? cg::Rules::go(7.5) : cg::Rules::capture(1)));
            for (int ply = 0; ply < 60 && !game.isOver(); ++ply) {
                std::string legal;
                for (cg::Move m : game.position().legalMoves())
                    legal += (legal.empty() ? "" : " ") + cg::moveName(m);
                ASSERT_EQ(GtpProcess::value(p.ask("gogui-rules_legal_moves")), legal)
                    << engine << " " << rules;
                std::string c = game.toMove() == cg::Color::Black ? "b" : "w";
                std::string m = GtpProcess::value(p.ask("genmove " + c, 5000));
                if (m == "resign") {
                    game.resign(game.toMove());
                    break;
                }
                std::string why;
                ASSERT_TRUE(game.play(cg::parseMove(m, 5), &why))
                    << engine << " " << rules << ": " << m << ": " << why;
                EXPECT_EQ(GtpProcess::value(p.ask("xq-position")), cg::positionText(game.position()));
            }
            std::string result = GtpProcess::value(p.ask("gogui-rules_final_result"));
            EXPECT_EQ(result, game.isOver() ? game.result().sgf() : "unknown") << engine << " " << rules;
        }
    }
}

TEST(GoGtp, TheRuleSetSwitchChangesScoringAndKomi) {
    GtpProcess p;
    send(p, {"boardsize 5", "xq-rules go"});
    EXPECT_EQ(GtpProcess::value(p.ask("xq-position")), "5/5/5/5/5 b 0 0 0 go 7.5");
    send(p, {"play b C3", "play w pass", "play b pass"});
    EXPECT_EQ(GtpProcess::value(p.ask("gogui-rules_final_result")), "B+17.5");  // 25 points against komi
    send(p, {"undo", "komi 30"});
    EXPECT_EQ(GtpProcess::value(p.ask("final_score")), "W+5");
    send(p, {"xq-rules capture"});
    EXPECT_EQ(GtpProcess::value(p.ask("xq-position")), "5/5/2X2/5/5 b 0 0 1 capture:1 0");
    send(p, {"cap 3"});
    EXPECT_EQ(GtpProcess::value(p.ask("xq-position")), "5/5/2X2/5/5 b 0 0 1 capture:3 0");
    send(p, {"xq-rules go", "xq-rules capture"});  // the target is kept across the switch
    EXPECT_EQ(GtpProcess::value(p.ask("xq-position")), "5/5/2X2/5/5 b 0 0 1 capture:3 0");
}

TEST(GoGtp, LevelIsTheSkillLevel) {
    GtpProcess p;
    send(p, {"boardsize 7", "level 0", "xq-level 20", "level 5"});
    EXPECT_TRUE(isError(p.ask("level -1")));
    EXPECT_TRUE(isError(p.ask("level 21")));
    EXPECT_EQ(GtpProcess::value(p.ask("genmove b", 5000)).size(), 2u);
}

TEST(GoGtp, LoadsgfReadsTheLibrarysSgf) {
    cg::Game game(cg::crosscutPosition(6));
    for (const char* m : {"C2", "E3", "B4"}) ASSERT_TRUE(game.play(cg::parseMove(m, 6)));
    const std::string path = ::testing::TempDir() + "xq_go_loadsgf_test.sgf";
    {
        std::ofstream out(path);
        out << cg::writeSgf(game);
    }
    GtpProcess p;
    EXPECT_EQ(GtpProcess::value(p.ask("loadsgf " + path)), "white");
    EXPECT_EQ(GtpProcess::value(p.ask("xq-position")), cg::positionText(game.position()));
    EXPECT_EQ(GtpProcess::value(p.ask("loadsgf " + path + " 2")), "white");
    EXPECT_EQ(GtpProcess::value(p.ask("gogui-rules_board_size")), "6");
    EXPECT_TRUE(isError(p.ask("loadsgf /nonexistent/file.sgf")));
    EXPECT_TRUE(isError(p.ask("loadsgf /dev/zero")));
    std::remove(path.c_str());
}

TEST(GoGtp, TheSolverProvesSmallBoardsOnRequest) {
    GtpProcess p;
    send(p, {"boardsize 5", "xq-start crosscut", "clear_board"});
    std::string r = GtpProcess::value(p.ask("xq-solve", 20000));
    EXPECT_EQ(r.substr(0, 5), "black") << r;
}

TEST(GoGtp, QuitEndsTheProcess) {
    GtpProcess p;
    EXPECT_EQ(p.ask("quit"), "=");
    EXPECT_TRUE(p.waitExit(2000));
}

}  // namespace gtp_test
