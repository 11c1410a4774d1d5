#include "store.h"

#include <gtest/gtest.h>

#include "schema_rewind.h"
#include "test_store.h"
#include "test_util.h"

using namespace xq::coord;
using xq::coord::testing::rewindSchema;
using xq::coord::testing::TempDir;
using xq::coord::testing::TestStore;

TEST(Store, CreatesAndMigratesTheSchema) {
    TempDir dir;
    TestStore ts;
    Store store(ts.address(dir.file("c.db")));
    EXPECT_EQ(store.schemaVersion(), SchemaVersion);
    if (store.db().dialect() == Dialect::Postgres) return;
    auto s = store.db().prepare("PRAGMA journal_mode");
    ASSERT_TRUE(s.step());
    EXPECT_EQ(s.text(0), "wal");
}

TEST(Store, RefusesADatabaseFromTheFuture) {
    TempDir dir;
    TestStore ts;
    {
        Store store(ts.address(dir.file("c.db")));
        store.db().setUserVersion(99);
    }
    EXPECT_THROW(Store(ts.address(dir.file("c.db"))), std::runtime_error);
}

TEST(Store, DataSurvivesReopening) {
    TempDir dir;
    TestStore ts;
    std::int64_t id;
    {
        Store store(ts.address(dir.file("c.db")));
        id = store.insertTest("match", "spec-bytes", 50, 1000);
        TestRow t = *store.findTest(id);
        t.penta = {1, 2, 3, 4, 5};
        t.wdl = {10, 10, 10};
        t.llr = 1.25;
        store.saveTest(t);
        store.insertToken("hash1", "user", "alice", 1);
    }
    Store store(ts.address(dir.file("c.db")));
    auto t = store.findTest(id);
    ASSERT_TRUE(t);
    EXPECT_EQ(t->spec, "spec-bytes");
    EXPECT_EQ(t->pairsDone(), 15);
    EXPECT_DOUBLE_EQ(t->llr, 1.25);
    EXPECT_EQ(t->state, TestState::Running);
    auto tok = store.findToken("hash1");
    ASSERT_TRUE(tok);
    EXPECT_EQ(tok->name, "alice");
    EXPECT_FALSE(store.findToken("hash2"));
}

TEST(Store, ReportsAreIdempotentByLeaseAndSequence) {
    TempDir dir;
    TestStore ts;
    Store store(ts.address(dir.file("c.db")));
    EXPECT_TRUE(store.insertReport(1, 1, 2, 0));
    EXPECT_TRUE(store.insertReport(1, 2, 2, 0));
    EXPECT_FALSE(store.insertReport(1, 1, 2, 0));
    EXPECT_TRUE(store.insertReport(2, 1, 2, 0));
}

TEST(Store, APairIsCountedOnce) {
    TempDir dir;
    TestStore ts;
    Store store(ts.address(dir.file("c.db")));
    store.insertPairs(1, 1, {{0, 2}, {1, 3}});
    EXPECT_THROW(store.insertPairs(1, 2, {{1, 4}}), std::runtime_error);
    store.insertPairs(2, 3, {{1, 4}});  // another test may use the same index
    EXPECT_EQ(store.countPairs(1), 2);
}

TEST(Store, OutstandingPairsCountOnlyActiveLeases) {
    TempDir dir;
    TestStore ts;
    Store store(ts.address(dir.file("c.db")));
    std::int64_t test = store.insertTest("match", "", 100, 0);
    WorkerRow w;
    w.name = "w";
    std::int64_t worker = store.insertWorker(w);
    LeaseRow a{0, test, worker, 0, 10, 4, LeaseState::Active, 2, 0, 0};
    LeaseRow b{0, test, worker, 10, 10, 0, LeaseState::Expired, 2, 0, 0};
    a.id = store.insertLease(a);
    store.insertLease(b);
    EXPECT_EQ(store.outstandingPairs(test), 6);
    EXPECT_EQ(store.activeConcurrency(test), 2);
    a.state = LeaseState::Done;
    store.saveLease(a);
    EXPECT_EQ(store.outstandingPairs(test), 0);
}

// The load a test's row keeps (schema 7's triggers) against the sums over its active leases, through
// every way a lease changes: handed out, reported on, finished, expired, released, handed out to another.
TEST(Store, ATestsKeptLoadFollowsItsLeasesThroughEveryChange) {
    TempDir dir;
    TestStore ts;
    Store store(ts.address(dir.file("c.db")));
    std::int64_t test = store.insertTest("match", "", 100, 0), other = store.insertTest("match", "", 100, 0);
    WorkerRow w;
    w.name = "w";
    std::int64_t worker = store.insertWorker(w);
    auto agrees = [&](const char* after) {
        for (auto t : {test, other}) {
            auto [cores, pairs] = store.activeLoad(t);
            EXPECT_EQ(cores, store.activeConcurrency(t)) << after;
            EXPECT_EQ(pairs, store.outstandingPairs(t)) << after;
            EXPECT_EQ(store.findTest(t)->activeCores, cores) << after;
            EXPECT_EQ(store.findTest(t)->outstandingPairs, pairs) << after;
        }
    };
    LeaseRow a{0, test, worker, 0, 10, 0, LeaseState::Active, 3, 0, 0};
    LeaseRow b{0, test, worker, 10, 6, 0, LeaseState::Active, 2, 0, 0};
    LeaseRow c{0, other, worker, 0, 4, 0, LeaseState::Active, 8, 0, 0};
    a.id = store.insertLease(a);
    b.id = store.insertLease(b, 12345);
    c.id = store.insertLease(c);
    agrees("inserts");
    EXPECT_EQ(store.activeLoad(test), std::make_pair(std::int64_t(5), std::int64_t(16)));
    a.pairsDone = 4;
    a.lastSequence = 1;
    store.saveLease(a, 99999);
    agrees("a report");
    a.lastSequence = 2;
    store.saveLease(a);  // nothing the load depends on
    agrees("a repeated save");
    a.pairsDone = 10;
    a.state = LeaseState::Done;
    store.saveLease(a);
    agrees("a finished lease");
    b.pairsDone = 1;
    b.state = LeaseState::Expired;
    store.saveLease(b);
    agrees("an expired lease");
    b.state = LeaseState::Released;  // an ended lease that changes again counts nothing
    store.saveLease(b);
    agrees("an ended lease saved again");
    c.state = LeaseState::Released;
    store.saveLease(c);
    agrees("a released lease");
    EXPECT_EQ(store.activeLoad(test), std::make_pair(std::int64_t(0), std::int64_t(0)));
    EXPECT_EQ(store.activeLoad(other), std::make_pair(std::int64_t(0), std::int64_t(0)));
}

// A store from before schema 7 gets its tests' load counted from the leases it already holds.
TEST(Store, MigratingToTheKeptLoadCountsTheActiveLeasesAlreadyThere) {
    TempDir dir;
    TestStore ts;
    std::string address = ts.address(dir.file("c.db"));
    std::int64_t test;
    {
        Store store(address);
        test = store.insertTest("match", "", 100, 0);
        WorkerRow w;
        w.name = "w";
        std::int64_t worker = store.insertWorker(w);
        store.insertLease({0, test, worker, 0, 10, 3, LeaseState::Active, 2, 0, 0});
        store.insertLease({0, test, worker, 10, 10, 0, LeaseState::Expired, 2, 0, 0});
        // Back to schema 6: 7's ALTER TABLE then makes the load columns zero, as on an old store.
        rewindSchema(store.db(), 6);
    }
    Store store(address);
    EXPECT_EQ(store.schemaVersion(), SchemaVersion);
    EXPECT_EQ(store.activeLoad(test), std::make_pair(std::int64_t(2), std::int64_t(7)));
}

TEST(Store, WorkerStatsAccumulate) {
    TempDir dir;
    TestStore ts;
    Store store(ts.address(dir.file("c.db")));
    EXPECT_EQ(store.addWorkerTestStats(1, 7, 4, {1, 0, 0, 0}).games, 4);
    auto now = store.addWorkerTestStats(1, 7, 6, {0, 2, 1, 0});  // the row as it is after the addition
    EXPECT_EQ(now.games, 10);
    EXPECT_EQ(now.failures.crashes, 1);
    EXPECT_EQ(now.failures.timeLosses, 2);
    EXPECT_EQ(now.failures.illegalMoves, 1);
    EXPECT_FALSE(now.suspended);
    auto rows = store.workerTestStats(1);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].games, 10);
    EXPECT_EQ(rows[0].failures.total(), 4);
    EXPECT_FALSE(store.isSuspended(1, 7));
    store.setSuspended(1, 7);
    EXPECT_TRUE(store.isSuspended(1, 7));
}

TEST(Store, NetworksAreArtifactsOfTheirKindWithTheTestsThatUsedThem) {
    TempDir dir;
    TestStore ts;
    std::string address = ts.address(dir.file("c.db"));
    const std::string net(64, 'a'), engine(64, 'b');
    {
        Store store(address);
        store.insertArtifact(engine, 10, "engine", 1000);
        store.insertArtifact(net, 20, "dev.nnue", 2000);
        // Back to schema 9: the artifacts survive the migration, as no kind.
        rewindSchema(store.db(), 9);
    }
    Store store(address);
    EXPECT_EQ(store.schemaVersion(), SchemaVersion);
    EXPECT_EQ(store.listArtifacts(10).size(), 2u);
    EXPECT_TRUE(store.listArtifacts(10, "net").empty());
    store.setArtifactKind(net, "net");
    store.setArtifactKind(net, "other");  // the first kind stays
    store.insertTestArtifact(7, net, "dev network");
    store.insertTestArtifact(7, net, "dev network");  // a repeat is ignored
    store.insertTestArtifact(3, net, "base network");
    auto nets = store.listArtifacts(10, "net");
    ASSERT_EQ(nets.size(), 1u);
    EXPECT_EQ(nets[0].sha256, net);
    EXPECT_EQ(nets[0].size, 20);
    EXPECT_EQ(nets[0].createdMs, 2000);
    EXPECT_EQ(nets[0].kind, "net");
    EXPECT_EQ(store.testsOfArtifact(net), (std::vector<std::int64_t>{3, 7}));
    EXPECT_TRUE(store.testsOfArtifact(engine).empty());
    EXPECT_EQ(store.findArtifact(engine)->kind, "");
    EXPECT_FALSE(store.findArtifact(std::string(64, 'c')));
}

TEST(Store, AnEventThatRepeatsARecentOneIsCountedInsteadOfStoredAgain) {
    TempDir dir;
    TestStore ts;
    Store store(ts.address(dir.file("c.db")));
    std::int64_t id = store.insertTest("match", "", 10, 1000);
    std::int64_t other = store.insertTest("match", "", 10, 1000);
    const std::string one = "worker 1 could not play: engine 'dev' did not start";
    const std::string two = "worker 2 could not play: engine 'dev' did not start";
    for (int i = 0; i < 12; ++i) store.addEvent(id, 2000 + i, one);
    store.addEvent(other, 3000, one);  // another test's events are apart
    EXPECT_EQ(store.events(id), std::vector<std::string>{one + " (x12)"});
    // Two workers failing in turn: each line is counted, the latest last.
    store.addEvent(id, 4000, two);
    store.addEvent(id, 4001, one);
    store.addEvent(id, 4002, two);
    EXPECT_EQ(store.events(id), (std::vector<std::string>{one + " (x13)", two + " (x2)"}));
    store.addEvent(id, 4004, "stopped");
    EXPECT_EQ(store.events(id), (std::vector<std::string>{one + " (x13)", two + " (x2)", "stopped"}));
    EXPECT_EQ(store.events(other), std::vector<std::string>{one});
}
