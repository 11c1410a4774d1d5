#include "scheduler.h"

#include <gtest/gtest.h>

using namespace xq::coord;

TEST(Scheduler, HigherPriorityWins) {
    std::vector<Candidate> c = {{1, 0, 1, 0, 100}, {2, 5, 1, 10, 100}, {3, 1, 1, 0, 100}};
    EXPECT_EQ(pickTest(c), 2);
}

TEST(Scheduler, EqualPriorityGoesToTheTestFurthestBelowItsShare) {
    // Test 1 has 4 cores at throughput 1; test 2 has 6 cores at throughput 2 (3 per unit): test 2.
    std::vector<Candidate> c = {{1, 0, 1, 4, 100}, {2, 0, 2, 6, 100}};
    EXPECT_EQ(pickTest(c), 2);
    c[1].activeCores = 10;  // 5 per unit now: test 1
    EXPECT_EQ(pickTest(c), 1);
}

TEST(Scheduler, TiesGoToTheOldestAndExhaustedTestsAreSkipped) {
    std::vector<Candidate> c = {{7, 0, 1, 0, 10}, {3, 0, 1, 0, 10}, {1, 9, 1, 0, 0}};
    EXPECT_EQ(pickTest(c), 3);
    EXPECT_FALSE(pickTest({{1, 0, 1, 0, 0}}).has_value());
    EXPECT_FALSE(pickTest({}).has_value());
}

TEST(Scheduler, GameTimeFollowsTheTimeControl) {
    ChunkPolicy p;
    double fast = estimateGameSeconds("nodes=1000", "nodes=1000", 1'000'000, p);
    double slow = estimateGameSeconds("nodes=100000", "nodes=100000", 1'000'000, p);
    EXPECT_GT(slow, 20 * fast);
    // 10+0.1: a game takes well over 10 s and well under 60 s with both clocks.
    double blitz = estimateGameSeconds("tc=10+0.1", "10+0.1", 0, p);
    EXPECT_GT(blitz, 10);
    EXPECT_LT(blitz, 60);
    // A faster worker plays fixed-node games faster.
    EXPECT_LT(estimateGameSeconds("nodes=50000", "nodes=50000", 4'000'000, p),
              estimateGameSeconds("nodes=50000", "nodes=50000", 1'000'000, p));
}

TEST(Scheduler, ChunksAreBounded) {
    ChunkPolicy p;
    p.targetSeconds = 100;
    p.maxPairs = 50;
    EXPECT_EQ(chunkPairs(10, 1, 1000, p), 5);     // 100 s / 20 s per pair
    EXPECT_EQ(chunkPairs(10, 4, 1000, p), 20);    // four games at once
    EXPECT_EQ(chunkPairs(0.01, 4, 1000, p), 50);  // capped
    EXPECT_EQ(chunkPairs(1000, 1, 1000, p), 1);   // at least one pair
    EXPECT_EQ(chunkPairs(10, 4, 3, p), 3);        // no more than is left
}

TEST(Scheduler, SuspicionNeedsMoreThanBadLuck) {
    SuspicionLimits l;
    EXPECT_EQ(suspicionReason({100, 3, 0, 0, 0}, l), "");
    EXPECT_EQ(suspicionReason({100, 8, 0, 0, 0}, l), "");  // 3 free + 5% of 100
    EXPECT_EQ(suspicionReason({100, 9, 0, 0, 0}, l), "9 crashes or stalls in 100 games");
    EXPECT_EQ(suspicionReason({10, 0, 0, 4, 0}, l), "4 illegal moves in 10 games");
    EXPECT_EQ(suspicionReason({40, 0, 7, 0, 0}, l), "");
    EXPECT_EQ(suspicionReason({40, 0, 8, 0, 0}, l), "8 time losses in 40 games");
}

TEST(Scheduler, ATestFailsAtItsLimitOfFailedLeasesInARow) {
    EXPECT_EQ(failedLeasesReason(4, 5, "worker 1: engine 'dev' did not start"), "");
    EXPECT_EQ(failedLeasesReason(5, 5, "worker 1: engine 'dev' did not start"),
              "5 leases in a row failed; last: worker 1: engine 'dev' did not start");
    EXPECT_EQ(failedLeasesReason(7, 5, ""), "7 leases in a row failed");
    EXPECT_EQ(failedLeasesReason(1000, 0, "x"), "") << "0: no limit";
    EXPECT_EQ(failedLeasesReason(5, 5, std::string(1000, 'e')).size(),
              std::string("5 leases in a row failed; last: ").size() + 300);
}

TEST(Scheduler, AReportIsAFailedLeaseOnlyWhenEveryGameCrashedOrStalled) {
    EXPECT_TRUE(reportFailed(2, 2, 0));
    EXPECT_TRUE(reportFailed(4, 1, 3));
    EXPECT_FALSE(reportFailed(4, 3, 0)) << "one game played through";
    EXPECT_FALSE(reportFailed(0, 0, 0));
}
