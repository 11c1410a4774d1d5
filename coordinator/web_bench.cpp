// xq-coordinator-web-bench: how long the web view takes to serve its pages on a large coordinator. Fills
// a fresh store with many tests (with results, several submitters and states) and workers (with per-test
// statistics), starts the coordinator with its web view on loopback, requests each page repeatedly over
// one keep-alive connection, and prints the server's time per request (from its own /metrics histogram)
// and the client's round trip. Not a test: the goal (under 50 ms a page) is checked by reading it.
#include <httplib.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "server.h"

namespace {

namespace v1 = xq::v1;
using namespace xq::coord;

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(p * double(v.size())))];
}

void fill(const std::string& dataDir, int tests, int workers, int pairsOfLargest) {
    CoordinatorOptions o;
    o.dataDir = dataDir;
    Coordinator coord(o);
    Store& store = coord.storeForTesting();
    std::mt19937_64 rng(1);
    Transaction tx(store.db());
    for (int w = 1; w <= workers; ++w) {
        WorkerRow row;
        row.tokenId = 1;
        row.name = "host-" + std::to_string(w);
        row.version = "bench";
        row.cpuModel = "AMD EPYC 7763 64-Core Processor";
        row.cores = 16;
        row.engineNps = 2'000'000 + std::int64_t(rng() % 500'000);
        row.registeredMs = row.lastSeenMs = coord.nowMs();
        store.insertWorker(row);
    }
    for (int t = 1; t <= tests; ++t) {
        v1::TestSpec spec;
        auto* m = spec.mutable_match();
        for (auto* e : {m->mutable_base(), m->mutable_dev()}) {
            e->set_name(e == m->mutable_base() ? "base" : "dev");
            e->set_binary_sha256(std::string(64, 'a'));
            e->set_tc("10+0.1");
            (*e->mutable_options())["Hash"] = "16";
        }
        m->set_openings_sha256(std::string(64, 'b'));
        spec.mutable_sprt()->set_elo0(0);
        spec.mutable_sprt()->set_elo1(2);
        spec.set_description("test number " + std::to_string(t) +
                             ": a search change with a longer description");
        std::string submitter = "user" + std::to_string(t % 20);
        spec.set_submitter(submitter);
        std::int64_t id = store.insertTest("match", spec.SerializeAsString(), 100'000, coord.nowMs());
        store.setSubmitter(id, submitter);
        TestRow row = *store.findTest(id);
        for (auto& p : row.penta) p = std::int64_t(rng() % 2000);
        row.wdl = {row.penta[4] * 2, row.penta[2] * 2, row.penta[0] * 2};
        row.llr = double(rng() % 500) / 100 - 2.5;
        row.state = t > tests - 50 ? TestState::Running : (t % 7 ? TestState::Finished : TestState::Stopped);
        store.saveTest(row);
        for (int k = 0; k < 2; ++k)
            store.addWorkerTestStats(id, 1 + std::int64_t(rng() % std::uint64_t(std::max(workers, 1))), 200,
                                     {});
        store.addEvent(id, coord.nowMs(), "submitted");
    }
    // One test with a long history of pairs for its charts.
    std::vector<PairRow> pairs;
    TestRow largest = *store.findTest(tests);
    largest.penta = {};
    for (int i = 0; i < pairsOfLargest; ++i) {
        pairs.push_back({i, int(rng() % 5)});
        largest.penta[std::size_t(pairs.back().pentaIndex)]++;  // its counts agree with its pairs
    }
    store.insertPairs(tests, 1, pairs);
    store.saveTest(largest);
    tx.commit();
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"xq-coordinator-web-bench: server time of the web view's pages on a large coordinator"};
    int tests = 10'000, workers = 1'000, requests = 50, pairs = 100'000;
    std::string data;
    app.add_option("--tests", tests, "tests in the store")->check(CLI::Range(1, 1'000'000));
    app.add_option("--workers", workers, "workers in the store")->check(CLI::Range(0, 100'000));
    app.add_option("--pairs", pairs, "game pairs of the one test whose page is measured")
        ->check(CLI::Range(0, 10'000'000));
    app.add_option("--requests", requests, "requests per page")->check(CLI::Range(1, 10'000));
    app.add_option("--data", data, "data directory (default: a fresh temporary one, removed afterwards)");
    bool json = false;
    app.add_flag("--json", json, "print the figures as JSON");
    CLI11_PARSE(app, argc, argv);
    bool temporary = data.empty();
    if (temporary) {
        std::string tmpl = (std::filesystem::temp_directory_path() / "xq-web-bench-XXXXXX").string();
        data = mkdtemp(tmpl.data());
    }
    try {
        auto start = std::chrono::steady_clock::now();
        fill(data, tests, workers, pairs);
        std::cerr << "filled " << tests << " tests and " << workers << " workers in "
                  << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
                  << " s\n";
        ServerOptions o;
        o.coordinator.dataDir = data;
        o.web.listen = "127.0.0.1:0";
        CoordinatorServer server(o);
        httplib::Client client("http://" + server.web()->address());
        client.set_keep_alive(true);
        client.set_read_timeout(60, 0);
        const std::vector<std::pair<std::string, std::string>> pages = {
            {"/tests", "/tests"},
            {"/tests", "/tests?page=150"},
            {"/tests", "/tests?state=finished&submitter=user7"},
            {"/api/tests", "/api/tests"},
            {"/tests/:id", "/tests/" + std::to_string(tests)},
            {"/workers", "/workers"},
            {"/api/workers", "/api/workers"},
        };
        nlohmann::json out = nlohmann::json::array();
        for (const auto& [route, path] : pages) {
            std::vector<double> rtt;
            std::size_t bytes = 0;
            for (int i = 0; i < requests; ++i) {
                auto t0 = std::chrono::steady_clock::now();
                auto res = client.Get(path);
                rtt.push_back(
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
                if (!res || res->status != 200)
                    throw std::runtime_error(
                        path + ": " + (res ? std::to_string(res->status) : httplib::to_string(res.error())));
                bytes = res->body.size();
            }
            out.push_back({{"path", path},
                           {"route", route},
                           {"bytes", bytes},
                           {"client_p50_ms", percentile(rtt, 0.5)},
                           {"client_p95_ms", percentile(rtt, 0.95)}});
        }
        // The server's own time per route, from its histogram (sum / count), over the same requests.
        std::string metrics = client.Get("/metrics")->body;
        for (auto& row : out) {
            std::string label = "route=\"GET " + row["route"].get<std::string>() + "\"";
            auto value = [&](const std::string& name) {
                std::string key = "\n" + name + "{" + label + "} ";
                auto at = metrics.find(key);
                return at == std::string::npos ? 0.0 : std::stod(metrics.substr(at + key.size()));
            };
            double count = value("xq_http_duration_seconds_count");
            if (count > 0)
                row["server_mean_ms_of_route"] = 1000 * value("xq_http_duration_seconds_sum") / count;
        }
        if (json) {
            std::cout << nlohmann::json{{"tests", tests},
                                        {"workers", workers},
                                        {"pairs", pairs},
                                        {"pages", out}}
                             .dump(2)
                      << "\n";
        } else {
            std::printf("%-42s %9s %12s %12s %16s\n", "page", "bytes", "client p50", "client p95",
                        "server mean/route");
            for (const auto& r : out)
                std::printf("%-42s %9zu %9.2f ms %9.2f ms %13.2f ms\n", r["path"].get<std::string>().c_str(),
                            r["bytes"].get<std::size_t>(), r["client_p50_ms"].get<double>(),
                            r["client_p95_ms"].get<double>(), r.value("server_mean_ms_of_route", 0.0));
        }
    } catch (const std::exception& e) {
        std::cerr << "xq-coordinator-web-bench: " << e.what() << "\n";
        if (temporary) std::filesystem::remove_all(data);
        return 1;
    }
    if (temporary) std::filesystem::remove_all(data);
    return 0;
}
