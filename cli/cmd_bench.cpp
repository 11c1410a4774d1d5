// xq bench: engine speed, here or across a coordinator's workers.
//   xq bench [--engine PATH] [--threads N --hash MB --repeats R --depth D]       this machine
//   xq bench --cluster --coordinator HOST:PORT --token T [--json] [--wait S]     every live worker
//   xq bench --history --coordinator HOST:PORT --token T [--json] [--limit N]    past cluster runs
// Each worker runs `<engine> bench DEPTH THREADS HASH` R times; the table shows per worker its CPU, cores,
// nodes, mean nps and the spread over the repeats, and the fleet's total nps. Runs are kept by the
// coordinator, so the history shows a change in a build's speed across the fleet.
#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "artifact_check.h"
#include "client.h"
#include "command.h"
#include "engine_bench.h"
#include "xq/v1/bench.grpc.pb.h"

namespace {

namespace v1 = xq::v1;
// Json, not json: in a unity build this file shares its scope with files whose locals are called json.
using Json = nlohmann::json;

struct BenchOptions {
    xq::coord::Endpoint endpoint;
    std::string engine;        // local path; empty: xq-engine next to this xq
    std::string engineSha256;  // cluster: an artifact already on the coordinator
    std::uint32_t threads = 1, hashMb = 16, repeats = 1, depth = 0, limit = 10;
    int waitSeconds = 300;
    std::vector<std::uint64_t> workers;
    bool cluster = false, history = false, json = false;
};

struct Summary {
    std::uint64_t nodes = 0;  // of the first repeat; repeats with other counts make `consistent` false
    bool consistent = true;
    double npsMean = 0;
    std::uint64_t npsMin = 0, npsMax = 0;
};

Summary summarize(const google::protobuf::RepeatedPtrField<v1::BenchRepeat>& repeats) {
    Summary s;
    if (repeats.empty()) return s;
    s.nodes = repeats[0].nodes();
    s.npsMin = s.npsMax = repeats[0].nps();
    for (const auto& r : repeats) {
        s.consistent = s.consistent && r.nodes() == s.nodes;
        s.npsMean += double(r.nps());
        s.npsMin = std::min<std::uint64_t>(s.npsMin, r.nps());
        s.npsMax = std::max<std::uint64_t>(s.npsMax, r.nps());
    }
    s.npsMean /= double(repeats.size());
    return s;
}

// Spread over the repeats as a percentage of the mean: (max - min) / mean.
double spreadPercent(const Summary& s) {
    return s.npsMean > 0 ? 100.0 * double(s.npsMax - s.npsMin) / s.npsMean : 0;
}

std::string timeText(std::int64_t unixSeconds) {
    std::time_t t = std::time_t(unixSeconds);
    std::tm tm{};
    gmtime_r(&t, &tm);
    std::ostringstream out;
    out << std::put_time(&tm, "%Y-%m-%d %H:%M:%S UTC");
    return out.str();
}

Json runJson(const v1::BenchRun& run) {
    Json workers = Json::array();
    std::uint64_t totalNps = 0;
    std::int64_t reported = 0;
    std::uint64_t firstNodes = 0;
    bool sameNodes = true;
    for (const auto& w : run.workers()) {
        Summary s = summarize(w.repeats());
        Json jw = {{"id", w.worker_id()},
                   {"name", w.worker_name()},
                   {"cpu_model", w.cpu_model()},
                   {"cores", w.cores()},
                   {"threads", run.settings().threads()},
                   {"done", w.done()},
                   {"nodes", s.nodes},
                   {"nps", std::uint64_t(s.npsMean + 0.5)},
                   {"nps_min", s.npsMin},
                   {"nps_max", s.npsMax},
                   {"spread_percent", spreadPercent(s)},
                   {"repeats", w.repeats_size()}};
        if (!w.error().empty()) jw["error"] = w.error();
        if (w.done() && w.error().empty() && w.repeats_size() > 0) {
            ++reported;
            totalNps += std::uint64_t(s.npsMean + 0.5);
            if (firstNodes == 0) firstNodes = s.nodes;
            sameNodes = sameNodes && s.consistent && s.nodes == firstNodes;
        }
        workers.push_back(jw);
    }
    return {{"id", run.id()},
            {"created", timeText(run.created_unix())},
            {"engine_sha256", run.settings().engine_sha256()},
            {"threads", run.settings().threads()},
            {"hash_mb", run.settings().hash_mb()},
            {"repeats", run.settings().repeats()},
            {"depth", run.settings().depth()},
            {"workers", workers},
            {"total",
             {{"nps", totalNps}, {"workers", reported}, {"nodes", firstNodes}, {"same_nodes", sameNodes}}}};
}

void printRunTable(const Json& run) {
    std::cout << "bench " << run["id"].get<std::uint64_t>() << " at " << run["created"].get<std::string>()
              << ": engine " << run["engine_sha256"].get<std::string>().substr(0, 12) << ", "
              << run["threads"].get<std::uint32_t>() << " thread(s), " << run["hash_mb"].get<std::uint32_t>()
              << " MB, " << run["repeats"].get<std::uint32_t>() << " repeat(s)\n";
    std::cout << std::left << std::setw(5) << "id" << std::setw(12) << "name" << std::setw(42) << "cpu"
              << std::right << std::setw(6) << "cores" << std::setw(8) << "threads" << std::setw(12)
              << "nodes" << std::setw(12) << "nps" << std::setw(9) << "spread"
              << "\n";
    for (const auto& w : run["workers"]) {
        std::string cpu = w["cpu_model"].get<std::string>().substr(0, 40);
        std::cout << std::left << std::setw(5) << w["id"].get<std::uint64_t>() << std::setw(12)
                  << w["name"].get<std::string>().substr(0, 11) << std::setw(42) << cpu << std::right
                  << std::setw(6) << w["cores"].get<std::uint32_t>() << std::setw(8)
                  << w["threads"].get<std::uint32_t>();
        if (w.contains("error"))
            std::cout << "  error: " << w["error"].get<std::string>() << "\n";
        else if (!w["done"].get<bool>())
            std::cout << "  (no result)\n";
        else
            std::cout << std::setw(12) << w["nodes"].get<std::uint64_t>() << std::setw(12)
                      << w["nps"].get<std::uint64_t>() << std::setw(8) << std::fixed << std::setprecision(1)
                      << w["spread_percent"].get<double>() << "%\n";
    }
    const auto& total = run["total"];
    std::cout << "total: " << total["nps"].get<std::uint64_t>() << " nps over "
              << total["workers"].get<std::int64_t>() << " worker(s)";
    if (!total["same_nodes"].get<bool>())
        std::cout << "  WARNING: node counts differ between workers or repeats";
    std::cout << "\n";
}

void runLocal(const BenchOptions& o) {
    std::string engine = o.engine.empty() ? xq::cli::engineBesideXq() : o.engine;
    xq::match::EngineBenchRequest req;
    req.depth = int(o.depth);
    req.threads = int(o.threads);
    req.hashMb = int(o.hashMb);
    Json repeats = Json::array();
    for (std::uint32_t i = 0; i < std::max(1u, o.repeats); ++i) {
        auto r = xq::match::runEngineBench(engine, req);
        repeats.push_back({{"nodes", r.nodes}, {"nps", r.nps}, {"time_ms", r.wallMs}});
        if (!o.json) std::cout << "run " << (i + 1) << ": nodes " << r.nodes << ", nps " << r.nps << "\n";
    }
    if (o.json)
        std::cout << Json{{"engine", engine}, {"threads", o.threads}, {"runs", repeats}}.dump(2) << "\n";
}

void runCluster(const BenchOptions& o) {
    xq::coord::Client client(xq::coord::resolveEndpoint(o.endpoint));
    auto stub = v1::BenchService::NewStub(client.channel());
    v1::SubmitBenchRequest req;
    auto* s = req.mutable_settings();
    s->set_engine_sha256(o.engineSha256.empty()
                             ? client.upload(o.engine.empty() ? xq::cli::engineBesideXq() : o.engine,
                                             xq::coord::ArtifactKindEngine)
                             : o.engineSha256);
    s->set_threads(o.threads);
    s->set_hash_mb(o.hashMb);
    s->set_repeats(o.repeats);
    s->set_depth(o.depth);
    for (auto id : o.workers) req.add_worker_ids(id);
    v1::SubmitBenchResponse submitted;
    {
        auto ctx = client.context(30);
        xq::coord::check(stub->SubmitBench(ctx.get(), req, &submitted), "submit the benchmark");
    }
    std::cerr << "bench " << submitted.bench_id() << " asked of " << submitted.worker_ids_size()
              << " worker(s)\n";
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(o.waitSeconds);
    v1::BenchRun run;
    int lastDone = -1;
    bool interactive = isatty(STDERR_FILENO);
    for (;;) {
        v1::GetBenchRequest get;
        get.set_bench_id(submitted.bench_id());
        auto ctx = client.context(30);
        xq::coord::check(stub->GetBench(ctx.get(), get, &run), "read the benchmark");
        int done = int(std::count_if(run.workers().begin(), run.workers().end(),
                                     [](const v1::WorkerBenchResult& w) { return w.done(); }));
        if (done != lastDone) {
            std::cerr << (interactive ? "\r" : "") << "results: " << done << "/" << run.workers_size()
                      << (interactive ? "" : "\n") << std::flush;
            lastDone = done;
        }
        if (done == run.workers_size() || std::chrono::steady_clock::now() >= deadline) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    if (interactive) std::cerr << "\n";
    Json j = runJson(run);
    if (o.json)
        std::cout << j.dump(2) << "\n";
    else
        printRunTable(j);
    int failed = 0, missing = 0;
    for (const auto& w : run.workers()) {
        if (!w.done())
            ++missing;
        else if (!w.error().empty())
            ++failed;
    }
    if (missing)
        std::cerr << "xq bench: " << missing << " worker(s) gave no result within " << o.waitSeconds
                  << " s\n";
    if (failed) std::cerr << "xq bench: " << failed << " worker(s) could not run the benchmark\n";
    if (missing || failed) throw xq::cli::ExitCode{1};
}

void runHistory(const BenchOptions& o) {
    xq::coord::Client client(xq::coord::resolveEndpoint(o.endpoint));
    auto stub = v1::BenchService::NewStub(client.channel());
    v1::ListBenchesRequest req;
    req.set_limit(o.limit);
    v1::ListBenchesResponse resp;
    auto ctx = client.context(30);
    xq::coord::check(stub->ListBenches(ctx.get(), req, &resp), "list benchmarks");
    Json runs = Json::array();
    for (const auto& r : resp.runs()) runs.push_back(runJson(r));
    if (o.json) {
        std::cout << runs.dump(2) << "\n";
        return;
    }
    std::cout << std::left << std::setw(6) << "id" << std::setw(25) << "when" << std::setw(14) << "engine"
              << std::right << std::setw(8) << "threads" << std::setw(9) << "workers" << std::setw(12)
              << "nodes" << std::setw(13) << "total nps"
              << "\n";
    for (const auto& r : runs)
        std::cout << std::left << std::setw(6) << r["id"].get<std::uint64_t>() << std::setw(25)
                  << r["created"].get<std::string>() << std::setw(14)
                  << r["engine_sha256"].get<std::string>().substr(0, 12) << std::right << std::setw(8)
                  << r["threads"].get<std::uint32_t>() << std::setw(9)
                  << r["total"]["workers"].get<std::int64_t>() << std::setw(12)
                  << r["total"]["nodes"].get<std::uint64_t>() << std::setw(13)
                  << r["total"]["nps"].get<std::uint64_t>() << "\n";
}

xq::cli::RegisterCommand registerBench([](CLI::App& app) {
    auto* sub =
        app.add_subcommand("bench", "engine nodes per second here, or on every worker of a coordinator");
    auto o = std::make_shared<BenchOptions>();
    sub->add_flag("--cluster", o->cluster, "run on the coordinator's live workers");
    sub->add_flag("--history", o->history, "list past cluster runs");
    sub->add_option("--coordinator", o->endpoint.address, "coordinator HOST:PORT (or XQ_COORDINATOR)");
    sub->add_option("--token", o->endpoint.token, "user token (or XQ_TOKEN)");
    sub->add_option("--tls-ca", o->endpoint.tlsCaPath,
                    "CA bundle to verify a TLS coordinator (or XQ_TLS_CA)");
    sub->add_option("--engine", o->engine, "engine executable (default: xq-engine next to xq)");
    sub->add_option("--engine-sha256", o->engineSha256,
                    "cluster: an engine artifact already on the coordinator");
    sub->add_option("--threads", o->threads, "search threads")->check(CLI::Range(1, 256));
    sub->add_option("--hash", o->hashMb, "hash table MB")->check(CLI::Range(1, 65536));
    sub->add_option("--repeats", o->repeats, "runs per worker")->check(CLI::Range(1, 20));
    sub->add_option("--depth", o->depth, "bench depth (default: the engine's)")->check(CLI::Range(1, 60));
    sub->add_option("--workers", o->workers, "cluster: only these worker ids (default: every live worker)")
        ->delimiter(',');
    sub->add_option("--wait", o->waitSeconds, "cluster: seconds to wait for results")
        ->check(CLI::Range(1, 86400));
    sub->add_option("--limit", o->limit, "history: most recent N runs");
    sub->add_flag("--json", o->json, "JSON on stdout");
    sub->callback([o] {
        if (o->cluster && o->history) {
            std::cerr << "xq bench: --cluster and --history are separate commands\n";
            throw xq::cli::ExitCode{2};
        }
        if (o->history) return runHistory(*o);
        if (o->cluster) return runCluster(*o);
        runLocal(*o);
    });
});

}  // namespace
