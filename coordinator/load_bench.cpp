// xq-coordinator-load: a simulated fleet against coordinators on this machine (loopback only), at the
// pace of real workers. Each simulated worker has its own token and channel, registers, asks for a job
// when idle (a long poll, as xq-worker does), heartbeats its lease every --heartbeat seconds and reports
// each finished pair when a real worker would: --concurrency games at once, each lasting what the
// coordinator's scheduler estimates for --tc. The store is SQLite (one coordinator) or PostgreSQL
// (--store, with --replicas coordinators on it; workers spread their calls over all of them). Prints
// requests per second and latency percentiles per call type, and how late the drivers sent calls (a
// fleet the machine cannot keep up with shows there). Fails when the fleet got no work: then it would
// measure idle polling, not reports. Not a test.
#include <grpcpp/grpcpp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <queue>
#include <random>
#include <thread>
#include <tuple>

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
    std::vector<double> register_, job, heartbeat, report, lateMs;
    void append(const Latencies& o) {
        register_.insert(register_.end(), o.register_.begin(), o.register_.end());
        job.insert(job.end(), o.job.begin(), o.job.end());
        heartbeat.insert(heartbeat.end(), o.heartbeat.begin(), o.heartbeat.end());
        report.insert(report.end(), o.report.begin(), o.report.end());
        lateMs.insert(lateMs.end(), o.lateMs.begin(), o.lateMs.end());
    }
};

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(p * double(v.size())))];
}

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{
        "xq-coordinator-load: a simulated worker fleet, at real workers' pace, against embedded "
        "coordinators on loopback"};
    int workers = 1000, threads = 64, seconds = 30, replicas = 1, concurrency = 1, heartbeat = 15;
    std::string data, store, tc = "10+0.1";
    app.add_option("--workers", workers, "simulated workers")->check(CLI::Range(1, 20000));
    app.add_option("--threads", threads, "driver threads (calls in flight at most)")
        ->check(CLI::Range(1, 512));
    app.add_option("--seconds", seconds, "measured duration, after the fleet registered and warmed up")
        ->check(CLI::Range(1, 3600));
    app.add_option("--concurrency", concurrency, "games each simulated worker plays at once")
        ->check(CLI::Range(1, 64));
    app.add_option("--tc", tc, "time control of the games, which sets the pace of reports");
    app.add_option("--heartbeat", heartbeat, "seconds between a worker's heartbeats")
        ->check(CLI::Range(1, 600));
    app.add_option("--store", store, "postgresql:// URL of an empty database (default: SQLite in --data)");
    app.add_option("--replicas", replicas, "coordinators on the store (PostgreSQL only above 1)")
        ->check(CLI::Range(1, 8));
    app.add_option("--data", data, "coordinator data directory (default: a fresh temporary one)");
    CLI11_PARSE(app, argc, argv);
    if (replicas > 1 && store.empty()) {
        std::cerr << "xq-coordinator-load: --replicas above 1 needs --store postgresql://...\n";
        return 2;
    }

    bool removeData = data.empty();
    if (data.empty()) {
        std::string tmpl = (std::filesystem::temp_directory_path() / "xq-load-XXXXXX").string();
        data = mkdtemp(tmpl.data());
    }
    std::vector<std::unique_ptr<xq::coord::CoordinatorServer>> servers;
    std::string addresses;
    for (int i = 0; i < replicas; ++i) {
        xq::coord::ServerOptions opts;
        opts.listen = "127.0.0.1:0";
        opts.coordinator.dataDir = data;
        opts.coordinator.store = store;
        opts.coordinator.requestsPerSecondPerToken = 0;
        opts.coordinator.leaseTimeoutSeconds = 4 * heartbeat;
        servers.push_back(std::make_unique<xq::coord::CoordinatorServer>(opts));
        addresses += (i ? "," : "") + servers.back()->address();
    }
    auto& core = servers[0]->coordinator();
    xq::coord::ChunkPolicy policy;
    double gameSeconds = xq::coord::estimateGameSeconds(tc, tc, 0, policy);
    double pairSeconds = 2 * gameSeconds / concurrency;  // one worker finishes a pair this often
    // A lease is used up after this long; workers start spread over it, so that by the end of the warm-up
    // their leases end at random times, as in a fleet that has run for a while (not in one wave).
    double leaseSeconds =
        pairSeconds * double(xq::coord::chunkPairs(gameSeconds, concurrency, 1'000'000'000, policy));

    // One long fixed-games test on a clock, for the fleet to chew on.
    auto user = core.authenticate(core.createToken(xq::coord::Role::User, "load"));
    std::string fake = "not really an engine";
    auto up = core.beginUpload(user, xq::sha256Hex(fake), fake.size());
    up->write(fake);
    up->finish();
    core.artifactUploaded(up->sha256(), fake.size(), "fake");
    v1::SubmitRequest submit;
    auto* m = submit.mutable_spec()->mutable_match();
    for (auto* e : {m->mutable_base(), m->mutable_dev()}) {
        e->set_binary_sha256(up->sha256());
        e->set_tc(tc);
    }
    submit.mutable_spec()->set_games(10'000'000);
    core.submit(user, submit);

    std::vector<SimWorker> fleet(static_cast<std::size_t>(workers));
    {
        auto t0 = Clock::now();
        for (auto& w : fleet) {
            std::string token = core.createToken(xq::coord::Role::Worker, "sim");
            w.client = std::make_unique<xq::coord::Client>(xq::coord::Endpoint{addresses, token, ""});
        }
        std::fprintf(stderr, "created %d worker tokens and channels in %.1f s\n", workers,
                     std::chrono::duration<double>(Clock::now() - t0).count());
    }

    std::atomic<int> phase{0};  // 0 registering and warming up, 1 measuring, 2 over
    std::atomic<long> errors{0}, noWork{0}, requests{0};
    std::atomic<int> registered{0};
    Latencies all;
    std::mutex allMutex;
    auto start = Clock::now();
    std::vector<std::thread> drivers;
    for (int t = 0; t < threads; ++t) {
        drivers.emplace_back([&, t] {
            Latencies local;
            std::mt19937 rng{static_cast<unsigned>(t)};
            std::uniform_real_distribution<double> unit(0, 1);
            std::vector<SimWorker*> mine;
            for (std::size_t i = std::size_t(t); i < fleet.size(); i += std::size_t(threads))
                mine.push_back(&fleet[i]);
            for (auto* w : mine) {
                v1::RegisterRequest r;
                r.set_name("sim");
                r.set_cores(std::uint32_t(concurrency));
                v1::RegisterResponse resp;
                auto ctx = w->client->context();
                auto t0 = Clock::now();
                if (w->client->worker().Register(ctx.get(), r, &resp).ok())
                    w->id = resp.worker_id();
                else
                    errors++;
                local.register_.push_back(msSince(t0));
                registered++;
            }
            // Events due: (time, worker, kind, lease). Kinds: 0 job, 1 heartbeat, 2 report; a heartbeat is
            // for the lease it was scheduled for. Workers start (their first job request) spread over one
            // lease's time.
            using Event = std::tuple<Clock::time_point, std::size_t, int, std::uint64_t>;
            std::priority_queue<Event, std::vector<Event>, std::greater<>> due;
            auto spread = [&](double span) {
                return start + std::chrono::microseconds(std::int64_t(1e6 * span * unit(rng)));
            };
            for (std::size_t i = 0; i < mine.size(); ++i) due.emplace(spread(leaseSeconds), i, 0, 0);
            while (phase != 2 && !due.empty()) {
                auto [when, index, kind, eventLease] = due.top();
                if (Clock::now() < when) {
                    std::this_thread::sleep_until(
                        std::min(when, Clock::now() + std::chrono::milliseconds(50)));
                    continue;
                }
                due.pop();
                SimWorker& w = *mine[index];
                bool measuring = phase == 1;
                if (measuring) local.lateMs.push_back(msSince(when));
                auto ctx = w.client->context(60);
                auto t0 = Clock::now();
                bool ok = true;
                if (kind == 0) {
                    v1::JobRequest r;
                    r.set_worker_id(w.id);
                    r.set_concurrency(std::uint32_t(concurrency));
                    r.set_wait_seconds(0);  // an idle fleet is not the point here: ask again in a second
                    v1::JobResponse resp;
                    ok = w.client->worker().RequestJob(ctx.get(), r, &resp).ok();
                    if (measuring) local.job.push_back(msSince(t0));
                    if (ok && resp.has_job()) {
                        w.lease = resp.job().lease_id();
                        w.firstPair = w.nextPair = resp.job().match().first_pair();
                        w.pairCount = resp.job().match().pair_count();
                        w.sequence = 0;
                        auto now = Clock::now();
                        double first = pairSeconds;
                        due.emplace(now + std::chrono::milliseconds(std::int64_t(1000 * first)), index, 2,
                                    w.lease);
                        due.emplace(now + std::chrono::seconds(heartbeat), index, 1, w.lease);
                    } else {
                        if (ok && measuring) noWork++;
                        due.emplace(Clock::now() + std::chrono::seconds(1), index, 0, 0);
                    }
                } else if (kind == 1) {
                    if (w.lease != eventLease) continue;  // the lease ended since: no heartbeat for it
                    v1::HeartbeatRequest r;
                    r.set_worker_id(w.id);
                    r.set_lease_id(w.lease);
                    v1::HeartbeatResponse resp;
                    ok = w.client->worker().Heartbeat(ctx.get(), r, &resp).ok();
                    if (measuring) local.heartbeat.push_back(msSince(t0));
                    due.emplace(when + std::chrono::seconds(heartbeat), index, 1, w.lease);
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
                    ok = w.client->worker().ReportResults(ctx.get(), r, &resp).ok();
                    if (measuring) local.report.push_back(msSince(t0));
                    bool leaseOver =
                        !ok || resp.command() == v1::LEASE_STOP || w.nextPair >= w.firstPair + w.pairCount;
                    if (leaseOver) {
                        w.lease = 0;
                        due.emplace(Clock::now(), index, 0, 0);
                    } else {
                        due.emplace(when + std::chrono::milliseconds(std::int64_t(1000 * pairSeconds)), index,
                                    2, w.lease);
                    }
                }
                if (!ok) errors++;
                if (measuring) ++requests;
            }
            std::lock_guard lock(allMutex);
            all.append(local);
        });
    }
    // Registration, then a warm-up of one lease's time from the start, over which the workers start: then
    // every worker is busy and the pace is steady before measuring.
    while (registered < workers) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::fprintf(stderr, "registered %d workers in %.1f s; warming up for %.0f s\n", workers,
                 std::chrono::duration<double>(Clock::now() - start).count(), leaseSeconds);
    std::this_thread::sleep_until(start + std::chrono::milliseconds(std::int64_t(1000 * leaseSeconds)));
    phase = 1;
    auto t0 = Clock::now();
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    phase = 2;
    double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    for (auto& d : drivers) d.join();

    std::vector<double> calls;
    for (auto* v : {&all.job, &all.heartbeat, &all.report}) calls.insert(calls.end(), v->begin(), v->end());
    std::printf(
        "fleet: %d simulated workers x %d games at %s (a pair every %.0f s a worker), heartbeat %d s, "
        "%d driver threads, %.1f s measured\n",
        workers, concurrency, tc.c_str(), pairSeconds, heartbeat, threads, elapsed);
    std::printf("store: %s, %d coordinator%s\n", store.empty() ? "SQLite" : "PostgreSQL", replicas,
                replicas > 1 ? "s" : "");
    std::printf("calls: %ld (%.0f per second), errors: %ld\n", requests.load(), double(requests) / elapsed,
                errors.load());
    auto line = [](const char* name, const std::vector<double>& v, double secs) {
        std::printf("  %-10s %8zu  %7.0f/s  p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms\n", name, v.size(),
                    double(v.size()) / secs, percentile(v, 0.5), percentile(v, 0.99),
                    v.empty() ? 0 : *std::max_element(v.begin(), v.end()));
    };
    line("job", all.job, elapsed);
    line("heartbeat", all.heartbeat, elapsed);
    line("report", all.report, elapsed);
    line("all", calls, elapsed);
    std::printf("  late sends: p50 %.2f ms, p99 %.2f ms (how far behind schedule the drivers were)\n",
                percentile(all.lateMs, 0.5), percentile(all.lateMs, 0.99));
    auto list = core.listTests({});
    if (list.tests_size())
        std::printf("the test holds %llu games\n", (unsigned long long)list.tests(0).games());
    double expectedReports = elapsed * workers / pairSeconds;
    for (auto& s : servers) s->shutdown();
    servers.clear();
    if (removeData) std::filesystem::remove_all(data);
    // A fleet that got no work measures idle polling, not reports; one far behind its pace measures the
    // drivers. Say so and fail.
    if (all.report.empty() || double(all.report.size()) < 0.5 * expectedReports ||
        double(noWork) > 0.5 * double(all.job.size())) {
        std::fprintf(
            stderr,
            "xq-coordinator-load: the fleet did not keep its pace (%zu reports of %.0f expected; %ld of "
            "%zu job requests found no work); the figures above do not measure a working fleet\n",
            all.report.size(), expectedReports, noWork.load(), all.job.size());
        return 1;
    }
    return 0;
}
