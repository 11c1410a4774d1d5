// Integration: two xq-coordinator replicas on one PostgreSQL server of the test's own (scripts/pg-server.sh),
// three xq-workers given both replicas' addresses, and an SPRT; crashes are real SIGKILLs of a replica and
// of the database server.
#include <gtest/gtest.h>
#include <signal.h>

#include "cluster.h"
#include "store.h"

using namespace xq::coord::testing;
using nlohmann::json;

namespace {

// A throwaway PostgreSQL server, stopped and removed at the end.
struct PgServer {
    TempDir dir;
    std::string script = std::string(XQ_SOURCE_DIR) + "/scripts/pg-server.sh";
    std::string url;

    PgServer() {
        auto r = runCommand({script, "start", dir.file("pg")}, dir.path);
        EXPECT_EQ(r.code, 0) << r.err;
        url = lastLine(r.out);
    }
    ~PgServer() { runCommand({script, "stop", dir.file("pg")}, dir.path); }

    // A crash of the server: SIGKILL to the postmaster and every process it started.
    void kill9() {
        auto r = runCommand({script, "kill", dir.file("pg")}, dir.path);
        EXPECT_EQ(r.code, 0) << r.err;
    }
    void restart() {
        auto r = runCommand({script, "restart", dir.file("pg")}, dir.path);
        EXPECT_EQ(r.code, 0) << r.err;
    }
};

bool finished(const json& v) {
    return v["state"] != "running";
}

std::unique_ptr<Process> startReplica(Cluster& c, int n) {
    std::vector<std::string> argv = {bin("xq-coordinator"), "--data", c.data, "--listen", "127.0.0.1:0"};
    argv.insert(argv.end(), c.coordinatorArgs.begin(), c.coordinatorArgs.end());
    for (const auto& a : c.store.args()) argv.push_back(a);
    auto p = std::make_unique<Process>(argv, c.dir.file("replica" + std::to_string(n) + ".out"),
                                       c.dir.file("replica" + std::to_string(n) + ".err"));
    return p;
}

}  // namespace

TEST(Replicas, AKilledReplicaAndACrashedDatabaseLoseNoAcknowledgedGameAndCountNoneTwice) {
    PgServer pg;
    ASSERT_FALSE(pg.url.empty());
    Cluster c(pg.url);
    c.coordinatorArgs = {
        "--no-approval", "--lease-timeout", "3", "--heartbeat", "1", "--max-chunk-pairs", "2"};
    std::vector<std::unique_ptr<Process>> replicas;
    std::vector<std::string> addresses;
    for (int i = 0; i < 2; ++i) {
        replicas.push_back(startReplica(c, i));
        auto line = replicas.back()->waitForLine("listening on ");
        ASSERT_TRUE(line) << replicas.back()->err();
        addresses.push_back(*line);
    }
    c.address = addresses[0] + "," + addresses[1];  // workers and xq take both

    // Equal engines and narrow bounds: an SPRT that runs to its cap of 60 games unless it decides first.
    auto id = c.submit({"--sprt", "elo0=-5,elo1=5", "--games", "60", "--each", "nodes=600"});
    for (int i = 0; i < 3; ++i) c.startWorker();

    auto before = c.waitFor(id, [](const json& v) { return v["games"].get<int>() >= 8; });
    std::int64_t acknowledged = before["games"];
    replicas[0]->kill(SIGKILL);
    ASSERT_EQ(replicas[0]->wait(), 128 + SIGKILL);
    // The workers move over to the replica that is left, and the test goes on there.
    auto moved = c.waitFor(
        id, [&](const json& v) { return finished(v) || v["games"].get<int>() >= acknowledged + 8; });
    EXPECT_GE(moved["games"].get<std::int64_t>(), acknowledged) << "acknowledged games were lost";

    acknowledged = moved["games"];
    // Narrow bounds between equal engines decide within 60 games only rarely: the test is still running.
    ASSERT_FALSE(finished(moved)) << moved.dump();
    pg.kill9();
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // replicas and workers see it gone
    pg.restart();
    auto view = c.waitFor(id, finished, std::chrono::seconds(150));
    EXPECT_EQ(view["state"], "finished") << c.workerLogs() << replicas[1]->err();
    EXPECT_GE(view["games"].get<std::int64_t>(), acknowledged) << "acknowledged games were lost";
    EXPECT_EQ(pentaGames(view), view["games"].get<std::int64_t>());
    EXPECT_EQ(wdlGames(view), view["games"].get<std::int64_t>());

    // The store holds each counted pair once, and exactly the pairs its reports acknowledged.
    replicas[1]->kill(SIGTERM);
    replicas[1]->wait();
    xq::coord::Store store(c.store.url);
    EXPECT_EQ(2 * store.countPairs(std::int64_t(id)), view["games"].get<std::int64_t>());
    auto s = store.db().prepare(
        "SELECT COALESCE(SUM(r.pairs), 0) FROM reports r JOIN leases l ON l.id = r.lease_id WHERE l.test_id "
        "= ?");
    s.bind(1, std::int64_t(id));
    ASSERT_TRUE(s.step());
    EXPECT_EQ(s.int64(0), store.countPairs(std::int64_t(id)));
}
