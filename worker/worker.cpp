#include "worker.h"

#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <thread>

#include "artifact_cache.h"
#include "backoff.h"
#include "bench_runner.h"
#include "datagen_runner.h"
#include "job_player.h"
#include "lease_heartbeat.h"
#include "source_build.h"
#include "training_runner.h"

namespace xq::worker {

namespace v1 = xq::v1;

namespace {

constexpr const char* WorkerVersion = "xq-worker 1.0";

bool isPermanent(grpc::StatusCode code) {
    return code == grpc::StatusCode::UNAUTHENTICATED || code == grpc::StatusCode::PERMISSION_DENIED;
}

std::string hostName() {
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0) return "worker";
    return buf;
}

std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
            return line.substr(line.find(':') + 2);
    return "";
}

std::uint64_t memoryMb() {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? std::uint64_t(pages) * std::uint64_t(size) / (1 << 20) : 0;
}

std::string defaultCacheDir() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/xq-worker";
    if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/xq-worker";
    return "xq-worker-cache";
}

}  // namespace

Worker::Worker(WorkerOptions options) : options_(std::move(options)), client_(options_.endpoint) {
    if (options_.cacheDir.empty()) options_.cacheDir = defaultCacheDir();
    if (options_.name.empty()) options_.name = hostName();
    if (options_.concurrency < 1) options_.concurrency = 1;
    if (options_.trainingThreads < 1) options_.trainingThreads = options_.concurrency;
    if (options_.tunerPath.empty()) {
        std::error_code ec;
        auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
        options_.tunerPath = ((ec ? std::filesystem::path() : self.parent_path()) / "xq-tuner").string();
    }
}

void Worker::log(const std::string& line) const {
    if (options_.log) return options_.log(line);
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    std::cerr << "xq-worker[" << workerId_ << "]: " << line << std::endl;
}

void Worker::registerWithRetry(const std::atomic<bool>& stop) {
    v1::RegisterRequest req;
    req.set_name(options_.name);
    req.set_cores(std::max(1u, std::thread::hardware_concurrency()));
    req.set_memory_mb(memoryMb());
    req.set_engine_nps(options_.engineNps);
    req.set_version(WorkerVersion);
    req.set_cpu_model(cpuModel());
    Backoff backoff;
    while (!stop) {
        v1::RegisterResponse resp;
        auto ctx = client_.context(15);
        grpc::Status status = client_.worker().Register(ctx.get(), req, &resp);
        if (status.ok()) {
            workerId_ = resp.worker_id();
            heartbeatSeconds_ = std::max(1, int(resp.heartbeat_seconds()));
            log("registered with " + options_.endpoint.address + " as worker " + std::to_string(workerId_));
            return;
        }
        if (isPermanent(status.error_code())) coord::check(status, "register with the coordinator");
        std::int64_t delay = backoff.nextMs();
        log("cannot register (" + status.error_message() + "); retrying in " + std::to_string(delay) + " ms");
        sleepUnless(stop, delay);
    }
}

void Worker::run(const std::atomic<bool>& stop) {
    options_.sandbox.prepare();  // before anything: a worker that cannot sandbox says so and stops
    registerWithRetry(stop);
    ArtifactCache cache(options_.cacheDir);
    SourceBuilder builder(
        options_.buildDir.empty() ? options_.cacheDir + "/builds" : options_.buildDir, options_.buildLimits,
        [this](const std::string& l) { log(l); }, &options_.sandbox);
    if (!options_.pgnDir.empty()) std::filesystem::create_directories(options_.pgnDir);
    if (options_.training && access(options_.tunerPath.c_str(), X_OK) != 0) {
        log("no trainer at " + options_.tunerPath + " (give --tuner): this worker takes no training");
        options_.training = false;
    }
    Backoff backoff;
    auto benchStub = v1::BenchService::NewStub(client_.channel());
    bool benchSupported = true;
    while (!stop) {
        // Cluster benchmarks go first: they are short and a user is waiting for them.
        if (benchSupported) {
            std::string benchError;
            if (runPendingBench(
                    client_, *benchStub, cache, workerId_, [this](const std::string& l) { log(l); },
                    benchError, &options_.sandbox))
                continue;
            if (benchError.rfind("UNIMPLEMENTED", 0) == 0) benchSupported = false;  // an older coordinator
        }
        v1::JobRequest req;
        req.set_worker_id(workerId_);
        req.set_concurrency(std::uint32_t(options_.concurrency));
        req.add_kinds("datagen");
        if (options_.training) {
            req.add_kinds("training");
            req.set_training_threads(std::uint32_t(options_.trainingThreads));
        }
        // A long poll: the coordinator answers when work appears or after wait_seconds; a shutdown cancels
        // it.
        req.set_wait_seconds(20);
        v1::JobResponse resp;
        auto ctx = client_.context(35);
        std::atomic<bool> answered{false};
        std::thread canceller([&] {
            while (!answered && !stop) std::this_thread::sleep_for(std::chrono::milliseconds(50));
            if (!answered) ctx->TryCancel();
        });
        grpc::Status status = client_.worker().RequestJob(ctx.get(), req, &resp);
        answered = true;
        canceller.join();
        if (stop) break;
        if (!status.ok()) {
            if (isPermanent(status.error_code())) coord::check(status, "request a job");
            if (status.error_code() == grpc::StatusCode::NOT_FOUND) {  // a coordinator that forgot us
                registerWithRetry(stop);
                continue;
            }
            std::int64_t delay = backoff.nextMs();
            log("cannot get a job (" + status.error_message() + "); retrying in " + std::to_string(delay) +
                " ms");
            sleepUnless(stop, delay);
            continue;
        }
        if (!resp.has_job()) {
            backoff.reset();
            // 0: the coordinator already waited (a long poll); ask again at once.
            sleepUnless(stop, 1000 * std::int64_t(resp.retry_after_seconds()));
            continue;
        }
        const v1::Job& job = resp.job();
        JobEnvironment env;
        env.client = &client_;
        env.workerId = workerId_;
        env.heartbeatSeconds = heartbeatSeconds_;
        env.concurrency = options_.concurrency;
        env.affinity = options_.affinity;
        env.shutdown = &stop;
        env.shutdownGraceSeconds = options_.shutdownGraceSeconds;
        env.log = [this](const std::string& l) { log(l); };
        env.sandbox = &options_.sandbox;
        if (job.has_datagen()) {
            DatagenOutcome outcome = runDatagenLease(job, env, cache);
            if (!outcome.error.empty())
                sleepUnless(stop, std::max<std::int64_t>(backoff.nextMs(), 2000));
            else
                backoff.reset();
            continue;
        }
        if (job.has_training()) {
            TrainingOutcome outcome = runTrainingLease(
                job, env, cache, TrainingSettings{options_.tunerPath, options_.trainingThreads});
            if (!outcome.error.empty())
                sleepUnless(stop, std::max<std::int64_t>(backoff.nextMs(), 2000));
            else
                backoff.reset();
            continue;
        }
        if (!job.has_match()) {
            log("lease " + std::to_string(job.lease_id()) + ": a job kind this worker does not know");
            releaseLease(env, job.lease_id(),
                         "unknown job kind; upgrade the worker (" + std::string(WorkerVersion) + ")");
            sleepUnless(stop, std::max<std::int64_t>(backoff.nextMs(), 2000));
            continue;
        }
        const auto& spec = job.match().spec();
        log("lease " + std::to_string(job.lease_id()) + ": test " + std::to_string(job.test_id()) + ", " +
            std::to_string(job.match().pair_count()) + " pairs from pair " +
            std::to_string(job.match().first_pair()));
        if (!options_.pgnDir.empty())
            env.pgnPath = options_.pgnDir + "/test-" + std::to_string(job.test_id()) +
                          (spec.game() == "capturego" ? ".sgf" : ".pgn");  // Capture Go's games are SGF
        std::string error;
        bool buildFailed = false;
        std::vector<std::shared_ptr<void>> buildsInUse;  // kept from eviction until the job ends
        try {
            // Downloads, verification and builds keep the lease alive: a large engine on a slow link, or a
            // build for this CPU, can take longer than the lease timeout.
            LeaseKeeper keeper(job, env);
            auto engine = [&](const v1::EngineSpec& e) {
                if (!e.has_source()) return cache.get(client_, e.binary_sha256(), true);
                std::string archive = cache.get(client_, e.source().source_sha256(), false);
                auto built = builder.build(archive, e.source().source_sha256(), e.source().build_command(),
                                           e.source().binary_path());
                buildsInUse.push_back(built.inUse);
                return built.path;
            };
            env.baseBinary = engine(spec.base());
            env.devBinary = engine(spec.dev());
            if (!spec.base().weights_sha256().empty())
                env.baseWeights = cache.get(client_, spec.base().weights_sha256(), false);
            if (!spec.dev().weights_sha256().empty())
                env.devWeights = cache.get(client_, spec.dev().weights_sha256(), false);
            if (!spec.base().net_sha256().empty())
                env.baseNet = cache.get(client_, spec.base().net_sha256(), false);
            if (!spec.dev().net_sha256().empty())
                env.devNet = cache.get(client_, spec.dev().net_sha256(), false);
            if (!spec.openings_sha256().empty())
                env.openingsPath = cache.get(client_, spec.openings_sha256(), false);
        } catch (const BuildError& e) {
            error = e.what();
            buildFailed = e.sourceFault;
        } catch (const std::exception& e) {
            error = e.what();
        }
        if (error.empty()) error = prepareMatchJob(job, env);
        JobOutcome outcome;
        if (error.empty()) {
            outcome = playJob(job, env);
            error = outcome.error;
            pairsPlayed_ += outcome.pairsPlayed;
        }
        bool complete = outcome.pairsAcknowledged == std::int64_t(job.match().pair_count());
        if (!complete && !outcome.stoppedByCoordinator) {
            // Hand the unplayed pairs back now rather than letting the lease time out; a build command
            // that fails, fails everywhere.
            releaseLease(env, job.lease_id(), error, buildFailed);
        } else {
            log("lease " + std::to_string(job.lease_id()) + ": " + std::to_string(outcome.pairsAcknowledged) +
                " pairs reported");
        }
        if (!error.empty()) {
            std::int64_t delay = backoff.nextMs();
            sleepUnless(stop, std::max<std::int64_t>(delay, 2000));
        } else {
            backoff.reset();
        }
    }
}

}  // namespace xq::worker
