// xq-coordinator-load: a simulated fleet against one coordinator on this machine (loopback only).
// Each simulated worker has its own token and channel, registers, takes leases and then, as fast as the
// driver threads go, heartbeats and reports one pair at a time (every report a durable commit), taking
// a new lease when one is used up. Prints requests per second and latency percentiles per call type.
// Bounded in workers and seconds; not a test.
#include <grpcpp/grpcpp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <random>
#include <thread>

#include "client.h"
#include "server.h"

namespace {

namespace v1 = xq::v1;
using Clock = std::chrono::steady_clock;

struct SimWorker {
    std::unique_ptr<xq::coord::Client> client;
    std::uint64_t id = 0;
    std::uint64_t lease = 0, firstPair = 0, pairCount = 0, nextPair = 0, sequence = 0;
};

struct Latencies {
    std::mutex mutex;
    std::vector<double> register_, job, heartbeat, report;
    std::atomic<long> errors{0};
    std::atomic<long> noWork{0};  // measured job requests that found nothing to do
};

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(p * double(v.size())))];
}

template <class Fn>
bool timed(std::vector<double>& local, Fn&& call) {
    auto t0 = Clock::now();
    grpc::Status s = call();
    local.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    return s.ok();
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"xq-coordinator-load: a simulated worker fleet against an embedded coordinator on loopback"};
    int workers = 1000, threads = 32, seconds = 15, heartbeatsPerReport = 3;
    std::string data;
    app.add_option("--workers", workers, "simulated workers")->check(CLI::Range(1, 5000));
    app.add_option("--threads", threads, "driver threads (requests in flight)")->check(CLI::Range(1, 256));
    app.add_option("--seconds", seconds, "measured duration")->check(CLI::Range(1, 300));
    app.add_option("--heartbeats-per-report", heartbeatsPerReport, "heartbeats sent per report")
        ->check(CLI::Range(0, 100));
    app.add_option("--data", data, "coordinator data directory (default: a fresh temporary one)");
    CLI11_PARSE(app, argc, argv);

    bool removeData = data.empty();
    if (data.empty()) {
        std::string tmpl = (std::filesystem::temp_directory_path() / "xq-load-XXXXXX").string();
        data = mkdtemp(tmpl.data());
    }
    xq::coord::ServerOptions opts;
    opts.listen = "127.0.0.1:0";
    opts.coordinator.dataDir = data;
    opts.coordinator.requestsPerSecondPerToken = 0;
    opts.coordinator.chunk.maxPairs = 50;
    xq::coord::CoordinatorServer server(opts);
    auto& core = server.coordinator();

    // One long fixed-games test for the fleet to chew on.
    auto user = core.authenticate(core.createToken(xq::coord::Role::User, "load"));
    std::string fake = "not really an engine";
    auto up = core.beginUpload(user, xq::coord::sha256Hex(fake), fake.size());
    up->write(fake);
    up->finish();
    core.artifactUploaded(up->sha256(), fake.size(), "fake");
    v1::SubmitRequest submit;
    auto* m = submit.mutable_spec()->mutable_match();
    for (auto* e : {m->mutable_base(), m->mutable_dev()}) {
        e->set_binary_sha256(up->sha256());
        // A clock, not a node limit: the coordinator caps node-limited tests at one pair per opening
        // (there is no book here), which would leave the fleet without work after the first lease.
        e->set_tc("10+0.1");
    }
    submit.mutable_spec()->set_games(10'000'000);
    core.submit(user, submit);

    std::vector<SimWorker> fleet(static_cast<std::size_t>(workers));
    {
        auto t0 = Clock::now();
        for (auto& w : fleet) {
            std::string token = core.createToken(xq::coord::Role::Worker, "sim");
            w.client = std::make_unique<xq::coord::Client>(xq::coord::Endpoint{server.address(), token, ""});
        }
        std::printf("created %d worker tokens and channels in %.1f s\n", workers,
                    std::chrono::duration<double>(Clock::now() - t0).count());
    }

    Latencies lat;
    std::atomic<int> phase{0};  // 0 warm-up, 1 measuring, 2 over
    std::atomic<long> requests{0};
    std::vector<std::thread> drivers;
    for (int t = 0; t < threads; ++t) {
        drivers.emplace_back([&, t] {
            std::vector<double> reg, job, hb, rep;
            std::mt19937 rng{static_cast<unsigned>(t)};
            std::vector<SimWorker*> mine;
            for (std::size_t i = std::size_t(t); i < fleet.size(); i += std::size_t(threads))
                mine.push_back(&fleet[i]);
            for (auto* w : mine) {
                v1::RegisterRequest r;
                r.set_name("sim");
                r.set_cores(8);
                v1::RegisterResponse resp;
                auto ctx = w->client->context();
                if (timed(reg, [&] { return w->client->worker().Register(ctx.get(), r, &resp); }))
                    w->id = resp.worker_id();
                else
                    lat.errors++;
            }
            std::size_t next = 0;
            long local = 0;
            while (phase != 2) {
                SimWorker& w = *mine[next++ % mine.size()];
                bool ok = true;
                if (w.lease == 0 || w.nextPair >= w.firstPair + w.pairCount) {
                    v1::JobRequest r;
                    r.set_worker_id(w.id);
                    r.set_concurrency(8);
                    v1::JobResponse resp;
                    auto ctx = w.client->context();
                    ok = timed(job, [&] { return w.client->worker().RequestJob(ctx.get(), r, &resp); });
                    if (ok && !resp.has_job() && phase == 1) lat.noWork++;
                    if (ok && resp.has_job()) {
                        w.lease = resp.job().lease_id();
                        w.firstPair = w.nextPair = resp.job().match().first_pair();
                        w.pairCount = resp.job().match().pair_count();
                        w.sequence = 0;
                    }
                } else if (int(rng() % std::uint32_t(heartbeatsPerReport + 1)) < heartbeatsPerReport) {
                    v1::HeartbeatRequest r;
                    r.set_worker_id(w.id);
                    r.set_lease_id(w.lease);
                    v1::HeartbeatResponse resp;
                    auto ctx = w.client->context();
                    ok = timed(hb, [&] { return w.client->worker().Heartbeat(ctx.get(), r, &resp); });
                } else {
                    v1::ReportRequest r;
                    r.set_worker_id(w.id);
                    r.set_lease_id(w.lease);
                    r.set_sequence(++w.sequence);
                    auto* p = r.add_pairs();
                    p->set_pair_index(w.nextPair++);
                    int outcome = int(rng() % 5);
                    p->set_penta_index(std::uint32_t(outcome));
                    p->set_wins(std::uint32_t(outcome / 2));
                    p->set_draws(std::uint32_t(outcome % 2));
                    p->set_losses(2 - p->wins() - p->draws());
                    v1::ReportResponse resp;
                    auto ctx = w.client->context();
                    ok = timed(rep, [&] { return w.client->worker().ReportResults(ctx.get(), r, &resp); });
                    if (ok && resp.command() == v1::LEASE_STOP) w.lease = 0;
                }
                if (!ok) lat.errors++;
                if (phase == 1)
                    ++local;
                else if (phase == 0)
                    job.clear(), hb.clear(), rep.clear();  // warm-up is not measured
            }
            requests += local;
            std::lock_guard lock(lat.mutex);
            lat.register_.insert(lat.register_.end(), reg.begin(), reg.end());
            lat.job.insert(lat.job.end(), job.begin(), job.end());
            lat.heartbeat.insert(lat.heartbeat.end(), hb.begin(), hb.end());
            lat.report.insert(lat.report.end(), rep.begin(), rep.end());
        });
    }
    std::this_thread::sleep_for(std::chrono::seconds(2));  // registration and warm-up
    phase = 1;
    auto t0 = Clock::now();
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    phase = 2;
    double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    for (auto& d : drivers) d.join();

    std::vector<double> all;
    for (auto* v : {&lat.job, &lat.heartbeat, &lat.report}) all.insert(all.end(), v->begin(), v->end());
    std::printf("fleet: %d simulated workers, %d driver threads, %.1f s measured on %s\n", workers, threads,
                elapsed, server.address().c_str());
    std::printf("requests: %ld (%.0f per second), errors: %ld\n", requests.load(), double(requests) / elapsed,
                lat.errors.load());
    auto line = [](const char* name, const std::vector<double>& v, double secs) {
        std::printf("  %-10s %8zu  %7.0f/s  p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms\n", name, v.size(),
                    double(v.size()) / secs, percentile(v, 0.5), percentile(v, 0.99),
                    v.empty() ? 0 : *std::max_element(v.begin(), v.end()));
    };
    line("register", lat.register_, elapsed);
    line("job", lat.job, elapsed);
    line("heartbeat", lat.heartbeat, elapsed);
    line("report", lat.report, elapsed);
    line("all", all, elapsed);
    auto list = core.listTests({});
    if (list.tests_size())
        std::printf("test 1 holds %llu games\n", (unsigned long long)list.tests(0).games());
    server.shutdown();
    if (removeData) std::filesystem::remove_all(data);
    // A run whose fleet found no work measures idle polling, not reports: say so and fail.
    if (lat.report.empty() || double(lat.noWork) > 0.5 * double(lat.job.size())) {
        std::fprintf(stderr,
                     "xq-coordinator-load: the fleet did not get work (%zu reports, %ld of %zu job requests "
                     "found none); the figures above do not measure reports\n",
                     lat.report.size(), lat.noWork.load(), lat.job.size());
        return 1;
    }
    return 0;
}
