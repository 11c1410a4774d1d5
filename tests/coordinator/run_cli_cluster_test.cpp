// Integration: the user's command line for runs (`xq submit run`, `xq runs`, `xq show run`, `xq stop run`,
// `xq resume run`, `xq priority run`) against a real xq-coordinator with an xq-worker playing xq-engine. The
// tests end while the run is in its first steps: training is the workers' affair, tested elsewhere.
#include <gtest/gtest.h>

#include "cluster.h"

using namespace xq::coord::testing;
using nlohmann::json;

namespace {

bool mentions(const std::string& text, const std::string& words) {
    return text.find(words) != std::string::npos;
}

// The tiny run: the hand-written evaluation, 4 games at 200 nodes, a 16-wide network trained one epoch,
// a gate of at most 4 games at 200 nodes, one generation (`start` empty: the default start).
std::vector<std::string> tinyRunArgs(std::vector<std::string> extra = {}, const std::string& start = "hce",
                                     const std::string& train = "hidden=16,epochs=1") {
    std::vector<std::string> args = {"submit",  "run",           "--engine", bin("xq-engine"), "--games",
                                     "4",       "--nodes",       "200",      "--slice-games",  "2",
                                     "--train", train,           "--gate",   "nodes=200",      "--gate-games",
                                     "4",       "--generations", "1"};
    if (!start.empty()) args.insert(args.end(), {"--start", start});
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

}  // namespace

TEST(RunCli, SubmitListShowStopResumeAndPriorityThroughARealCoordinator) {
    Cluster c;
    c.startCoordinator();
    auto r = c.xq(tinyRunArgs({"--description", "tiny run"}));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(mentions(r.out, "submitted run ")) << r.out;
    const std::string id = lastLine(r.out);
    ASSERT_EQ(id, "1") << r.out;

    r = c.xq({"runs"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(mentions(r.out, "1  running   1 selfplay")) << r.out;
    EXPECT_TRUE(mentions(r.out, "hand-written (start)")) << r.out;
    EXPECT_TRUE(mentions(r.out, "tiny run")) << r.out;
    r = c.xq({"runs", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto runs = json::parse(r.out);
    ASSERT_EQ(runs.size(), 1u) << r.out;
    EXPECT_EQ(runs[0]["id"], 1);
    EXPECT_EQ(runs[0]["state"], "running");
    EXPECT_EQ(runs[0]["step"], "selfplay");
    EXPECT_EQ(runs[0]["generations_target"], 1);

    r = c.xq({"show", "run", id, "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto view = json::parse(r.out);
    EXPECT_EQ(view["spec"]["recipe"]["hidden"], "16");
    EXPECT_EQ(view["spec"]["recipe"]["init"], "scratch") << "the coordinator's default for an hce start";
    EXPECT_EQ(view["spec"]["gate_tc"], "nodes=200");
    EXPECT_EQ(view["spec"]["games_per_generation"], 4);
    ASSERT_EQ(view["generations"].size(), 1u) << r.out;
    const auto selfplayTest = view["generations"][0]["selfplay_test_id"].get<std::uint64_t>();
    ASSERT_GT(selfplayTest, 0u);
    // The step's test is an ordinary test, shown by `xq show ID` as before.
    EXPECT_EQ(c.show(selfplayTest)["kind"], "datagen");

    // A worker plays the self-play: the run shows the step's progress.
    c.startWorker();
    c.waitFor(selfplayTest,
              [](const json& v) { return v["active_workers"].get<int>() > 0 || v["games"] > 0; });
    r = c.xq({"show", "run", id});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(mentions(r.out, "run 1 running: generation 1")) << r.out;
    EXPECT_TRUE(
        mentions(r.out, "training     epochs=1,hidden=16,init=scratch,lambda=0.8,validation=0.03; window 3"))
        << r.out;
    EXPECT_TRUE(mentions(r.out, "gen  positions")) << r.out;
    EXPECT_TRUE(mentions(r.out, "events\n")) << r.out;
    EXPECT_TRUE(mentions(r.out, "now: generation 1 ")) << r.out;
    EXPECT_TRUE(mentions(r.out, "ETA") || mentions(r.out, "epochs")) << r.out;

    r = c.xq({"priority", "run", id, "5"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "run 1 is running, priority 5\n");
    EXPECT_TRUE(
        mentions(json::parse(c.xq({"show", "run", id, "--json"}).out)["events"].dump(), "priority 5"));

    r = c.xq({"stop", "run", id, "--reason", "enough for now"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "run 1 is stopped\n");
    view = json::parse(c.xq({"show", "run", id, "--json"}).out);
    EXPECT_EQ(view["state"], "stopped");
    EXPECT_TRUE(mentions(view["events"].dump(), "enough for now")) << view["events"].dump();

    r = c.xq({"resume", "run", id});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "run 1 is running\n");
    EXPECT_EQ(json::parse(c.xq({"runs", "--json"}).out)[0]["state"], "running");
    r = c.xq({"resume", "run", id});
    EXPECT_EQ(r.code, 1) << "a running run cannot be resumed: " << r.out;
    EXPECT_TRUE(mentions(r.err, "only a stopped or failed run can be resumed")) << r.err;
}

TEST(RunCli, ErrorsReachTheUserAsTheCoordinatorSaysThem) {
    Cluster c;
    c.startCoordinator();
    for (const auto& args : std::vector<std::vector<std::string>>{{"show", "run", "42"},
                                                                  {"stop", "run", "42"},
                                                                  {"resume", "run", "42"},
                                                                  {"priority", "run", "42", "1"}}) {
        auto r = c.xq(args);
        EXPECT_EQ(r.code, 1) << args[0] << ": " << r.out;
        EXPECT_TRUE(mentions(r.err, "NOT_FOUND: no run 42")) << args[0] << ": " << r.err;
    }
    // An unknown recipe setting: the coordinator's own words.
    auto r = c.xq(tinyRunArgs({}, "hce", "hidden=16,speed=3"));
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_TRUE(mentions(r.err, "recipe: unknown setting 'speed' (known: init, ")) << r.err;
    // Refused here, naming the flag, before anything is uploaded.
    r = c.xq(tinyRunArgs({"--gate-sprt", "elo0=3,elo1=1"}));
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_TRUE(mentions(r.err, "xq submit run: --gate-sprt: elo0 must be below elo1")) << r.err;
    r = c.xq(tinyRunArgs({}, "nowhere.nnue"));
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_TRUE(mentions(r.err, "--start: 'nowhere.nnue' is none of")) << r.err;
    EXPECT_EQ(c.xq({"runs"}).out, "no runs\n");
    // The test commands keep their form: an id is still required.
    r = c.xq({"show"});
    EXPECT_NE(r.code, 0);
    EXPECT_TRUE(mentions(r.err, "id")) << r.err;
}

// The default start: the engine's shipped network, exported and uploaded by `xq submit run`.
TEST(RunCli, DefaultStartIsTheEnginesShippedNetwork) {
    Cluster c;
    c.startCoordinator();
    auto r = c.xq(tinyRunArgs({}, ""));
    ASSERT_EQ(r.code, 0) << r.err;
    auto view = json::parse(c.xq({"show", "run", lastLine(r.out), "--json"}).out);
    const std::string net = view["best_net_sha256"];
    ASSERT_EQ(net.size(), 64u) << view.dump();
    EXPECT_EQ(view["spec"]["start_net_sha256"], net);
    EXPECT_EQ(view["spec"]["recipe"]["init"], "best");
    r = c.xq({"nets", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(mentions(r.out, net)) << "the exported network is an artifact: " << r.out;
}
