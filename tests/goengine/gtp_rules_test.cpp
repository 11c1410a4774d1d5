// The GTP front end across the game's history and rule changes, through a real xq-go process: xq-solve
// under superko, and what genmove may keep (or must forget) when cap, komi or xq-rules change the rules.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "gtp_process.h"

namespace gtp_rules_test {

using xq::go::test::GtpProcess;

namespace {

void send(GtpProcess& p, std::initializer_list<const char*> commands) {
    for (const char* c : commands) ASSERT_EQ(p.ask(c).value_or("timeout"), "=") << c;
}

// 5x5, target 2. White has captured E5; Black has just taken a ko at C2 (capturing B2). Each side has
// one capture: White's retake at B2 would capture the second stone and win, but it repeats the position
// before Black's take, and superko forbids it.
void koWithTheWinningRetakeForbidden(GtpProcess& p) {
    send(p, {"boardsize 5", "cap 2", "play b E5", "play w D5", "play w E4", "play b A2", "play b B3",
             "play b B1", "play w D2", "play w C3", "play w C1", "play w B2", "play b C2"});
}

}  // namespace

TEST(GoGtpRules, XqSolveKnowsTheGameSoFarAndNeverNamesAForbiddenKoRetake) {
    GtpProcess p;
    koWithTheWinningRetakeForbidden(p);
    ASSERT_EQ(p.ask("play w B2").value_or("timeout"),
              "? illegal move: B2 repeats an earlier position (superko)");
    const std::string answer = GtpProcess::value(p.ask("xq-solve 3", 30000));
    ASSERT_EQ(answer.find('<'), std::string::npos) << answer;
    EXPECT_NE(answer, "white B2");
    // Whatever it names is a move `play` accepts.
    if (const std::size_t space = answer.find(' '); space != std::string::npos) {
        const std::string move = answer.substr(space + 1);
        const std::string colour = answer.substr(0, space) == "black" ? "b" : "w";
        EXPECT_EQ(p.ask("play " + colour + " " + move).value_or("timeout"), "=") << answer;
    }
}

// After a rule change genmove answers as a process that had the new rules from the start: tables proven
// under the old rules are gone. Each game below is lost under its first rules, which the first genmove
// proves (resign); the node limit makes the searches repeatable. Before, the stale proofs came back at
// once and the engine resigned a game that is not lost under the new rules.
TEST(GoGtpRules, ARuleChangeForgetsWhatTheEngineProvedUnderTheOldRules) {
    struct Case {
        const char* moves;
        const char* colour;
        const char* change;
    };
    const Case cases[] = {
        {"A3 E1 D2 E3 C4 E5 C2 B1 A2", "w", "cap 3"},  // Atari Go, then target 3
        {"C3 A1 E1 C2 C5 A4 D5 C1", "b", "komi 6"},    // Atari Go with komi 0, then 6
    };
    const std::vector<std::string> options = {"--no-solver", "--engine", "alphabeta", "--nodes", "100000"};
    for (const Case& c : cases) {
        std::vector<std::string> play;
        std::istringstream moves(c.moves);
        int i = 0;
        for (std::string m; moves >> m; ++i) play.push_back(std::string(i % 2 ? "play w " : "play b ") + m);
        GtpProcess changed(options), fresh(options);
        for (GtpProcess* p : {&changed, &fresh}) ASSERT_EQ(p->ask("boardsize 5").value_or("timeout"), "=");
        for (const std::string& m : play) ASSERT_EQ(changed.ask(m).value_or("timeout"), "=") << m;
        ASSERT_EQ(GtpProcess::value(changed.ask(std::string("genmove ") + c.colour, 60000)), "resign")
            << c.moves;
        ASSERT_EQ(changed.ask("undo").value_or("timeout"), "=");
        ASSERT_EQ(changed.ask(c.change).value_or("timeout"), "=");
        ASSERT_EQ(fresh.ask(c.change).value_or("timeout"), "=");
        for (const std::string& m : play) ASSERT_EQ(fresh.ask(m).value_or("timeout"), "=") << m;
        const std::string want = GtpProcess::value(fresh.ask(std::string("genmove ") + c.colour, 60000));
        EXPECT_NE(want, "resign") << c.moves << ", " << c.change;
        EXPECT_EQ(GtpProcess::value(changed.ask(std::string("genmove ") + c.colour, 60000)), want)
            << c.moves << ", " << c.change;
    }
}

// Under target 2 the alpha-beta search's proof ignores which positions superko bans, so it does not
// resign on it; under Atari Go, where nothing can repeat, it does.
TEST(GoGtpRules, NoResignationOnAProofSuperkoCouldOverturn) {
    GtpProcess p({"--no-solver", "--engine", "alphabeta", "--nodes", "100000"});
    send(p, {"boardsize 5", "cap 2", "play b D4", "play w A5", "play b A3", "play w E1", "play b A1",
             "play w C5", "play b A4", "play w C3", "play b C1", "play w E3", "play b C2"});
    const std::string move = GtpProcess::value(p.ask("genmove w", 60000));
    EXPECT_NE(move, "resign");
    EXPECT_NE(move.find_first_of("ABCDE"), std::string::npos) << move;
    send(p, {"boardsize 5", "cap 1", "play b A1", "play w A2", "play b E5", "play w D5"});
    EXPECT_EQ(GtpProcess::value(p.ask("genmove b", 60000)), "resign");
}

}  // namespace gtp_rules_test
