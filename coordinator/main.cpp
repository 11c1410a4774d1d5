// xq-coordinator: serves tests to workers and users over gRPC.
//   xq-coordinator --listen HOST:PORT --data DIR [--http HOST:PORT] [--tls-cert PEM --tls-key PEM] ...
//   xq-coordinator --data DIR [--store URL] token create --role user|worker [--name NAME]
//   xq-coordinator --data DIR store copy --to postgresql://...   (SQLite to PostgreSQL, once)
#include <CLI/CLI.hpp>
#include <csignal>
#include <iostream>
#include <thread>

#include "server.h"
#include "store_copy.h"

int main(int argc, char** argv) {
    CLI::App app{"xq-coordinator: distributes engine tests to workers and keeps their results"};
    xq::coord::ServerOptions opts;
    auto& co = opts.coordinator;
    co.dataDir = "xq-data";
    opts.listen = "0.0.0.0:50051";
    app.add_option("--listen", opts.listen, "address to serve on, HOST:PORT (port 0: any free port)");
    app.add_option("--data", co.dataDir, "directory holding artifacts/, data/ and the SQLite store");
    app.add_option(
           "--store", co.store,
           "postgresql://USER@HOST:PORT/DB to keep the store in PostgreSQL (replicas share it and --data); "
           "default: SQLite in --data")
        ->check([](const std::string& s) {
            return xq::coord::isPostgresUrl(s) ? std::string() : "--store takes a postgresql:// URL";
        });
    app.add_option("--tls-cert", opts.tlsCertPath, "PEM certificate chain; with --tls-key enables TLS");
    app.add_option("--tls-key", opts.tlsKeyPath, "PEM private key");
    app.add_option("--lease-timeout", co.leaseTimeoutSeconds,
                   "seconds without heartbeat before a lease expires")
        ->check(CLI::Range(1, 3600));
    app.add_option("--heartbeat", co.heartbeatSeconds, "seconds between worker heartbeats (0: timeout/4)")
        ->check(CLI::Range(0, 3600));
    app.add_option("--chunk-seconds", co.chunk.targetSeconds, "target duration of one lease of games")
        ->check(CLI::Range(1.0, 86400.0));
    app.add_option("--max-chunk-pairs", co.chunk.maxPairs, "most game pairs in one lease")
        ->check(CLI::Range(1, 100000));
    app.add_option("--max-message-bytes", opts.maxMessageBytes, "largest request accepted")
        ->check(CLI::Range(65536, 1 << 30));
    app.add_option("--rate", co.requestsPerSecondPerToken,
                   "sustained requests per second per token (0: no limit)");
    app.add_option("--burst", co.requestBurstPerToken, "request burst per token");
    app.add_option(
        "--http", opts.web.listen,
        "also serve the web view on HOST:PORT (port 0: any free port); HTTPS with --tls-cert/--tls-key");
    std::size_t uploadMb = opts.web.maxUploadBytes >> 20;
    app.add_option("--http-max-upload-mb", uploadMb,
                   "largest web request, in MiB (the submit form's engine files)")
        ->check(CLI::Range(1, 4096));
    bool noApproval = false;
    app.add_option("--public-url", co.publicUrl,
                   "the web view's address as users reach it (e.g. https://xq.example.org): webhook bodies "
                   "link each test's page");
    app.add_option("--webhook-attempts", co.webhookAttempts,
                   "attempts of one webhook delivery before it fails")
        ->check(CLI::Range(1, 100));
    app.add_option(
           "--webhook-retry-ms", co.webhookRetryMs,
           "delay after a webhook delivery's first failed attempt, doubling after each (at most an hour)")
        ->check(CLI::Range(std::int64_t(1), std::int64_t(3600000)));
    app.add_flag("--no-approval", noApproval,
                 "run every user's tests at once (a single-user setup); by default the tests of users "
                 "without the approver role wait until an approver releases them (xq approve)");
    app.add_option("--suspicion-free-failures", co.suspicion.freeFailures,
                   "failures per worker and test tolerated before rates apply");
    app.add_option("--max-failed-leases", co.maxFailedLeases,
                   "leases of a test that fail in a row (an engine that does not start, every game crashed) "
                   "before the test fails (0: never)")
        ->check(CLI::NonNegativeNumber);

    auto* token = app.add_subcommand("token", "manage access tokens");
    auto* create = token->add_subcommand("create", "create a token; prints it on the last line");
    std::string role = "user", name;
    create->add_option("--role", role, "user, worker or approver (a user who may also release others' tests)")
        ->check(CLI::IsMember({"user", "worker", "approver"}));
    create->add_option("--name", name, "who the token is for");
    token->require_subcommand(1);

    auto* storeCmd = app.add_subcommand("store", "manage the store");
    auto* copy = storeCmd->add_subcommand(
        "copy", "copy a SQLite store into an empty PostgreSQL database (stop the coordinator first)");
    std::string copyFrom, copyTo;
    copy->add_option("--from", copyFrom, "the SQLite file (default: coordinator.db in --data)");
    copy->add_option("--to", copyTo, "postgresql:// URL of an empty database (default: --store)");
    storeCmd->require_subcommand(1);

    CLI11_PARSE(app, argc, argv);
    opts.web.maxUploadBytes = uploadMb << 20;
    co.requireApproval = !noApproval;
    try {
        if (*copy) {
            if (copyFrom.empty()) copyFrom = co.dataDir + "/coordinator.db";
            if (copyTo.empty()) copyTo = co.store;
            if (copyTo.empty())
                throw std::invalid_argument("store copy: give --to postgresql://... (or --store)");
            std::int64_t total = 0;
            auto tables = xq::coord::copyStore(copyFrom, copyTo, [&](const xq::coord::TableCopy& t) {
                std::cerr << "xq-coordinator: copied " << t.table << ": " << t.rows << " rows" << std::endl;
                total += t.rows;
            });
            std::cout << "copied " << total << " rows in " << tables.size() << " tables from " << copyFrom
                      << " to " << xq::coord::redactUrl(copyTo) << std::endl;
            return 0;
        }
        if (*create) {
            xq::coord::Coordinator coordinator(co);
            std::string t = coordinator.createToken(xq::coord::parseRole(role), name.empty() ? role : name);
            std::cout << "created " << role << " token (store it now: only its hash is kept)\n"
                      << t << std::endl;
            return 0;
        }
        // Signals are handled by a thread of our own; block them before gRPC starts its threads.
        sigset_t signals;
        sigemptyset(&signals);
        sigaddset(&signals, SIGINT);
        sigaddset(&signals, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &signals, nullptr);

        xq::coord::CoordinatorServer server(opts);
        std::cout << "listening on " << server.address() << std::endl;
        if (server.web()) std::cout << "web view on " << server.web()->url() << std::endl;
        std::cerr << "xq-coordinator: data in " << co.dataDir
                  << (co.store.empty() ? "" : ", store " + xq::coord::redactUrl(co.store))
                  << ", lease timeout " << co.leaseTimeoutSeconds << " s"
                  << (co.requireApproval ? ", tests of users wait for an approver" : ", no approval")
                  << (opts.tlsCertPath.empty() ? "" : ", TLS") << std::endl;
        std::thread signalWaiter([&] {
            int sig = 0;
            sigwait(&signals, &sig);
            std::cerr << "xq-coordinator: signal " << sig << ", shutting down" << std::endl;
            server.shutdown();
        });
        server.wait();
        // wait() also returns if shutdown came from elsewhere; wake the signal thread so it can be joined.
        pthread_kill(signalWaiter.native_handle(), SIGTERM);
        signalWaiter.join();
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "xq-coordinator: error: " << e.what() << std::endl;
        return 1;
    }
}
