// SPSA tuning of engine options: `xq submit spsa` (on a coordinator's workers), `xq spsa` (the same on this
// machine: an embedded coordinator and local workers, with live progress), and `xq spsa export ID` (the
// tuned values as an options file the engine loads, and as its compiled-in defaults).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <thread>

#include "command.h"
#include "connection.h"
#include "local_cluster.h"
#include "spsa_submission.h"
#include "test_report.h"

namespace {

namespace v1 = xq::v1;
using xq::cli::Connection;

std::atomic<bool> spsaInterrupted{false};
void onSpsaInterrupt(int) {
    spsaInterrupted = true;
}

// The options `xq submit spsa` and `xq spsa` share.
struct SpsaOptions {
    xq::coord::SpsaSubmission s;
    double A = -1;  // negative: unset (a tenth of the pairs)
    bool noOpenings = false;
};

// `required`: CLI11 checks them; `xq spsa`, which has the export subcommand, checks them itself.
void addSpsaOptions(CLI::App* sub, SpsaOptions& o, bool required) {
    auto& s = o.s;
    sub->add_option("--engine", s.engine.path, "the engine whose options are tuned")->required(required);
    sub->add_option("--weights", s.engine.weights, "weights file for the engine (EvalFile)");
    sub->add_option("--net", s.engine.net,
                    "network file both sides play with (docs/nnue.md: EvalFile, Use NNUE=true)");
    sub->add_option("--params", s.paramsFile,
                    "parameters, one `name,start,min,max,c_end,r_end` a line (what `xq-engine tune` prints)")
        ->required(required);
    sub->add_option("--pairs", s.pairs, "iterations: game pairs of theta+ against theta-")
        ->required(required);
    sub->add_option("--each", s.each, "settings of both sides: tc=10+0.1, nodes=5000, option.Hash=16, ...");
    sub->add_option("--alpha", s.alpha, "the step size's decay (default 0.602)");
    sub->add_option("--gamma", s.gamma, "the perturbation's decay (default 0.101)");
    sub->add_option("--A", o.A, "the stability constant (default: a tenth of the pairs)");
    sub->add_option("--openings", s.openings, "EPD/FEN opening file (default: the project's book)");
    sub->add_flag("--no-openings", o.noOpenings, "play every pair from the start position");
    sub->add_option("--rules", s.rules, "rule set judging the games: asian (default) or chinese");
    sub->add_option("--game", s.game, "the game: xiangqi (default) or chess");
    sub->add_option("--max-moves", s.maxMoves, "adjudicate a draw after this many moves per side");
    sub->add_option("--description", s.description, "shown in listings");
    if (required)  // xq submit spsa: a coordinator of the user's (xq spsa's embedded one has no receivers)
        sub->add_option("--webhook", s.webhooks,
                        "URL[,format=json|content|text] told when the test starts, finishes or fails, as xq "
                        "submit --webhook (repeatable)");
}

// Fills the defaults both commands take; throws ExitCode{2} with the reason on stderr for bad settings.
void prepare(SpsaOptions& o, const char* command) {
    if (o.A >= 0) o.s.A = o.A;
    if (o.s.openings.empty() && !o.noOpenings) o.s.openings = xq::coord::findDefaultOpenings(o.s.game);
    try {
        xq::coord::buildSpsaSpec(o.s);
    } catch (const std::invalid_argument& e) {
        std::cerr << command << ": " << e.what() << "\n";
        throw xq::cli::ExitCode{2};
    }
}

// `<engine> tune source OPTIONS_FILE` into `out`: the engine's compiled-in defaults with the tuned values.
void emitDefaults(const std::string& engine, const std::string& optionsFile, const std::string& out) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("cannot make a pipe");
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("cannot fork");
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        execl(engine.c_str(), engine.c_str(), "tune", "source", optionsFile.c_str(),
              static_cast<char*>(nullptr));
        _exit(127);
    }
    close(fds[1]);
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) text.append(buf, std::size_t(n));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty())
        throw std::runtime_error(engine + " tune source " + optionsFile + " failed (exit " +
                                 std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                                 "): an engine that writes its defaults knows `tune source`");
    std::ofstream file(out);
    file << text;
    if (!file) throw std::runtime_error("cannot write " + out);
}

// Writes the options file and, if asked, the compiled-in defaults; says where on stdout.
void writeExport(const v1::TestView& view, const std::string& out, const std::string& defaults,
                 const std::string& engine) {
    std::string text = xq::coord::spsaOptionsFile(view);
    if (!out.empty()) {
        std::ofstream file(out);
        file << text;
        if (!file) throw std::runtime_error("cannot write " + out);
        std::cout << "options written to " << out << " (load them with setoption name ParamsFile value "
                  << out << ")\n";
    } else {
        std::cout << text;
    }
    if (!defaults.empty()) {
        std::string source = out;
        if (source.empty()) {
            source = defaults + ".params";
            std::ofstream(source) << text;
        }
        emitDefaults(engine.empty() ? xq::cli::engineBesideXq() : engine, source, defaults);
        std::cout << "compiled-in defaults written to " << defaults << "\n";
    }
}

std::string progressLine(const v1::TestSummary& s, double elapsed) {
    const auto& p = s.spsa();
    char buf[64];
    std::string line =
        "iterations " + std::to_string(p.iterations()) + "/" + std::to_string(p.iterations_target());
    for (const auto& v : p.params()) {
        std::snprintf(buf, sizeof buf, "  %s %.1f", v.name().c_str(), v.value());
        line += buf;
    }
    double rate = elapsed > 0 ? double(p.iterations()) / elapsed : 0;
    if (rate > 0) {
        std::snprintf(buf, sizeof buf, "  ETA %.0fs", double(p.iterations_target() - p.iterations()) / rate);
        line += buf;
    }
    return line;
}

struct LocalOptions {
    SpsaOptions spsa;
    std::string data = "spsa-data", out, defaults, json;
    int workers = 1, concurrency = 0, leaseTimeout = 30;
    bool verbose = false;
};

void runLocal(LocalOptions& o) {
    prepare(o.spsa, "xq spsa");
    xq::cli::LocalCluster cluster({o.data, o.workers, o.concurrency, o.leaseTimeout, o.verbose, "xq spsa"});
    auto& core = cluster.coordinator();
    xq::coord::Client client({cluster.address(), cluster.userToken(), ""});
    std::uint64_t id = xq::coord::submitSpsa(client, o.spsa.s).id;
    std::cout << "coordinator on " << cluster.address() << ", data in " << o.data << "; SPSA test " << id
              << ", " << o.workers << " worker(s) x " << cluster.concurrency() << " games at once"
              << std::endl;
    cluster.startWorkers();
    auto start = std::chrono::steady_clock::now();
    auto lastPrint = start - std::chrono::hours(1);
    bool tty = isatty(STDOUT_FILENO);
    v1::TestView view;
    while (true) {
        view = core.showTest(std::int64_t(id));
        if (view.summary().state() != v1::TEST_STATE_RUNNING) break;
        if (spsaInterrupted) {
            cluster.stopTest(id, "interrupted");
            continue;
        }
        double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        auto now = std::chrono::steady_clock::now();
        if (tty) {
            std::cout << "\r" << progressLine(view.summary(), elapsed) << "   " << std::flush;
        } else if (now - lastPrint >= std::chrono::seconds(10)) {
            std::cout << progressLine(view.summary(), elapsed) << std::endl;
            lastPrint = now;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    if (tty) std::cout << "\n";
    cluster.shutdown();
    std::cout << xq::coord::testViewText(view);
    if (!o.json.empty()) std::ofstream(o.json) << xq::coord::testViewJson(view) << "\n";
    writeExport(view, o.out, o.defaults, o.spsa.s.engine.path);
    if (view.summary().state() == v1::TEST_STATE_STOPPED) throw xq::cli::ExitCode{130};
    if (view.summary().state() == v1::TEST_STATE_FAILED)
        throw xq::cli::ExitCode{1};  // its engines did not play
}

xq::cli::RegisterCommand registerSpsa([](CLI::App& app) {
    auto* sub = app.add_subcommand(
        "spsa", "tune engine options with SPSA on this machine (embedded coordinator and local workers)");
    sub->require_subcommand(0, 1);
    auto o = std::make_shared<LocalOptions>();
    addSpsaOptions(sub, o->spsa, false);
    sub->add_option("--workers", o->workers, "local workers (default 1)");
    sub->add_option("--concurrency", o->concurrency, "games at once per worker (default: cores / workers)");
    sub->add_option("--data", o->data, "directory for the embedded coordinator (default spsa-data)");
    sub->add_option("--lease-timeout", o->leaseTimeout, "seconds before a silent worker's lease expires");
    sub->add_option("--out", o->out, "write the tuned values here as an options file (default: stdout)");
    sub->add_option("--emit-defaults", o->defaults,
                    "also write the engine's compiled-in defaults with them (`<engine> tune source`)");
    sub->add_option("--json", o->json, "write the final report as JSON here");
    sub->add_flag("--verbose", o->verbose, "show the workers' logs");

    // xq spsa export ID: from a coordinator.
    auto* exp = sub->add_subcommand("export", "the tuned values of an SPSA test as an options file");
    auto conn = std::make_shared<Connection>();
    auto id = std::make_shared<std::uint64_t>(0);
    auto out = std::make_shared<std::string>();
    auto defaults = std::make_shared<std::string>();
    auto engine = std::make_shared<std::string>();
    conn->addOptions(exp);
    exp->add_option("id", *id, "test id")->required();
    exp->add_option("--out", *out, "the options file (default: stdout)");
    exp->add_option("--emit-defaults", *defaults,
                    "also write the engine's compiled-in defaults with the tuned values (a .cpp file)");
    exp->add_option("--engine", *engine, "the engine that writes them (default: the xq-engine beside xq)");
    exp->callback([conn, id, out, defaults, engine] {
        auto client = conn->open();
        v1::ShowTestRequest req;
        req.set_test_id(*id);
        v1::TestView view;
        auto ctx = client->context();
        xq::coord::check(client->user().ShowTest(ctx.get(), req, &view), "show test " + std::to_string(*id));
        try {
            writeExport(view, *out, *defaults, *engine);
        } catch (const std::invalid_argument& e) {
            std::cerr << "xq spsa export: " << e.what() << "\n";
            throw xq::cli::ExitCode{2};
        }
    });
    sub->callback([o, exp] {
        if (exp->parsed()) return;
        for (auto [missing, flag] : {std::pair{o->spsa.s.engine.path.empty(), "--engine"},
                                     std::pair{o->spsa.s.paramsFile.empty(), "--params"},
                                     std::pair{o->spsa.s.pairs == 0, "--pairs"}})
            if (missing) throw CLI::RequiredError(flag);
        struct sigaction sa {};
        sa.sa_handler = onSpsaInterrupt;
        sigaction(SIGINT, &sa, nullptr);
        sigaction(SIGTERM, &sa, nullptr);
        runLocal(*o);
    });
});

}  // namespace

namespace xq::cli {

CLI::App* addSubmitSpsa(CLI::App* submit) {
    auto* sub =
        submit->add_subcommand("spsa", "submit an SPSA tuning of engine options; prints the test id last");
    auto conn = std::make_shared<Connection>();
    auto o = std::make_shared<SpsaOptions>();
    auto json = std::make_shared<bool>(false);
    conn->addOptions(sub);
    addSpsaOptions(sub, *o, true);
    sub->add_option("--concurrency", o->s.concurrencyPerWorker,
                    "games at once per worker (default: worker's)");
    sub->add_option("--priority", o->s.priority, "higher runs first");
    sub->add_option("--throughput", o->s.throughput, "share among tests of equal priority");
    sub->add_flag("--json", *json, "print {\"id\": N}");
    sub->callback([conn, o, json] {
        prepare(*o, "xq submit spsa");
        auto client = conn->open();
        xq::cli::printSubmitted("xq submit spsa", "SPSA test", xq::coord::submitSpsa(*client, o->s), *json);
    });
    return sub;
}

}  // namespace xq::cli
