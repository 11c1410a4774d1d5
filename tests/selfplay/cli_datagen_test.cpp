// `xq datagen` and `xq data export|stats` as a user runs them (skipped when `xq` is not built).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "dataset.h"
#include "oracle.h"
#include "xiangqi/position.h"

namespace xq::tuner {
namespace cli_datagen_test {

const std::string Xq = std::string(XQ_BIN_DIR) + "/xq";
const std::string Engine = std::string(XQ_BIN_DIR) + "/xq-engine";
const std::string Mid = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1";

struct CliRun {
    int code;
    std::string out, err;
};

CliRun run(const std::string& args) {
    auto dir = std::filesystem::temp_directory_path() / ("xq_cli_datagen_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::string errPath = (dir / "stderr.txt").string();
    std::string cmd = Xq + " " + args + " 2>" + errPath;
    CliRun r{-1, "", ""};
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return r;
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) r.out.append(buf, n);
    int status = pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream in(errPath);
    r.err.assign(std::istreambuf_iterator<char>(in), {});
    return r;
}

std::string tempPath(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() / ("xq_cli_datagen_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

TEST(CliDatagenTest, ExportMergesDeduplicatesAndCounts) {
    XQ_REQUIRE_ORACLE(std::filesystem::exists(Xq), "no xq at " << Xq);
    std::string dir = tempPath("shards");
    std::filesystem::create_directories(dir);
    {
        DataWriter a(dir + "/a.txt.gz");
        a.write({Position::StartFEN, 1.0f});
        a.write({Mid, 0.5f});
        DataWriter b(dir + "/b.txt");
        b.write({Mid, 0.0f});  // the same position again: dropped
        // Same position with other move counters: the same Zobrist key, dropped.
        b.write({"r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 9", 0.0f});
        b.write({"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1", 0.0f});
    }
    std::string out = tempPath("all.txt");
    CliRun r = run("data export " + dir + " --out " + out + " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["files"], 2);
    EXPECT_EQ(j["positions"], 3);
    EXPECT_EQ(j["duplicates"], 2);
    EXPECT_EQ(j["red_wins"], 1);
    EXPECT_EQ(j["draws"], 1);
    EXPECT_EQ(j["black_wins"], 1);
    auto ps = readDataFile(out);
    ASSERT_EQ(ps.size(), 3u);
    EXPECT_EQ(ps[0].fen, Position::StartFEN);

    CliRun stats = run("data stats " + out + " --json");
    ASSERT_EQ(stats.code, 0) << stats.err;
    EXPECT_EQ(nlohmann::json::parse(stats.out)["positions"], 3);
}

TEST(CliDatagenTest, BadDataNamesFileAndLine) {
    XQ_REQUIRE_ORACLE(std::filesystem::exists(Xq), "no xq at " << Xq);
    std::string bad = tempPath("bad.txt");
    std::ofstream(bad) << Mid << " ; 1.0\n" << Mid << " ; maybe\n";
    CliRun r = run("data export " + bad + " --out " + tempPath("x.txt"));
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find(bad + ":2: bad result 'maybe'"), std::string::npos) << r.err;
    CliRun missing = run("data stats " + tempPath("nope.txt"));
    EXPECT_EQ(missing.code, 1);
    EXPECT_NE(missing.err.find("no such file"), std::string::npos) << missing.err;
}

TEST(CliDatagenTest, DatagenWritesWhatItReports) {
    XQ_REQUIRE_ORACLE(std::filesystem::exists(Xq) && std::filesystem::exists(Engine), "xq or xq-engine");
    std::string out = tempPath("dg.txt.gz");
    CliRun r = run("datagen --engine " + Engine + " --games 3 --nodes 200 --out " + out +
                   " --concurrency 2 --sample-rate 1 --max-plies 80 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["games"], 3);
    EXPECT_GT(j["positions"].get<long>(), 10);
    EXPECT_EQ(long(readDataFile(out).size()), j["positions"].get<long>());
    EXPECT_NE(r.err.find("done: games 3/3"), std::string::npos) << r.err;

    CliRun bad = run("datagen --engine /nonexistent --games 1 --nodes 10 --out " + tempPath("never.txt"));
    EXPECT_EQ(bad.code, 1);
    EXPECT_NE(bad.err.find("xq datagen:"), std::string::npos) << bad.err;
    CliRun badOption = run("datagen --engine " + Engine + " --games 1 --nodes 10 --option NoEquals --out " +
                           tempPath("never2.txt"));
    EXPECT_EQ(badOption.code, 2);
    EXPECT_NE(badOption.err.find("NAME=VALUE"), std::string::npos) << badOption.err;
}

TEST(CliDatagenTest, TheChineseRulesJudgeTheGamesAndAnUnknownRuleSetIsRefused) {
    XQ_REQUIRE_ORACLE(std::filesystem::exists(Xq) && std::filesystem::exists(Engine), "xq or xq-engine");
    std::string out = tempPath("dg-chinese.txt");
    CliRun r = run("datagen --engine " + Engine + " --games 2 --nodes 200 --out " + out +
                   " --sample-rate 1 --max-plies 60 --rules chinese --json");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["games"], 2);
    CliRun bad =
        run("datagen --engine " + Engine + " --games 1 --nodes 10 --rules axf --out " + tempPath("no.txt"));
    EXPECT_NE(bad.code, 0);
    EXPECT_NE(bad.err.find("unknown rule set 'axf'"), std::string::npos) << bad.err;
}

TEST(CliDatagenTest, ChessDataFromStockfishExportsDeduplicatedAndRefusesXiangqiRules) {
    ASSERT_TRUE(std::filesystem::exists("/usr/games/stockfish")) << "stockfish is not installed";
    std::string out = tempPath("dg-chess.txt");
    CliRun r = run(
        "datagen --game chess --engine /usr/games/stockfish --option Hash=8 --games 2 --nodes 300 --out " +
        out + " --sample-rate 1 --max-plies 80 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["games"], 2);
    const auto positions = readDataFile(out);
    ASSERT_GT(positions.size(), 10u);
    EXPECT_EQ(long(positions.size()), j["positions"].get<long>());
    // The same file twice: export keeps each chess position once.
    std::string merged = tempPath("dg-chess-merged.txt");
    CliRun ex = run("data export " + out + " " + out + " --out " + merged + " --json");
    ASSERT_EQ(ex.code, 0) << ex.err;
    EXPECT_EQ(readDataFile(merged).size(), positions.size());

    CliRun bad =
        run("datagen --game chess --engine /usr/games/stockfish --games 1 --nodes 10 --rules chinese --out " +
            tempPath("no-chess.txt"));
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("--rules is Xiangqi's"), std::string::npos) << bad.err;
}

TEST(CliDatagenTest, CaptureGoDataFromXqGoNeedsNoNodesAndRefusesWhatIsNotCaptureGos) {
    const std::string xqGo = std::string(XQ_BIN_DIR) + "/xq-go";
    ASSERT_TRUE(std::filesystem::exists(xqGo)) << "no xq-go";
    std::string out = tempPath("dg-go.txt");
    CliRun r = run("datagen --game capturego --engine " + xqGo +
                   " --args '--nodes 300' --board size=7 --games 3 --random-plies 4 --sample-rate 1 --out " +
                   out + " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["games"], 3);
    const auto positions = readDataFile(out);
    ASSERT_GT(positions.size(), 3u);
    EXPECT_EQ(long(positions.size()), j["positions"].get<long>());
    for (const auto& p : positions) EXPECT_TRUE(isCaptureGoText(p.fen)) << p.fen;
    CliRun text = run("datagen --game capturego --engine " + xqGo +
                      " --args '--nodes 100' --board size=7 --games 1 "
                      "--out " +
                      tempPath("dg-go2.txt"));
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find("games 1 (black "), std::string::npos) << text.out;

    CliRun rules = run("datagen --game capturego --engine " + xqGo + " --games 1 --rules chinese --out " +
                       tempPath("no-go.txt"));
    EXPECT_EQ(rules.code, 2);
    EXPECT_NE(rules.err.find("--rules is Xiangqi's; Capture Go's rules are given by --board"),
              std::string::npos)
        << rules.err;
    CliRun option = run("datagen --game capturego --engine " + xqGo + " --games 1 --option Hash=8 --out " +
                        tempPath("no-go.txt"));
    EXPECT_EQ(option.code, 2);
    EXPECT_NE(option.err.find("GTP engines take no options; give them as --args"), std::string::npos)
        << option.err;
    CliRun board = run("datagen --game capturego --engine " + xqGo + " --games 1 --board size=4 --out " +
                       tempPath("no-go.txt"));
    EXPECT_EQ(board.code, 2);
    EXPECT_NE(board.err.find("board: size must be a whole number from 5 to 19"), std::string::npos)
        << board.err;
    CliRun xiangqiBoard = run("datagen --engine " + Engine + " --games 1 --nodes 10 --board size=9 --out " +
                              tempPath("no.txt"));
    EXPECT_EQ(xiangqiBoard.code, 2);
    EXPECT_NE(xiangqiBoard.err.find("--board is Capture Go's"), std::string::npos) << xiangqiBoard.err;
    CliRun noNodes = run("datagen --engine " + Engine + " --games 1 --out " + tempPath("no.txt"));
    EXPECT_NE(noNodes.code, 0);
    EXPECT_NE(noNodes.err.find("--nodes"), std::string::npos) << noNodes.err;
}

}  // namespace cli_datagen_test
}  // namespace xq::tuner
