// xq-worker: plays games for a coordinator.
//   xq-worker --coordinator HOST:PORT --token T --concurrency N [--cache DIR] [--name NAME]
// SIGTERM or SIGINT: abandon games in flight, report what is finished, hand the lease back and exit 0.
#include <CLI/CLI.hpp>
#include <csignal>
#include <iostream>

#include "worker.h"

namespace {
std::atomic<bool> stopRequested{false};
extern "C" void onSignal(int) {
    stopRequested = true;
}
}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"xq-worker: plays engine test games for an xq coordinator"};
    xq::worker::WorkerOptions opts;
    app.add_option("--coordinator", opts.endpoint.address,
                   "coordinator address HOST:PORT (or XQ_COORDINATOR)");
    app.add_option("--token", opts.endpoint.token, "worker token (or XQ_TOKEN)");
    app.add_option("--tls-ca", opts.endpoint.tlsCaPath,
                   "CA bundle to verify a TLS coordinator (or XQ_TLS_CA)");
    app.add_option("--concurrency", opts.concurrency, "games played at once")->check(CLI::Range(1, 1024));
    app.add_option("--cache", opts.cacheDir, "artifact cache directory");
    app.add_option("--name", opts.name, "name shown in `xq workers` (default: host name)");
    app.add_option("--nps", opts.engineNps, "this machine's engine speed in nodes/s, used to size jobs");
    app.add_option("--pgn-dir", opts.pgnDir, "keep the games as PGN here (one file per test)");
    app.add_option("--shutdown-grace", opts.shutdownGraceSeconds,
                   "seconds to keep retrying unacknowledged reports after SIGTERM");
    CLI11_PARSE(app, argc, argv);

    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
    std::signal(SIGPIPE, SIG_IGN);  // an engine dying mid-write must not kill the worker
    try {
        opts.endpoint = xq::coord::resolveEndpoint(opts.endpoint);
        xq::worker::Worker worker(opts);
        worker.run(stopRequested);
        std::cerr << "xq-worker: stopped after " << worker.pairsPlayed() << " pairs" << std::endl;
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "xq-worker: error: " << e.what() << std::endl;
        return 1;
    }
}
