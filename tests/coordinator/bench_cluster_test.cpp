// Integration: cluster benchmarks and bench signatures with real xq-coordinator, xq-worker, xq and
// xq-engine processes on loopback.
#include <gtest/gtest.h>

#include <thread>

#include "cluster.h"

using namespace xq::coord::testing;
using nlohmann::json;

namespace {

// Waits until the coordinator lists `n` live workers.
void waitForLiveWorkers(Cluster& c, std::size_t n) {
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < end) {
        auto r = c.xq({"workers", "--json"});
        ASSERT_EQ(r.code, 0) << r.err;
        std::size_t alive = 0;
        for (const auto& w : json::parse(r.out)) alive += w["alive"].get<bool>();
        if (alive >= n) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    FAIL() << "workers did not register: " << c.workerLogs();
}

std::uint64_t localBenchNodes(const std::string& depth) {
    TempDir scratch;
    auto r = runCommand({bin("xq-engine"), "bench", depth}, scratch.path);
    EXPECT_EQ(r.code, 0) << r.err;
    auto at = r.out.find("Nodes searched:");
    EXPECT_NE(at, std::string::npos) << r.out;
    return at == std::string::npos ? 0 : std::stoull(r.out.substr(at + 15));
}

}  // namespace

TEST(ClusterBench, EveryWorkerReportsTheSameNodeCountAndHistoryKeepsTheRun) {
    Cluster c;
    c.startCoordinator();
    c.startWorker();
    c.startWorker();
    waitForLiveWorkers(c, 2);
    auto r = c.xq({"bench", "--cluster", "--json", "--depth", "6", "--repeats", "2", "--wait", "60"});
    ASSERT_EQ(r.code, 0) << r.err << c.workerLogs();
    json run = json::parse(r.out);
    ASSERT_EQ(run["workers"].size(), 2u) << run.dump();
    std::uint64_t expected = localBenchNodes("6");  // the same engine run here, one thread
    ASSERT_GT(expected, 0u);
    std::uint64_t sum = 0;
    for (const auto& w : run["workers"]) {
        EXPECT_TRUE(w["done"].get<bool>()) << w.dump();
        EXPECT_FALSE(w.contains("error")) << w.dump();
        EXPECT_EQ(w["nodes"].get<std::uint64_t>(), expected) << w.dump();
        EXPECT_GT(w["nps"].get<std::uint64_t>(), 0u);
        EXPECT_LE(w["nps_min"].get<std::uint64_t>(), w["nps_max"].get<std::uint64_t>());
        EXPECT_EQ(w["repeats"].get<int>(), 2);
        EXPECT_EQ(w["threads"].get<int>(), 1);
        EXPECT_GT(w["cores"].get<int>(), 0);
        sum += w["nps"].get<std::uint64_t>();
    }
    EXPECT_EQ(run["total"]["nps"].get<std::uint64_t>(), sum);
    EXPECT_EQ(run["total"]["workers"].get<int>(), 2);
    EXPECT_TRUE(run["total"]["same_nodes"].get<bool>());

    // The table form, and the history across runs (newest first), also after a coordinator restart.
    auto table = c.xq({"bench", "--cluster", "--depth", "5", "--wait", "60"});
    ASSERT_EQ(table.code, 0) << table.err;
    EXPECT_NE(table.out.find("total: "), std::string::npos) << table.out;
    c.coordinator->kill(SIGTERM);
    c.coordinator->wait(std::chrono::seconds(10));
    c.startCoordinator();
    auto history = c.xq({"bench", "--history", "--json"});
    ASSERT_EQ(history.code, 0) << history.err;
    json runs = json::parse(history.out);
    ASSERT_EQ(runs.size(), 2u) << runs.dump();
    EXPECT_EQ(runs[1]["id"], run["id"]);
    EXPECT_EQ(runs[1]["total"]["nodes"].get<std::uint64_t>(), expected);
    EXPECT_EQ(runs[0]["total"]["nodes"].get<std::uint64_t>(), localBenchNodes("5"));
    auto historyTable = c.xq({"bench", "--history"});
    ASSERT_EQ(historyTable.code, 0) << historyTable.err;
    EXPECT_NE(historyTable.out.find("total nps"), std::string::npos) << historyTable.out;
}

TEST(ClusterBench, NoLiveWorkerIsAClearError) {
    Cluster c;
    c.startCoordinator();
    auto r = c.xq({"bench", "--cluster", "--wait", "5"});
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("no live worker"), std::string::npos) << r.err;
}

TEST(BenchSignature, AMismatchStopsTheJobWithAClearError) {
    Cluster c;
    c.startCoordinator();
    auto id = c.submit({"--games", "2", "--each", "nodes=200", "--dev-signature", "12345"});
    c.startWorker();
    auto view = c.waitFor(id, [](const json& v) {
        for (const auto& e : v["events"])
            if (e.get<std::string>().find("bench signature mismatch") != std::string::npos) return true;
        return false;
    });
    EXPECT_EQ(view["games"].get<std::int64_t>(), 0) << view.dump();
    EXPECT_EQ(view["state"], "running");
    bool named = false;
    for (const auto& e : view["events"])
        named = named || e.get<std::string>().find("submitted 12345") != std::string::npos;
    EXPECT_TRUE(named) << view.dump();
    auto text = c.xq({"show", std::to_string(id)});
    EXPECT_NE(text.out.find("bench signature mismatch for the dev engine"), std::string::npos) << text.out;
}

TEST(BenchSignature, MatchingSignaturesComputedBySubmitArePlayedWithAScaledClock) {
    Cluster c;
    c.startCoordinator();
    auto id =
        c.submit({"--games", "2", "--each", "nodes=200", "--bench-signatures", "--reference-nps", "1000000"});
    c.startWorker();
    auto view = c.waitFor(id, [](const json& v) { return v["state"] != "running"; });
    EXPECT_EQ(view["state"], "finished") << view.dump() << c.workerLogs();
    EXPECT_EQ(view["games"].get<std::int64_t>(), 2);
    // The clock was stated for a reference speed: the worker measured its own and scaled by the ratio.
    EXPECT_NE(c.workers[0]->err().find("clock scaled by"), std::string::npos) << c.workerLogs();
}

TEST(LocalBench, RunsTheEngineHereWithTheSameNodeCount) {
    TempDir scratch;
    auto r = runCommand(
        {bin("xq"), "bench", "--engine", bin("xq-engine"), "--depth", "4", "--repeats", "2", "--json"},
        scratch.path);
    ASSERT_EQ(r.code, 0) << r.err;
    json out = json::parse(r.out);
    ASSERT_EQ(out["runs"].size(), 2u);
    auto expected = localBenchNodes("4");
    for (const auto& run : out["runs"]) EXPECT_EQ(run["nodes"].get<std::uint64_t>(), expected);
    auto missing = runCommand({bin("xq"), "bench", "--engine", scratch.path + "/no-engine"}, scratch.path);
    EXPECT_NE(missing.code, 0);
    EXPECT_NE(missing.err.find("no-engine"), std::string::npos) << missing.err;
}
