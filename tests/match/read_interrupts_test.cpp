// ScopedReadInterrupts: a game thread's blocking reads of engine output, ended by a timer's signal.
#include "read_interrupts.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "engine.h"
#include "engine_process.h"
#include "test_util.h"

namespace read_interrupts_test {

using namespace xq::match;
using namespace xq::match::test;
using Status = EngineProcess::ReadStatus;
using std::chrono::milliseconds;
using std::chrono::steady_clock;

TEST(ReadInterrupts, HoldForTheThreadThatAsksAndOnlyWhileTheyLive) {
    EXPECT_FALSE(readsInterruptedHere());
    {
        ScopedReadInterrupts interrupts;
        ASSERT_TRUE(interrupts.active());
        EXPECT_TRUE(readsInterruptedHere());
        bool elsewhere = true;
        std::thread([&elsewhere] { elsewhere = readsInterruptedHere(); }).join();
        EXPECT_FALSE(elsewhere);
        {
            ScopedReadInterrupts inner;  // the outer one serves already
            EXPECT_FALSE(inner.active());
        }
        EXPECT_TRUE(readsInterruptedHere());
    }
    EXPECT_FALSE(readsInterruptedHere());
}

TEST(ReadInterrupts, ABlockingReadStillReadsLinesAndTimesOutNearItsLimit) {
    ScopedReadInterrupts interrupts;
    ASSERT_TRUE(interrupts.active());
    auto p = makeEngineProcess();
    p->start("cat", {});
    ASSERT_TRUE(p->writeLine("one"));
    std::string line;
    ASSERT_EQ(p->readLine(line, 2000), Status::Line);
    EXPECT_EQ(line, "one");
    // Nothing comes: the wait ends at its limit, a timer period late at most.
    const auto t0 = steady_clock::now();
    EXPECT_EQ(p->readLine(line, 250), Status::Timeout);
    const auto waited = steady_clock::now() - t0;
    EXPECT_GE(waited, milliseconds(250));
    EXPECT_LT(waited, milliseconds(250 + 3 * ReadInterruptMs));
    // A line that comes during a blocked read is read at once, not at the next interrupt.
    std::thread writer([&p] {
        std::this_thread::sleep_for(milliseconds(30));
        p->writeLine("two");
    });
    ASSERT_EQ(p->readLine(line, 5000), Status::Line);
    writer.join();
    EXPECT_EQ(line, "two");
    p->terminate(500);
    EXPECT_EQ(p->readLine(line, 2000), Status::Closed);
}

TEST(ReadInterrupts, AStalledEngineIsCaughtAndAStopSeenInAThreadWithBlockingReads) {
    std::atomic<bool> flag{false};
    StopCheck stop = [&] { return flag.load(); };
    TimeControl tc = TimeControl::parse("nodes=1");
    GameClock clocks[2] = {GameClock(tc), GameClock(tc)};
    ScopedReadInterrupts interrupts;
    ASSERT_TRUE(interrupts.active());

    EngineClient staller(mock("staller", {"--stall-after", "0"}), 2000, 300);
    staller.start(stop);
    auto t0 = steady_clock::now();
    SearchOutcome out = staller.go(xq::Position::StartFEN, {}, clocks, true, stop);
    EXPECT_EQ(out.status, SearchOutcome::Stall) << out.detail;
    EXPECT_LT(steady_clock::now() - t0, milliseconds(300 + 3 * ReadInterruptMs + 500));

    EngineClient waiting(mock("waiting", {"--stall-after", "0"}), 2000, 60000);
    waiting.start(stop);
    std::thread t([&] {
        std::this_thread::sleep_for(milliseconds(150));
        flag = true;
    });
    t0 = steady_clock::now();
    out = waiting.go(xq::Position::StartFEN, {}, clocks, true, stop);
    t.join();
    EXPECT_EQ(out.status, SearchOutcome::Stopped);
    EXPECT_LT(steady_clock::now() - t0, milliseconds(150 + StopPollMs + 3 * ReadInterruptMs + 500));

    // A healthy engine plays as ever.
    EngineClient healthy(mock("healthy", {}), 2000, 2000);
    healthy.start(stop);
    flag = false;
    out = healthy.go(xq::Position::StartFEN, {}, clocks, true, stop);
    EXPECT_EQ(out.status, SearchOutcome::Move) << out.detail;
}

}  // namespace read_interrupts_test
