// Runs on the coordinator without a network (coordinator_runs.cpp): a run's generations driven through
// the worker API in-process (slices of self-play, a training lease's checkpoint and network, the gate's
// pairs), promotion and its absence, the end after failed gates, stop and resume, a training that fails,
// a restart in every step, and the checks of a run's spec.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "coordinator.h"
#include "data_chunk.h"
#include "expect_error.h"
#include "nnue_network.h"
#include "test_store.h"
#include "test_util.h"
#include "upload_artifact.h"
#include "util/sha256.h"
#include "xiangqi/movegen.h"
#include "xiangqi/position.h"

using namespace xq::coord;
using xq::coord::testing::codeOf;
using xq::coord::testing::TempDir;
using xq::coord::testing::TestStore;
namespace v1 = xq::v1;

namespace {

std::string messageOf(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const CoordError& e) {
        return e.what();
    }
    return "no error";
}

std::string fileBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A valid network file of its own bytes (the description differs).
std::string networkBytes(const std::string& description) {
    xq::nnue::Network net = xq::nnue::Network::zero(16);
    net.description = description;
    return xq::nnue::serializeNetwork(net);
}

std::vector<xq::tuner::LabeledPosition> positions(int n, int offset) {
    std::vector<xq::tuner::LabeledPosition> out;
    xq::Position pos;
    for (int i = 0; i < offset + n; ++i) {
        if (i >= offset) out.push_back({pos.fen(), 0.5f});
        auto legal = xq::legalMoves(pos);
        pos.doMove(legal.moves[std::size_t(i) % std::size_t(legal.size)]);
    }
    return out;
}

struct RunFixture {
    TempDir dir;
    TestStore store;
    std::int64_t clock = 1'000'000;
    std::unique_ptr<Coordinator> coord;
    Caller user, worker;
    std::string engineSha, startNet;
    std::uint64_t workerId = 0;
    int chunkOffset = 0;

    RunFixture() {
        open();
        user = coord->authenticate(coord->createToken(Role::User, "alice"));
        worker = coord->authenticate(coord->createToken(Role::Worker, "box"));
        engineSha = xq::coord::testing::uploadArtifact(*coord, user, "#!/bin/sh\nan engine\n");
        startNet = xq::coord::testing::uploadArtifact(
            *coord, user, fileBytes(std::string(XQ_SOURCE_DIR) + "/engine/nets/xq-f62c1752bf61.nnue"));
        registerWorker();
    }
    void open() {
        coord.reset();
        CoordinatorOptions o;
        o.dataDir = dir.file("data");
        o.store = store.option();
        o.leaseTimeoutSeconds = 10;
        o.clockMs = [this] { return clock; };
        coord = std::make_unique<Coordinator>(o);
    }
    void registerWorker() {
        v1::RegisterRequest r;
        r.set_name("box");
        workerId = coord->registerWorker(worker, r).worker_id();
    }
    v1::SubmitRunRequest request() {
        v1::SubmitRunRequest req;
        auto* s = req.mutable_spec();
        auto* d = s->mutable_datagen();
        d->mutable_engine()->set_binary_sha256(engineSha);
        d->set_nodes(200);
        d->set_slice_games(2);
        d->set_seed(5);
        s->set_games_per_generation(4);
        s->set_start_net_sha256(startNet);
        (*s->mutable_recipe())["epochs"] = "2";
        s->set_window(2);
        s->mutable_gate()->mutable_base()->set_tc(
            "10+0.1");  // a clock: at a node limit, without a book, every pair would be a copy
        s->mutable_gate_sprt()->set_elo0(0);
        s->mutable_gate_sprt()->set_elo1(10);
        s->set_gate_games(400);
        s->set_generations(3);
        s->set_max_failed_gates(2);
        s->set_description("a run");
        return req;
    }
    std::int64_t submit(const v1::SubmitRunRequest& req) {
        return std::int64_t(coord->submitRun(user, req).run_id());
    }
    v1::RunView show(std::int64_t run) { return coord->showRun(run); }
    // A job for a worker offering datagen (`datagen`) and training (`training`) jobs besides matches.
    v1::JobResponse job(bool training = true, bool datagen = true) {
        v1::JobRequest r;
        r.set_worker_id(workerId);
        r.set_concurrency(2);
        if (datagen) r.add_kinds("datagen");
        if (training) r.add_kinds("training");
        r.set_training_threads(2);
        return coord->requestJob(worker, r);
    }
    // Plays the self-play step: every slice leased, one chunk of 10 new positions each, completed.
    void playSelfplay() {
        for (int i = 0; i < 10; ++i) {
            auto resp = job(false);
            if (!resp.has_job()) return;
            ASSERT_TRUE(resp.job().has_datagen()) << resp.DebugString();
            auto encoded = encodeChunks(positions(10, chunkOffset));
            chunkOffset += 10;
            v1::DataChunkUpload u;
            u.set_worker_id(workerId);
            u.set_lease_id(resp.job().lease_id());
            u.set_slice(resp.job().datagen().slice());
            u.set_sequence(1);
            u.set_positions(encoded[0].positions);
            u.set_sha256(xq::sha256Hex(encoded[0].data));
            u.set_data(encoded[0].data);
            coord->uploadChunk(worker, u);
            v1::CompleteSliceRequest c;
            c.set_worker_id(workerId);
            c.set_lease_id(resp.job().lease_id());
            c.set_slice(resp.job().datagen().slice());
            c.set_chunks(1);
            c.set_positions(encoded[0].positions);
            c.set_games_played(resp.job().datagen().games());
            coord->completeSlice(worker, c);
        }
    }
    v1::TrainingFileAck uploadTraining(const v1::Job& job, const std::string& kind, const std::string& bytes,
                                       std::uint32_t epochs = 0, const std::string& report = "") {
        v1::TrainingFileChunk h;
        h.set_worker_id(workerId);
        h.set_lease_id(job.lease_id());
        h.set_kind(kind);
        h.set_sha256(xq::sha256Hex(bytes));
        h.set_total_size(bytes.size());
        h.set_epochs_done(epochs);
        h.set_report_json(report);
        auto upload = coord->beginTrainingUpload(worker, h);
        upload->write(bytes);
        upload->finish();
        return coord->trainingFileUploaded(worker, h);
    }
    // Leases the training job and uploads a checkpoint and then the network; returns the network's hash.
    std::string train(const std::string& description) {
        auto resp = job();
        EXPECT_TRUE(resp.has_job() && resp.job().has_training()) << resp.DebugString();
        uploadTraining(resp.job(), "checkpoint", "checkpoint of " + description, 1);
        std::string net = networkBytes(description);
        auto ack =
            uploadTraining(resp.job(), "network", net, 2,
                           R"({"final_validation_loss_quantised": 0.0123, "start_validation_loss": 0.02,)"
                           R"( "seconds": 3.5, "loss_curve": [{"epoch": 1, "train_loss": 0.03}]})");
        EXPECT_EQ(ack.command(), v1::LEASE_STOP);
        return xq::sha256Hex(net);
    }
    // Plays the gate's pairs, all with the same outcome (penta 4: dev wins both games; 0: loses both),
    // until the test ends.
    void playGate(int penta) {
        for (int i = 0; i < 200; ++i) {
            auto resp = job(false, false);
            if (!resp.has_job()) return;
            ASSERT_TRUE(resp.job().has_match()) << resp.DebugString();
            v1::ReportRequest r;
            r.set_worker_id(workerId);
            r.set_lease_id(resp.job().lease_id());
            r.set_sequence(1);
            for (std::uint32_t p = 0; p < resp.job().match().pair_count(); ++p) {
                auto* pr = r.add_pairs();
                pr->set_pair_index(resp.job().match().first_pair() + p);
                pr->set_penta_index(std::uint32_t(penta));
                pr->set_wins(std::uint32_t(penta / 2));
                pr->set_draws(std::uint32_t(penta % 2));
                pr->set_losses(2 - pr->wins() - pr->draws());
            }
            auto ack = coord->report(worker, r);
            if (ack.command() == v1::LEASE_STOP) {
                auto view = coord->showTest(std::int64_t(resp.job().test_id()));
                if (view.summary().state() != v1::TEST_STATE_RUNNING) return;
            }
        }
    }
};

}  // namespace

TEST(RunDriver, EachStepStartsTheNextAndAPassedGatePromotesTheCandidate) {
    RunFixture f;
    auto run = f.submit(f.request());
    auto v = f.show(run);
    ASSERT_EQ(v.generations_size(), 1);
    EXPECT_EQ(v.summary().state(), v1::RUN_STATE_RUNNING);
    EXPECT_EQ(v.summary().step(), "selfplay");
    EXPECT_EQ(v.summary().best_net_sha256(), f.startNet);
    // Generation 1's self-play plays the start network.
    auto selfplay = f.coord->showTest(std::int64_t(v.generations(0).selfplay_test_id()));
    EXPECT_EQ(selfplay.spec().datagen().engine().net_sha256(), f.startNet);
    EXPECT_EQ(selfplay.spec().run().run_id(), std::uint64_t(run));
    EXPECT_EQ(selfplay.spec().games(), 4u);

    f.playSelfplay();
    v = f.show(run);
    EXPECT_EQ(v.summary().step(), "training");
    EXPECT_EQ(v.generations(0).positions(), 20u);
    EXPECT_EQ(v.generations(0).window_positions(), 20u);
    auto training = f.coord->showTest(std::int64_t(v.generations(0).training_test_id()));
    EXPECT_EQ(training.spec().training().chunks_size(), 2);
    EXPECT_EQ(training.spec().training().init_net_sha256(), f.startNet);  // a warm start by default
    EXPECT_EQ(training.spec().training().recipe().at("epochs"), "2");
    EXPECT_EQ(training.spec().training().recipe().at("lr"), "0.0005");
    EXPECT_EQ(training.spec().training().recipe().count("init"), 0u);
    // A worker that does not train gets nothing; one that does gets the whole test.
    EXPECT_FALSE(f.job(false).has_job());

    std::string candidate = f.train("gen 1");
    v = f.show(run);
    EXPECT_EQ(v.summary().step(), "gate");
    EXPECT_EQ(v.generations(0).candidate_net_sha256(), candidate);
    EXPECT_NEAR(v.generations(0).validation_loss(), 0.0123, 1e-9);
    EXPECT_NEAR(v.generations(0).train_loss(), 0.03, 1e-9);
    auto gate = f.coord->showTest(std::int64_t(v.generations(0).gate_test_id()));
    EXPECT_EQ(gate.spec().match().base().net_sha256(), f.startNet);
    EXPECT_EQ(gate.spec().match().dev().net_sha256(), candidate);
    EXPECT_EQ(gate.spec().match().dev().tc(), "10+0.1");
    EXPECT_TRUE(gate.spec().has_sprt());

    f.playGate(4);
    v = f.show(run);
    ASSERT_EQ(v.generations_size(), 2);
    EXPECT_TRUE(v.generations(0).promoted());
    EXPECT_EQ(v.generations(0).step(), "done");
    EXPECT_EQ(v.summary().best_net_sha256(), candidate);
    EXPECT_EQ(v.summary().best_generation(), 1u);
    EXPECT_EQ(v.summary().promotions(), 1u);
    EXPECT_GT(v.summary().elo(), 0);
    // Generation 2 plays the new best, and trains on both generations' data (window 2).
    EXPECT_EQ(v.generations(1).parent_net_sha256(), candidate);
    auto selfplay2 = f.coord->showTest(std::int64_t(v.generations(1).selfplay_test_id()));
    EXPECT_EQ(selfplay2.spec().datagen().engine().net_sha256(), candidate);
    EXPECT_NE(selfplay2.spec().datagen().seed(), selfplay.spec().datagen().seed());
    f.playSelfplay();
    v = f.show(run);
    EXPECT_EQ(v.generations(1).window_positions(), 40u);
    auto training2 = f.coord->showTest(std::int64_t(v.generations(1).training_test_id()));
    EXPECT_EQ(training2.spec().training().init_net_sha256(), candidate);
}

TEST(RunDriver, AFailedGateKeepsTheBestAndTheRunEndsAfterTheFailedGatesInARow) {
    RunFixture f;
    auto run = f.submit(f.request());
    for (int gen = 1; gen <= 2; ++gen) {
        f.playSelfplay();
        f.train("gen " + std::to_string(gen));
        f.playGate(0);
    }
    auto v = f.show(run);
    EXPECT_EQ(v.summary().state(), v1::RUN_STATE_FINISHED);
    EXPECT_EQ(v.summary().best_net_sha256(), f.startNet);
    EXPECT_EQ(v.summary().failed_gates(), 2u);
    EXPECT_NE(v.summary().result().find("2 gates failed in a row"), std::string::npos)
        << v.summary().result();
    ASSERT_EQ(v.generations_size(), 2);
    EXPECT_FALSE(v.generations(1).promoted());
    // Generation 2 trained on both windows' data from the start network again.
    auto training2 = f.coord->showTest(std::int64_t(v.generations(1).training_test_id()));
    EXPECT_EQ(training2.spec().training().init_net_sha256(), f.startNet);
    EXPECT_EQ(training2.spec().training().chunks_size(), 4);
    EXPECT_FALSE(f.job().has_job());  // nothing left to do
}

TEST(RunDriver, TheRunEndsAfterItsGenerations) {
    RunFixture f;
    auto req = f.request();
    req.mutable_spec()->set_generations(1);
    auto run = f.submit(req);
    f.playSelfplay();
    f.train("only");
    f.playGate(4);
    auto v = f.show(run);
    EXPECT_EQ(v.summary().state(), v1::RUN_STATE_FINISHED);
    EXPECT_NE(v.summary().result().find("1 generations done"), std::string::npos) << v.summary().result();
    EXPECT_EQ(v.generations_size(), 1);
}

TEST(RunDriver, ARestartInEveryStepLosesNothingAndTheRunGoesOn) {
    RunFixture f;
    auto run = f.submit(f.request());
    f.open();
    f.registerWorker();
    f.playSelfplay();
    f.open();
    f.registerWorker();
    EXPECT_EQ(f.show(run).summary().step(), "training");
    // A training lease sends a checkpoint and its worker disappears: the next lease resumes from it.
    auto first = f.job();
    ASSERT_TRUE(first.has_job() && first.job().has_training());
    EXPECT_TRUE(first.job().training().checkpoint_sha256().empty());
    f.uploadTraining(first.job(), "checkpoint", "epoch one", 1);
    f.open();
    f.clock += 60'000;
    f.coord->expireLeases();
    f.registerWorker();
    auto second = f.job();
    ASSERT_TRUE(second.has_job() && second.job().has_training());
    EXPECT_EQ(second.job().training().checkpoint_sha256(), xq::sha256Hex(std::string("epoch one")));
    EXPECT_EQ(second.job().training().checkpoint_epochs(), 1u);
    std::string net = networkBytes("resumed");
    f.uploadTraining(second.job(), "network", net, 2, "{}");
    f.open();
    f.registerWorker();
    auto v = f.show(run);
    EXPECT_EQ(v.summary().step(), "gate");
    EXPECT_EQ(v.generations(0).training_leases(), 2u);
    f.playGate(4);
    EXPECT_EQ(f.show(run).summary().best_net_sha256(), xq::sha256Hex(net));
}

TEST(RunDriver, AnUploadFromALeaseNoLongerHeldIsRefused) {
    RunFixture f;
    f.submit(f.request());
    f.playSelfplay();
    auto first = f.job();
    ASSERT_TRUE(first.has_job());
    f.clock += 60'000;
    f.coord->expireLeases();
    v1::TrainingFileChunk h;
    h.set_worker_id(f.workerId);
    h.set_lease_id(first.job().lease_id());
    h.set_kind("network");
    h.set_sha256(xq::sha256Hex(std::string("x")));
    h.set_total_size(1);
    EXPECT_EQ(codeOf([&] { f.coord->beginTrainingUpload(f.worker, h); }), ErrorCode::FailedPrecondition);
    h.set_kind("weights");
    EXPECT_NE(messageOf([&] { f.coord->beginTrainingUpload(f.worker, h); }).find("kind must be"),
              std::string::npos);
    EXPECT_EQ(codeOf([&] { f.coord->beginTrainingUpload(f.user, h); }), ErrorCode::PermissionDenied);
}

TEST(RunDriver, ATrainingThatFailsThreeTimesFailsTheRunAndAResumeTriesAgain) {
    RunFixture f;
    auto run = f.submit(f.request());
    f.playSelfplay();
    for (int i = 0; i < 3; ++i) {
        auto resp = f.job();
        ASSERT_TRUE(resp.has_job() && resp.job().has_training());
        v1::ReleaseRequest r;
        r.set_worker_id(f.workerId);
        r.set_lease_id(resp.job().lease_id());
        r.set_error("xq-tuner nnue: --hidden 64 differs from --init's H = 128");
        f.coord->release(f.worker, r);
    }
    auto v = f.show(run);
    EXPECT_EQ(v.summary().state(), v1::RUN_STATE_FAILED);
    EXPECT_NE(v.summary().result().find("training failed 3 times"), std::string::npos)
        << v.summary().result();
    EXPECT_NE(v.summary().result().find("--hidden 64 differs"), std::string::npos) << v.summary().result();
    EXPECT_FALSE(f.job().has_job());
    // Nothing stored is lost: the self-play data stays, and a resume trains on it again.
    EXPECT_EQ(v.generations(0).positions(), 20u);
    v1::ResumeRunRequest resume;
    resume.set_run_id(std::uint64_t(run));
    EXPECT_EQ(f.coord->resumeRun(f.user, resume).state(), v1::RUN_STATE_RUNNING);
    auto again = f.job();
    ASSERT_TRUE(again.has_job() && again.job().has_training());
    EXPECT_EQ(again.job().test_id(), v.generations(0).training_test_id());
}

TEST(RunDriver, StopEndsTheStepsTestAndResumeMakesItAgain) {
    RunFixture f;
    auto run = f.submit(f.request());
    v1::StopRunRequest stop;
    stop.set_run_id(std::uint64_t(run));
    EXPECT_EQ(f.coord->stopRun(f.user, stop).state(), v1::RUN_STATE_STOPPED);
    auto v = f.show(run);
    auto stopped = f.coord->showTest(std::int64_t(v.generations(0).selfplay_test_id()));
    EXPECT_EQ(stopped.summary().state(), v1::TEST_STATE_STOPPED);
    EXPECT_FALSE(f.job().has_job());
    v1::ResumeRunRequest resume;
    resume.set_run_id(std::uint64_t(run));
    EXPECT_EQ(f.coord->resumeRun(f.user, resume).state(), v1::RUN_STATE_RUNNING);
    EXPECT_EQ(codeOf([&] { f.coord->resumeRun(f.user, resume); }), ErrorCode::FailedPrecondition);
    v = f.show(run);
    EXPECT_NE(v.generations(0).selfplay_test_id(), stopped.summary().id());
    f.playSelfplay();
    EXPECT_EQ(f.show(run).summary().step(), "training");
    // A user who stops the step's test stops the run with it.
    auto training = f.show(run).generations(0).training_test_id();
    v1::StopTestRequest st;
    st.set_test_id(training);
    f.coord->stopTest(f.user, st);
    EXPECT_EQ(f.show(run).summary().state(), v1::RUN_STATE_STOPPED);
    EXPECT_NE(f.coord->metrics().render(f.coord->gauges()).find("xq_runs{state=\"stopped\"} 1\n"),
              std::string::npos);
}

TEST(RunDriver, PriorityMovesToTheRunsRunningTest) {
    RunFixture f;
    auto run = f.submit(f.request());
    v1::SetRunPriorityRequest p;
    p.set_run_id(std::uint64_t(run));
    p.set_priority(7);
    f.coord->setRunPriority(f.user, p);
    auto v = f.show(run);
    EXPECT_EQ(v.spec().priority(), 7);
    EXPECT_EQ(f.coord->showTest(std::int64_t(v.generations(0).selfplay_test_id())).spec().priority(), 7);
    f.playSelfplay();
    EXPECT_EQ(
        f.coord->showTest(std::int64_t(f.show(run).generations(0).training_test_id())).spec().priority(), 7);
}

TEST(RunDriver, MalformedRunsAreRefusedNamingWhatIsWrong) {
    RunFixture f;
    auto refused = [&](auto mutate) {
        auto req = f.request();
        mutate(*req.mutable_spec());
        EXPECT_EQ(codeOf([&] { f.submit(req); }), ErrorCode::InvalidArgument);
        return messageOf([&] { f.submit(req); });
    };
    using S = v1::RunSpec;
    EXPECT_NE(refused([](S& s) {
                  (*s.mutable_recipe())["learning_rate"] = "0.1";
              }).find("unknown setting 'learning_rate'"),
              std::string::npos);
    EXPECT_NE(refused([](S& s) { (*s.mutable_recipe())["epochs"] = "many"; }).find("recipe.epochs"),
              std::string::npos);
    EXPECT_NE(refused([](S& s) { (*s.mutable_recipe())["hidden"] = "100"; }).find("multiple of 16"),
              std::string::npos);
    EXPECT_NE(refused([](S& s) { (*s.mutable_recipe())["init"] = "random"; }).find("recipe.init"),
              std::string::npos);
    EXPECT_NE(refused([](S& s) { s.set_start_hce(true); }).find("exactly one start"), std::string::npos);
    EXPECT_NE(refused([&](S& s) { s.set_start_net_sha256(f.engineSha); }).find("start_net_sha256"),
              std::string::npos);
    EXPECT_NE(refused([](S& s) { s.clear_gate_sprt(); }).find("gate_sprt"), std::string::npos);
    EXPECT_NE(refused([](S& s) { s.mutable_gate()->mutable_base()->clear_tc(); }).find("gate.base.tc"),
              std::string::npos);
    EXPECT_NE(refused([](S& s) {
                  s.mutable_gate()->mutable_base()->set_tc("soon");
              }).find("gate: base time control"),
              std::string::npos);
    EXPECT_NE(refused([](S& s) {
                  s.mutable_gate()->mutable_base()->set_tc("nodes=1000");
              }).find("gate: the gate could play only 2 of its 400 games"),
              std::string::npos);
    EXPECT_NE(refused([](S& s) { s.mutable_datagen()->set_nodes(0); }).find("datagen.nodes"),
              std::string::npos);
    EXPECT_NE(refused([](S& s) { s.set_games_per_generation(1); }).find("games_per_generation"),
              std::string::npos);
    EXPECT_NE(refused([&](S& s) {
                  s.mutable_datagen()->mutable_engine()->set_net_sha256(f.startNet);
              }).find("datagen.engine.net_sha256"),
              std::string::npos);
    EXPECT_TRUE(f.coord->listRuns({}).runs().empty());  // nothing was stored
    EXPECT_EQ(codeOf([&] { f.coord->showRun(99); }), ErrorCode::NotFound);
    // A user may not submit a run's tests by hand.
    v1::SubmitRequest t;
    t.mutable_spec()->mutable_training()->add_chunks();
    EXPECT_NE(messageOf([&] { f.coord->submit(f.user, t); }).find("made by runs"), std::string::npos);
    // A run from the hand-written evaluation trains generation 1 from scratch and plays `Use NNUE` false.
    auto req = f.request();
    req.mutable_spec()->clear_start_net_sha256();
    req.mutable_spec()->set_start_hce(true);
    auto run = f.submit(req);
    auto v = f.show(run);
    EXPECT_EQ(v.spec().recipe().at("init"), "scratch");
    EXPECT_EQ(v.spec().recipe().at("hidden"), "128");
    auto selfplay = f.coord->showTest(std::int64_t(v.generations(0).selfplay_test_id()));
    EXPECT_EQ(selfplay.spec().datagen().engine().options().at("Use NNUE"), "false");
}
