// The user's side of a coordinator: xq submit, xq tests, xq show, xq stop, xq workers, xq token create.
// Address and token come from --coordinator/--token, XQ_COORDINATOR/XQ_TOKEN, or ~/.config/xq/config.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "client.h"
#include "command.h"
#include "coordinator.h"
#include "engine_bench.h"
#include "submission.h"
#include "test_report.h"

namespace {

namespace v1 = xq::v1;
using xq::coord::check;

struct Connection {
    xq::coord::Endpoint endpoint;
    void addOptions(CLI::App* sub) {
        sub->add_option("--coordinator", endpoint.address, "coordinator HOST:PORT (or XQ_COORDINATOR)");
        sub->add_option("--token", endpoint.token, "user token (or XQ_TOKEN)");
        sub->add_option("--tls-ca", endpoint.tlsCaPath,
                        "CA bundle to verify a TLS coordinator (or XQ_TLS_CA)");
    }
    std::unique_ptr<xq::coord::Client> open() const {
        return std::make_unique<xq::coord::Client>(xq::coord::resolveEndpoint(endpoint));
    }
};

void addSubmit(CLI::App& app) {
    auto* sub = app.add_subcommand("submit", "submit a test to a coordinator; prints the test id last");
    auto conn = std::make_shared<Connection>();
    auto opts = std::make_shared<xq::coord::SubmissionOptions>();
    auto json = std::make_shared<bool>(false);
    auto noOpenings = std::make_shared<bool>(false);
    conn->addOptions(sub);
    sub->add_option("--base", opts->base.path, "baseline engine executable")->required();
    sub->add_option("--dev", opts->dev.path, "engine under test")->required();
    sub->add_option("--base-weights", opts->base.weights, "weights file for the baseline (EvalFile)");
    sub->add_option("--dev-weights", opts->dev.weights, "weights file for the engine under test (EvalFile)");
    sub->add_option("--base-option", opts->base.settings,
                    "setting for the baseline only, e.g. option.Hash=16");
    sub->add_option("--dev-option", opts->dev.settings, "setting for the engine under test only");
    sub->add_option("--each", opts->each,
                    "settings for both engines: tc=10+0.1, nodes=5000, option.Hash=16, ...");
    sub->add_option("--openings", opts->openings, "EPD/FEN opening file (default: the project's book)");
    sub->add_flag("--no-openings", *noOpenings, "play every pair from the start position");
    auto* games = sub->add_option("--games", opts->games, "fixed number of games (or the SPRT's cap)");
    auto* sprt =
        sub->add_option("--sprt", opts->sprt, "elo0=A,elo1=B[,alpha=..,beta=..,model=normalized|logistic]");
    (void)games;
    (void)sprt;
    sub->add_option("--concurrency", opts->concurrencyPerWorker,
                    "games at once per worker (default: worker's)");
    sub->add_option("--priority", opts->priority, "higher runs first");
    sub->add_option("--throughput", opts->throughput, "share among tests of equal priority");
    sub->add_option("--description", opts->description, "shown in listings");
    sub->add_option("--max-moves", opts->maxMoves, "adjudicate a draw after this many moves per side");
    sub->add_option("--resign", opts->resignScore, "resign adjudication score (cp)");
    sub->add_option("--resign-moves", opts->resignMoves, "moves the resign score must hold");
    sub->add_option("--draw", opts->drawScore, "draw adjudication score (cp)");
    sub->add_option("--draw-moves", opts->drawMoves, "moves the draw score must hold");
    sub->add_option("--draw-after", opts->drawMoveNumber, "first move number for draw adjudication");
    sub->add_option("--base-signature", opts->base.benchSignature,
                    "bench node count workers must reproduce with the baseline (0: unchecked)");
    sub->add_option("--dev-signature", opts->dev.benchSignature,
                    "bench node count workers must reproduce with the engine under test (0: unchecked)");
    auto benchSignatures = std::make_shared<bool>(false);
    sub->add_flag(
        "--bench-signatures", *benchSignatures,
        "run `<engine> bench` here for each engine not given a signature, and require workers to match");
    sub->add_option(
        "--reference-nps", opts->referenceNps,
        "the clocks are meant for this engine speed; each worker scales them by reference / its nps");
    sub->add_flag("--json", *json, "print {\"id\": N}");
    sub->callback([conn, opts, json, noOpenings, benchSignatures] {
        if (*benchSignatures) {
            for (auto* engine : {&opts->base, &opts->dev}) {
                if (engine->benchSignature != 0) continue;
                try {
                    engine->benchSignature = xq::match::runEngineBench(engine->path).nodes;
                } catch (const std::exception& e) {
                    std::cerr << "xq submit: " << e.what() << "\n";
                    throw xq::cli::ExitCode{1};
                }
                std::cerr << "xq submit: bench signature of " << engine->path << ": "
                          << engine->benchSignature << "\n";
            }
        }
        if (opts->openings.empty() && !*noOpenings) {
            opts->openings = xq::coord::findDefaultOpenings();
            if (opts->openings.empty())
                std::cerr << "xq submit: warning: no opening book found (set XQ_OPENINGS or --openings); "
                             "every pair starts from the start position\n";
        }
        auto client = conn->open();
        std::uint64_t id = xq::coord::submitTest(*client, *opts);
        if (*json)
            std::cout << "{\"id\": " << id << "}\n";
        else
            std::cout << "submitted test " << id << "\n" << id << "\n";
    });
}

void addTests(CLI::App& app) {
    auto* sub = app.add_subcommand("tests", "list tests on a coordinator");
    auto conn = std::make_shared<Connection>();
    auto running = std::make_shared<bool>(false);
    auto json = std::make_shared<bool>(false);
    auto limit = std::make_shared<unsigned>(50);
    conn->addOptions(sub);
    sub->add_flag("--running", *running, "only running tests");
    sub->add_option("--limit", *limit, "most recent N tests");
    sub->add_flag("--json", *json, "JSON for scripts");
    sub->callback([=] {
        auto client = conn->open();
        v1::ListTestsRequest req;
        req.set_running_only(*running);
        req.set_limit(*limit);
        v1::ListTestsResponse resp;
        auto ctx = client->context();
        check(client->user().ListTests(ctx.get(), req, &resp), "list tests");
        if (*json) {
            std::cout << xq::coord::testListJson(resp) << "\n";
            return;
        }
        if (resp.tests_size() == 0) std::cout << "no tests\n";
        for (const auto& t : resp.tests()) std::cout << xq::coord::testSummaryLine(t) << "\n";
    });
}

void addShow(CLI::App& app) {
    auto* sub = app.add_subcommand("show", "show a test: results, Elo, LLR, workers, failures");
    auto conn = std::make_shared<Connection>();
    auto id = std::make_shared<std::uint64_t>(0);
    auto json = std::make_shared<bool>(false);
    conn->addOptions(sub);
    sub->add_option("id", *id, "test id")->required();
    sub->add_flag("--json", *json, "JSON for scripts: state, games, wdl, penta, llr, ...");
    sub->callback([=] {
        auto client = conn->open();
        v1::ShowTestRequest req;
        req.set_test_id(*id);
        v1::TestView view;
        auto ctx = client->context();
        check(client->user().ShowTest(ctx.get(), req, &view), "show test " + std::to_string(*id));
        std::cout << (*json ? xq::coord::testViewJson(view) + "\n" : xq::coord::testViewText(view));
    });
}

void addStop(CLI::App& app) {
    auto* sub = app.add_subcommand("stop", "stop a running test");
    auto conn = std::make_shared<Connection>();
    auto id = std::make_shared<std::uint64_t>(0);
    auto reason = std::make_shared<std::string>();
    conn->addOptions(sub);
    sub->add_option("id", *id, "test id")->required();
    sub->add_option("--reason", *reason, "why, shown in the test's events");
    sub->callback([=] {
        auto client = conn->open();
        v1::StopTestRequest req;
        req.set_test_id(*id);
        req.set_reason(*reason);
        v1::StopTestResponse resp;
        auto ctx = client->context();
        check(client->user().StopTest(ctx.get(), req, &resp), "stop test " + std::to_string(*id));
        std::cout << "test " << *id << " is " << xq::coord::stateName(resp.state()) << "\n";
    });
}

void addWorkers(CLI::App& app) {
    auto* sub = app.add_subcommand("workers", "list the workers a coordinator knows");
    auto conn = std::make_shared<Connection>();
    auto json = std::make_shared<bool>(false);
    conn->addOptions(sub);
    sub->add_flag("--json", *json, "JSON for scripts");
    sub->callback([=] {
        auto client = conn->open();
        v1::ListWorkersResponse resp;
        auto ctx = client->context();
        check(client->user().ListWorkers(ctx.get(), {}, &resp), "list workers");
        std::cout << (*json ? xq::coord::workersJson(resp) + "\n"
                            : (resp.workers_size() ? xq::coord::workersText(resp) : "no workers\n"));
    });
}

void addToken(CLI::App& app) {
    auto* token = app.add_subcommand("token", "access tokens");
    token->require_subcommand(1);
    auto* create = token->add_subcommand(
        "create",
        "create a token, printed on the last line: with --data on the coordinator's host (any role), "
        "or remotely with a user token (worker tokens only)");
    auto conn = std::make_shared<Connection>();
    auto role = std::make_shared<std::string>("worker");
    auto name = std::make_shared<std::string>();
    auto data = std::make_shared<std::string>();
    conn->addOptions(create);
    create->add_option("--role", *role, "user or worker")->check(CLI::IsMember({"user", "worker"}));
    create->add_option("--name", *name, "who the token is for");
    create->add_option("--data", *data, "coordinator data directory (admin, on its host)");
    create->callback([=] {
        if (!data->empty()) {
            xq::coord::CoordinatorOptions o;
            o.dataDir = *data;
            xq::coord::Coordinator coordinator(o);
            std::cout << coordinator.createToken(xq::coord::parseRole(*role), name->empty() ? *role : *name)
                      << "\n";
            return;
        }
        auto client = conn->open();
        v1::CreateTokenRequest req;
        req.set_role(*role);
        req.set_name(*name);
        v1::CreateTokenResponse resp;
        auto ctx = client->context();
        check(client->user().CreateToken(ctx.get(), req, &resp), "create token");
        std::cout << resp.token() << "\n";
    });
}

xq::cli::RegisterCommand reg([](CLI::App& app) {
    addSubmit(app);
    addTests(app);
    addShow(app);
    addStop(app);
    addWorkers(app);
    addToken(app);
});

}  // namespace
