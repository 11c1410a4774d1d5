// `xq sprt` as a user runs it: the built binary, its stdout, stderr and exit code.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "oracle.h"
#include "sprt.h"

namespace sprt_cli_test {

namespace {

namespace fs = std::filesystem;

struct CliResult {
    int exitCode;
    std::string out, err;
};

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

class XqSprt : public ::testing::Test {
  protected:
    void SetUp() override {
        binary_ = fs::path(XQ_BIN_DIR) / "xq";
        // The xq binary links the whole tree; this test cannot run before the tree builds.
        XQ_REQUIRE_ORACLE(fs::exists(binary_), binary_ << " is not built (ninja xq)");
        dir_ = fs::temp_directory_path() / ("xq_sprt_cli_" + std::to_string(::getpid()));
        fs::create_directories(dir_);
    }
    void TearDown() override {
        if (!dir_.empty()) fs::remove_all(dir_);
    }

    CliResult run(const std::string& args) {
        const fs::path out = dir_ / "out", err = dir_ / "err";
        std::string cmd = "'" + binary_.string();
        cmd += "' sprt " + args;
        cmd += " >'" + out.string() + "'";
        cmd += " 2>'" + err.string() + "'";
        const int status = std::system(cmd.c_str());
        return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    }

    void expectError(const std::string& args, const std::string& messagePart) {
        const CliResult r = run(args);
        EXPECT_EQ(r.exitCode, 2) << args << "\n" << r.err;
        EXPECT_NE(r.err.find(messagePart), std::string::npos) << args << "\nstderr: " << r.err;
        EXPECT_EQ(r.out, "") << args;
    }

    fs::path binary_, dir_;
};

TEST_F(XqSprt, PentanomialJsonMatchesFishtest) {
    const CliResult r = run("--penta 100,2600,6100,3150,150 --elo0 0 --elo1 2 --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_NEAR(j.at("llr").get<double>(), 6.685197881585151, 1e-6);
    EXPECT_NEAR(j.at("lower_bound").get<double>(), -2.9444389791664403, 1e-12);
    EXPECT_NEAR(j.at("upper_bound").get<double>(), 2.9444389791664403, 1e-12);
    EXPECT_EQ(j.at("decision"), "H1");
    EXPECT_EQ(j.at("games"), 24200);
    EXPECT_EQ(j.at("pairs"), 12100);
    EXPECT_EQ(j.at("model"), "normalized");
    xq::stats::Penta p;
    p.pairs = {100, 2600, 6100, 3150, 150};
    const auto e = xq::stats::elo(p);
    EXPECT_NEAR(j.at("elo").get<double>(), e.elo, 1e-9);
    EXPECT_NEAR(j.at("elo_error").get<double>(), e.eloError, 1e-9);
    EXPECT_NEAR(j.at("nelo").get<double>(), e.nelo, 1e-9);
    EXPECT_NEAR(j.at("los").get<double>(), e.los, 1e-12);
    // fishtest's stopping-rule-corrected estimate for SPRT results (see sprt_elo_test.cpp).
    EXPECT_NEAR(j.at("sprt_elo").get<double>(), 9.155825865389463, 1e-6);
    EXPECT_NEAR(j.at("sprt_elo_lower").get<double>(), 5.661110624270155, 1e-6);
    EXPECT_NEAR(j.at("sprt_elo_upper").get<double>(), 12.660514426354926, 1e-6);
}

TEST_F(XqSprt, TrinomialLogisticHumanOutput) {
    const CliResult r = run("--wdl 716,2163,591 --elo0 0 --elo1 5 --model logistic");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("LLR: 3.83 (-2.94, 2.94) [0.00, 5.00] logistic"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("H1 accepted"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Games: 3470"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("LOS: 99.97%"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("SPRT Elo: 11.68 [3.39, 19.93]"), std::string::npos) << r.out;
}

TEST_F(XqSprt, UndecidedAndFailingTests) {
    CliResult r = run("--penta 10,260,610,315,15 --elo0 0 --elo1 2 --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j.at("decision"), "continue");
    EXPECT_GT(j.at("expected_games_left").get<double>(), 0);

    r = run("--penta 150,3150,6100,2600,100 --elo0 0 --elo1 2");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("H0 accepted"), std::string::npos) << r.out;

    r = run("--wdl 0,1,0 --elo0=-3 --elo1=1 --alpha 0.01 --beta 0.1 --json");  // a single draw
    ASSERT_EQ(r.exitCode, 0) << r.err;
    j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j.at("decision"), "continue");
    EXPECT_NEAR(j.at("lower_bound").get<double>(), std::log(0.1 / 0.99), 1e-12);
    EXPECT_NEAR(j.at("upper_bound").get<double>(), std::log(0.9 / 0.01), 1e-12);
}

TEST_F(XqSprt, BadInputGetsAClearError) {
    expectError("--wdl 716,2163 --elo0 0 --elo1 5", "expects 3 comma-separated counts");
    expectError("--penta 1,2,3,4 --elo0 0 --elo1 5", "expects 5 comma-separated counts");
    expectError("--wdl 716,-2,591 --elo0 0 --elo1 5", "'-2' is negative");
    expectError("--wdl 716,x,591 --elo0 0 --elo1 5", "'x' is not a whole number");
    expectError("--wdl 716,1.5,591 --elo0 0 --elo1 5", "'1.5' is not a whole number");
    expectError("--wdl 1,2,3 --elo0 2 --elo1 2", "elo0 must be smaller than elo1");
    expectError("--wdl 1,2,3 --elo0 0 --elo1 abc", "--elo1: 'abc' is not a number");
    expectError("--wdl 1,2,3 --elo0 0 --elo1 5 --alpha 1.5", "alpha must be in (0, 1)");
    expectError("--wdl 1,2,3 --elo0 0 --elo1 5 --beta 0", "beta must be in (0, 1)");
    expectError("--wdl 1,2,3 --elo0 0 --elo1 5 --model bayes", "unknown Elo model 'bayes'");
    expectError("--elo0 0 --elo1 5", "give exactly one of");
    expectError("--wdl 1,2,3 --penta 1,2,3,4,5 --elo0 0 --elo1 5", "give exactly one of");
    expectError("--penta 1,2,3,4,5 --elo0 0 --elo1 900", "normalized Elo bounds must lie within +-200");

    const CliResult r = run("--wdl 1,2 --elo0 0 --elo1 5 --json");  // scripts get the error as JSON too
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(nlohmann::json::parse(r.out).at("error").get<std::string>().find("expects 3"),
              std::string::npos);
}

}  // namespace

}  // namespace sprt_cli_test
