// Runs (run.proto): submitting, showing, stopping and resuming them, and the driver that makes each
// generation's next step in the transaction that finishes the step before it (finishTest ->
// runTestEnded), so that a crash of any process between two steps neither repeats nor skips one.
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "coordinator.h"
#include "match_kind.h"
#include "training_kind.h"

namespace xq::coord {

namespace {

constexpr const char* StepSelfplay = "selfplay";
constexpr const char* StepTraining = "training";
constexpr const char* StepGate = "gate";
constexpr const char* StepDone = "done";
constexpr std::uint32_t DefaultWindow = 3;
constexpr std::uint32_t DefaultMaxFailedGates = 3;

v1::RunState toProto(RunState s) {
    switch (s) {
        case RunState::Running:
            return v1::RUN_STATE_RUNNING;
        case RunState::Finished:
            return v1::RUN_STATE_FINISHED;
        case RunState::Stopped:
            return v1::RUN_STATE_STOPPED;
        case RunState::Failed:
            return v1::RUN_STATE_FAILED;
    }
    return v1::RUN_STATE_UNSPECIFIED;
}

std::string netName(const std::string& sha) {
    return sha.empty() ? std::string("the hand-written evaluation") : "xq-" + sha.substr(0, 12) + ".nnue";
}

std::string who(const Caller& caller) {
    return caller.name.empty() ? "token " + std::to_string(caller.tokenId) : caller.name;
}

std::int64_t stepTest(const GenerationRow& g) {
    if (g.step == StepSelfplay) return g.selfplayTest;
    if (g.step == StepTraining) return g.trainingTest;
    if (g.step == StepGate) return g.gateTest;
    return 0;
}

// The engine as the run plays it: the datagen engine with a network (or, without one, the hand-written
// evaluation by `Use NNUE` = false).
v1::EngineSpec runEngine(const v1::RunSpec& spec, const std::string& net, const std::string& name) {
    v1::EngineSpec e = spec.datagen().engine();
    e.set_name(name);
    e.set_net_sha256(net);
    if (net.empty()) (*e.mutable_options())["Use NNUE"] = "false";
    return e;
}

v1::TestSpec stepSpec(const RunRow& run, const v1::RunSpec& spec, std::int64_t generation, const char* step) {
    v1::TestSpec ts;
    ts.set_priority(int(run.priority));
    ts.set_throughput(spec.throughput());
    ts.set_description("run " + std::to_string(run.id) + ", generation " + std::to_string(generation) + ": " +
                       step +
                       (spec.description().empty() ? "" : " (" + spec.description().substr(0, 200) + ")"));
    auto* ref = ts.mutable_run();
    ref->set_run_id(std::uint64_t(run.id));
    ref->set_generation(std::uint32_t(generation));
    ref->set_step(step);
    return ts;
}

v1::MatchSpec gateMatch(const v1::RunSpec& spec, const std::string& best, std::int64_t bestGeneration,
                        const std::string& candidate, std::int64_t generation) {
    v1::MatchSpec m = spec.gate();
    const std::string tc = spec.gate().base().tc();
    const std::string devTc = spec.gate().dev().tc().empty() ? tc : spec.gate().dev().tc();
    *m.mutable_base() =
        runEngine(spec, best, bestGeneration ? "gen-" + std::to_string(bestGeneration) : "start");
    m.mutable_base()->set_tc(tc);
    *m.mutable_dev() = runEngine(spec, candidate, "gen-" + std::to_string(generation));
    m.mutable_dev()->set_tc(devTc);
    return m;
}

double jsonNumber(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<double>() : std::nan("");
}

}  // namespace

v1::RunSpec Coordinator::parseRunSpec(const RunRow& run) {
    v1::RunSpec spec;
    if (!spec.ParseFromString(run.spec))
        fail(ErrorCode::FailedPrecondition,
             "run " + std::to_string(run.id) + " has a spec that does not parse");
    return spec;
}

Caller Coordinator::runCaller(const RunRow& run) const {
    Caller c;
    c.role = Role::Approver;  // the run was approved as a whole when it was submitted
    c.name = run.submitter;
    return c;
}

v1::SubmitRunResponse Coordinator::submitRun(const Caller& caller, const v1::SubmitRunRequest& req) {
    require(caller, Role::User, "submit runs");
    if (options_.requireApproval && caller.role != Role::Approver)
        fail(ErrorCode::PermissionDenied,
             "this coordinator requires approval, and a run makes its tests with nobody to approve them: "
             "submit it with an approver's token");
    auto bad = [](const std::string& m) { fail(ErrorCode::InvalidArgument, m); };
    v1::RunSpec spec = req.spec();
    if (!spec.has_datagen()) bad("datagen: the run's self-play settings (engine, nodes) are missing");
    const auto& d = spec.datagen();
    if (!d.game().empty() && d.game() != "xiangqi")
        bad("datagen.game: runs train the Xiangqi engine's network, got '" + d.game().substr(0, 50) + "'");
    if (!d.engine().net_sha256().empty())
        bad("datagen.engine.net_sha256: the run sets the network itself; give start_net_sha256");
    if (d.sample_rate() == 0) spec.mutable_datagen()->set_sample_rate(1.0);  // every quiet position
    if (spec.games_per_generation() < 2 || spec.games_per_generation() > 10'000'000)
        bad("games_per_generation must be 2 .. 10000000");
    if (spec.start_hce() == !spec.start_net_sha256().empty())
        bad("give exactly one start: start_net_sha256 (a network) or start_hce (the hand-written "
            "evaluation)");
    if (!spec.start_net_sha256().empty()) {
        host_.checkArtifact(spec.start_net_sha256(), "start_net_sha256", false);
        if (std::string problem =
                artifactProblem(ArtifactKindNet, artifacts_.pathOf(spec.start_net_sha256()));
            !problem.empty())
            bad("start_net_sha256 " + spec.start_net_sha256().substr(0, 12) + " is " + problem);
    }
    host_.checkArtifact(spec.start_checkpoint_sha256(), "start_checkpoint_sha256", true);
    checkRecipe(spec.recipe(), "recipe");
    auto& recipe = *spec.mutable_recipe();
    // The defaults spelled out, so that a later change of xq-tuner's own never changes a run.
    if (!recipe.count("init")) recipe["init"] = spec.start_hce() ? "scratch" : "best";
    if (!recipe.count("epochs")) recipe["epochs"] = "4";
    if (!recipe.count("lambda")) recipe["lambda"] = "0.8";
    if (!recipe.count("validation")) recipe["validation"] = "0.03";
    if (recipe["init"] == "scratch" && !recipe.count("hidden")) recipe["hidden"] = "128";
    if (recipe["init"] == "best" && !recipe.count("lr"))
        recipe["lr"] = "0.0005";  // a fine-tune (docs/nnue.md: 5e-3 first makes the best worse)
    if (spec.window() == 0) spec.set_window(DefaultWindow);
    if (spec.window() > 1000) bad("window must be at most 1000 generations");
    if (!spec.has_gate_sprt()) bad("gate_sprt: the gate is an SPRT of the candidate against the best");
    if (!(spec.gate_sprt().elo0() < spec.gate_sprt().elo1())) bad("gate_sprt: elo0 must be below elo1");
    if (spec.gate().base().tc().empty())
        bad("gate.base.tc: the gate's time control (e.g. 10+0.1 or nodes=20000) is missing");
    if (spec.generations() > 100'000) bad("generations must be at most 100000");
    if (spec.max_failed_gates() == 0) spec.set_max_failed_gates(DefaultMaxFailedGates);
    if (spec.description().size() > 1000) bad("description must be at most 1000 characters");
    if (spec.throughput() < 0 || !std::isfinite(spec.throughput()))
        bad("throughput must be a positive number");
    {
        v1::TestSpec hooks;
        *hooks.mutable_webhooks() = spec.webhooks();
        checkWebhooks(caller, hooks);
    }
    spec.set_submitter(caller.name);

    WriteLock lock(*this);
    Transaction tx(store_.db());
    // The gate as it will be played (with the start network on both sides).
    try {
        v1::MatchSpec gate = gateMatch(spec, spec.start_net_sha256(), 0, spec.start_net_sha256(), 1);
        std::size_t openings = checkMatchSpec(host_, gate);
        // A gate that could not play its games (a node limit replays the same pairs past its book) could
        // never reach a verdict: nothing would ever be promoted.
        std::vector<std::string> notes;
        const auto games =
            spec.gate_games() ? std::int64_t(spec.gate_games()) : std::int64_t(options_.defaultSprtMaxGames);
        const std::int64_t pairs = pairsToPlay(host_, gate, openings, games, notes);
        if (2 * pairs < games)
            bad("the gate could play only " + std::to_string(2 * pairs) + " of its " + std::to_string(games) +
                " games: " + (notes.empty() ? std::string("its book is too small") : notes.front()) +
                "; give a larger book (gate.openings_sha256) or a clock");
    } catch (const CoordError& e) {
        throw CoordError(e.code, std::string("gate: ") + e.what());
    }
    RunRow run;
    run.spec = spec.SerializeAsString();
    run.submitter = caller.name;
    run.createdMs = nowMs();
    run.generation = 1;
    run.bestNet = spec.start_net_sha256();
    run.priority = spec.priority();
    run.id = runs_.insertRun(run);
    GenerationRow g;
    g.runId = run.id;
    g.generation = 1;
    g.parentNet = run.bestNet;
    g.step = StepSelfplay;
    g.startedMs = nowMs();
    runs_.insertGeneration(g);
    startSelfplay(run, spec, g);  // checks the self-play settings as a datagen test's
    runs_.saveGeneration(g);
    runs_.addEvent(run.id, nowMs(),
                   "submitted by " + who(caller) + "; starts from " + netName(run.bestNet) +
                       "; generation 1: self-play, test " + std::to_string(g.selfplayTest));
    tx.commit();
    v1::SubmitRunResponse resp;
    resp.set_run_id(std::uint64_t(run.id));
    return resp;
}

std::int64_t Coordinator::startSelfplay(const RunRow& run, const v1::RunSpec& spec, GenerationRow& g) {
    v1::TestSpec ts = stepSpec(run, spec, g.generation, StepSelfplay);
    auto* d = ts.mutable_datagen();
    *d = spec.datagen();
    *d->mutable_engine() = runEngine(spec, run.bestNet, "selfplay");
    // Each generation plays other games: its seed moves on.
    d->set_seed(spec.datagen().seed() + std::uint64_t(g.generation - 1) * 1'000'003ull);
    ts.set_games(spec.games_per_generation());
    g.step = StepSelfplay;
    g.selfplayTest = createTest(runCaller(run), ts, false);
    return g.selfplayTest;
}

std::int64_t Coordinator::startTraining(const RunRow& run, const v1::RunSpec& spec, GenerationRow& g) {
    v1::TestSpec ts = stepSpec(run, spec, g.generation, StepTraining);
    auto* t = ts.mutable_training();
    const std::int64_t window = std::max<std::int64_t>(1, spec.window());
    for (const auto& gen : runs_.generations(run.id)) {
        if (gen.generation > g.generation || gen.generation <= g.generation - window || !gen.selfplayTest)
            continue;
        for (const auto& c : data_.chunks(gen.selfplayTest)) {
            auto* tc = t->add_chunks();
            tc->set_test_id(std::uint64_t(c.testId));
            tc->set_chunk_id(std::uint64_t(c.id));
            tc->set_sha256(c.sha256);
            tc->set_positions(std::uint64_t(c.positions));
        }
    }
    for (const auto& [name, value] : spec.recipe())
        if (name != "init") (*t->mutable_recipe())[name] = value;
    auto init = spec.recipe().find("init");
    if (init != spec.recipe().end() && init->second == "best") t->set_init_net_sha256(run.bestNet);
    t->set_description("run " + std::to_string(run.id) + " gen " + std::to_string(g.generation));
    g.step = StepTraining;
    g.trainingTest = createTest(runCaller(run), ts, false);
    if (g.generation == 1 && !spec.start_checkpoint_sha256().empty()) {
        auto row = runs_.findTraining(g.trainingTest);
        row->checkpoint = spec.start_checkpoint_sha256();
        runs_.saveTraining(*row);
        store_.addEvent(g.trainingTest, nowMs(), "resumes from the run's start checkpoint");
    }
    return g.trainingTest;
}

std::int64_t Coordinator::startGate(const RunRow& run, const v1::RunSpec& spec, GenerationRow& g) {
    v1::TestSpec ts = stepSpec(run, spec, g.generation, StepGate);
    *ts.mutable_match() = gateMatch(spec, run.bestNet, run.bestGeneration, g.candidateNet, g.generation);
    *ts.mutable_sprt() = spec.gate_sprt();
    ts.set_games(spec.gate_games());
    *ts.mutable_webhooks() = spec.webhooks();  // each gate's verdict is the run's news
    g.step = StepGate;
    g.gateTest = createTest(runCaller(run), ts, false);
    return g.gateTest;
}

void Coordinator::advanceRun(RunRow& run, GenerationRow& g, const v1::RunSpec& spec, const TestRow* ended) {
    const std::string gen = "generation " + std::to_string(g.generation);
    if (g.step == StepSelfplay) {
        startTraining(run, spec, g);
        runs_.addEvent(run.id, nowMs(),
                       gen + ": self-play done (" + (ended ? ended->result : std::string("-")) +
                           "); training, test " + std::to_string(g.trainingTest));
        return;
    }
    if (g.step == StepTraining) {
        auto row = ended ? runs_.findTraining(ended->id) : std::nullopt;
        if (!row || row->net.empty())
            fail(ErrorCode::FailedPrecondition, gen + ": training ended without a network");
        g.candidateNet = row->net;
        startGate(run, spec, g);
        runs_.addEvent(run.id, nowMs(),
                       gen + ": trained " + netName(g.candidateNet) + "; gate against " +
                           netName(run.bestNet) + ", test " + std::to_string(g.gateTest));
        return;
    }
    if (g.step != StepGate) return;
    g.promoted = ended && ended->result.rfind("H1", 0) == 0;
    g.step = StepDone;
    g.finishedMs = nowMs();
    if (g.promoted) {
        run.bestNet = g.candidateNet;
        run.bestGeneration = g.generation;
        run.failedGates = 0;
    } else {
        ++run.failedGates;
    }
    runs_.addEvent(run.id, nowMs(),
                   gen + ": gate " + (ended ? ended->result : std::string("-")) + "; " +
                       (g.promoted ? netName(g.candidateNet) + " is the run's best"
                                   : "the best stays " + netName(run.bestNet) + " (" +
                                         std::to_string(run.failedGates) + " failed in a row)"));
    std::string end;
    if (spec.generations() && g.generation >= std::int64_t(spec.generations()))
        end = std::to_string(spec.generations()) + " generations done";
    else if (run.failedGates >= std::int64_t(spec.max_failed_gates()))
        end = std::to_string(run.failedGates) + " gates failed in a row";
    if (!end.empty()) {
        run.state = RunState::Finished;
        run.finishedMs = nowMs();
        run.result =
            end + "; best: " + netName(run.bestNet) +
            (run.bestGeneration ? " of generation " + std::to_string(run.bestGeneration) : " (the start)");
        runs_.addEvent(run.id, nowMs(), "finished: " + run.result);
        return;
    }
    runs_.saveGeneration(g);
    GenerationRow next;
    next.runId = run.id;
    next.generation = g.generation + 1;
    next.parentNet = run.bestNet;
    next.step = StepSelfplay;
    next.startedMs = nowMs();
    runs_.insertGeneration(next);
    run.generation = next.generation;
    startSelfplay(run, spec, next);
    runs_.saveGeneration(next);
    runs_.addEvent(run.id, nowMs(),
                   "generation " + std::to_string(next.generation) + ": self-play with " +
                       netName(run.bestNet) + ", test " + std::to_string(next.selfplayTest));
}

void Coordinator::runTestEnded(const TestRow& t, const v1::TestSpec& spec) {
    auto run = runs_.findRun(std::int64_t(spec.run().run_id()));
    if (!run || run->state != RunState::Running) return;
    auto g = runs_.findGeneration(run->id, spec.run().generation());
    if (!g || stepTest(*g) != t.id) return;  // a test the run no longer waits for
    v1::RunSpec runSpec = parseRunSpec(*run);
    if (t.state == TestState::Finished) {
        try {
            advanceRun(*run, *g, runSpec, &t);
        } catch (const CoordError& e) {
            // The next step cannot be made (an artifact gone, a spec refused): the run fails, the test's end
            // stands, and a resume tries the step again.
            run->state = RunState::Failed;
            run->finishedMs = nowMs();
            run->result = "generation " + std::to_string(g->generation) + ": the step after " + g->step +
                          " cannot start: " + std::string(e.what()).substr(0, 300);
            runs_.addEvent(run->id, nowMs(), "failed: " + run->result);
        }
    } else {
        run->state = t.state == TestState::Stopped ? RunState::Stopped : RunState::Failed;
        run->finishedMs = nowMs();
        run->result = "generation " + std::to_string(g->generation) + ": " + g->step + " test " +
                      std::to_string(t.id) + " " + toString(t.state) + ": " + t.result.substr(0, 300);
        runs_.addEvent(run->id, nowMs(), std::string(toString(run->state)) + ": " + run->result);
    }
    runs_.saveRun(*run);
    runs_.saveGeneration(*g);
}

v1::RunStateResponse Coordinator::stopRun(const Caller& caller, const v1::StopRunRequest& req) {
    require(caller, Role::User, "stop runs");
    WriteLock lock(*this);
    Transaction tx(store_.db());
    auto run = runs_.findRun(std::int64_t(req.run_id()));
    if (!run) fail(ErrorCode::NotFound, "no run " + std::to_string(req.run_id()));
    if (run->state == RunState::Running) {
        run->state = RunState::Stopped;
        run->finishedMs = nowMs();
        run->result = req.reason().empty() ? "stopped by " + who(caller) : req.reason().substr(0, 200);
        runs_.saveRun(*run);
        runs_.addEvent(run->id, nowMs(), "stopped: " + run->result);
        if (auto g = runs_.findGeneration(run->id, run->generation))
            if (auto t = store_.findTest(stepTest(*g));
                t && (t->state == TestState::Running || t->state == TestState::Pending)) {
                finishTest(*t, TestState::Stopped, "its run " + std::to_string(run->id) + " was stopped");
                store_.saveTest(*t);
            }
    }
    tx.commit();
    v1::RunStateResponse resp;
    resp.set_state(toProto(run->state));
    return resp;
}

v1::RunStateResponse Coordinator::resumeRun(const Caller& caller, const v1::ResumeRunRequest& req) {
    require(caller, Role::User, "resume runs");
    if (options_.requireApproval && caller.role != Role::Approver)
        fail(ErrorCode::PermissionDenied,
             "this coordinator requires approval: resume runs with an approver's token");
    WriteLock lock(*this);
    Transaction tx(store_.db());
    auto run = runs_.findRun(std::int64_t(req.run_id()));
    if (!run) fail(ErrorCode::NotFound, "no run " + std::to_string(req.run_id()));
    if (run->state != RunState::Stopped && run->state != RunState::Failed)
        fail(ErrorCode::FailedPrecondition, "run " + std::to_string(run->id) + " is " + toString(run->state) +
                                                ": only a stopped or failed run can be resumed");
    v1::RunSpec spec = parseRunSpec(*run);
    auto g = runs_.findGeneration(run->id, run->generation);
    if (!g) fail(ErrorCode::FailedPrecondition, "run " + std::to_string(run->id) + " has no generation");
    run->state = RunState::Running;
    run->result.clear();
    run->finishedMs = 0;
    auto t = store_.findTest(stepTest(*g));
    std::string what;
    if (t && t->state == TestState::Failed) {
        t->state = TestState::Running;
        t->result.clear();
        t->finishedMs = 0;
        store_.saveTest(*t);
        store_.clearFailedLeases(t->id);
        data_.clearSliceFailures(t->id);
        if (auto row = runs_.findTraining(t->id)) {
            row->failures = 0;
            runs_.saveTraining(*row);
        }
        store_.addEvent(t->id, nowMs(), "resumed with its run by " + who(caller));
        workAppeared(store_.db());
        what = "test " + std::to_string(t->id) + " resumed";
    } else if (!t || t->state == TestState::Stopped) {
        // The step's test was stopped: the step starts again as a new test (a training test keeps nothing of
        // the stopped one but its data window, which is the same).
        if (g->step == StepSelfplay)
            startSelfplay(*run, spec, *g);
        else if (g->step == StepTraining)
            startTraining(*run, spec, *g);
        else if (g->step == StepGate)
            startGate(*run, spec, *g);
        what = g->step + " again as test " + std::to_string(stepTest(*g));
    } else if (t->state == TestState::Finished) {
        advanceRun(*run, *g, spec, &*t);
        what = "the step after " + std::string(t->kind) + " test " + std::to_string(t->id);
    } else {
        what = "test " + std::to_string(t->id) + " still running";
    }
    runs_.saveRun(*run);
    runs_.saveGeneration(*g);
    runs_.addEvent(run->id, nowMs(), "resumed by " + who(caller) + ": " + what);
    tx.commit();
    v1::RunStateResponse resp;
    resp.set_state(toProto(run->state));
    return resp;
}

v1::RunStateResponse Coordinator::setRunPriority(const Caller& caller, const v1::SetRunPriorityRequest& req) {
    require(caller, Role::User, "change runs");
    WriteLock lock(*this);
    Transaction tx(store_.db());
    auto run = runs_.findRun(std::int64_t(req.run_id()));
    if (!run) fail(ErrorCode::NotFound, "no run " + std::to_string(req.run_id()));
    run->priority = req.priority();
    runs_.saveRun(*run);
    runs_.addEvent(run->id, nowMs(),
                   "priority " + std::to_string(req.priority()) + " (by " + who(caller) + ")");
    if (auto g = runs_.findGeneration(run->id, run->generation))
        if (auto t = store_.findTest(stepTest(*g))) {
            v1::TestSpec ts = parseSpec(*t);
            ts.set_priority(req.priority());
            store_.setTestSpec(t->id, ts.SerializeAsString());
            workAppeared(store_.db());
        }
    tx.commit();
    v1::RunStateResponse resp;
    resp.set_state(toProto(run->state));
    return resp;
}

v1::RunSummary Coordinator::summarizeRun(const RunRow& run) {
    v1::RunSpec spec;
    spec.ParseFromString(run.spec);
    v1::RunSummary s;
    s.set_id(std::uint64_t(run.id));
    s.set_state(toProto(run.state));
    s.set_description(spec.description());
    s.set_result(run.result);
    s.set_generation(std::uint32_t(run.generation));
    s.set_best_net_sha256(run.bestNet);
    s.set_best_generation(std::uint32_t(run.bestGeneration));
    s.set_failed_gates(std::uint32_t(run.failedGates));
    s.set_created_unix(run.createdMs / 1000);
    s.set_finished_unix(run.finishedMs / 1000);
    s.set_submitter(run.submitter);
    s.set_generations_target(spec.generations());
    if (auto g = runs_.findGeneration(run.id, run.generation)) {
        s.set_step(g->step);
        s.set_step_test_id(std::uint64_t(stepTest(*g)));
        if (auto t = store_.findTest(stepTest(*g))) *s.mutable_step_test() = summarize(*t, parseSpec(*t));
    }
    // The best's Elo over the start: the promoted gates' estimates chained, their errors combined.
    double elo = 0, variance = 0;
    std::uint32_t promotions = 0;
    for (const auto& g : runs_.generations(run.id)) {
        if (!g.promoted) continue;
        auto t = store_.findTest(g.gateTest);
        if (!t) continue;
        auto e = stats::elo(pentaOf(*t));
        elo += e.elo;
        variance += e.eloError * e.eloError;
        ++promotions;
    }
    s.set_promotions(promotions);
    s.set_elo(elo);
    s.set_elo_error(std::sqrt(variance));
    return s;
}

v1::ListRunsResponse Coordinator::listRuns(const v1::ListRunsRequest& req) {
    std::lock_guard lock(mutex_);
    v1::ListRunsResponse resp;
    std::int64_t limit = req.limit() == 0 ? 50 : std::min<std::int64_t>(req.limit(), 1000);
    for (const auto& run : runs_.listRuns(limit)) *resp.add_runs() = summarizeRun(run);
    return resp;
}

v1::RunView Coordinator::showRun(std::int64_t runId) {
    std::lock_guard lock(mutex_);
    auto run = runs_.findRun(runId);
    if (!run) fail(ErrorCode::NotFound, "no run " + std::to_string(runId));
    v1::RunView view;
    *view.mutable_summary() = summarizeRun(*run);
    view.mutable_spec()->ParseFromString(run->spec);
    view.mutable_spec()->set_priority(int(run->priority));  // as changed since (SetRunPriority)
    for (const auto& g : runs_.generations(runId)) {
        auto* gv = view.add_generations();
        gv->set_generation(std::uint32_t(g.generation));
        gv->set_parent_net_sha256(g.parentNet);
        gv->set_selfplay_test_id(std::uint64_t(g.selfplayTest));
        gv->set_training_test_id(std::uint64_t(g.trainingTest));
        gv->set_gate_test_id(std::uint64_t(g.gateTest));
        gv->set_candidate_net_sha256(g.candidateNet);
        gv->set_step(g.step);
        gv->set_promoted(g.promoted);
        gv->set_started_unix(g.startedMs / 1000);
        gv->set_finished_unix(g.finishedMs / 1000);
        gv->set_train_loss(std::nan(""));
        gv->set_validation_loss(std::nan(""));
        gv->set_start_validation_loss(std::nan(""));
        auto elapsed = [&](const std::optional<TestRow>& t) -> std::int64_t {
            if (!t) return 0;
            return (t->finishedMs ? t->finishedMs : nowMs()) - t->createdMs;
        };
        if (auto t = store_.findTest(g.selfplayTest)) {
            gv->set_positions(std::uint64_t(data_.progress(t->id).positions));
            gv->set_selfplay_ms(elapsed(t));
        }
        if (auto t = store_.findTest(g.trainingTest)) {
            gv->set_training_ms(elapsed(t));
            v1::TestSpec ts = parseSpec(*t);
            std::uint64_t window = 0;
            for (const auto& c : ts.training().chunks()) window += c.positions();
            gv->set_window_positions(window);
            if (auto row = runs_.findTraining(t->id)) {
                gv->set_training_leases(std::uint32_t(row->leases));
                gv->set_training_report_json(row->report);
                auto j = nlohmann::json::parse(row->report, nullptr, false);
                if (j.is_object()) {
                    gv->set_validation_loss(jsonNumber(j, "final_validation_loss_quantised"));
                    gv->set_start_validation_loss(jsonNumber(j, "start_validation_loss"));
                    gv->set_training_seconds(jsonNumber(j, "seconds"));
                    if (auto c = j.find("loss_curve"); c != j.end() && c->is_array() && !c->empty())
                        gv->set_train_loss(jsonNumber(c->back(), "train_loss"));
                }
            }
        }
        if (auto t = store_.findTest(g.gateTest)) {
            gv->set_gate_ms(elapsed(t));
            *gv->mutable_gate() = summarize(*t, parseSpec(*t));
        }
    }
    for (auto& e : runs_.events(runId)) view.add_events(std::move(e));
    return view;
}

std::unique_ptr<ArtifactStore::Upload> Coordinator::beginTrainingUpload(const Caller& caller,
                                                                        const v1::TrainingFileChunk& header) {
    require(caller, Role::Worker, "upload training files");
    if (header.kind() != "checkpoint" && header.kind() != "network")
        fail(ErrorCode::InvalidArgument,
             "kind must be checkpoint or network, got '" + header.kind().substr(0, 50) + "'");
    if (header.report_json().size() > (2u << 20))
        fail(ErrorCode::InvalidArgument, "report_json is over 2 MiB (a loss curve of thousands of epochs)");
    {
        WriteLock lock(*this);
        LeaseRow lease =
            leaseOfWorker(caller, std::int64_t(header.worker_id()), std::int64_t(header.lease_id()));
        if (lease.state != LeaseState::Active)
            fail(ErrorCode::FailedPrecondition, "lease " + std::to_string(lease.id) + " is no longer held");
        if (!runs_.findTraining(lease.testId))
            fail(ErrorCode::InvalidArgument,
                 "lease " + std::to_string(lease.id) + " is not a training lease");
    }
    try {
        return std::make_unique<ArtifactStore::Upload>(artifacts_, header.sha256(), header.total_size(),
                                                       options_.maxArtifactBytes);
    } catch (const std::invalid_argument& e) {
        fail(ErrorCode::InvalidArgument, e.what());
    }
}

v1::TrainingFileAck Coordinator::trainingFileUploaded(const Caller& caller,
                                                      const v1::TrainingFileChunk& header) {
    const bool network = header.kind() == "network";
    if (network)
        checkArtifactKind(ArtifactKindNet, header.sha256());  // the engine's reader, outside the lock
    WriteLock lock(*this);
    Transaction tx(store_.db());
    v1::TrainingFileAck ack;
    LeaseRow lease = leaseOfWorker(caller, std::int64_t(header.worker_id()), std::int64_t(header.lease_id()));
    auto test = store_.findTest(lease.testId);
    auto row = runs_.findTraining(lease.testId);
    if (lease.state != LeaseState::Active || !test || !row || test->state != TestState::Running) {
        ack.set_command(v1::LEASE_STOP);
        ack.set_reason("lease " + std::to_string(lease.id) + " is no longer held");
        tx.commit();
        return ack;
    }
    const std::int64_t now = nowMs();
    if (!store_.hasArtifact(header.sha256()))
        store_.insertArtifact(header.sha256(), std::int64_t(header.total_size()),
                              (network ? "xq-" + header.sha256().substr(0, 12) + ".nnue"
                                       : "checkpoint-test-" + std::to_string(test->id) + "-epoch-" +
                                             std::to_string(header.epochs_done())),
                              now);
    if (!network) {
        row->checkpoint = header.sha256();
        row->checkpointEpochs = header.epochs_done();
        row->checkpointMs = now;
        runs_.saveTraining(*row);
        store_.addEvent(test->id, now,
                        "checkpoint after epoch " + std::to_string(header.epochs_done()) + " from worker " +
                            std::to_string(lease.workerId));
    } else {
        store_.setArtifactKind(header.sha256(), ArtifactKindNet);
        store_.insertTestArtifact(test->id, header.sha256(), "trained network");
        row->net = header.sha256();
        row->report = header.report_json();
        runs_.saveTraining(*row);
        lease.state = LeaseState::Done;
        lease.pairsDone = lease.pairCount;
        store_.saveLease(lease);
        forgetLease(lease.id);
        countLease(*test, false, "");
        if (auto result = kindOf(parseSpec(*test)).completion(*test, parseSpec(*test)))
            finishTest(*test, TestState::Finished, *result);
        store_.saveTest(*test);
        ack.set_command(v1::LEASE_STOP);
        ack.set_reason("trained");
    }
    tx.commit();
    return ack;
}

}  // namespace xq::coord
