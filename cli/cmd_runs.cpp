// Runs of generations (issue 58; run.proto): `xq submit run` starts one, `xq runs` lists them, `xq show run
// N`, `xq stop run N`, `xq resume run N` and `xq priority run N P` follow and steer one. The `run`
// subcommands hang under the commands that take a test's id (cmd_remote.cpp), which go on as before.
#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>
#include <memory>

#include "command.h"
#include "connection.h"
#include "run_report.h"
#include "run_submission.h"
#include "test_wait.h"
#include "util/text.h"

namespace {

namespace v1 = xq::v1;
using xq::cli::Connection;
using xq::coord::check;

// The current step's progress: games and positions of the self-play, epochs of the training, the gate's
// progress line (as `xq wait` shows a test), each with what it can tell of the time left.
std::string stepLine(const v1::RunView& view) {
    const auto& s = view.summary();
    const auto& t = s.step_test();
    if (!s.has_step_test() || t.id() == 0 || t.state() != v1::TEST_STATE_RUNNING) return "";
    const double elapsed = t.created_unix() > 0
                               ? double(std::chrono::duration_cast<std::chrono::seconds>(
                                            std::chrono::system_clock::now().time_since_epoch())
                                            .count() -
                                        t.created_unix())
                               : 0;
    std::string line = "generation " + std::to_string(s.generation()) + " " + s.step() + ", test " +
                       std::to_string(t.id()) + ": ";
    if (t.kind() == "datagen") {
        const double rate = elapsed > 0 ? double(t.games()) / elapsed : 0;
        line +=
            "games " + std::to_string(t.games()) + " of " + std::to_string(t.games_target()) +
            ", positions " + std::to_string(t.datagen().positions()) + ", " +
            xq::counted(t.active_workers(), "worker") + "  ETA " +
            (rate > 0 ? xq::cli::duration(double(t.games_target() - t.games()) / rate) : std::string("?"));
    } else if (t.kind() == "training") {
        const auto& p = t.training();
        line += "epochs " + std::to_string(p.epochs_done()) + " of " + std::to_string(p.epochs()) +
                " (last checkpoint), " + std::to_string(p.positions()) + " positions in the window, " +
                xq::counted(p.leases(), "lease") + ", running " + xq::cli::duration(elapsed);
    } else {
        v1::TestView gate;
        *gate.mutable_summary() = t;
        *gate.mutable_spec()->mutable_sprt() = view.spec().gate_sprt();
        line += xq::cli::progressLine(gate, elapsed);
    }
    return line;
}

// `xq runs`.
void addRuns(CLI::App& app) {
    auto* sub = app.add_subcommand("runs", "list the runs of generations on a coordinator (xq submit run)");
    auto conn = std::make_shared<Connection>();
    auto asJson = std::make_shared<bool>(false);
    auto limit = std::make_shared<unsigned>(50);
    conn->addOptions(sub);
    sub->add_option("--limit", *limit, "most recent N runs");
    sub->add_flag("--json", *asJson, "JSON for scripts");
    sub->callback([=] {
        auto client = conn->open();
        v1::ListRunsRequest req;
        req.set_limit(*limit);
        v1::ListRunsResponse resp;
        auto ctx = client->context();
        check(client->runs().ListRuns(ctx.get(), req, &resp), "list runs");
        std::cout << (*asJson ? xq::coord::runListJson(resp) + "\n" : xq::coord::runListText(resp));
    });
}

// `xq priority run N P`.
void addPriority(CLI::App& app) {
    auto* sub = app.add_subcommand("priority", "change the priority of a run's tests");
    sub->require_subcommand(1);
    auto* run =
        sub->add_subcommand("run", "the run's tests from now on, and its running test, get priority P");
    auto conn = std::make_shared<Connection>();
    auto id = std::make_shared<std::uint64_t>(0);
    auto priority = std::make_shared<int>(0);
    conn->addOptions(run);
    run->add_option("id", *id, "run id")->required();
    run->add_option("priority", *priority, "higher runs first")->required();
    run->callback([=] {
        auto client = conn->open();
        v1::SetRunPriorityRequest req;
        req.set_run_id(*id);
        req.set_priority(*priority);
        v1::RunStateResponse resp;
        auto ctx = client->context();
        check(client->runs().SetRunPriority(ctx.get(), req, &resp),
              "set the priority of run " + std::to_string(*id));
        std::cout << "run " << *id << " is " << xq::coord::runStateName(resp.state()) << ", priority "
                  << *priority << "\n";
    });
}

xq::cli::RegisterCommand registerRuns([](CLI::App& app) {
    addRuns(app);
    addPriority(app);
});

}  // namespace

namespace xq::cli {

CLI::App* addSubmitRun(CLI::App* submit) {
    auto* sub = submit->add_subcommand(
        "run",
        "submit a run of generations (self-play, training, gate, promotion) that improves the engine's "
        "network with nobody between the steps; prints the run id last");
    auto conn = std::make_shared<Connection>();
    auto s = std::make_shared<xq::coord::RunSubmission>();
    auto engineArgs = std::make_shared<std::string>();
    auto asJson = std::make_shared<bool>(false);
    conn->addOptions(sub);
    addSelfplayOptions(sub, s->selfplay, *engineArgs)->capture_default_str();
    sub->add_option("--games", s->selfplay.games, "self-play games a generation")->required();
    sub->add_option("--start", s->start,
                    "where the run starts: shipped (the engine's embedded network, default), hce (the "
                    "hand-written evaluation), a network FILE, or a network's SHA-256 on the coordinator");
    sub->add_option("--start-checkpoint", s->startCheckpoint,
                    "a checkpoint xq-tuner wrote (--checkpoint) that generation 1's training resumes from");
    sub->add_option("--train", s->train,
                    "the training recipe, xq-tuner nnue's settings: hidden=128,epochs=4,lambda=0.8,lr=5e-4,"
                    "validation=0.03,... and init=best|scratch (checked by the coordinator)");
    sub->add_option("--window", s->window, "generations of data each training reads (default 3)");
    sub->add_option("--gate", s->gate, "the gate's time control: tc=10+0.1 (default), nodes=20000, ...");
    sub->add_option("--gate-sprt", s->gateSprt,
                    "the gate's SPRT: elo0=0,elo1=10 (default) or a preset: gainer, non-regression");
    sub->add_option("--gate-games", s->gateGames, "at most this many games a gate (the SPRT's cap)");
    sub->add_option("--book", s->gateMatch.openings,
                    "the gate's EPD/FEN openings (default: the project's book)");
    addAdjudicationOptions(sub, s->gateMatch);
    sub->add_option("--generations", s->generations,
                    "generations to make (default: until --max-failed-gates gates fail in a row)");
    sub->add_option("--max-failed-gates", s->maxFailedGates,
                    "gates failed in a row that end the run (default 3)");
    sub->add_option(
        "--webhook", s->webhooks,
        "URL[,format=json|content|text] told of each gate (its start, and its verdict or failure: the "
        "run's news), as xq submit --webhook (repeatable)");
    sub->add_flag("--json", *asJson, "print {\"id\": N}");
    sub->callback([conn, s, engineArgs, asJson] {
        s->selfplay.args = xq::words(*engineArgs);
        if (s->gateMatch.openings.empty()) {
            s->gateMatch.openings = xq::coord::findDefaultOpenings("xiangqi");
            if (s->gateMatch.openings.empty())
                std::cerr
                    << "xq submit run: warning: no opening book found (set XQ_OPENINGS or --book); every "
                       "gate pair starts from the start position\n";
        }
        xq::coord::SubmittedTest submitted;
        try {
            auto client = conn->open();
            submitted.id = xq::coord::submitRun(*client, *s);
        } catch (const std::invalid_argument& e) {
            std::cerr << "xq submit run: " << e.what() << "\n";
            throw ExitCode{2};
        }
        printSubmitted("xq submit run", "run", submitted, *asJson);
    });
    return sub;
}

CLI::App* addShowRun(CLI::App* show) {
    auto* sub = show->add_subcommand(
        "run",
        "show a run: its generations (positions, losses, gate W/D/L, Elo, LLR, promoted), the step now, "
        "its events");
    auto conn = std::make_shared<Connection>();
    auto id = std::make_shared<std::uint64_t>(0);
    auto asJson = std::make_shared<bool>(false);
    conn->addOptions(sub);
    sub->add_option("id", *id, "run id")->required();
    sub->add_flag("--json", *asJson, "JSON for scripts");
    sub->callback([=] {
        auto client = conn->open();
        v1::ShowRunRequest req;
        req.set_run_id(*id);
        v1::RunView view;
        auto ctx = client->context();
        check(client->runs().ShowRun(ctx.get(), req, &view), "show run " + std::to_string(*id));
        std::cout << (*asJson ? xq::coord::runViewJson(view) + "\n"
                              : xq::coord::runViewText(view, stepLine(view)));
    });
    return sub;
}

CLI::App* addStopRun(CLI::App* stop) {
    auto* sub =
        stop->add_subcommand("run", "stop a run (its running test stops; xq resume run continues it)");
    auto conn = std::make_shared<Connection>();
    auto id = std::make_shared<std::uint64_t>(0);
    auto reason = std::make_shared<std::string>();
    conn->addOptions(sub);
    sub->add_option("id", *id, "run id")->required();
    sub->add_option("--reason", *reason, "why, shown in the run's events");
    sub->callback([=] {
        auto client = conn->open();
        v1::StopRunRequest req;
        req.set_run_id(*id);
        req.set_reason(*reason);
        v1::RunStateResponse resp;
        auto ctx = client->context();
        check(client->runs().StopRun(ctx.get(), req, &resp), "stop run " + std::to_string(*id));
        std::cout << "run " << *id << " is " << xq::coord::runStateName(resp.state()) << "\n";
    });
    return sub;
}

CLI::App* addResumeRun(CLI::App* resume) {
    auto* sub = resume->add_subcommand("run", "continue a stopped run, or try a failed run's step again");
    auto conn = std::make_shared<Connection>();
    auto id = std::make_shared<std::uint64_t>(0);
    conn->addOptions(sub);
    sub->add_option("id", *id, "run id")->required();
    sub->callback([=] {
        auto client = conn->open();
        v1::ResumeRunRequest req;
        req.set_run_id(*id);
        v1::RunStateResponse resp;
        auto ctx = client->context();
        check(client->runs().ResumeRun(ctx.get(), req, &resp), "resume run " + std::to_string(*id));
        std::cout << "run " << *id << " is " << xq::coord::runStateName(resp.state()) << "\n";
    });
    return sub;
}

}  // namespace xq::cli
