// xq regress: a whole regression test on this machine. Starts an embedded coordinator (SQLite under
// --data in the working directory) on 127.0.0.1 and N local workers, submits base vs dev as an SPRT (or
// fixed games), shows live progress until a verdict, and prints the result. Base and dev are engine
// binaries, or git refs that the local workers build as a cluster's workers would.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>
#include <utility>

#include "command.h"
#include "git_source.h"
#include "local_cluster.h"
#include "server.h"
#include "submission.h"
#include "test_report.h"
#include "test_wait.h"

namespace {

namespace v1 = xq::v1;

std::atomic<bool> regressInterrupted{false};
// A plain C++ function in this anonymous namespace: `extern "C"` would make it one global symbol shared
// with any other file's handler of the same name.
void onRegressInterrupt(int) {
    regressInterrupted = true;
}

struct RegressOptions {
    xq::coord::SubmissionOptions submission;
    std::string data = "regress-data";
    int workers = 1;
    int concurrency = 0;  // per worker; 0: cores / workers
    int leaseTimeout = 30;
    std::int64_t maxChunkPairs = 0;  // 0: the coordinator's default
    std::string jsonPath;
    bool verbose = false;
    bool noOpenings = false;
};

// Engines given as refs (with --repo, or when neither is a file and the working directory is in a git
// repository): their commits are packed here and built by the local workers, as a cluster's would.
void prepareRefs(RegressOptions& o, const std::string& scratch) {
    auto& sub = o.submission;
    namespace fs = std::filesystem;
    if (sub.repo.empty()) {
        if (fs::is_regular_file(sub.base.path) || fs::is_regular_file(sub.dev.path)) return;
        sub.repo = ".";
    }
    for (auto* engine : {&sub.base, &sub.dev}) engine->ref = std::exchange(engine->path, "");
    xq::coord::prepareSources(sub, scratch);
    for (const auto* engine : {&sub.base, &sub.dev})
        std::cout << engine->ref << " is " << engine->commit.substr(0, 12) << " \"" << engine->subject << "\""
                  << (engine->benchSignature ? " (Bench: " + std::to_string(engine->benchSignature) + ")"
                                             : "")
                  << std::endl;
    std::cout << "the local workers build both ("
              << (sub.buildCommand.empty() ? xq::coord::DefaultBuildCommand : sub.buildCommand)
              << "); builds are kept in " << o.data << "/builds" << std::endl;
}

void run(RegressOptions& o) {
    auto& sub = o.submission;
    std::filesystem::create_directories(o.data);
    std::string scratch = o.data + "/sources";
    std::filesystem::create_directories(scratch);
    prepareRefs(o, scratch);
    if (sub.openings.empty() && !o.noOpenings && sub.game == "capturego") {
        std::cerr << "xq regress: capturego has no default book (books are made for one board size): every "
                     "pair starts from the empty board; give --openings FILE of position texts\n";
    } else if (sub.openings.empty() && !o.noOpenings) {
        sub.openings = xq::coord::findDefaultOpenings(sub.game);
        if (sub.openings.empty())
            std::cerr << "xq regress: warning: no " << sub.game << " opening book found (set "
                      << (sub.game == "chess" ? "XQ_CHESS_OPENINGS" : "XQ_OPENINGS")
                      << " or --openings); every pair starts from the start position\n";
    }
    if (sub.sprt.empty() && sub.games == 0) sub.sprt = "elo0=-5,elo1=5";
    try {
        xq::coord::buildTestSpec(
            sub);  // fail on bad settings (a malformed --board, ...) before anything starts
    } catch (const std::invalid_argument& e) {
        std::cerr << "xq regress: " << e.what() << "\n";
        throw xq::cli::ExitCode{2};
    }
    xq::cli::warnIfPairsRepeat("xq regress", sub);

    xq::cli::LocalCluster cluster(
        {o.data, o.workers, o.concurrency, o.leaseTimeout, o.verbose, "xq regress", o.maxChunkPairs});
    auto& core = cluster.coordinator();
    std::cout << "coordinator on " << cluster.address() << ", data in " << o.data << "; " << o.workers
              << " worker(s) x " << cluster.concurrency() << " games at once" << std::endl;

    xq::coord::Client client({cluster.address(), cluster.userToken(), ""});
    std::uint64_t id = xq::coord::submitTest(client, sub).id;
    auto label = [](const xq::coord::EngineChoice& e) { return e.fromSource() ? e.ref : e.path; };
    std::cout << "test " << id << ": " << label(sub.dev) << " (dev) vs " << label(sub.base) << " (base)"
              << std::endl;
    cluster.startWorkers();

    auto start = std::chrono::steady_clock::now();
    bool tty = isatty(STDOUT_FILENO);
    auto lastPrint = start - std::chrono::hours(1);
    v1::TestView view;
    while (true) {
        view = core.showTest(std::int64_t(id));
        double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (view.summary().state() != v1::TEST_STATE_RUNNING) break;
        if (regressInterrupted) {
            cluster.stopTest(id, "interrupted");
            continue;
        }
        auto now = std::chrono::steady_clock::now();
        if (tty) {
            std::cout << "\r" << xq::cli::progressLine(view, elapsed) << "   " << std::flush;
        } else if (now - lastPrint >= std::chrono::seconds(5)) {
            std::cout << xq::cli::progressLine(view, elapsed) << std::endl;
            lastPrint = now;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (tty) std::cout << "\n";
    std::cout << xq::cli::progressLine(view, elapsed) << std::endl;
    cluster.shutdown();

    std::cout << xq::coord::testViewText(view);
    std::cout << "finished in " << xq::cli::duration(elapsed) << "\n";
    if (!o.jsonPath.empty()) {
        std::ofstream(o.jsonPath) << xq::coord::testViewJson(view) << "\n";
        std::cout << "report written to " << o.jsonPath << "\n";
    }
    std::cout << "result: " << (view.summary().result().empty() ? "none" : view.summary().result())
              << std::endl;
    if (view.summary().state() == v1::TEST_STATE_STOPPED) throw xq::cli::ExitCode{130};
    if (view.summary().state() == v1::TEST_STATE_FAILED)
        throw xq::cli::ExitCode{1};  // its engines did not play
}

xq::cli::RegisterCommand registerRegress([](CLI::App& app) {
    auto* sub = app.add_subcommand("regress",
                                   "run an SPRT of two engine builds on this machine: embedded "
                                   "coordinator plus local workers, live progress, verdict");
    auto o = std::make_shared<RegressOptions>();
    auto& s = o->submission;
    sub->add_option("--base", s.base.path, "baseline engine executable, or a git ref (built here, e.g. main)")
        ->required();
    sub->add_option("--dev", s.dev.path, "engine under test, or a git ref (e.g. HEAD)")->required();
    sub->add_option("--repo", s.repo,
                    "git repository whose refs --base and --dev name (default: the working directory's, when "
                    "neither is a file)");
    sub->add_option("--build", s.buildCommand,
                    "with refs: the build command (default: this repository's engine)");
    sub->add_option("--binary", s.binaryPath, "with refs: the executable the build leaves");
    sub->add_option("--base-weights", s.base.weights, "weights file for the baseline (EvalFile)");
    sub->add_option("--dev-weights", s.dev.weights, "weights file for the engine under test (EvalFile)");
    sub->add_option("--base-option", s.base.settings, "setting for the baseline only, e.g. option.Hash=16");
    sub->add_option("--dev-option", s.dev.settings, "setting for the engine under test only");
    s.each = {"nodes=2000"};
    sub->add_option("--each", s.each, "settings for both engines (default nodes=2000)");
    sub->add_option("--sprt", s.sprt, "elo0=A,elo1=B[,alpha,beta,model] (default elo0=-5,elo1=5)");
    sub->add_option("--games", s.games, "fixed games instead of an SPRT, or the SPRT's cap");
    sub->add_option("--openings", s.openings, "EPD/FEN opening file (default: the project's book)");
    sub->add_flag("--no-openings", o->noOpenings, "play every pair from the start position");
    sub->add_option("--max-moves", s.maxMoves, "adjudicate a draw after this many moves per side");
    sub->add_option("--rules", s.rules, "rule set judging the games: asian (default) or chinese");
    sub->add_option("--game", s.game,
                    "the game: xiangqi (default), chess (then give --base and --dev, e.g. stockfish with "
                    "--base-option/--dev-option) or capturego (engines speak gtp, see --board; no default "
                    "book)");
    sub->add_option("--board", s.board,
                    "capturego: size=5..19,rules=capture|go,target=N,komi=K (default size=9,rules=capture,"
                    "target=1; komi 0, or 7.5 under go), as xq submit --board");
    sub->add_option("--workers", o->workers, "local workers (default 1)");
    sub->add_option("--concurrency", o->concurrency, "games at once per worker (default: cores / workers)");
    sub->add_option("--data", o->data, "directory for the embedded coordinator's database and artifacts");
    sub->add_option("--lease-timeout", o->leaseTimeout, "seconds before a silent worker's lease expires");
    sub->add_option("--max-chunk-pairs", o->maxChunkPairs,
                    "most game pairs in one lease (default: the coordinator's); small leases share the pairs "
                    "among workers and report them sooner");
    sub->add_option("--json", o->jsonPath, "write the final report as JSON here");
    sub->add_flag("--verbose", o->verbose, "show the workers' logs");
    sub->callback([o] {
        struct sigaction sa {};
        sa.sa_handler = onRegressInterrupt;
        sigaction(SIGINT, &sa, nullptr);
        sigaction(SIGTERM, &sa, nullptr);
        std::signal(SIGPIPE, SIG_IGN);
        if (o->submission.description.empty()) o->submission.description = "xq regress";
        run(*o);
    });
});

}  // namespace
