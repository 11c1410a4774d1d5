// `xq match` end to end: the real binary with mock engines over pipes.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <vector>

#include "oracle.h"
#include "test_util.h"

namespace match_cli_test {

using namespace xq::match::test;

namespace {

struct CliRun {
    int code = -1;
    std::string out;  // stdout and stderr, merged
};

CliRun sh(const std::string& command) {
    CliRun r;
    FILE* p = ::popen(("(" + command + ") 2>&1").c_str(), "r");
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) r.out.append(buf, n);
    int status = ::pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

std::string xqBinary() {
    return std::string(XQ_BIN_DIR) + "/xq";
}

std::string engines(const std::string& argsA, const std::string& argsB) {
    return " --engine name=dev cmd=" + mockEngine() + " args=\"" + argsA +
           "\" --engine name=base cmd=" + mockEngine() + " args=\"" + argsB + "\"";
}

long jsonNumber(const std::string& json, const std::string& key) {
    std::smatch m;
    if (!std::regex_search(json, m, std::regex("\"" + key + "\": (-?[0-9]+)"))) return -1;
    return std::stol(m[1]);
}

}  // namespace

class MatchCli : public ::testing::Test {
  protected:
    void SetUp() override { XQ_REQUIRE_ORACLE(std::filesystem::exists(xqBinary()), "xq not built"); }
};

TEST_F(MatchCli, XqRunsAMatchWithoutTheClusterLibrariesAndHandsOtherCommandsToXqCluster) {
    // Loading gRPC, protobuf, libpq and the web server cost every `xq match` about 15 ms of CPU.
    CliRun libs = sh("ldd " + xqBinary());
    ASSERT_EQ(libs.code, 0) << libs.out;
    for (const char* heavy : {"grpc", "protobuf", "libpq", "httplib", "sqlite", "ssl"})
        EXPECT_EQ(libs.out.find(heavy), std::string::npos) << heavy << " in\n" << libs.out;
    // Help and the cluster commands come from xq-cluster, under the name xq.
    CliRun help = sh(xqBinary() + " --help");
    EXPECT_EQ(help.code, 0) << help.out;
    for (const char* command : {"match", "sprt", "judge", "submit", "regress", "rate", "datagen"})
        EXPECT_NE(help.out.find(std::string("\n  ") + command + " "), std::string::npos) << command;
    CliRun tests = sh(xqBinary() + " tests --help");
    EXPECT_EQ(tests.code, 0) << tests.out;
    EXPECT_NE(tests.out.find("list tests on a coordinator"), std::string::npos) << tests.out;
    EXPECT_NE(tests.out.find("xq tests"), std::string::npos) << tests.out;
    // Without xq-cluster beside it, xq still runs its own commands and says what the others need.
    const std::string alone =
        (std::filesystem::temp_directory_path() / ("xq-alone-" + std::to_string(::getpid()))).string();
    std::filesystem::remove_all(alone);
    std::filesystem::create_directories(alone);
    std::filesystem::copy_file(xqBinary(), alone + "/xq");
    CliRun sprt = sh(alone + "/xq sprt --wdl 10,0,0 --elo0 0 --elo1 5");
    CliRun missing = sh(alone + "/xq submit");
    std::filesystem::remove_all(alone);
    EXPECT_EQ(sprt.code, 0) << sprt.out;
    EXPECT_NE(sprt.out.find("LLR"), std::string::npos) << sprt.out;
    EXPECT_EQ(missing.code, 127);
    EXPECT_NE(missing.out.find("'submit' is in " + alone + "/xq-cluster, which cannot be run"),
              std::string::npos)
        << missing.out;
}

TEST_F(MatchCli, WritesSummaryJsonAndPgn) {
    TempFile json("cli-json"), pgn("cli-pgn");
    CliRun r = sh(xqBinary() + " match" + engines("--greedy --seed 5", "--greedy --seed 6") +
                  " --each nodes=1 --games 6 --concurrency 2 --maxmoves 80 --json " + json.path +
                  " --pgnout " + pgn.path);
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("Match dev vs base: 6 games (3 pairs)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Ptnml(0-2):"), std::string::npos);
    std::string j = json.read();
    EXPECT_EQ(jsonNumber(j, "games"), 6) << j;
    EXPECT_EQ(jsonNumber(j, "pairs"), 3);
    EXPECT_NE(j.find("\"wdl\""), std::string::npos);
    EXPECT_NE(j.find("\"penta\""), std::string::npos);
    EXPECT_NE(j.find("\"elo\""), std::string::npos);
    EXPECT_NE(j.find("\"llr\": null"), std::string::npos);
    std::string games = pgn.read();
    int count = 0;
    for (std::size_t p = games.find("[Variant \"xiangqi\"]"); p != std::string::npos;
         p = games.find("[Variant \"xiangqi\"]", p + 1))
        ++count;
    EXPECT_EQ(count, 6);
}

TEST_F(MatchCli, SprtStopsWhenDecided) {
    TempFile json("cli-sprt");
    CliRun r = sh(xqBinary() + " match" + engines("", "--crash-after 0") +
                  " --each nodes=1 --games 4000 --sprt elo0=0 elo1=5 model=logistic --json " + json.path);
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("H1 accepted"), std::string::npos) << r.out;
    std::string j = json.read();
    long games = jsonNumber(j, "games");
    EXPECT_GT(games, 10);
    EXPECT_LT(games, 4000);
    EXPECT_NE(j.find("\"decision\": \"H1\""), std::string::npos) << j;
    EXPECT_EQ(jsonNumber(j, "crashes"), 0);  // the first engine's failures come first
}

TEST_F(MatchCli, WarnsWhenFixedWorkGamesRepeat) {
    const std::string base = xqBinary() + " match" + engines("--greedy", "--greedy") + " --maxmoves 20";
    // One start position: the second pair at a node limit repeats the first.
    CliRun r = sh(base + " --each nodes=1 --games 4");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("warning: 4 games from 1 start position"), std::string::npos) << r.out;
    r = sh(base + " --each nodes=1 --games 2");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(r.out.find("warning"), std::string::npos) << r.out;
    r = sh(base + " --each st=0.01 --games 4");  // a time limit varies the games
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(r.out.find("warning"), std::string::npos) << r.out;
    r = sh(base + " --each nodes=1 option.threads=2 --games 4");  // and so do threads
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(r.out.find("warning"), std::string::npos) << r.out;
}

TEST_F(MatchCli, InterruptStillWritesTheSummary) {
    // Ctrl-C, and SIGTERM delivered twice at once as `timeout` does (to xq and to its process group): one
    // request each, a clean stop.
    for (const char* kill : {"kill -INT $pid", "kill -TERM $pid; kill -TERM $pid"}) {
        TempFile json("cli-int");
        CliRun r = sh(xqBinary() + " match" + engines("--delay 5", "") +
                      " --each nodes=1 --games 100000 --maxmoves 40 --json " + json.path +
                      " & pid=$!; sleep 1.5; " + kill + "; wait $pid; echo exit=$?");
        EXPECT_NE(r.out.find("exit=130"), std::string::npos) << kill << "\n" << r.out;
        EXPECT_NE(r.out.find("stopped early"), std::string::npos) << r.out;
        EXPECT_NE(json.read().find("\"interrupted\": true"), std::string::npos) << kill;
    }
}

TEST_F(MatchCli, BadInputGetsAClearError) {
    struct Case {
        std::string args, message;
    } cases[] = {
        {engines("", "") + " --each nodes=1 bogus=2", "unknown setting 'bogus'"},
        {engines("", "") + " --each tc=ten", "expected seconds"},
        {engines("", ""), "has no time control"},
        {engines("", "") + " --each nodes=1 --sprt elo0=3", "--sprt needs elo0=A and elo1=B"},
        {engines("", "") + " --each nodes=1 --openings file=/nonexistent.epd",
         "/nonexistent.epd: cannot open"},
        {engines("", "") + " --each nodes=1 proto=xboard", "proto must be uci, ucci, fairy or gtp"},
        {" --engine cmd=/nonexistent/engine --engine cmd=" + mockEngine() + " --each nodes=1",
         "did not start"},
        {engines("", "") + " --each nodes=1 option.Hsh=16", "has no option 'Hsh' (it declares Threads, Hash"},
        {engines("", "") + " --each nodes=1 option.Threads=abc",
         "cannot take Threads=abc: a spin option takes a whole number"},
        {engines("", "") + " --each nodes=1 option.hash=0",
         "cannot take hash=0: outside its range 1 to 1024"},
        {engines("", "") + " --each nodes=1 --pgnout /nonexistent/dir/x.pgn", "--pgnout: cannot write"},
        {engines("", "") + " --each nodes=1 --draw score=0 moves=1500000000", "moves must be a whole number"},
        {engines("", "") + " --each nodes=1 --openings file=x start=3000000000",
         "start must be a whole number"},
        {engines("", "") + " --each nodes=1 --games 2147483647", "--games"},
    };
    for (const Case& c : cases) {
        CliRun r = sh(xqBinary() + " match" + c.args);
        EXPECT_NE(r.code, 0) << c.args;
        EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << "\n" << r.out;
    }
}

// Chess through the same command: two Stockfish settings (Debian's package, scripts/install-deps.sh) to an
// SPRT verdict, with PGN in SAN that `xq judge --pgn` replays and confirms.
TEST_F(MatchCli, AChessSprtOfTwoStockfishSettingsEndsAndItsPgnIsConfirmedByTheJudge) {
    ASSERT_TRUE(std::filesystem::exists("/usr/games/stockfish")) << "stockfish is not installed";
    TempFile json("cli-chess-json"), pgn("cli-chess-pgn");
    const std::string sf = "/usr/games/stockfish";
    CliRun r = sh(xqBinary() + " match --game chess --engine name=sf-2000 cmd=" + sf + " nodes=2000" +
                  " --engine name=sf-100 cmd=" + sf + " nodes=100 --each option.Hash=8 --games 60" +
                  " --concurrency 2 --sprt elo0=0 elo1=200 --openings file=" + XQ_SOURCE_DIR +
                  "/data/openings/chess-balanced.epd --json " + json.path + " --pgnout " + pgn.path);
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("H1 accepted"), std::string::npos) << r.out;
    const std::string j = json.read();
    EXPECT_EQ(jsonNumber(j, "crashes"), 0) << j;
    EXPECT_EQ(jsonNumber(j, "illegal_moves"), 0) << j;
    const std::string games = pgn.read();
    EXPECT_NE(games.find("[White \"sf-2000\"]"), std::string::npos);
    EXPECT_EQ(games.find("[Variant"), std::string::npos);
    // The judge knows a chess PGN by its tags and replays its SAN under FIDE's rules.
    CliRun judged = sh(xqBinary() + " judge --pgn " + pgn.path);
    EXPECT_EQ(judged.code, 0) << judged.out;
    EXPECT_NE(judged.out.find(" 0 differ, "), std::string::npos) << judged.out;
    EXPECT_NE(judged.out.find(" 0 cannot be replayed"), std::string::npos) << judged.out;
    EXPECT_NE(judged.out.find("the FIDE rules say"), std::string::npos) << judged.out;
}

TEST_F(MatchCli, ChessOpeningsAreWrittenAsEpdThatAChessMatchReads) {
    TempFile book("cli-chess-book");
    CliRun r = sh(xqBinary() + " openings --game chess --engine /usr/games/stockfish --count 5 --plies 6" +
                  " --nodes 2000 --max-score 80 --seed 7 --out " + book.path);
    ASSERT_EQ(r.code, 0) << r.out;
    std::istringstream lines(book.read());
    int positions = 0;
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line[0] == '#') continue;
        ++positions;
        std::istringstream fields(line);
        std::vector<std::string> f{std::istream_iterator<std::string>(fields), {}};
        ASSERT_EQ(f.size(), 4u) << line;  // EPD: placement, side, castling, en passant
        EXPECT_EQ(f[1], "w") << line;     // six plies: white to move
    }
    EXPECT_EQ(positions, 5);
    r = sh(xqBinary() +
           " match --game chess --engine cmd=/usr/games/stockfish --engine cmd=/usr/games/stockfish" +
           " --each nodes=50 --games 2 --openings file=" + book.path);
    EXPECT_EQ(r.code, 0) << r.out;
}

TEST_F(MatchCli, ChessBadInputGetsAClearError) {
    const std::string sf =
        " --engine cmd=/usr/games/stockfish --engine cmd=/usr/games/stockfish --each nodes=10";
    struct Case {
        std::string args, message;
    } cases[] = {
        {" --game go" + sf, "--game: unknown game 'go' (xiangqi, chess or capturego)"},
        {" --game chess" + sf + " proto=ucci", "UCCI is a Xiangqi protocol"},
        {" --game chess" + sf + " --openings file=" + std::string(XQ_SOURCE_DIR) +
             "/data/openings/xq-balanced.epd",
         "xq-balanced.epd:2: bad chess FEN"},
        {" --game chess" + sf + " --rules chinese", "Xiangqi's"},
    };
    for (const Case& c : cases) {
        CliRun r = sh(xqBinary() + " match" + c.args);
        EXPECT_NE(r.code, 0) << c.args;
        EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << "\n" << r.out;
    }
}

TEST_F(MatchCli, AnErrorAfterSomeGamesKeepsTheirResults) {
    // The first start of this engine plays until its third search, where it crashes; every later start
    // fails, which ends the match with an error after the games already played.
    TempFile json("cli-err"), script("cli-err-sh"), count("cli-err-count");
    {
        std::ofstream out(script.path);
        out << "#!/bin/sh\n"
            << "if [ -e " << count.path << " ]; then exit 3; fi\n"
            << "touch " << count.path << "\n"
            << "exec " << mockEngine() << " --crash-after 3\n";
    }
    std::filesystem::permissions(script.path, std::filesystem::perms::owner_all);
    CliRun r = sh(xqBinary() + " match --engine name=flaky cmd=" + script.path + " --engine name=good cmd=" +
                  mockEngine() + " --each nodes=1 --games 10 --maxmoves 30 --json " + json.path);
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_NE(r.out.find("failed to start 3 times in a row"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("stopped by an error"), std::string::npos) << r.out;
    const std::string report = json.read();
    EXPECT_GE(jsonNumber(report, "games"), 2) << report;
    EXPECT_NE(report.find("\"error\": \"engine 'flaky' failed to start"), std::string::npos) << report;
}

TEST_F(MatchCli, CaptureGoMatchWritesSgfAndTheSummary) {
    TempFile sgf("cli-sgf"), json("cli-go-json");
    const std::string gtp = std::string(XQ_BIN_DIR) + "/mock-gtp-engine";
    CliRun r = sh(xqBinary() +
                  " match --game capturego --board size=7 rules=capture target=2 --engine name=a cmd=" + gtp +
                  " args=\"--seed 1\" proto=gtp --engine name=b cmd=" + gtp +
                  " args=\"--seed 2\" proto=gtp --each nodes=1 --games 4 --pgnout " + sgf.path + " --json " +
                  json.path);
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("written as SGF"), std::string::npos) << r.out;
    EXPECT_EQ(jsonNumber(json.read(), "games"), 4) << json.read();
    const std::string text = sgf.read();
    int games = 0;
    for (std::size_t at = text.find("(;FF[4]GM[1]"); at != std::string::npos;
         at = text.find("(;FF[4]", at + 1))
        ++games;
    EXPECT_EQ(games, 4) << text;
    EXPECT_NE(text.find("SZ[7]"), std::string::npos) << text;
    EXPECT_NE(text.find("RU[capture:2]"), std::string::npos) << text;
}

TEST_F(MatchCli, CaptureGoBadInputGetsAClearError) {
    const std::string gtp = std::string(XQ_BIN_DIR) + "/mock-gtp-engine";
    const std::string two =
        " --engine cmd=" + gtp + " proto=gtp --engine cmd=" + gtp + " proto=gtp --each nodes=1";
    struct Case {
        std::string args, message;
    };
    const std::vector<Case> cases = {
        {" --game capturego --board size=4" + two, "--board: size must be a whole number from 5 to 19"},
        {" --game capturego --board rules=japanese" + two, "unknown Capture Go rule set 'japanese'"},
        {" --game capturego --board rules=go target=3" + two,
         "a capture target belongs to the capture rule set"},
        {" --game capturego --board komi=0.3" + two, "komi must be a multiple of 0.5"},
        {" --board size=9" + two, "--board is Capture Go's"},
        {" --game capturego --rules chinese" + two, "not used by Capture Go"},
        {" --game capturego --each nodes=1" + engines("", ""),
         "a Capture Go engine speaks GTP: give proto=gtp"},
        {two, "GTP is a Go protocol"},
    };
    for (const Case& c : cases) {
        CliRun r = sh(xqBinary() + " match" + c.args);
        EXPECT_NE(r.code, 0) << c.args;
        EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << "\n" << r.out;
    }
}

}  // namespace match_cli_test
