#include "affinity.h"

#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "engine_process.h"
#include "test_util.h"

namespace affinity_test {

using namespace xq::match;
using namespace xq::match::test;

TEST(Affinity, PlanGivesEachSlotItsOwnCpusOrNothing) {
    CpuSet cpus = {0, 2, 3, 5};
    auto plan = planSlotCpus(2, 1, cpus);
    ASSERT_EQ(plan.size(), 2u);
    EXPECT_EQ(plan[0], CpuSet{0});
    EXPECT_EQ(plan[1], CpuSet{2});
    plan = planSlotCpus(2, 2, cpus);
    ASSERT_EQ(plan.size(), 2u);
    EXPECT_EQ(plan[0], (CpuSet{0, 2}));
    EXPECT_EQ(plan[1], (CpuSet{3, 5}));
    EXPECT_TRUE(planSlotCpus(5, 1, cpus).empty());
    EXPECT_TRUE(planSlotCpus(3, 2, cpus).empty());
    EXPECT_TRUE(planSlotCpus(0, 1, cpus).empty());
}

TEST(Affinity, SpawnedProcessInheritsThePinningAndTheThreadGetsItsMaskBack) {
    const CpuSet before = usableCpus();
    ASSERT_FALSE(before.empty());
    const int cpu = before.back();
    auto p = makeEngineProcess();
    {
        ScopedThreadPinning pinning({cpu});
        EXPECT_EQ(usableCpus(), CpuSet{cpu});
        p->start("sh", {"-c", "grep Cpus_allowed_list /proc/self/status"});
    }
    EXPECT_EQ(usableCpus(), before);
    std::string line;
    ASSERT_EQ(p->readLine(line, 5000), EngineProcess::ReadStatus::Line);
    EXPECT_EQ(line, "Cpus_allowed_list:\t" + std::to_string(cpu));
    p->terminate(1000);
}

TEST(Affinity, PinnedMatchPlaysAndUnpinnedWhenEnginesAreTooWide) {
    MatchConfig c;
    c.engines[0] = mock("dev", {"--greedy", "--seed", "1"});
    c.engines[1] = mock("base", {"--greedy", "--seed", "2"});
    c.games = 4;
    c.concurrency = 1;
    c.adjudication.maxPlies = 100;
    c.pinSlots = true;
    MatchRunner pinned(c);
    ASSERT_EQ(pinned.slotCpus().size(), 1u);
    EXPECT_EQ(pinned.slotCpus()[0], CpuSet{usableCpus().front()});
    std::atomic<bool> stop{false};
    MatchTotals totals = pinned.run({}, stop);
    EXPECT_EQ(totals.games(), 4);

    c.engines[0].options.push_back({"threads", std::to_string(usableCpus().size() + 1)});
    EXPECT_TRUE(MatchRunner(c).slotCpus().empty());
    c.pinSlots = false;
    c.engines[0].options.clear();
    EXPECT_TRUE(MatchRunner(c).slotCpus().empty());
}

TEST(Affinity, ThreadThatPrefersNotToPreemptRunsAsBatch) {
    int policy = -1;
    std::thread t([&] {
        ASSERT_TRUE(preferNotToPreempt());
        sched_param param{};
        ::pthread_getschedparam(::pthread_self(), &policy, &param);
    });
    t.join();
    EXPECT_EQ(policy, SCHED_BATCH);
}

TEST(Affinity, AnEngineStartedByAThreadThatPrefersNotToPreemptGetsTheNormalPolicy) {
    // Engines restarted from a game's thread must not inherit its batch policy.
    int childPolicy = -1;
    std::thread t([&] {
        ASSERT_TRUE(preferNotToPreempt());
        ScopedNormalPolicy normal;
        pid_t pid = ::fork();
        if (pid == 0) ::_exit(::sched_getscheduler(0) == SCHED_OTHER ? 0 : 1);
        int status = 0;
        ::waitpid(pid, &status, 0);
        childPolicy = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? SCHED_OTHER : -2;
    });
    t.join();
    EXPECT_EQ(childPolicy, SCHED_OTHER);
    int after = -1;
    std::thread u([&] {
        ASSERT_TRUE(preferNotToPreempt());
        { ScopedNormalPolicy normal; }
        after = ::sched_getscheduler(0);
    });
    u.join();
    EXPECT_EQ(after, SCHED_BATCH);
}

}  // namespace affinity_test
