// Capture Go and Go through the match runner (proto=gtp, gtp_session.h; sgf_record.h): whole games between
// real GTP processes — the mock GTP engine, xq-go, GNU Go when it is installed — with the runner as
// referee, and every way a GTP engine can fail losing with its reason.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <regex>

#include "board.h"
#include "engine.h"
#include "gtp_session.h"
#include "match.h"
#include "oracle.h"
#include "sgf_record.h"
#include "test_util.h"

namespace gtp_match_test {

using namespace xq::match;
using namespace xq::match::test;

namespace {

const char* const kGnuGo = "/usr/games/gnugo";

std::string mockGtp() {
    return std::string(XQ_BIN_DIR) + "/mock-gtp-engine";
}

EngineConfig gtpEngine(const std::string& name, const std::string& cmd, std::vector<std::string> args,
                       const char* tc = "nodes=1") {
    EngineConfig e;
    e.name = name;
    e.cmd = cmd;
    e.args = std::move(args);
    e.protocol = Protocol::Gtp;
    e.tc = TimeControl::parse(tc);
    return e;
}

MatchConfig captureMatch(EngineConfig a, EngineConfig b, int games, const std::string& start) {
    MatchConfig c;
    c.game = xq::games::Game::CaptureGo;
    c.engines[0] = std::move(a);
    c.engines[1] = std::move(b);
    c.games = games;
    c.startPosition = start;
    c.stallTimeoutMs = 3000;
    return c;
}

struct Played {
    MatchTotals totals;
    std::vector<GameRecord> games;
};

Played play(const MatchConfig& c) {
    MatchRunner runner(c);
    Played p;
    runner.setGameCallback([&](const GameRecord& g) { p.games.push_back(g); });
    std::atomic<bool> stop{false};
    p.totals = runner.run(nullptr, stop);
    return p;
}

int countOf(const std::string& text, const std::string& what) {
    int n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST(GtpMoveText, ReadsMovesInAnyCaseAndRefusesWhatIsNoMove) {
    EXPECT_EQ(gtpMoveFromEngine("D4", 9), "D4");
    EXPECT_EQ(gtpMoveFromEngine("d4", 9), "D4");
    EXPECT_EQ(gtpMoveFromEngine(" j9 ", 9), "J9");
    EXPECT_EQ(gtpMoveFromEngine("PASS", 9), "pass");
    EXPECT_EQ(gtpMoveFromEngine("Resign", 9), "resign");
    EXPECT_EQ(gtpMoveFromEngine("K10", 9), "");  // off the 9x9 board
    EXPECT_EQ(gtpMoveFromEngine("I5", 9), "");   // GTP skips the column I
    EXPECT_EQ(gtpMoveFromEngine("banana", 9), "");
    EXPECT_EQ(gtpMoveFromEngine("D4 E5", 9), "");
    EXPECT_EQ(gtpMoveFromEngine("", 9), "");
}

TEST(GtpMatch, MockEnginesPlayCaptureGamesToTheTargetAndWriteSgf) {
    TempFile sgf("gtp-sgf"), log("gtp-log");
    MatchConfig c = captureMatch(gtpEngine("dev", mockGtp(), {"--seed", "1", "--log", log.path}),
                                 gtpEngine("base", mockGtp(), {"--seed", "2", "--lowercase"}), 4,
                                 xq::games::captureGoStartText(7, "capture", 2));
    c.pgnPath = sgf.path;
    Played p = play(c);
    ASSERT_EQ(p.totals.games(), 4);
    for (const GameRecord& g : p.games) {
        EXPECT_EQ(g.end, GameEnd::Rules) << g.reason;
        EXPECT_NE(g.reason.find("(target 2)"), std::string::npos) << g.reason;
    }
    const std::string text = sgf.read();
    EXPECT_EQ(countOf(text, "(;FF[4]GM[1]"), 4) << text;
    EXPECT_EQ(countOf(text, "SZ[7]"), 4);
    EXPECT_EQ(countOf(text, "RU[capture:2]"), 4);
    EXPECT_EQ(countOf(text, "RE[B+C]") + countOf(text, "RE[W+C]"), 4) << text;
    EXPECT_EQ(countOf(text, "PB[dev]"), 2);
    EXPECT_EQ(countOf(text, "PW[dev]"), 2);
    // The engine was told the rules and the moves; only new moves are sent each turn.
    const std::string sent = log.read();
    EXPECT_NE(sent.find("boardsize 7\nclear_board\nxq-rules capture\ncap 2\nkomi 0\n"), std::string::npos)
        << sent;
    EXPECT_NE(sent.find("genmove b"), std::string::npos);
    EXPECT_NE(sent.find("genmove w"), std::string::npos);
    EXPECT_EQ(sent.find("time_settings"), std::string::npos);  // nodes=: GTP has no node limit
}

TEST(GtpMatch, TheClockReachesTheEngineAsTimeSettingsAndTimeLeft) {
    TempFile log("gtp-log");
    MatchConfig c = captureMatch(gtpEngine("dev", mockGtp(), {"--log", log.path, "--no-cap"}, "tc=30+1"),
                                 gtpEngine("base", mockGtp(), {"--seed", "3"}, "tc=30+1"), 2,
                                 xq::games::captureGoStartText(5, "go", std::nullopt, 0.5));
    Played p = play(c);
    ASSERT_EQ(p.totals.games(), 2);
    const std::string sent = log.read();
    EXPECT_NE(sent.find("boardsize 5\nclear_board\nkomi 0.5\ntime_settings 30 0 0\n"), std::string::npos)
        << sent;
    EXPECT_EQ(sent.find("cap "), std::string::npos);  // not listed: not sent
    EXPECT_TRUE(std::regex_search(sent, std::regex("time_left [bw] [0-9]+ 0\ngenmove [bw]"))) << sent;
}

namespace {

// One game in which engine "bad" (with `args`) misbehaves; returns the game it lost.
GameRecord badEngineGame(std::vector<std::string> args, int stallMs = 3000) {
    MatchConfig c = captureMatch(gtpEngine("bad", mockGtp(), std::move(args)),
                                 gtpEngine("good", mockGtp(), {"--seed", "9"}), 2,
                                 xq::games::captureGoStartText(9, "capture", 5));
    c.stallTimeoutMs = stallMs;
    Played p = play(c);
    EXPECT_EQ(p.games.size(), 2u);
    for (const GameRecord& g : p.games)
        if (g.failedEngine == 0 || g.end == GameEnd::Resignation) return g;
    ADD_FAILURE() << "the bad engine lost no game";
    return {};
}

void expectLoss(const GameRecord& g, Failure f, const std::string& words) {
    EXPECT_EQ(g.end, GameEnd::EngineFailure) << g.reason;
    EXPECT_EQ(g.failure, f) << g.reason;
    EXPECT_EQ(g.scoreOf(0), 0.0) << g.reason;
    EXPECT_NE(g.reason.find(words), std::string::npos) << g.reason;
    EXPECT_NE(g.reason.find("bad ("), std::string::npos) << g.reason;
}

}  // namespace

TEST(GtpMatch, AnEngineThatAnswersGarbageLosesWithTheAnswer) {
    expectLoss(badEngineGame({"--garbage-after", "2"}), Failure::IllegalMove, "unreadable move 'banana'");
}

TEST(GtpMatch, AnEngineThatPlaysOnAnOccupiedPointLoses) {
    expectLoss(badEngineGame({"--illegal-after", "2"}), Failure::IllegalMove, "is occupied");
}

TEST(GtpMatch, AnEngineThatAnswersAnErrorLosesWithIt) {
    expectLoss(badEngineGame({"--error-after", "1"}), Failure::IllegalMove, "answered '? out of ideas'");
}

TEST(GtpMatch, AnEngineThatPrintsNoGtpAnswerLoses) {
    expectLoss(badEngineGame({"--noanswer-after", "0"}), Failure::IllegalMove, "no GTP answer");
}

TEST(GtpMatch, AnEngineThatCrashesLosesAndIsRestarted) {
    expectLoss(badEngineGame({"--crash-after", "1"}), Failure::Crash, "exited with code 3");
}

TEST(GtpMatch, AnEngineThatHangsLosesAfterTheStallTimeout) {
    expectLoss(badEngineGame({"--stall-after", "1"}, 500), Failure::Stall, "no move within 500 ms");
}

TEST(GtpMatch, AResignationIsAResultWrittenAsRInSgf) {
    GameRecord g = badEngineGame({"--resign-after", "1"});
    EXPECT_EQ(g.end, GameEnd::Resignation) << g.reason;
    EXPECT_EQ(g.scoreOf(0), 0.0);
    EXPECT_NE(g.reason.find("bad (black) resigned"), std::string::npos) << g.reason;
    MatchConfig c = captureMatch(gtpEngine("bad", "x", {}), gtpEngine("good", "y", {}), 2, "");
    const std::string sgf = formatSgf(g, c);
    EXPECT_NE(sgf.find("RE[W+R]"), std::string::npos) << sgf;
    EXPECT_NE(sgf.find("PB[bad]"), std::string::npos) << sgf;
}

TEST(GtpMatch, ACaptureGoMatchRefusesEnginesThatSpeakNoGtp) {
    MatchConfig c = captureMatch(gtpEngine("a", mockGtp(), {}), gtpEngine("b", mockGtp(), {}), 2, "");
    c.engines[1].protocol = Protocol::Uci;
    try {
        MatchRunner runner(c);
        FAIL() << "a UCI engine was accepted for Capture Go";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("proto=gtp"), std::string::npos) << e.what();
    }
    MatchConfig x;
    x.engines[0] = gtpEngine("a", mockGtp(), {});
    x.engines[1] = gtpEngine("b", mockGtp(), {});
    EXPECT_THROW(MatchRunner{x}, std::invalid_argument);  // a Xiangqi match with GTP engines
}

TEST(GtpMatch, XqGoAgainstXqGoUnderCaptureRules) {
    const std::string xqGo = std::string(XQ_BIN_DIR) + "/xq-go";
    XQ_REQUIRE_ORACLE(std::filesystem::exists(xqGo), "xq-go not built");
    TempFile sgf("gtp-xqgo");
    MatchConfig c = captureMatch(gtpEngine("xq-go-a", xqGo, {"--nodes", "300", "--seed", "1"}),
                                 gtpEngine("xq-go-b", xqGo, {"--nodes", "300", "--seed", "2"}), 2,
                                 xq::games::captureGoStartText(7, "capture", 2));
    c.pgnPath = sgf.path;
    Played p = play(c);
    ASSERT_EQ(p.totals.games(), 2);
    for (const GameRecord& g : p.games) {
        // xq-go resigns a position its solver proves lost (7x7 is within its reach).
        EXPECT_TRUE(g.end == GameEnd::Rules || g.end == GameEnd::Resignation) << g.reason;
        EXPECT_EQ(g.failedEngine, -1) << g.reason;
    }
    EXPECT_EQ(countOf(sgf.read(), "RU[capture:2]"), 2);
}

TEST(GtpMatch, GnuGoPlaysWholeGoGamesScoredByArea) {
    XQ_REQUIRE_ORACLE(std::filesystem::exists(kGnuGo), "GNU Go is not installed (" << kGnuGo << ")");
    TempFile sgf("gtp-gnugo");
    const std::vector<std::string> args{"--mode", "gtp", "--level", "1"};
    MatchConfig c = captureMatch(gtpEngine("gnugo-a", kGnuGo, args), gtpEngine("gnugo-b", kGnuGo, args), 2,
                                 xq::games::captureGoStartText(7, "go", std::nullopt, 7.5));
    c.pgnPath = sgf.path;
    c.stallTimeoutMs = 10000;
    Played p = play(c);
    ASSERT_EQ(p.totals.games(), 2);
    for (const GameRecord& g : p.games) {
        EXPECT_TRUE(g.end == GameEnd::Rules || g.end == GameEnd::Resignation) << g.reason;
        EXPECT_EQ(g.failedEngine, -1) << g.reason;
    }
    const std::string text = sgf.read();
    EXPECT_EQ(countOf(text, "RU[Tromp-Taylor]"), 2) << text;
    EXPECT_EQ(countOf(text, "KM[7.5]"), 2) << text;
    EXPECT_TRUE(std::regex_search(text, std::regex("RE\\[[BW]\\+([0-9.]+|R)\\]"))) << text;
}

TEST(GtpMatch, AnEngineThatOverstepsItsClockLosesOnTimeWrittenAsTInSgf) {
    MatchConfig c = captureMatch(gtpEngine("bad", mockGtp(), {"--stall-after", "1"}, "tc=1+0"),
                                 gtpEngine("good", mockGtp(), {"--seed", "9"}, "tc=1+0"), 2,
                                 xq::games::captureGoStartText(9, "capture", 5));
    Played p = play(c);
    ASSERT_EQ(p.games.size(), 2u);
    for (const GameRecord& g : p.games) {
        expectLoss(g, Failure::TimeLoss, "no move within");
        const std::string sgf = formatSgf(g, c);
        EXPECT_NE(sgf.find(g.redEngine == 0 ? "RE[W+T]" : "RE[B+T]"), std::string::npos) << sgf;
    }
}

}  // namespace gtp_match_test
