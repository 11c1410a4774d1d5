// `xq judge --game chess` through the real binary: perft divide, results of moves in UCI or SAN, errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

namespace {

struct Ran {
    int code = -1;
    std::string out;
};

// Runs `xq judge --game chess ARGS`: its exit code and standard output (standard error goes with it when
// `withErr`).
Ran judgeChess(const std::string& args, bool withErr = false) {
    Ran r;
    std::string cmd = "'" + std::string(XQ_BIN_DIR) + "/xq' judge --game chess " + args +
                      (withErr ? " 2>&1" : " 2>/dev/null");
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return r;
    std::array<char, 4096> buf;
    for (std::size_t n; (n = fread(buf.data(), 1, buf.size(), p)) > 0;) r.out.append(buf.data(), n);
    int status = pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

std::string lastLine(const std::string& s) {
    auto end = s.find_last_not_of('\n');
    if (end == std::string::npos) return "";
    auto start = s.rfind('\n', end);
    return s.substr(start == std::string::npos ? 0 : start + 1,
                    end - (start == std::string::npos ? 0 : start + 1) + 1);
}

}  // namespace

TEST(ChessJudgeCli, PrintsThePerftDivideAndTheTotalLastAsXqEngineDoes) {
    Ran r =
        judgeChess("--fen 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' --perft 3");
    ASSERT_EQ(r.code, 0);
    EXPECT_EQ(lastLine(r.out), "Nodes searched: 97862");
    EXPECT_NE(r.out.find("e1g1: "), std::string::npos) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 48 + 2)
        << "48 first moves, a blank line, the total";
}

TEST(ChessJudgeCli, JudgesMovesInUciOrSan) {
    EXPECT_EQ(judgeChess("--moves 'f2f3 e7e5 g2g4 d8h4'").out, "0-1 checkmate\n");
    EXPECT_EQ(judgeChess("--moves 'f3 e5 g4 Qh4#'").out, "0-1 checkmate\n");
    EXPECT_EQ(judgeChess("--moves 'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8'").out, "1/2-1/2 threefold repetition\n");
    EXPECT_EQ(judgeChess("--moves 'e4 e5'").out, "*\n");
    Ran j = judgeChess("--fen '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1' --json");
    EXPECT_NE(j.out.find("\"reason\":\"stalemate\""), std::string::npos) << j.out;
}

TEST(ChessJudgeCli, NamesTheIllegalMoveAndTheBadFen) {
    Ran r = judgeChess("--moves 'e4 e5 Ke3'", true);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("illegal move 3 (Ke3)"), std::string::npos) << r.out;
    Ran f = judgeChess("--fen '8/8/8 w - - 0 1'", true);
    EXPECT_EQ(f.code, 2);
    EXPECT_NE(f.out.find("bad FEN"), std::string::npos) << f.out;
    Ran rules = judgeChess("--rules chinese", true);
    EXPECT_EQ(rules.code, 2);
    EXPECT_NE(rules.out.find("chess has FIDE's rules"), std::string::npos) << rules.out;
}
