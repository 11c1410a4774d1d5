// `xq-go solve` as a user runs it: the real process, its verdict with nodes and time, the start positions
// it takes (crosscut, empty, position text, an SGF file of the rules library) and its errors.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "capturego/game.h"
#include "capturego/notation.h"
#include "capturego/position_text.h"
#include "capturego/sgf.h"

namespace solve_command_test {

namespace cg = xq::capturego;

namespace {

struct SolveRun {
    int status = -1;
    std::string out;
};

// Runs xq-go with the arguments (shell-quoted by the caller), stdout captured, stderr dropped.
SolveRun solve(const std::string& args) {
    SolveRun r;
    std::string command = std::string(XQ_GO_BINARY) + " solve " + args + " 2>/dev/null";
    FILE* p = popen(command.c_str(), "r");
    if (!p) return r;
    char buf[4096];
    for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
    int status = pclose(p);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

bool has(const SolveRun& r, const std::string& text) {
    return r.out.find(text) != std::string::npos;
}

}  // namespace

TEST(GoSolveCommand, ProvesTheSixBySixCrosscutWithNodesAndTime) {
    SolveRun r = solve("--size 6 --start crosscut --target 1 --hash 64 --quiet");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_TRUE(has(r, "size 6x6, start crosscut, rules capture:1, komi 0")) << r.out;
    EXPECT_TRUE(has(r, "..OX..\n..XO..")) << r.out;
    EXPECT_TRUE(has(r, "result: win for black")) << r.out;
    EXPECT_TRUE(has(r, "nodes: ")) << r.out;
    EXPECT_TRUE(has(r, "time: ")) << r.out;
}

TEST(GoSolveCommand, JsonOutput) {
    SolveRun r = solve("--size 5 --start crosscut --json --quiet --hash 16");
    EXPECT_EQ(r.status, 0);
    EXPECT_TRUE(has(r, "\"solved\": true, \"result\": \"black\"")) << r.out;
}

TEST(GoSolveCommand, PositionTextAndSgfGiveTheSameVerdict) {
    cg::Game game(cg::crosscutPosition(5));
    for (const char* m : {"D2", "C1", "B1", "D1", "E2"}) ASSERT_TRUE(game.play(cg::parseMove(m, 5)));
    const std::string path = ::testing::TempDir() + "xq_go_solve_test.sgf";
    {
        std::ofstream out(path);
        out << cg::writeSgf(game);
    }
    SolveRun fromSgf = solve("--start " + path + " --quiet --hash 16");
    SolveRun fromText = solve("--start '" + cg::positionText(game.position()) + "' --quiet --hash 16");
    std::remove(path.c_str());
    ASSERT_EQ(fromSgf.status, 0) << fromSgf.out;
    ASSERT_EQ(fromText.status, 0) << fromText.out;
    auto verdict = [](const std::string& out) {
        return out.substr(out.find("result:"), out.find("nodes:") - out.find("result:"));
    };
    EXPECT_EQ(verdict(fromSgf.out), verdict(fromText.out));
    EXPECT_TRUE(has(fromSgf, "white to move")) << fromSgf.out;
}

TEST(GoSolveCommand, AnEndedGameIsNotSearched) {
    SolveRun r = solve("--start 'XO3/5/5/5/5 b 0 0 2 capture:1 0' --quiet");
    EXPECT_EQ(r.status, 0);
    EXPECT_TRUE(has(r, "the game is over: two passes")) << r.out;
    EXPECT_TRUE(has(r, "result: draw")) << r.out;
}

TEST(GoSolveCommand, BadArgumentsAreErrors) {
    for (const char* args :
         {"--size 9", "--size 6 --start nowhere.sgf", "--size x", "--size 6 --rules chess",
          "--size 6 --target 0", "--size 6 --komi 0.3", "--start '5/5/5/5 b 0 0 0 capture:1 0'",
          "--size 6 --frobnicate", "--size 6 --hash 0"})
        EXPECT_EQ(solve(args).status, 2) << args;
}

}  // namespace solve_command_test
