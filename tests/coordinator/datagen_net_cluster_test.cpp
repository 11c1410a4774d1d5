// Self-play with a network (a run's datagen step, issue 58): a datagen test whose engine names a network,
// played by a real xq-coordinator and xq-worker on loopback; the worker fetches the network through its
// artifact cache and the engine loads it, and an engine that cannot take a network fails the test saying so.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "client.h"
#include "cluster.h"
#include "data_client.h"
#include "util/sha256.h"

using namespace xq::coord::testing;
using nlohmann::json;

namespace {

bool selfPlayEnded(const json& v) {
    return v["state"] != "running";
}

std::string engineLog(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Submits a datagen test of `engine` playing with the network file `net`: uploaded as artifacts, the spec
// naming the network by hash (what a run's self-play step makes). Returns the test id.
std::uint64_t submitSelfPlayWithNet(Cluster& c, const std::string& engine, const std::string& net) {
    xq::coord::Client client({c.address, c.userToken, ""});
    xq::coord::DatagenSubmission s;
    s.engine = engine;
    s.games = 4;
    s.nodes = 150;
    s.randomPlies = 4;
    s.sliceGames = 2;
    s.chunkPositions = 8;
    s.seed = 11;
    xq::v1::SubmitRequest req;
    *req.mutable_spec() = xq::coord::buildDatagenSpec(s);
    req.mutable_spec()->mutable_datagen()->mutable_engine()->set_net_sha256(client.upload(net, "net"));
    client.upload(engine, "engine");
    xq::v1::SubmitResponse resp;
    auto ctx = client.context();
    xq::coord::check(client.user().SubmitTest(ctx.get(), req, &resp), "submit datagen test");
    return resp.test_id();
}

std::string randomBestNet(Cluster& c) {
    std::string path = c.dir.file("best.nnue");
    auto r = runCommand({bin("xq-engine"), "nnue", "random", path, "16", "7"}, c.dir.path);
    EXPECT_EQ(r.code, 0) << r.err;
    return path;
}

}  // namespace

TEST(DatagenNetCluster, SelfPlayWithANetworkFetchesItIntoTheCacheAndTheEngineLoadsIt) {
    Cluster c;
    c.workerArgs = {"--no-sandbox"};  // the logging engine is a shell script
    c.startCoordinator();
    const std::string net = randomBestNet(c);
    const std::string sha = xq::sha256File(net);
    auto id = submitSelfPlayWithNet(c, loggingEngine(c), net);
    c.startWorker();
    auto view = c.waitFor(id, selfPlayEnded, std::chrono::seconds(90));
    ASSERT_EQ(view["state"], "finished") << view.dump() << c.workerLogs();
    EXPECT_GT(view["datagen"]["positions"].get<std::int64_t>(), 0) << view.dump();

    // The network came once, by hash, into the worker's cache, and every engine was told to play with it.
    const std::string cached = c.dir.file("cache0") + "/" + sha;
    EXPECT_EQ(xq::sha256File(cached), sha);
    const std::string told = engineLog(c.dir.file("engine.in"));
    EXPECT_NE(told.find("setoption name EvalFile value " + cached + "\n"), std::string::npos) << told;
    EXPECT_NE(told.find("setoption name Use NNUE value true\n"), std::string::npos) << told;
    // ... and loaded it: the engine names the network it evaluates with.
    const std::string answered = engineLog(c.dir.file("engine.out"));
    EXPECT_NE(answered.find("info string EvalFile: loaded network xq-" + sha.substr(0, 12) + ".nnue from " +
                            cached),
              std::string::npos)
        << answered;
}

TEST(DatagenNetCluster, AnEngineThatCannotTakeANetworkFailsTheTestWithTheReason) {
    Cluster c;
    c.startCoordinator();
    // mock-engine declares EvalFile but not Use NNUE.
    auto id = submitSelfPlayWithNet(c, bin("mock-engine"), randomBestNet(c));
    c.startWorker();
    auto view = c.waitFor(id, selfPlayEnded, std::chrono::seconds(120));
    EXPECT_EQ(view["state"], "failed") << view.dump() << c.workerLogs();
    const std::string result = view["result"];
    EXPECT_NE(result.find("has no option 'Use NNUE'"), std::string::npos) << result << c.workerLogs();
}
