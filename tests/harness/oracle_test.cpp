// tests/oracle.h as the suite relies on it: a test whose oracle (an installed program or a built binary)
// is missing skips in a developer's partial build, and fails when XQ_REQUIRE_ORACLES is set, as
// scripts/test.sh (and so CI) sets it; a test whose oracle is there runs either way.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace oracle_test {

struct ProbeRun {
    int code = -1;
    std::string out;
};

ProbeRun runProbe(const std::string& env) {
    std::string cmd = "env -u XQ_REQUIRE_ORACLES " + env + " " + XQ_BIN_DIR + "/oracle-probe 2>&1";
    ProbeRun r;
    FILE* p = popen(cmd.c_str(), "r");
    if (p == nullptr) return r;
    std::array<char, 4096> buf{};
    while (std::size_t n = fread(buf.data(), 1, buf.size(), p)) r.out.append(buf.data(), n);
    int status = pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

TEST(Oracle, AMissingOracleSkipsItsTestInAPartialBuild) {
    ProbeRun r = runProbe("");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("[  SKIPPED ] OracleProbe.NeedsAProgramThatIsNotInstalled"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("[       OK ] OracleProbe.HasItsOracle"), std::string::npos) << r.out;
}

TEST(Oracle, AMissingOracleFailsItsTestWhenOraclesAreRequired) {
    for (const char* value : {"1", "yes"}) {
        ProbeRun r = runProbe(std::string("XQ_REQUIRE_ORACLES=") + value);
        EXPECT_NE(r.code, 0) << r.out;
        EXPECT_NE(r.out.find("[  FAILED  ] OracleProbe.NeedsAProgramThatIsNotInstalled"), std::string::npos)
            << r.out;
        EXPECT_NE(r.out.find("required, missing: the probe's engine (/nonexistent/oracle-probe-engine)"),
                  std::string::npos)
            << r.out;
        EXPECT_EQ(r.out.find("unreachable"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("[       OK ] OracleProbe.HasItsOracle"), std::string::npos) << r.out;
    }
}

TEST(Oracle, ZeroOrEmptyDoesNotRequireOracles) {
    for (const char* value : {"0", ""}) {
        ProbeRun r = runProbe(std::string("XQ_REQUIRE_ORACLES=") + value);
        EXPECT_EQ(r.code, 0) << value << ": " << r.out;
        EXPECT_NE(r.out.find("[  SKIPPED ]"), std::string::npos) << r.out;
    }
}

TEST(Oracle, TheTestScriptRequiresOracles) {
    // scripts/test.sh is what CI runs: it must export the variable before ctest.
    FILE* f = std::fopen(XQ_SOURCE_DIR "/scripts/test.sh", "r");
    ASSERT_NE(f, nullptr);
    std::string text;
    std::array<char, 4096> buf{};
    while (std::size_t n = std::fread(buf.data(), 1, buf.size(), f)) text.append(buf.data(), n);
    std::fclose(f);
    std::size_t exported = text.find("export XQ_REQUIRE_ORACLES=1");
    ASSERT_NE(exported, std::string::npos);
    EXPECT_LT(exported, text.find("\nctest --test-dir")) << "set before the suite runs";
}

}  // namespace oracle_test
