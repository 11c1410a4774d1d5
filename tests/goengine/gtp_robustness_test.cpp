// Bad input to a real xq-go process: malformed commands, absurd arguments, random bytes and random
// command streams. Every line gets an answer ("=" or "?") in time and the process stays alive.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "gtp_process.h"

namespace gtp_robustness_test {

using xq::go::test::GtpProcess;

namespace {

bool answered(const std::optional<std::string>& r) {
    return r && !r->empty() && ((*r)[0] == '=' || (*r)[0] == '?');
}
bool isError(const std::optional<std::string>& r) {
    return r && !r->empty() && (*r)[0] == '?';
}

}  // namespace

TEST(GoGtpRobustness, MalformedCommandsGetErrors) {
    GtpProcess p({"--movetime", "0.05"});
    for (const char* c : {"boardsize",
                          "boardsize 99999999999999999999999",
                          "boardsize -5",
                          "boardsize 5.5",
                          "komi",
                          "komi nan",
                          "komi inf",
                          "komi 1e400",
                          "komi 0.3",
                          "play",
                          "play b",
                          "play b I5",
                          "play b A0",
                          "play b A99999999999",
                          "play x A1",
                          "play b resign",
                          "genmove",
                          "genmove x",
                          "time_settings",
                          "time_settings -1 0 0",
                          "time_settings 1 2",
                          "time_left b x 0",
                          "time_left q 1 0",
                          "cap",
                          "cap -1",
                          "cap 99999999999999",
                          "xq-rules",
                          "xq-rules chess",
                          "xq-start middle",
                          "xq-engine",
                          "xq-engine stockfish",
                          "level",
                          "level x",
                          "xq-nodes -3",
                          "xq-movetime",
                          "xq-movetime 1e300",
                          "xq-movetime nan",
                          "xq-movetime -1",
                          "xq-solve x",
                          "xq-solve 100000",
                          "loadsgf",
                          "loadsgf /",
                          "loadsgf /dev/zero",
                          "loadsgf /etc/hostname 0",
                          "undo",
                          "frobnicate",
                          "= 1",
                          "? 2",
                          "12345678901234567890 name"})
        EXPECT_TRUE(isError(p.ask(c, 5000))) << c;
    EXPECT_EQ(GtpProcess::value(p.ask("name")), "xq-go");
}

TEST(GoGtpRobustness, LongLinesControlCharactersAndCommentsAreHandled) {
    GtpProcess p;
    EXPECT_TRUE(isError(p.ask(std::string(200000, 'x'))));
    EXPECT_TRUE(isError(p.ask("play b " + std::string(100000, '9'))));
    EXPECT_EQ(GtpProcess::value(p.ask(std::string("na\x01me\r"))), "xq-go");  // control characters dropped
    EXPECT_EQ(GtpProcess::value(p.ask("\tname   # a comment")), "xq-go");
    EXPECT_TRUE(isError(p.ask(std::string("name\0garbage", 12))));  // "namegarbage"
    EXPECT_EQ(p.ask("# only a comment\nname"), "= xq-go");          // the comment line gets no answer
}

// Random bytes, then random commands from the GTP vocabulary with random arguments: never a crash,
// never a hang, always an answer.
TEST(GoGtpRobustness, RandomInputNeverCrashesOrHangs) {
    std::mt19937_64 rng(44);
    GtpProcess p({"--movetime", "0.02"});
    for (int i = 0; i < 200; ++i) {
        std::string line;
        int n = int(rng() % 40) + 1;
        for (int k = 0; k < n; ++k) {
            char c = char(rng() % 256);
            if (c == '\n' || c == '#') c = ' ';
            line += c;
        }
        line += " x";  // never a blank or comment-only line, which gets no answer
        auto r = p.ask(line, 5000);
        ASSERT_TRUE(answered(r)) << "line " << i;
    }
    const std::vector<std::string> commands = {"boardsize",
                                               "clear_board",
                                               "komi",
                                               "play",
                                               "genmove",
                                               "undo",
                                               "time_settings",
                                               "time_left",
                                               "cap",
                                               "xq-rules",
                                               "xq-start",
                                               "showboard",
                                               "final_score",
                                               "gogui-rules_legal_moves",
                                               "gogui-rules_final_result",
                                               "gogui-rules_captured_count",
                                               "gogui-rules_board",
                                               "xq-position",
                                               "level",
                                               "xq-engine",
                                               "known_command"};
    const std::vector<std::string> words = {
        "b",    "w",        "black", "white", "A1",          "C3",        "E5",   "J9",  "T19",
        "pass", "5",        "6",     "7",     "9",           "0",         "-1",   "2.5", "capture",
        "go",   "crosscut", "empty", "mcts",  "random-mcts", "alphabeta", "1000", "x"};
    int ok = 0;
    for (int i = 0; i < 1500; ++i) {
        std::string line = commands[rng() % commands.size()];
        if (line == "boardsize" && rng() % 3) {  // keep boards small: genmove stays quick
            line += " " + std::to_string(5 + rng() % 3);
        } else {
            for (int k = int(rng() % 4); k > 0; --k) line += " " + words[rng() % words.size()];
        }
        auto r = p.ask(line, 10000);
        ASSERT_TRUE(answered(r)) << line;
        ok += (*r)[0] == '=';
    }
    EXPECT_GT(ok, 300);
    EXPECT_EQ(GtpProcess::value(p.ask("name")), "xq-go");
    EXPECT_EQ(p.ask("quit"), "=");
    EXPECT_TRUE(p.waitExit(2000));
}

}  // namespace gtp_robustness_test
