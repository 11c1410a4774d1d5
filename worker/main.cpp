// xq-worker: plays games (and trains networks) for a coordinator.
//   xq-worker --coordinator HOST:PORT --token T --concurrency N [--affinity] [--cache DIR] [--name NAME]
//             [--no-training | --training-threads N] [--tuner PATH]
// SIGTERM or SIGINT: abandon games in flight, report what is finished, hand the lease back and exit 0.
#include <CLI/CLI.hpp>
#include <csignal>
#include <filesystem>
#include <iostream>

#include "engine_bench.h"
#include "worker.h"

namespace {
std::atomic<bool> stopRequested{false};
extern "C" void onSignal(int) {
    stopRequested = true;
}
// The engine speed the worker registers with: a short `bench` of the speed engine (by default the
// xq-engine installed beside this worker), so the coordinator can size jobs to minutes of play.
std::uint64_t measureEngineNps(std::string enginePath) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (enginePath.empty())
        enginePath = (fs::read_symlink("/proc/self/exe", ec).parent_path() / "xq-engine").string();
    if (ec || !fs::exists(enginePath, ec)) {
        std::cerr << "xq-worker: no engine at " << enginePath
                  << " to measure speed with (give --speed-engine or --nps); registering speed as unknown"
                  << std::endl;
        return 0;
    }
    try {
        xq::match::EngineBenchRequest request;
        request.depth = 8;
        request.timeoutSeconds = 120;
        const auto result = xq::match::runEngineBench(enginePath, request);
        std::cerr << "xq-worker: engine speed " << result.nps << " nodes/s (" << enginePath << " bench 8)"
                  << std::endl;
        return result.nps;
    } catch (const std::exception& e) {
        std::cerr << "xq-worker: could not measure engine speed: " << e.what() << std::endl;
        return 0;
    }
}

}  // namespace

int main(int argc, char** argv) {
    // Inside the sandbox, before anything else: limits and seccomp, then the engine (worker/sandbox.h).
    if (argc > 1 && std::string(argv[1]) == "sandbox-exec") return xq::worker::sandboxExec(argc, argv);
    CLI::App app{"xq-worker: plays engine test games for an xq coordinator"};
    xq::worker::WorkerOptions opts;
    app.add_option("--coordinator", opts.endpoint.address,
                   "coordinator address HOST:PORT (or XQ_COORDINATOR)");
    app.add_option("--token", opts.endpoint.token, "worker token (or XQ_TOKEN)");
    app.add_option("--tls-ca", opts.endpoint.tlsCaPath,
                   "CA bundle to verify a TLS coordinator (or XQ_TLS_CA)");
    app.add_option("--concurrency", opts.concurrency, "games played at once")->check(CLI::Range(1, 1024));
    app.add_flag("--affinity", opts.affinity,
                 "pin each game (its engines and runner thread) to CPUs of its own; for a machine that runs "
                 "only this worker");
    app.add_option("--cache", opts.cacheDir, "artifact cache directory");
    app.add_option("--name", opts.name, "name shown in `xq workers` (default: host name)");
    app.add_option("--nps", opts.engineNps,
                   "this machine's engine speed in nodes/s, used to size jobs (default: measured at start)");
    std::string speedEngine;
    app.add_option(
        "--speed-engine", speedEngine,
        "engine whose `bench 8` measures this machine's speed (default: xq-engine beside xq-worker)");
    app.add_option("--pgn-dir", opts.pgnDir, "keep the games as PGN here (one file per test)");
    app.add_option(
        "--build-dir", opts.buildDir,
        "where engines given as source are built and cached (default: CACHE/builds; workers of one "
        "host may share it)");
    app.add_option("--build-timeout", opts.buildLimits.timeoutSeconds, "seconds a build may take")
        ->check(CLI::Range(10, 86400));
    std::uint64_t buildMemoryMb = opts.buildLimits.memoryBytes >> 20,
                  buildCacheMb = opts.buildLimits.cacheBytes >> 20;
    app.add_option("--build-memory-mb", buildMemoryMb, "address space each process of a build may use")
        ->check(CLI::Range(256, 1 << 24));
    app.add_option("--build-cache-mb", buildCacheMb, "builds kept; the least recently used go first past it")
        ->check(CLI::Range(1, 1 << 24));
    bool noSandbox = false, noTraining = false;
    app.add_flag("--no-sandbox", noSandbox,
                 "run engines and builds directly, as this user (by default each runs in a bubblewrap "
                 "sandbox: no network, read-only files, no new processes, limited memory)");
    app.add_option("--sandbox-memory-mb", opts.sandbox.limits.memoryMb, "address space of a sandboxed engine")
        ->check(CLI::Range(64, 1 << 24));
    app.add_flag("--sandbox-allow-fork", opts.sandbox.limits.allowFork,
                 "let sandboxed engines start processes (an engine that is a shell script), at most "
                 "--sandbox-processes of them; the bound holds for workers not running as root");
    app.add_option("--sandbox-processes", opts.sandbox.limits.processes,
                   "processes (and threads) a sandboxed engine may have with --sandbox-allow-fork")
        ->check(CLI::Range(8, 1 << 20));
    app.add_option("--sandbox-read", opts.sandbox.alsoReadable,
                   "a directory under /tmp or the home directory that sandboxed engines may read (the "
                   "programs a script engine runs); repeatable")
        ->check(CLI::ExistingDirectory);
    app.add_flag("--no-training", noTraining, "never take a training job (a run's network training)");
    app.add_option("--training-threads", opts.trainingThreads,
                   "threads xq-tuner trains with on a training job (default: --concurrency)")
        ->check(CLI::Range(1, 1024));
    app.add_option("--tuner", opts.tunerPath, "the trainer (default: xq-tuner beside xq-worker)");
    app.add_option("--shutdown-grace", opts.shutdownGraceSeconds,
                   "seconds to keep retrying unacknowledged reports after SIGTERM");
    CLI11_PARSE(app, argc, argv);
    opts.buildLimits.memoryBytes = buildMemoryMb << 20;
    opts.buildLimits.cacheBytes = buildCacheMb << 20;
    opts.sandbox.enabled = !noSandbox;
    opts.training = !noTraining;
    {
        std::error_code ec;
        auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
        opts.sandbox.self = ec ? argv[0] : self.string();
    }

    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
    std::signal(SIGPIPE, SIG_IGN);  // an engine dying mid-write must not kill the worker
    try {
        opts.endpoint = xq::coord::resolveEndpoint(opts.endpoint);
        if (opts.engineNps == 0) opts.engineNps = measureEngineNps(speedEngine);
        xq::worker::Worker worker(opts);
        worker.run(stopRequested);
        std::cerr << "xq-worker: stopped after " << worker.pairsPlayed() << " pairs" << std::endl;
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "xq-worker: error: " << e.what() << std::endl;
        return 1;
    }
}
