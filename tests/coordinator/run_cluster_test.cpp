// Integration: a run of two generations on a real xq-coordinator and xq-worker processes playing and
// training xq-engine networks on loopback (tiny networks, a few hundred positions a generation), with the
// coordinator and the training worker killed with SIGKILL during training, and the coordinator and a
// worker killed during the gate: the run finishes, every acknowledged chunk and game is stored once, and
// the training resumed from its checkpoint on the other worker.
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include "client.h"
#include "cluster.h"

using namespace xq::coord::testing;
using nlohmann::json;
namespace v1 = xq::v1;

namespace {

struct RunCluster : Cluster {
    std::map<std::uint64_t, std::size_t> processOfWorker;  // coordinator's worker id -> workers[i]

    // The run's view; nothing while the coordinator does not answer (it may be restarting).
    std::optional<v1::RunView> showRun(std::uint64_t id) {
        xq::coord::Client client({address, userToken, ""});
        v1::ShowRunRequest req;
        req.set_run_id(id);
        v1::RunView view;
        auto ctx = client.context(10);
        if (!client.runs().ShowRun(ctx.get(), req, &view).ok()) return std::nullopt;
        return view;
    }
    v1::RunView waitForRun(std::uint64_t id, const std::function<bool(const v1::RunView&)>& pred,
                           std::chrono::seconds timeout = std::chrono::seconds(120)) {
        auto end = std::chrono::steady_clock::now() + timeout;
        v1::RunView view;
        while (std::chrono::steady_clock::now() < end) {
            if (auto v = showRun(id)) {
                view = *v;
                if (pred(view)) return view;
                if (view.summary().state() != v1::RUN_STATE_RUNNING) break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
        ADD_FAILURE() << "timed out; last view: " << view.DebugString() << workerLogs();
        return view;
    }
    // Which worker process registered as `id` (each logs "as worker N").
    std::optional<std::size_t> processOf(std::uint64_t id) {
        std::regex re("as worker ([0-9]+)");
        for (std::size_t i = 0; i < workers.size(); ++i) {
            std::string err = workers[i]->err();
            for (std::sregex_iterator it(err.begin(), err.end(), re), e; it != e; ++it)
                if (std::stoull((*it)[1]) == id) return i;
        }
        return std::nullopt;
    }
    // The worker the training test's newest lease went to ("lease L: worker W trains ...").
    std::optional<std::uint64_t> trainingWorker(std::uint64_t testId) {
        auto view = show(testId);
        std::regex re("worker ([0-9]+) trains");
        std::optional<std::uint64_t> last;
        for (const auto& e : view["events"]) {
            std::smatch m;
            std::string text = e.get<std::string>();
            if (std::regex_search(text, m, re)) last = std::stoull(m[1]);
        }
        return last;
    }
    void restartCoordinator() {
        coordinator->kill(SIGKILL);
        ASSERT_EQ(coordinator->wait(), 128 + SIGKILL);
        startCoordinator();
    }
};

// Every chunk of the datagen test comes from one lease of its slice, and the chunks' positions add up to
// what the test counts.
void expectChunksStoredOnce(RunCluster& c, std::uint64_t testId) {
    auto list = c.xq({"data", "list", "--test", std::to_string(testId), "--json"});
    ASSERT_EQ(list.code, 0) << list.err;
    json listed = json::parse(list.out);
    std::map<std::uint64_t, std::set<std::string>> leasesOfSlice;
    std::uint64_t positions = 0;
    for (const auto& f : listed["files"]) {
        std::string file = f["file"];  // data/test-T/s<slice>-l<lease>-q<sequence>-<hash>.txt.gz
        auto l = file.find("-l"), q = file.find("-q");
        leasesOfSlice[f["slice"]].insert(file.substr(l, q - l));
        positions += f["positions"].get<std::uint64_t>();
    }
    for (const auto& [slice, leases] : leasesOfSlice) EXPECT_EQ(leases.size(), 1u) << "slice " << slice;
    EXPECT_EQ(positions, c.show(testId)["datagen"]["positions"].get<std::uint64_t>());
}

}  // namespace

TEST(RunCluster, TwoGenerationsSurviveKillsDuringTrainingAndTheGate) {
    RunCluster c;
    c.startCoordinator();
    c.workerArgs = {"--training-threads", "1"};
    c.startWorker();
    c.startWorker();

    v1::SubmitRunRequest req;
    auto* s = req.mutable_spec();
    auto* d = s->mutable_datagen();
    xq::coord::Client client({c.address, c.userToken, ""});
    d->mutable_engine()->set_binary_sha256(client.upload(bin("xq-engine"), "engine"));
    d->set_nodes(150);
    d->set_random_plies(6);
    d->set_slice_games(2);
    d->set_chunk_positions(64);
    d->set_seed(3);
    s->set_games_per_generation(8);
    s->set_start_hce(true);
    // Tiny networks trained for long enough (thousands of short epochs, a checkpoint each) that the kill
    // lands in the middle of the training.
    (*s->mutable_recipe())["hidden"] = "16";
    (*s->mutable_recipe())["epochs"] = "3000";
    (*s->mutable_recipe())["batch"] = "32";
    (*s->mutable_recipe())["validation"] = "0.1";
    auto* gate = s->mutable_gate();
    gate->mutable_base()->set_tc("nodes=20000");  // about a second a game: the kill lands in it
    gate->set_openings_sha256(client.upload(openingArgs().back(), "openings"));
    gate->set_max_moves(60);
    s->mutable_gate_sprt()->set_elo0(0);
    s->mutable_gate_sprt()->set_elo1(10);
    s->set_gate_games(16);
    s->set_generations(2);
    v1::SubmitRunResponse submitted;
    {
        auto ctx = client.context(30);
        auto status = client.runs().SubmitRun(ctx.get(), req, &submitted);
        ASSERT_TRUE(status.ok()) << status.error_message();
    }
    const std::uint64_t run = submitted.run_id();

    // Generation 1's training, with a checkpoint stored: kill the coordinator and the training worker.
    auto v = c.waitForRun(run, [](const v1::RunView& r) {
        return r.summary().step() == "training" && r.summary().step_test().training().epochs_done() >= 1;
    });
    ASSERT_EQ(v.summary().step(), "training");
    const std::uint64_t training = v.generations(0).training_test_id();
    auto trainer = c.trainingWorker(training);
    ASSERT_TRUE(trainer) << c.show(training).dump();
    auto process = c.processOf(*trainer);
    ASSERT_TRUE(process) << c.workerLogs();
    c.workers[*process]->kill(SIGKILL);
    c.workers[*process]->wait();
    c.restartCoordinator();
    c.startWorker();  // the killed one's replacement

    // The gate, with some games counted: kill the coordinator and a worker again.
    v = c.waitForRun(run, [](const v1::RunView& r) {
        return r.summary().step() == "gate" && r.summary().step_test().games() >= 2;
    });
    ASSERT_EQ(v.summary().step(), "gate");
    auto trainingView = c.show(training);
    EXPECT_GE(trainingView["training"]["leases"].get<int>(), 2) << trainingView.dump();
    json report = trainingView["training"]["report"];
    ASSERT_TRUE(report.is_object()) << trainingView.dump();
    EXPECT_GT(report["resumed_from_epoch"].get<int>(), 0) << report.dump();
    for (std::size_t i = 0; i < c.workers.size(); ++i)
        if (c.workers[i]->running()) {
            c.workers[i]->kill(SIGKILL);
            c.workers[i]->wait();
            break;
        }
    c.restartCoordinator();
    c.startWorker();

    v = c.waitForRun(
        run, [](const v1::RunView& r) { return r.summary().state() != v1::RUN_STATE_RUNNING; },
        std::chrono::seconds(180));
    ASSERT_EQ(v.summary().state(), v1::RUN_STATE_FINISHED) << v.DebugString();
    ASSERT_EQ(v.generations_size(), 2);
    for (const auto& g : v.generations()) {
        EXPECT_EQ(g.step(), "done");
        expectChunksStoredOnce(c, g.selfplay_test_id());
        auto t = c.show(g.training_test_id());
        EXPECT_EQ(t["state"], "finished") << t.dump();
        EXPECT_FALSE(g.candidate_net_sha256().empty());
        // The gate's games: each pair once, the downloaded games as many as the counts say.
        auto gateView = c.show(g.gate_test_id());
        EXPECT_EQ(gateView["state"], "finished") << gateView.dump();
        EXPECT_EQ(pentaGames(gateView), wdlGames(gateView));
        EXPECT_GE(pentaGames(gateView), 2);
        EXPECT_LE(pentaGames(gateView), 16);
        std::string pgn = c.dir.file("gate-" + std::to_string(g.gate_test_id()) + ".pgn");
        auto games = c.xq({"pgn", std::to_string(g.gate_test_id()), "--out", pgn});
        EXPECT_EQ(games.code, 0) << games.err;
        std::ifstream in(pgn);
        std::string line;
        int events = 0;
        while (std::getline(in, line)) events += line.rfind("[Event ", 0) == 0;
        EXPECT_EQ(events, pentaGames(gateView));
    }
    // Generation 2 trained on both generations' data.
    EXPECT_GT(v.generations(1).window_positions(), v.generations(0).window_positions());
}

TEST(RunCluster, ARunWhoseEngineCannotLoadANetworkFailsWithTheReasonAndKeepsWhatItStored) {
    RunCluster c;
    c.startCoordinator();
    c.startWorker();
    // mock-engine declares EvalFile but not Use NNUE: its self-play with the run's network cannot start.
    auto r = c.xq({"submit", "run", "--engine", bin("mock-engine"), "--start",
                   std::string(XQ_SOURCE_DIR) + "/engine/nets/xq-f62c1752bf61.nnue", "--games", "4",
                   "--nodes", "100", "--slice-games", "2", "--gate", "tc=1+0.01", "--generations", "1"});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::uint64_t run = std::stoull(lastLine(r.out));
    auto v = c.waitForRun(
        run, [](const v1::RunView& view) { return view.summary().state() != v1::RUN_STATE_RUNNING; },
        std::chrono::seconds(120));
    EXPECT_EQ(v.summary().state(), v1::RUN_STATE_FAILED) << v.DebugString();
    EXPECT_NE(v.summary().result().find("has no option 'Use NNUE'"), std::string::npos)
        << v.summary().result();
    auto shown = c.xq({"show", "run", std::to_string(run)});
    EXPECT_EQ(shown.code, 0) << shown.err;
    EXPECT_NE(shown.out.find("has no option 'Use NNUE'"), std::string::npos) << shown.out;
    // The run's start network stays stored, listed with the test that named it.
    auto nets = c.xq({"nets", "--json"});
    EXPECT_NE(nets.out.find("f62c1752bf61"), std::string::npos) << nets.out;
}
