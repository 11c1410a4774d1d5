#include "bench_runner.h"

#include <grpcpp/grpcpp.h>

#include <condition_variable>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "engine_bench.h"
#include "lease_heartbeat.h"
#include "tc_scaling.h"

namespace xq::worker {

namespace v1 = xq::v1;

namespace {

std::string cpuModelName() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
            return line.substr(line.find(':') + 2);
    return "";
}

}  // namespace

bool runPendingBench(coord::Client& client, v1::BenchService::Stub& stub, ArtifactCache& cache,
                     std::uint64_t workerId, const std::function<void(const std::string&)>& log,
                     std::string& error, const Sandbox* sandbox) {
    v1::PollBenchRequest poll;
    poll.set_worker_id(workerId);
    v1::PollBenchResponse job;
    auto ctx = client.context(15);
    grpc::Status status = stub.PollBench(ctx.get(), poll, &job);
    if (!status.ok()) {
        error = std::string(coord::statusCodeName(int(status.error_code()))) + ": " + status.error_message();
        return false;
    }
    if (job.bench_id() == 0) return false;

    const v1::BenchSettings& s = job.settings();
    v1::ReportBenchRequest report;
    report.set_worker_id(workerId);
    report.set_bench_id(job.bench_id());
    report.set_cpu_model(cpuModelName());
    report.set_cores(std::max(1u, std::thread::hardware_concurrency()));
    log("bench " + std::to_string(job.bench_id()) + ": " + std::to_string(std::max(1u, s.repeats())) +
        " run(s) at " + std::to_string(s.threads()) + " thread(s), " + std::to_string(s.hash_mb()) + " MB");
    try {
        std::string engine = cache.get(client, s.engine_sha256(), true);
        match::EngineBenchRequest request;
        request.depth = int(s.depth());
        request.threads = int(s.threads());
        request.hashMb = int(s.hash_mb());
        if (sandbox) request.launcher = sandbox->launcher(engine);
        for (std::uint32_t i = 0; i < std::max(1u, s.repeats()); ++i) {
            match::EngineBenchResult r = match::runEngineBench(engine, request);
            auto* rep = report.add_repeats();
            rep->set_nodes(r.nodes);
            rep->set_nps(r.nps);
            rep->set_time_ms(std::uint64_t(r.wallMs));
        }
    } catch (const std::exception& e) {
        report.set_error(e.what());
        log("bench " + std::to_string(job.bench_id()) + " failed: " + e.what());
    }
    // A few tries: the result is cheap to lose but a report that never arrives leaves the user waiting.
    for (int attempt = 0; attempt < 5; ++attempt) {
        v1::ReportBenchResponse resp;
        auto rctx = client.context(15);
        status = stub.ReportBench(rctx.get(), report, &resp);
        if (status.ok()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(500 << attempt));
    }
    error = "cannot report bench " + std::to_string(job.bench_id()) + ": " + status.error_message();
    return false;
}

std::string prepareMatchJob(const v1::Job& job, JobEnvironment& env) {
    const v1::MatchSpec& spec = job.match().spec();
    if (spec.base().bench_signature() == 0 && spec.dev().bench_signature() == 0 && spec.reference_nps() == 0)
        return "";
    LeaseKeeper keeper(job, env);
    std::uint64_t baseNps = 0;
    auto check = [&](const v1::EngineSpec& engine, const std::string& path, const char* role) -> std::string {
        bool needSpeed = role == std::string("base") && spec.reference_nps() > 0;
        if (engine.bench_signature() == 0 && !needSpeed) return "";
        // Artifacts are verified against their hash before use, so a path's result holds for the
        // worker's life: a worker that keeps being offered a mismatching test does not re-run it.
        static std::map<std::string, match::EngineBenchResult> measured;
        auto it = measured.find(path);
        if (it == measured.end()) {
            try {
                match::EngineBenchRequest request;
                if (env.sandbox) request.launcher = env.sandbox->launcher(path);
                it = measured.emplace(path, match::runEngineBench(path, request)).first;
            } catch (const std::exception& e) {
                return std::string("bench of the ") + role + " engine failed: " + e.what();
            }
        }
        const match::EngineBenchResult& r = it->second;
        if (engine.bench_signature() != 0 && r.nodes != engine.bench_signature())
            return std::string("bench signature mismatch for the ") + role + " engine (" +
                   (engine.has_source() ? "commit " + engine.source().commit().substr(0, 12)
                                        : engine.binary_sha256().substr(0, 12)) +
                   "): submitted " + std::to_string(engine.bench_signature()) + ", this worker measured " +
                   std::to_string(r.nodes);
        if (needSpeed) baseNps = r.nps;
        return "";
    };
    if (std::string e = check(spec.base(), env.baseBinary, "base"); !e.empty()) return e;
    if (std::string e = check(spec.dev(), env.devBinary, "dev"); !e.empty()) return e;
    if (spec.reference_nps() > 0) {
        try {
            env.clockScale = match::clockScaleFactor(spec.reference_nps(), baseNps);
        } catch (const std::exception& e) {
            return std::string("cannot scale the clock: ") + e.what();
        }
        if (env.log)
            env.log("clock scaled by " + std::to_string(env.clockScale) + " (reference " +
                    std::to_string(spec.reference_nps()) + " nps, measured " + std::to_string(baseNps) + ")");
    }
    return "";
}

}  // namespace xq::worker
