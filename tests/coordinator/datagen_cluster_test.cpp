// Integration: a datagen test run by xq-coordinator and two xq-worker processes playing xq-engine on
// loopback with a real SQLite file, exported with `xq data export --test`; and a coordinator killed with
// SIGKILL in the middle of one.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <unordered_set>

#include "cluster.h"
#include "dataset.h"
#include "xiangqi/position.h"

using namespace xq::coord::testing;
using nlohmann::json;

namespace {

bool finished(const json& v) {
    return v["state"] != "running";
}

// Small and fast: games at 150 nodes in slices of 2 games, a chunk every 8 positions.
std::uint64_t submitDatagen(Cluster& c, const std::string& games, const std::string& sliceGames = "2") {
    auto r =
        c.xq({"submit", "datagen", "--engine", bin("xq-engine"), "--games", games, "--nodes", "150",
              "--random-plies", "4", "--slice-games", sliceGames, "--chunk-positions", "8", "--seed", "11"});
    EXPECT_EQ(r.code, 0) << r.err;
    return std::stoull(lastLine(r.out));
}

std::set<std::string> fensOf(const std::string& path) {
    std::set<std::string> out;
    xq::tuner::readDataFile(path,
                            [&](const xq::tuner::LabeledPosition& p) { return out.insert(p.fen), true; });
    return out;
}

// The same seed and settings played locally in one process: slices fix each game's opening and sampling
// wherever it is played, so a distributed run must give the same positions.
std::set<std::string> localRun(Cluster& c, const std::string& games) {
    std::string out = c.dir.file("local-" + games + ".txt");
    auto r = runCommand({bin("xq"), "datagen", "--engine", bin("xq-engine"), "--games", games, "--nodes",
                         "150", "--random-plies", "4", "--seed", "11", "--out", out},
                        c.dir.path);
    EXPECT_EQ(r.code, 0) << r.err;
    return fensOf(out);
}

// Slices whose live chunks come from more than one lease: each would be counted twice.
std::vector<std::uint64_t> slicesOfSeveralLeases(Cluster& c, std::uint64_t id, std::size_t expectedSlices) {
    auto list = c.xq({"data", "list", "--test", std::to_string(id), "--json"});
    EXPECT_EQ(list.code, 0) << list.err;
    json listed = json::parse(list.out);
    std::map<std::uint64_t, std::set<std::string>> leasesOfSlice;
    for (const auto& f : listed["files"]) {
        std::string file = f["file"];  // data/test-T/s<slice>-l<lease>-q<sequence>-<hash>.txt.gz
        auto l = file.find("-l"), q = file.find("-q");
        leasesOfSlice[f["slice"]].insert(file.substr(l, q - l));
    }
    EXPECT_EQ(leasesOfSlice.size(), expectedSlices);
    std::vector<std::uint64_t> bad;
    for (const auto& [slice, leases] : leasesOfSlice)
        if (leases.size() != 1) bad.push_back(slice);
    return bad;
}

// Waits until `n` workers have registered (each measures its engine speed first, which takes a moment
// that varies), so that work submitted next is shared between them.
void waitForWorkers(Cluster& c, std::size_t n) {
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < end) {
        auto r = c.xq({"workers", "--json"});
        if (r.code == 0 && json::parse(r.out).size() >= n) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ADD_FAILURE() << "workers did not register: " << c.workerLogs();
}

std::string exportPath(Cluster& c, std::uint64_t id) {
    return c.dir.file("export-" + std::to_string(id) + ".txt");
}

struct Exported {
    std::int64_t lines = 0, distinct = 0;
    json counts;
};

// Exports the test's data through the coordinator and checks every line of the file.
Exported exportAndCheck(Cluster& c, std::uint64_t id) {
    Exported e;
    std::string out = exportPath(c, id);
    auto r = c.xq({"data", "export", "--test", std::to_string(id), "--out", out, "--json"});
    EXPECT_EQ(r.code, 0) << r.err;
    e.counts = json::parse(r.out);
    std::ifstream in(out);
    std::string line;
    std::unordered_set<std::uint64_t> keys;
    while (std::getline(in, line)) {
        xq::tuner::LabeledPosition p;
        EXPECT_NO_THROW(EXPECT_TRUE(xq::tuner::parseDataLine(line, p)) << line) << line;
        EXPECT_TRUE(p.result == 0.0f || p.result == 0.5f || p.result == 1.0f) << line;
        keys.insert(xq::Position(p.fen).key());
        ++e.lines;
    }
    e.distinct = std::int64_t(keys.size());
    return e;
}

}  // namespace

TEST(DatagenCluster, TwoWorkersGenerateAndExportDeduplicatedPositions) {
    Cluster c;
    c.startCoordinator();
    c.startWorker();
    c.startWorker();
    waitForWorkers(c, 2);
    auto id = submitDatagen(c, "8");
    auto view = c.waitFor(id, finished, std::chrono::seconds(60));
    ASSERT_EQ(view["state"], "finished") << c.workerLogs();
    EXPECT_EQ(view["kind"], "datagen");
    EXPECT_FALSE(view.contains("wdl")) << "a datagen test has no match result to show";
    EXPECT_FALSE(view.contains("elo"));
    EXPECT_EQ(view["games"], 8);
    EXPECT_EQ(view["datagen"]["slices_done"], 4);
    std::int64_t stored = view["datagen"]["positions"];
    EXPECT_GT(stored, 8);
    int workersWithGames = 0;
    for (const auto& w : view["workers"]) workersWithGames += w["games"].get<int>() > 0;
    EXPECT_EQ(workersWithGames, 2) << view.dump();

    // The listing adds up to what the test shows, chunk by chunk, with files under DATA/data/.
    auto list = c.xq({"data", "list", "--test", std::to_string(id), "--json"});
    ASSERT_EQ(list.code, 0) << list.err;
    json listed = json::parse(list.out);
    std::int64_t sum = 0;
    std::set<std::uint64_t> slices, workers;
    for (const auto& f : listed["files"]) {
        sum += f["positions"].get<std::int64_t>();
        slices.insert(f["slice"].get<std::uint64_t>());
        workers.insert(f["worker"].get<std::uint64_t>());
        EXPECT_TRUE(f["slice_done"].get<bool>());
        EXPECT_TRUE(std::filesystem::exists(c.data + "/" + f["file"].get<std::string>())) << f.dump();
    }
    EXPECT_EQ(sum, stored);
    EXPECT_EQ(listed["positions"], stored);
    EXPECT_EQ(slices.size(), 4u);
    EXPECT_EQ(workers.size(), 2u);

    Exported e = exportAndCheck(c, id);
    EXPECT_EQ(e.counts["listed_positions"], stored);
    EXPECT_EQ(e.counts["positions"].get<std::int64_t>() + e.counts["duplicates"].get<std::int64_t>(), stored);
    EXPECT_EQ(e.lines, e.counts["positions"].get<std::int64_t>());
    EXPECT_EQ(e.distinct, e.lines) << "the export holds repeated positions";

    EXPECT_EQ(localRun(c, "8"), fensOf(exportPath(c, id)));

    auto tests = c.xq({"tests"});
    ASSERT_EQ(tests.code, 0) << tests.err;
    EXPECT_NE(tests.out.find("datagen"), std::string::npos) << tests.out;
    auto show = c.xq({"show", std::to_string(id)});
    EXPECT_NE(show.out.find(std::to_string(stored) + " positions"), std::string::npos) << show.out;
    // The coordinator's chunk files are plain gzip `FEN ; result` files the local export reads too.
    auto local = runCommand(
        {bin("xq"), "data", "stats", c.data + "/data/test-" + std::to_string(id), "--json"}, c.dir.path);
    ASSERT_EQ(local.code, 0) << local.err;
    EXPECT_EQ(json::parse(local.out)["positions"], e.counts["positions"]);
}

TEST(DatagenCluster, CoordinatorKilledMidRunKeepsAcknowledgedChunksAndCountsNothingTwice) {
    Cluster c;
    c.startCoordinator();
    auto id = submitDatagen(c, "12");
    c.startWorker();
    c.startWorker();
    auto before = c.waitFor(id, [](const json& v) { return v["datagen"]["chunks"].get<int>() >= 3; });
    std::int64_t acknowledged = before["datagen"]["positions"];
    c.coordinator->kill(SIGKILL);
    ASSERT_EQ(c.coordinator->wait(), 128 + SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // workers keep playing and retrying
    c.startCoordinator();
    auto after = c.show(id);
    EXPECT_GE(after["datagen"]["positions"].get<std::int64_t>(), acknowledged) << "acknowledged chunks lost";
    auto view = c.waitFor(id, finished, std::chrono::seconds(60));
    ASSERT_EQ(view["state"], "finished") << c.workerLogs();
    EXPECT_EQ(view["games"], 12);
    EXPECT_EQ(view["datagen"]["slices_done"], 6);

    // Exactly one live set of chunks per slice, from the lease that completed it.
    EXPECT_TRUE(slicesOfSeveralLeases(c, id, 6).empty());

    Exported e = exportAndCheck(c, id);
    EXPECT_EQ(e.counts["listed_positions"], view["datagen"]["positions"]);
    EXPECT_EQ(e.counts["positions"].get<std::int64_t>() + e.counts["duplicates"].get<std::int64_t>(),
              view["datagen"]["positions"].get<std::int64_t>());
    EXPECT_EQ(e.distinct, e.lines);
    EXPECT_EQ(localRun(c, "12"), fensOf(exportPath(c, id)));
}

TEST(DatagenCluster, KilledWorkersSliceIsReissuedAndItsPartialChunksDiscarded) {
    Cluster c;
    c.startCoordinator();
    // One slice of 40 games: the kill (after two chunks of 8 positions) comes well inside it. With 12 the
    // slice could end before the kill landed once the engine searched with its network.
    auto id = submitDatagen(c, "40", "40");
    Process& first = c.startWorker();
    c.waitFor(id, [](const json& v) { return v["datagen"]["chunks"].get<int>() >= 2; });
    first.kill(SIGKILL);
    first.wait();
    auto atKill = c.show(id);
    ASSERT_EQ(atKill["datagen"]["slices_done"], 0) << "the slice finished before the kill; nothing to test";
    c.startWorker();
    auto view = c.waitFor(id, finished, std::chrono::seconds(60));
    ASSERT_EQ(view["state"], "finished") << c.workerLogs();
    bool discarded = false;
    for (const auto& e : view["events"]) {
        std::string text = e;
        discarded |=
            text.find("expired") != std::string::npos && text.find("chunks discarded") != std::string::npos;
    }
    EXPECT_TRUE(discarded) << view.dump();
    EXPECT_TRUE(slicesOfSeveralLeases(c, id, 1).empty());
    Exported e = exportAndCheck(c, id);
    EXPECT_EQ(e.counts["listed_positions"], view["datagen"]["positions"]);
    EXPECT_EQ(localRun(c, "40"), fensOf(exportPath(c, id))) << "positions lost or counted twice";
}

TEST(DatagenCluster, CommandLineRefusalsNameTheProblem) {
    Cluster c;
    c.startCoordinator();
    auto expectRefused = [&](std::vector<std::string> args, int code, const std::string& words) {
        auto r = c.xq(args);
        EXPECT_EQ(r.code, code) << r.out << r.err;
        EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
    };
    expectRefused({"submit", "datagen", "--engine", bin("xq-engine"), "--games", "0", "--nodes", "100"}, 2,
                  "--games");
    expectRefused({"submit", "datagen", "--engine", bin("xq-engine"), "--games", "4", "--nodes", "100",
                   "--sample-rate", "0"},
                  2, "--sample-rate");
    expectRefused({"submit", "datagen", "--engine", c.dir.file("nothing"), "--games", "4", "--nodes", "100"},
                  2, "is not a file");
    expectRefused({"submit", "datagen", "--engine", bin("xq-engine"), "--games", "4", "--nodes", "100",
                   "--slice-games", "20000"},
                  1, "datagen.slice_games");
    expectRefused({"data", "export", "--out", c.dir.file("x.txt")}, 2, "--test");
    expectRefused({"data", "list", "--test", "42"}, 1, "no test 42");
    // A match test has no data.
    auto match = c.submit({"--games", "2", "--each", "nodes=100"});
    expectRefused({"data", "list", "--test", std::to_string(match)}, 1, "is a match test");
    // Nothing was stored by the refusals.
    auto tests = c.xq({"tests", "--json"});
    ASSERT_EQ(tests.code, 0) << tests.err;
    EXPECT_EQ(json::parse(tests.out).size(), 1u);
}
