// The GTP front end across the game's history and rule changes, through a real xq-go process: xq-solve
// under superko, and what genmove may keep (or must forget) when cap, komi or xq-rules change the rules.
#include <gtest/gtest.h>

#include <string>

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

}  // namespace gtp_rules_test
