#include "engine_process.h"

#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>

#include "engine.h"
#include "test_util.h"

namespace engine_process_test {

using namespace xq::match;
using namespace xq::match::test;
using Status = EngineProcess::ReadStatus;

TEST(EngineProcess, EchoesLinesAndTimesOut) {
    auto p = makeEngineProcess();
    p->start("cat", {});
    EXPECT_TRUE(p->isRunning());
    EXPECT_TRUE(p->writeLine("hello world"));
    EXPECT_TRUE(p->writeLine("second"));
    std::string line;
    ASSERT_EQ(p->readLine(line, 2000), Status::Line);
    EXPECT_EQ(line, "hello world");
    ASSERT_EQ(p->readLine(line, 2000), Status::Line);
    EXPECT_EQ(line, "second");
    EXPECT_TRUE(p->writeLines("position startpos moves h2e2", "go nodes 5"));
    ASSERT_EQ(p->readLine(line, 2000), Status::Line);
    EXPECT_EQ(line, "position startpos moves h2e2");
    ASSERT_EQ(p->readLine(line, 2000), Status::Line);
    EXPECT_EQ(line, "go nodes 5");
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(p->readLine(line, 50), Status::Timeout);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));  // it did return
    p->terminate(500);  // cat exits when its input closes
    EXPECT_FALSE(p->isRunning());
    EXPECT_EQ(p->exitDescription(), "exited with code 0");
    EXPECT_FALSE(p->writeLine("after"));
}

TEST(EngineProcess, MissingProgramIsAnError) {
    auto p = makeEngineProcess();
    try {
        p->start("/nonexistent/engine-xyz", {});
        FAIL() << "start should throw";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/engine-xyz"), std::string::npos);
    }
}

TEST(EngineProcess, ReportsExitCodeAndCrashSignal) {
    auto p = makeEngineProcess();
    p->start(mockEngine(), {"--exit-at-start"});
    std::string line;
    EXPECT_EQ(p->readLine(line, 5000), Status::Closed);
    EXPECT_EQ(p->exitDescription(), "exited with code 3");

    p->start(mockEngine(), {"--crash-after", "0"});
    p->writeLine("uci");
    p->writeLine("go nodes 1");
    while (p->readLine(line, 5000) == Status::Line) {
    }
    EXPECT_EQ(p->exitDescription().rfind("killed by signal 6", 0), 0u) << p->exitDescription();
}

TEST(EngineProcess, TerminateKillsAnEngineThatIgnoresQuit) {
    auto p = makeEngineProcess();
    p->start("sleep", {"30"});
    auto t0 = std::chrono::steady_clock::now();
    p->terminate(50);
    EXPECT_FALSE(p->isRunning());
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
    EXPECT_EQ(p->exitDescription().rfind("killed by signal 9", 0), 0u) << p->exitDescription();
}

TEST(EngineClient, HandshakeSearchAndFailures) {
    StopCheck never = [] { return false; };
    EngineClient good(mock("good"), 2000, 2000);
    good.start(never);
    std::string error;
    ASSERT_TRUE(good.newGame(never, error)) << error;
    TimeControl tc = TimeControl::parse("nodes=1");
    GameClock clocks[2] = {GameClock(tc), GameClock(tc)};
    SearchOutcome out = good.go(xq::Position::StartFEN, {}, clocks, true, never);
    EXPECT_EQ(out.status, SearchOutcome::Move);
    EXPECT_TRUE(xq::parseMove(xq::Position(), out.move).has_value()) << out.move;

    EngineClient mute(mock("mute", {"--no-handshake"}), 300, 300);
    try {
        mute.start(never);
        FAIL() << "no uciok must fail the start";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("'mute' did not start"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("uciok"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(mute.isStarted());

    EngineClient staller(mock("staller", {"--stall-after", "0"}), 2000, 200);
    staller.start(never);
    out = staller.go(xq::Position::StartFEN, {}, clocks, true, never);
    EXPECT_EQ(out.status, SearchOutcome::Stall);

    EngineClient crasher(mock("crasher", {"--crash-after", "0"}), 2000, 2000);
    crasher.start(never);
    out = crasher.go(xq::Position::StartFEN, {}, clocks, true, never);
    EXPECT_EQ(out.status, SearchOutcome::Crash);
    EXPECT_NE(out.detail.find("signal 6"), std::string::npos) << out.detail;

    EngineClient garbage(mock("garbage", {"--garbage-after", "0"}), 2000, 2000);
    garbage.start(never);
    out = garbage.go(xq::Position::StartFEN, {}, clocks, true, never);
    EXPECT_EQ(out.status, SearchOutcome::Garbage);
    EXPECT_NE(out.detail.find("zz!?"), std::string::npos);
}

TEST(EngineClient, StopInterruptsAWait) {
    std::atomic<bool> flag{false};
    StopCheck stop = [&] { return flag.load(); };
    EngineClient staller(mock("staller", {"--stall-after", "0"}), 2000, 60000);
    staller.start(stop);
    TimeControl tc = TimeControl::parse("nodes=1");
    GameClock clocks[2] = {GameClock(tc), GameClock(tc)};
    std::thread t([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        flag = true;
    });
    auto t0 = std::chrono::steady_clock::now();
    SearchOutcome out = staller.go(xq::Position::StartFEN, {}, clocks, true, stop);
    t.join();
    EXPECT_EQ(out.status, SearchOutcome::Stopped);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
}

TEST(EngineProcess, OutputWithoutNewlinesComesInBoundedPieces) {
    // 3 MiB without a newline, then a real line: the runner must not hold all of it at once.
    auto p = makeEngineProcess();
    p->start("sh", {"-c", "head -c 3145728 /dev/zero | tr '\\0' x; echo; echo bestmove a0a1"});
    std::string line;
    std::size_t longest = 0, total = 0;
    while (p->readLine(line, 5000) == Status::Line && line != "bestmove a0a1") {
        longest = std::max(longest, line.size());
        total += line.size();
    }
    EXPECT_EQ(line, "bestmove a0a1");
    EXPECT_EQ(total, 3145728u);
    EXPECT_LE(longest, std::size_t(1) << 20);
}

TEST(EngineClient, TheScoreIsTheLastInfoLinesWithOneAndFreeTextIsNotReadForOne) {
    // An engine that says a score in free text after its last real one, and a line without a score last.
    EngineConfig config = mock("talker");
    config.cmd = "sh";
    config.args = {"-c",
                   "while read -r cmd rest; do case $cmd in "
                   "uci) echo uciok;; isready) echo readyok;; "
                   "go) echo 'info depth 1 score cp 10 pv h2e2'; "
                   "echo 'info depth 2 seldepth 4 score cp 20 nodes 50 pv h2e2'; "
                   "echo 'info string the score is 999 here'; echo 'info depth 3 nodes 70'; "
                   "echo 'bestmove h2e2';; quit) exit 0;; esac; done"};
    EngineClient talker(config, 2000, 2000);
    StopCheck never = [] { return false; };
    talker.start(never);
    TimeControl tc = TimeControl::parse("nodes=1");
    GameClock clocks[2] = {GameClock(tc), GameClock(tc)};
    SearchOutcome out = talker.go(xq::Position::StartFEN, {}, clocks, true, never);
    ASSERT_EQ(out.status, SearchOutcome::Move) << out.detail;
    EXPECT_EQ(out.move, "h2e2");
    EXPECT_EQ(out.info.score.kind, Score::Cp);
    EXPECT_EQ(out.info.score.value, 20);
    EXPECT_EQ(out.info.depth, 3);
    EXPECT_EQ(out.info.nodes, 70);
}

}  // namespace engine_process_test
