// The worker's side of a run's training step (issue 58) with real processes: xq-coordinator on loopback
// with a real store, xq-worker processes and xq-tuner. A tiny run (4 self-play games at 200 nodes, one epoch
// of a 16-unit network from scratch) is submitted with RunService; its training test is leased to a worker,
// which fetches the window, trains with xq-tuner, uploads the checkpoint and the network, and the gate
// starts. A worker that refuses training never gets it; a trainer that fails hands the lease back with its
// reason, and the third failure fails the training test and the run.
#include <gtest/gtest.h>
#include <signal.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>

#include "client.h"
#include "cluster.h"
#include "data_client.h"

using namespace xq::coord::testing;
namespace v1 = xq::v1;

namespace {

xq::coord::Client runClient(Cluster& c) {
    return xq::coord::Client({c.address, c.userToken, ""});
}

// Submits a run from the hand-written evaluation, small enough for a test.
std::uint64_t submitTinyRun(Cluster& c, std::uint32_t generations = 1) {
    auto client = runClient(c);
    xq::coord::DatagenSubmission s;
    s.engine = bin("xq-engine");
    s.games = 4;
    s.nodes = 200;
    s.randomPlies = 4;
    s.sliceGames = 2;
    s.chunkPositions = 32;
    s.seed = 5;
    v1::SubmitRunRequest req;
    auto* spec = req.mutable_spec();
    *spec->mutable_datagen() = xq::coord::buildDatagenSpec(s).datagen();
    client.upload(s.engine, "engine");
    spec->set_games_per_generation(4);
    spec->set_start_hce(true);
    (*spec->mutable_recipe())["epochs"] = "1";
    (*spec->mutable_recipe())["hidden"] = "16";
    spec->mutable_gate()->mutable_base()->set_tc("nodes=200");
    // A book: at a node limit, pairs past the book would replay, and a run refuses such a gate.
    spec->mutable_gate()->set_openings_sha256(client.upload(openingArgs().back(), "openings"));
    spec->mutable_gate()->set_max_moves(60);
    spec->mutable_gate_sprt()->set_elo0(0);
    spec->mutable_gate_sprt()->set_elo1(10);
    spec->set_gate_games(4);
    spec->set_generations(generations);
    spec->set_description("worker training test");
    v1::SubmitRunResponse resp;
    auto ctx = client.context();
    xq::coord::check(client.runs().SubmitRun(ctx.get(), req, &resp), "submit run");
    return resp.run_id();
}

v1::RunView showRun(Cluster& c, std::uint64_t id) {
    auto client = runClient(c);
    v1::ShowRunRequest req;
    req.set_run_id(id);
    v1::RunView view;
    auto ctx = client.context();
    xq::coord::check(client.runs().ShowRun(ctx.get(), req, &view), "show run");
    return view;
}

v1::TestView showTest(Cluster& c, std::uint64_t id) {
    auto client = runClient(c);
    v1::ShowTestRequest req;
    req.set_test_id(id);
    v1::TestView view;
    auto ctx = client.context();
    xq::coord::check(client.user().ShowTest(ctx.get(), req, &view), "show test");
    return view;
}

// Polls the run until pred holds (or the time runs out: a failure naming the last view).
v1::RunView waitForRun(Cluster& c, std::uint64_t id, const std::function<bool(const v1::RunView&)>& pred,
                       std::chrono::seconds timeout = std::chrono::seconds(180)) {
    auto end = std::chrono::steady_clock::now() + timeout;
    v1::RunView view;
    while (std::chrono::steady_clock::now() < end) {
        view = showRun(c, id);
        if (pred(view)) return view;
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    ADD_FAILURE() << "timed out; last view: " << view.DebugString() << c.workerLogs();
    return view;
}

bool trainingBegun(const v1::RunView& v) {
    return v.generations_size() > 0 && v.generations(0).training_test_id() != 0;
}

// Generation `g`'s gate has begun (or the run has ended).
std::function<bool(const v1::RunView&)> gateStarted(int g = 1) {
    return [g](const v1::RunView& v) {
        return v.summary().state() != v1::RUN_STATE_RUNNING ||
               (v.generations_size() >= g && v.generations(g - 1).gate_test_id() != 0);
    };
}

// Generation 1's training test, once the run has made it (0 if it does not within the wait).
std::uint64_t trainingTestOf(Cluster& c, std::uint64_t runId) {
    auto run = waitForRun(c, runId, trainingBegun);
    return trainingBegun(run) ? run.generations(0).training_test_id() : 0;
}

bool ranAllItCould(const v1::RunView& v) {
    return v.summary().state() != v1::RUN_STATE_RUNNING;
}

// A trainer that writes its process id down (to `pids`), runs xq-tuner when `train`, then never ends by
// itself (for a minute): only its worker can end it.
std::string endlessTrainer(Cluster& c, const std::string& pids, bool train) {
    const std::string path = c.dir.file(train ? "hanging-tuner.sh" : "endless-tuner.sh");
    writeFile(path, "#!/bin/sh\necho $$ >> '" + pids + "'\n" +
                        (train ? "'" + bin("xq-tuner") + "' \"$@\"\n" : std::string()) +
                        "i=0; while [ $i -lt 300 ]; do sleep 0.2; i=$((i+1)); done\nexit 1\n");
    std::filesystem::permissions(path, std::filesystem::perms::owner_exec,
                                 std::filesystem::perm_options::add);
    return path;
}

// The process id of the n-th trainer started (0 if none comes within a minute).
pid_t nthTrainer(Cluster& c, const std::string& pids, std::size_t n) {
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    std::vector<pid_t> all;
    while (all.size() < n && std::chrono::steady_clock::now() < end) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        std::istringstream in(readFileOrEmpty(pids));
        all.clear();
        for (pid_t p; in >> p;) all.push_back(p);
    }
    EXPECT_GE(all.size(), n) << c.workerLogs();
    return all.size() >= n ? all[n - 1] : pid_t(0);
}

bool processEnds(pid_t pid) {
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (::kill(pid, 0) == 0 && std::chrono::steady_clock::now() < end)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return ::kill(pid, 0) != 0;
}

}  // namespace

TEST(TrainingCluster, ARunsTrainingIsLeasedTrainedUploadedAndTheGateStarts) {
    Cluster c;
    c.startCoordinator();
    c.startWorker();
    auto runId = submitTinyRun(c, 2);
    auto run = waitForRun(c, runId, gateStarted(2));
    // Running the gate, or already done with it (4 games at 200 nodes take a moment).
    ASSERT_TRUE(run.summary().state() == v1::RUN_STATE_RUNNING ||
                run.summary().state() == v1::RUN_STATE_FINISHED)
        << run.DebugString() << c.workerLogs();
    const auto& gen = run.generations(0);
    ASSERT_NE(gen.gate_test_id(), 0u) << run.DebugString();
    EXPECT_EQ(gen.candidate_net_sha256().size(), 64u) << run.DebugString();
    EXPECT_TRUE(std::isfinite(gen.validation_loss())) << run.DebugString();
    EXPECT_EQ(gen.training_leases(), 1u);

    auto test = showTest(c, gen.training_test_id());
    const auto& t = test.summary().training();
    EXPECT_EQ(test.summary().state(), v1::TEST_STATE_FINISHED) << test.DebugString();
    EXPECT_EQ(test.summary().result(), "network xq-" + gen.candidate_net_sha256().substr(0, 12) + ".nnue");
    EXPECT_EQ(t.net_sha256(), gen.candidate_net_sha256());
    EXPECT_EQ(t.epochs_done(), 1u);
    EXPECT_EQ(t.failures(), 0u);
    // The checkpoint after the (only) epoch went up too: a worker killed before the network would have
    // left it for the next.
    EXPECT_EQ(t.checkpoint_sha256().size(), 64u) << test.DebugString();
    auto report = nlohmann::json::parse(t.report_json());
    EXPECT_EQ(report["epochs"], 1) << t.report_json();
    EXPECT_EQ(report["loss_curve"].size(), 1u) << t.report_json();

    // The window's chunks are cached by hash, one file each, for the next generation.
    const auto& chunks = test.spec().training().chunks();
    ASSERT_GT(chunks.size(), 0);
    for (const auto& chunk : chunks)
        EXPECT_TRUE(std::filesystem::exists(c.dir.file("cache0") + "/chunks/" + chunk.sha256() + ".txt.gz"))
            << chunk.sha256();
    EXPECT_NE(c.workers[0]->err().find("checkpoint after epoch 1 uploaded"), std::string::npos)
        << c.workerLogs();

    // The gate is played with the new network.
    auto gate = showTest(c, gen.gate_test_id());
    EXPECT_EQ(gate.spec().match().dev().net_sha256(), gen.candidate_net_sha256()) << gate.DebugString();

    // Generation 2 trains on both generations' chunks and downloads only its own.
    ASSERT_EQ(run.generations_size(), 2) << run.DebugString();
    auto second = showTest(c, run.generations(1).training_test_id());
    EXPECT_EQ(second.summary().state(), v1::TEST_STATE_FINISHED) << second.DebugString() << c.workerLogs();
    const int total = second.spec().training().chunks_size();
    EXPECT_GT(total, chunks.size());
    EXPECT_NE(c.workers[0]->err().find("training test " + std::to_string(second.summary().id()) +
                                       " on 1 thread(s), " + std::to_string(total) + " chunks (" +
                                       std::to_string(chunks.size()) + " cached)"),
              std::string::npos)
        << c.workerLogs();
}

TEST(TrainingCluster, AWorkerKilledAfterACheckpointLeavesItToTheNextWorkerWhichResumesFromIt) {
    Cluster c;
    c.startCoordinator();
    // The first worker's trainer does its epoch, then does not exit: the worker uploads the checkpoint
    // meanwhile, and is killed before it has a network to send.
    const std::string pids = c.dir.file("trainer.pids");
    const std::string hanging = endlessTrainer(c, pids, true);
    c.workerArgs = {"--tuner", hanging};
    c.startWorker();
    auto runId = submitTinyRun(c);
    const std::uint64_t trainingTest = trainingTestOf(c, runId);
    ASSERT_NE(trainingTest, 0u);
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (showTest(c, trainingTest).summary().training().checkpoint_sha256().empty() &&
           std::chrono::steady_clock::now() < end)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    auto test = showTest(c, trainingTest);
    ASSERT_EQ(test.summary().training().epochs_done(), 1u) << test.DebugString() << c.workerLogs();
    const std::string checkpoint = test.summary().training().checkpoint_sha256();
    c.workers[0]->kill(SIGKILL);
    EXPECT_TRUE(processEnds(nthTrainer(c, pids, 1)));  // the trainer dies with its worker

    c.workerArgs.clear();
    c.startWorker();
    auto run = waitForRun(c, runId, gateStarted());
    test = showTest(c, trainingTest);
    EXPECT_EQ(test.summary().state(), v1::TEST_STATE_FINISHED) << test.DebugString() << c.workerLogs();
    EXPECT_EQ(test.summary().training().leases(), 2u) << test.DebugString();
    EXPECT_EQ(test.summary().training().failures(), 0u) << test.DebugString();  // expired, not failed
    EXPECT_NE(c.workers[1]->err().find("training test " + std::to_string(trainingTest) + " on 1 thread(s)"),
              std::string::npos)
        << c.workerLogs();
    EXPECT_NE(c.workers[1]->err().find("resuming after epoch 1"), std::string::npos) << c.workerLogs();
    auto report = nlohmann::json::parse(test.summary().training().report_json());
    EXPECT_EQ(report["resumed_from_epoch"], 1) << report.dump();
    EXPECT_EQ(test.summary().training().checkpoint_sha256(), checkpoint);  // nothing left to train
}

TEST(TrainingCluster, AWorkerStartedWithNoTrainingNeverGetsTheTrainingTest) {
    Cluster c;
    c.startCoordinator();
    c.workerArgs = {"--no-training"};
    c.startWorker();
    auto runId = submitTinyRun(c);
    const std::uint64_t trainingTest = trainingTestOf(c, runId);
    ASSERT_NE(trainingTest, 0u);
    // The worker played the self-play and keeps asking for work (heartbeats every second, long polls),
    // yet the training test stays unleased.
    std::this_thread::sleep_for(std::chrono::seconds(6));
    auto test = showTest(c, trainingTest);
    EXPECT_EQ(test.summary().state(), v1::TEST_STATE_RUNNING) << test.DebugString();
    EXPECT_EQ(test.summary().training().leases(), 0u) << test.DebugString() << c.workerLogs();
    // A worker that trains takes it.
    c.workerArgs.clear();
    c.startWorker();
    auto run = waitForRun(c, runId, gateStarted());
    EXPECT_NE(run.generations(0).gate_test_id(), 0u) << run.DebugString() << c.workerLogs();
    EXPECT_NE(c.workers[1]->err().find("training test " + std::to_string(trainingTest)), std::string::npos)
        << c.workerLogs();
    EXPECT_EQ(c.workers[0]->err().find("training test"), std::string::npos) << c.workerLogs();
}

TEST(TrainingCluster, AFailingTrainerHandsTheLeaseBackAndTheThirdFailureFailsTheRun) {
    Cluster c;
    c.startCoordinator();
    c.workerArgs = {"--tuner", "/bin/false"};
    c.startWorker();
    auto runId = submitTinyRun(c);
    auto run = waitForRun(c, runId, ranAllItCould);
    EXPECT_EQ(run.summary().state(), v1::RUN_STATE_FAILED) << run.DebugString() << c.workerLogs();
    ASSERT_TRUE(trainingBegun(run)) << run.DebugString();
    auto test = showTest(c, run.generations(0).training_test_id());
    EXPECT_EQ(test.summary().state(), v1::TEST_STATE_FAILED) << test.DebugString();
    const std::string result = test.summary().result();
    EXPECT_NE(result.find("training failed 3 times"), std::string::npos) << result;
    EXPECT_NE(result.find("xq-tuner exited with code 1"), std::string::npos) << result;
    EXPECT_EQ(test.summary().training().leases(), 3u) << test.DebugString();
    // Each lease was handed back with the reason (not left to expire).
    int handedBack = 0;
    for (const auto& e : test.events())
        if (e.find("was handed back") != std::string::npos &&
            e.find("xq-tuner exited with code 1") != std::string::npos)
            ++handedBack;
    EXPECT_EQ(handedBack, 3) << test.DebugString();
    EXPECT_NE(run.summary().result().find("xq-tuner exited with code 1"), std::string::npos)
        << run.DebugString();
}

TEST(TrainingCluster, AShutdownOrAStoppedRunKillsTheTrainerAndAShutdownIsNoFailure) {
    Cluster c;
    c.startCoordinator();
    const std::string pids = c.dir.file("trainer.pids");
    const std::string endless = endlessTrainer(c, pids, false);
    c.workerArgs = {"--tuner", endless};
    c.startWorker();
    auto runId = submitTinyRun(c);
    const std::uint64_t trainingTest = trainingTestOf(c, runId);
    ASSERT_NE(trainingTest, 0u);

    // SIGTERM: the worker kills its trainer and hands the lease back, which counts as no failure.
    pid_t first = nthTrainer(c, pids, 1);
    ASSERT_NE(first, 0);
    c.workers[0]->kill(SIGTERM);
    EXPECT_TRUE(processEnds(first));
    auto handedBack = [&](const v1::TestView& view) {
        for (const auto& e : view.events())
            if (e.find("was handed back;") != std::string::npos) return true;
        return false;
    };
    auto test = showTest(c, trainingTest);
    for (auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
         !handedBack(test) && std::chrono::steady_clock::now() < end; test = showTest(c, trainingTest))
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_TRUE(handedBack(test)) << test.DebugString() << c.workerLogs();
    EXPECT_EQ(test.summary().training().failures(), 0u) << test.DebugString();

    // Stopping the run: the next worker's trainer is killed on the lease's LEASE_STOP.
    c.startWorker();
    pid_t second = nthTrainer(c, pids, 2);
    ASSERT_NE(second, 0);
    auto client = runClient(c);
    v1::StopRunRequest stop;
    stop.set_run_id(runId);
    v1::RunStateResponse stopped;
    auto ctx = client.context();
    xq::coord::check(client.runs().StopRun(ctx.get(), stop, &stopped), "stop run");
    EXPECT_TRUE(processEnds(second)) << c.workerLogs();
    EXPECT_TRUE(c.workers[1]->running());
    EXPECT_NE(c.workers[1]->err().find("trainer stopped"), std::string::npos) << c.workerLogs();
}
