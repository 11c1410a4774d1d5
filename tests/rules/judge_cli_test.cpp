// `xq judge --rules`: every public and own repetition case through the real binary, and its errors.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

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
    if (!haveXq()) GTEST_SKIP() << "xq not built";
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
    if (!haveXq()) GTEST_SKIP() << "xq not built";
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
    if (!haveXq()) GTEST_SKIP() << "xq not built";
    Judged r = judge("--rules martian --json --moves h2e2");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("unknown rule set 'martian'"), std::string::npos) << r.out;
}
