// Integration: a datagen test run by xq-coordinator and two xq-worker processes playing xq-engine on
// loopback with a real SQLite file, exported with `xq data export --test`; and a coordinator killed with
// SIGKILL in the middle of one.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <unordered_set>

#include "cluster.h"
#include "dataset.h"
#include "position.h"

using namespace xq::coord::testing;
using nlohmann::json;

namespace {

bool finished(const json& v) {
    return v["state"] != "running";
}

// Small and fast: 8 games at 150 nodes in slices of 2 games, a chunk every 8 positions.
std::uint64_t submitDatagen(Cluster& c, const std::string& games) {
    auto r = c.xq({"submit", "datagen", "--engine", bin("xq-engine"), "--games", games, "--nodes", "150",
                   "--random-plies", "4", "--slice-games", "2", "--chunk-positions", "8", "--seed", "11"});
    EXPECT_EQ(r.code, 0) << r.err;
    return std::stoull(lastLine(r.out));
}

struct Exported {
    std::int64_t lines = 0, distinct = 0;
    json counts;
};

// Exports the test's data through the coordinator and checks every line of the file.
Exported exportAndCheck(Cluster& c, std::uint64_t id) {
    Exported e;
    std::string out = c.dir.file("export-" + std::to_string(id) + ".txt");
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
    auto id = submitDatagen(c, "8");
    c.startWorker();
    c.startWorker();
    auto view = c.waitFor(id, finished, std::chrono::seconds(60));
    ASSERT_EQ(view["state"], "finished") << c.workerLogs();
    EXPECT_EQ(view["kind"], "datagen");
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

    // The same seed and settings played locally in one process give the same positions: slices fix
    // each game's opening and sampling wherever it is played.
    std::string localOut = c.dir.file("local.txt");
    auto local0 = runCommand({bin("xq"), "datagen", "--engine", bin("xq-engine"), "--games", "8", "--nodes",
                              "150", "--random-plies", "4", "--seed", "11", "--out", localOut},
                             c.dir.path);
    ASSERT_EQ(local0.code, 0) << local0.err;
    auto fens = [](const std::string& path) {
        std::set<std::string> out;
        xq::tuner::readDataFile(path,
                                [&](const xq::tuner::LabeledPosition& p) { return out.insert(p.fen), true; });
        return out;
    };
    EXPECT_EQ(fens(localOut), fens(c.dir.file("export-" + std::to_string(id) + ".txt")));

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
    auto list = c.xq({"data", "list", "--test", std::to_string(id), "--json"});
    ASSERT_EQ(list.code, 0) << list.err;
    std::map<std::uint64_t, std::set<std::string>> leasesOfSlice;
    json listed = json::parse(list.out);
    for (const auto& f : listed["files"]) {
        std::string file = f["file"];
        auto l = file.find("-l"), q = file.find("-q");
        leasesOfSlice[f["slice"]].insert(file.substr(l, q - l));
    }
    EXPECT_EQ(leasesOfSlice.size(), 6u);
    for (const auto& [slice, leases] : leasesOfSlice) EXPECT_EQ(leases.size(), 1u) << "slice " << slice;

    Exported e = exportAndCheck(c, id);
    EXPECT_EQ(e.counts["listed_positions"], view["datagen"]["positions"]);
    EXPECT_EQ(e.counts["positions"].get<std::int64_t>() + e.counts["duplicates"].get<std::int64_t>(),
              view["datagen"]["positions"].get<std::int64_t>());
    EXPECT_EQ(e.distinct, e.lines);
}
