// Integration: xq-coordinator, xq-worker and xq as real processes on loopback, playing real games with
// xq-engine, with real SQLite files; crashes are real SIGKILLs.
#include "cluster.h"

#include <gtest/gtest.h>

#include <fstream>

#include "store.h"
#include "util/sha256.h"

using namespace xq::coord::testing;
using nlohmann::json;

namespace {

bool finished(const json& v) {
    return v["state"] != "running";
}

// Engines at different node counts, so that games are not all alike; with wide SPRT bounds a verdict
// (whichever way) comes within a few pairs.
const std::vector<std::string> Lopsided = {"--each", "nodes=1000", "--base-option", "nodes=50"};

}  // namespace

TEST(Cluster, TwoWorkersPlayAnSprtToAVerdict) {
    Cluster c;
    c.startCoordinator();
    std::vector<std::string> args = {"--sprt", "elo0=0,elo1=150"};
    args.insert(args.end(), Lopsided.begin(), Lopsided.end());
    auto id = c.submit(args);
    c.startWorker();
    c.startWorker();
    auto view = c.waitFor(id, finished, std::chrono::seconds(120));
    EXPECT_EQ(view["state"], "finished") << c.workerLogs();
    std::string result = view["result"];
    EXPECT_TRUE(result == "H1 accepted" || result == "H0 accepted") << result;
    if (result == "H1 accepted")
        EXPECT_GT(view["llr"].get<double>(), view["bounds"][1].get<double>());
    else
        EXPECT_LT(view["llr"].get<double>(), view["bounds"][0].get<double>());
    EXPECT_EQ(pentaGames(view), view["games"].get<std::int64_t>());
    EXPECT_EQ(wdlGames(view), view["games"].get<std::int64_t>());
    // Both workers played (leases are at most 2 pairs, so one worker cannot take everything).
    std::int64_t perWorker = 0;
    int active = 0;
    for (const auto& w : view["workers"]) {
        perWorker += w["games"].get<std::int64_t>();
        active += w["games"].get<std::int64_t>() > 0;
    }
    EXPECT_EQ(active, 2) << view.dump();
    EXPECT_GE(perWorker, view["games"].get<std::int64_t>());
    // Workers are told to stop and go idle; `xq tests` lists the finished test.
    auto list = c.xq({"tests", "--json"});
    ASSERT_EQ(list.code, 0) << list.err;
    EXPECT_EQ(json::parse(list.out)[0]["state"], "finished");
    auto workers = c.xq({"workers", "--json"});
    ASSERT_EQ(workers.code, 0) << workers.err;
    EXPECT_EQ(json::parse(workers.out).size(), 2u);
    // Each worker measured its engine speed with a short bench before registering.
    for (const auto& w : json::parse(workers.out)) EXPECT_GT(w.value("engine_nps", 0), 0) << w.dump();
    // SIGTERM: workers exit cleanly.
    for (auto& w : c.workers) w->kill(SIGTERM);
    for (auto& w : c.workers) EXPECT_EQ(w->wait(std::chrono::seconds(20)), 0) << w->err();
}

TEST(Cluster, CoordinatorKilledMidTestLosesNothingAndCountsNothingTwice) {
    Cluster c;
    c.startCoordinator();
    std::vector<std::string> args = {"--games", "24"};
    args.insert(args.end(), Lopsided.begin(), Lopsided.end());
    auto id = c.submit(args);
    c.startWorker();
    c.startWorker();
    auto before = c.waitFor(id, [](const json& v) { return v["games"].get<int>() >= 6; });
    std::int64_t acknowledged = before["games"];
    c.coordinator->kill(SIGKILL);
    ASSERT_EQ(c.coordinator->wait(), 128 + SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // workers keep playing and retrying
    c.startCoordinator();
    auto after = c.show(id);
    EXPECT_GE(after["games"].get<std::int64_t>(), acknowledged) << "acknowledged games were lost";
    auto view = c.waitFor(id, finished, std::chrono::seconds(120));
    EXPECT_EQ(view["state"], "finished") << c.workerLogs();
    EXPECT_EQ(view["games"], 24) << view.dump();
    EXPECT_EQ(pentaGames(view), 24);
    EXPECT_EQ(wdlGames(view), 24);
    // Every counted pair is recorded once in the database.
    c.coordinator->kill(SIGTERM);
    c.coordinator->wait();
    xq::coord::Store store(c.store.address(c.data + "/coordinator.db"));
    EXPECT_EQ(store.countPairs(std::int64_t(id)), 12);
}

TEST(Cluster, AnEngineChangedInAWorkersCacheBetweenLeasesIsFetchedAgain) {
    Cluster c;
    c.startCoordinator();
    c.startWorker();
    auto first = c.submit({"--each", "nodes=100", "--games", "2"});
    auto view = c.waitFor(first, finished);
    ASSERT_EQ(view["state"], "finished") << c.workerLogs();
    const std::string sha = view["dev"]["sha256"];
    const std::string cached = c.dir.file("cache0") + "/" + sha;
    ASSERT_EQ(xq::sha256File(cached), sha);
    // One byte changed in place: same size, same inode; the worker already verified this file once.
    {
        std::fstream f(cached, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(1000);
        char byte = 0;
        f.get(byte);
        f.seekp(1000);
        f.put(char(byte ^ 0x5a));
    }
    ASSERT_NE(xq::sha256File(cached), sha);
    auto second = c.submit({"--each", "nodes=100", "--games", "2"});
    view = c.waitFor(second, finished);
    EXPECT_EQ(view["state"], "finished") << c.workerLogs();
    EXPECT_EQ(view["failures"]["crashes"], 0) << c.workerLogs();
    EXPECT_EQ(xq::sha256File(cached), sha) << "the changed file was not fetched again";
}

TEST(Cluster, KilledWorkersLeaseExpiresAndAnotherWorkerFinishes) {
    Cluster c;
    c.coordinatorArgs = {
        "--no-approval", "--lease-timeout", "3", "--heartbeat", "1", "--max-chunk-pairs", "4"};
    c.startCoordinator();
    // Slow enough dev searches (tens of ms a move) that the kill lands inside a lease with pairs left.
    auto id = c.submit({"--games", "12", "--each", "nodes=20000", "--base-option", "nodes=50"});
    Process& first = c.startWorker();
    c.waitFor(id, [](const json& v) { return v["games"].get<int>() >= 2; });
    first.kill(SIGKILL);
    first.wait();
    auto atKill = c.show(id);
    c.startWorker();
    auto view = c.waitFor(id, finished, std::chrono::seconds(120));
    EXPECT_EQ(view["state"], "finished") << c.workerLogs();
    EXPECT_EQ(view["games"], 12);
    bool expired = false;
    for (const auto& e : view["events"]) expired |= e.get<std::string>().find("expired") != std::string::npos;
    EXPECT_TRUE(expired) << view.dump();
    ASSERT_EQ(view["workers"].size(), 2u);
    EXPECT_EQ(view["workers"][0]["games"], atKill["games"]);  // the dead worker's games still count
    EXPECT_EQ(view["workers"][1]["games"].get<int>(), 12 - atKill["games"].get<int>());
}

TEST(Cluster, BadTokensAreRefused) {
    Cluster c;
    c.startCoordinator();
    auto r = c.xq({"tests"}, "xq_not-a-real-token");
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("UNAUTHENTICATED"), std::string::npos) << r.err;
    // A worker token cannot submit.
    r = c.xq({"submit", "--base", bin("xq-engine"), "--dev", bin("xq-engine"), "--each", "nodes=100",
              "--games", "2", "--no-openings"},
             c.workerToken);
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("PERMISSION_DENIED"), std::string::npos) << r.err;
    // A worker with a bad token stops with a clear error instead of retrying for ever.
    Process& w = c.startWorker("xq_wrong");
    EXPECT_EQ(w.wait(std::chrono::seconds(20)), 1);
    EXPECT_NE(w.err().find("UNAUTHENTICATED"), std::string::npos) << w.err();
    r = c.xq({"tests", "--json"});
    ASSERT_EQ(r.code, 0);
    EXPECT_EQ(json::parse(r.out).size(), 0u);
}

TEST(Cluster, TamperedArtifactIsNeverRun) {
    Cluster c;
    c.startCoordinator();
    // A copy of the engine as dev, so that tampering with it leaves base intact.
    std::string dev = c.dir.file("dev-engine");
    std::filesystem::copy_file(bin("xq-engine"), dev);
    std::filesystem::permissions(dev, std::filesystem::perms::owner_all);
    { std::ofstream(dev, std::ios::app) << "build-id"; }
    auto r = c.xq({"submit", "--base", bin("xq-engine"), "--dev", dev, "--each", "nodes=100", "--games", "4",
                   "--no-openings"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto id = std::stoull(lastLine(r.out));
    auto view = c.show(id);
    std::string sha = view["dev"]["sha256"];
    // Someone changes the stored binary behind the coordinator's back.
    std::ofstream(c.data + "/artifacts/" + sha, std::ios::app) << "evil";
    c.startWorker();
    // The worker refuses it, and the coordinator, finding its copy damaged, fails the test saying which.
    view = c.waitFor(id, [](const json& v) { return v["state"] == "failed"; });
    EXPECT_EQ(view["games"], 0);
    bool refused = false;
    for (const auto& e : view["events"])
        refused |= e.get<std::string>().find("failed verification") != std::string::npos;
    EXPECT_TRUE(refused) << view.dump();
    EXPECT_NE(view["result"].get<std::string>().find("dev engine binary " + sha + " is damaged"),
              std::string::npos)
        << view.dump();
}

TEST(Cluster, OversizedAndMalformedRequestsGetClearErrors) {
    Cluster c;
    c.coordinatorArgs = {"--no-approval", "--max-message-bytes", "65536"};
    c.startCoordinator();
    // Bad settings are caught with a message naming them.
    auto r = c.xq({"submit", "--base", bin("xq-engine"), "--dev", bin("xq-engine"), "--each", "nodes=100",
                   "--sprt", "elo0=zero,elo1=5", "--no-openings"});
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("elo0"), std::string::npos) << r.err;
    r = c.xq({"submit", "--base", bin("xq-engine"), "--dev", bin("xq-engine"), "--each", "tc=fast", "--games",
              "2", "--no-openings"});
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("INVALID_ARGUMENT"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("time control"), std::string::npos) << r.err;
    // Oversized: a description far over the message limit.
    r = c.xq({"submit", "--base", bin("xq-engine"), "--dev", bin("xq-engine"), "--each", "nodes=100",
              "--games", "2", "--no-openings", "--description", std::string(100000, 'x')});
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("RESOURCE_EXHAUSTED"), std::string::npos) << r.err;
    r = c.xq({"show", "999"});
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("NOT_FOUND"), std::string::npos) << r.err;
    // Nothing was stored, and the coordinator is still serving.
    r = c.xq({"tests", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(json::parse(r.out).size(), 0u);
    EXPECT_TRUE(c.coordinator->running());
}
