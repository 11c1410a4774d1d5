// `xq judge --rules`: every public and own repetition case through the real binary, and its errors.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "oracle.h"
#include "reference_data.h"

namespace {

struct Judged {
    int code = -1;
    std::string out;
};

std::string quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Runs `xq judge ARGS` and returns its exit code and standard output (standard error is dropped).
Judged judge(const std::string& args) {
    const std::string xq = std::string(XQ_BIN_DIR) + "/xq";
    Judged r;
    FILE* p = popen((quote(xq) + " judge " + args + " 2>/dev/null").c_str(), "r");
    if (!p) return r;
    std::array<char, 4096> buf;
    for (std::size_t n; (n = fread(buf.data(), 1, buf.size(), p)) > 0;) r.out.append(buf.data(), n);
    int status = pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

bool haveXq() {
    return std::filesystem::exists(std::string(XQ_BIN_DIR) + "/xq");
}

}  // namespace

TEST(JudgeCli, AgreesWithEveryRepetitionCaseUnderItsRuleSet) {
    XQ_REQUIRE_ORACLE(haveXq(), "xq not built");
    int checked = 0;
    for (const char* file : {"repetition_public.txt", "repetition_rules.txt"})
        for (const auto& c : xq::testdata::ruleCases(file)) {
            Judged r = judge("--rules " + c.rules + " --fen " + quote(c.fen) + " --moves " + quote(c.moves));
            EXPECT_EQ(r.code, 0) << c.fen;
            EXPECT_EQ(r.out.substr(0, c.result.size()), c.result)
                << "xq judge --rules " << c.rules << " --fen '" << c.fen << "' --moves '" << c.moves
                << "' said " << r.out << "(" << c.note << ")";
            ++checked;
        }
    EXPECT_GE(checked, 174);
}

TEST(JudgeCli, NamesTheRuleSetAndItsMoveLimitInJson) {
    XQ_REQUIRE_ORACLE(haveXq(), "xq not built");
    // 40 moves each without a capture: the Chinese limit, not the AXF one.
    const std::string fen = quote("3k5/9/9/9/9/9/9/4R4/9/4K4 w - - 79 80");
    Judged chinese = judge("--rules chinese --json --fen " + fen + " --moves e2f2");
    EXPECT_NE(chinese.out.find("\"reason\":\"move limit\""), std::string::npos) << chinese.out;
    EXPECT_NE(chinese.out.find("\"rules\":\"chinese\""), std::string::npos) << chinese.out;
    Judged asian = judge("--json --fen " + fen + " --moves e2f2");
    EXPECT_NE(asian.out.find("\"result\":\"*\""), std::string::npos) << asian.out;
    EXPECT_NE(asian.out.find("\"rules\":\"asian\""), std::string::npos) << asian.out;
}

TEST(JudgeCli, AnUnknownRuleSetIsAnErrorThatNamesIt) {
    XQ_REQUIRE_ORACLE(haveXq(), "xq not built");
    Judged r = judge("--rules martian --json --moves h2e2");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("unknown rule set 'martian'"), std::string::npos) << r.out;
}

TEST(JudgeCli, RejudgesAPgnFileUnderItsOwnOrAnotherRuleSet) {
    XQ_REQUIRE_ORACLE(haveXq(), "xq not built");
    // One check one chase, recorded as the AXF rules' draw; the Chinese rules call it a loss for red.
    const std::string path = ::testing::TempDir() + "xq_judge_cli.pgn";
    std::ofstream(path)
        << "[Event \"t\"]\n[Red \"r\"]\n[Black \"b\"]\n[Result \"1/2-1/2\"]\n[Rules \"asian\"]\n"
           "[FEN \"4k4/9/c5R2/9/9/9/9/9/9/3K5 w - - 0 1\"]\n\n"
           "1. g7g9 e9e8 2. g9g7 e8e9 3. g7g9 e9e8 4. g9g7 e8e9 {repetition} 1/2-1/2\n\n"
           "[Event \"t\"]\n[Red \"r\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. h2e2 zz 1-0\n";
    Judged own = judge("--pgn " + quote(path));
    EXPECT_EQ(own.code, 2);  // the second game cannot be replayed
    EXPECT_NE(own.out.find("game 1 r vs b: recorded 1/2-1/2, the asian rules say 1/2-1/2 repetition\n"),
              std::string::npos)
        << own.out;
    EXPECT_NE(own.out.find("2 games: 1 agree, 0 differ, 0 not decided by the rules, 1 cannot be replayed"),
              std::string::npos)
        << own.out;
    Judged chinese = judge("--pgn " + quote(path) + " --rules chinese --json");
    EXPECT_NE(chinese.out.find("\"differ\":1"), std::string::npos) << chinese.out;
    EXPECT_NE(chinese.out.find("\"reason\":\"perpetual threats (check, chase) by red\""), std::string::npos);
    EXPECT_NE(chinese.out.find("\"error\":\"illegal move 2 (zz)"), std::string::npos) << chinese.out;
    std::remove(path.c_str());
}
