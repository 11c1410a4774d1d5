#include "datagen_runner.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <mutex>
#include <optional>
#include <thread>

#include "backoff.h"
#include "data_chunk.h"
#include "lease_heartbeat.h"
#include "util/sha256.h"
#include "xiangqi/rules.h"
#include "xq/v1/datagen.grpc.pb.h"

namespace xq::worker {

namespace v1 = xq::v1;

namespace {

bool isTransient(const grpc::Status& status) {
    // A message over the server's size limit is refused the same way every time.
    if (status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED &&
        status.error_message().find("larger than max") != std::string::npos)
        return false;
    return worker::isTransient(status.error_code());
}

std::string describe(const grpc::Status& status) {
    return std::string(coord::statusCodeName(int(status.error_code()))) + ": " + status.error_message();
}

std::string lease(const v1::Job& job) {
    return "lease " + std::to_string(job.lease_id());
}

class DatagenSession {
  public:
    DatagenSession(const v1::Job& job, const JobEnvironment& env)
        : job_(job), env_(env), stub_(v1::DataService::NewStub(env.client->channel())) {}

    DatagenOutcome run(const tuner::DatagenOptions& options) {
        std::thread heartbeat([this] { heartbeatLoop(); });
        tuner::DatagenStats stats;
        try {
            stats = tuner::generateData(
                options, [this](std::vector<tuner::LabeledPosition>& chunk) { upload(chunk); }, stop_);
        } catch (const std::exception& e) {
            std::lock_guard lock(mutex_);
            if (outcome_.error.empty()) outcome_.error = std::string("datagen failed: ") + e.what();
        }
        heartbeatDone_ = true;
        heartbeat.join();
        outcome_.gamesPlayed = stats.gamesPlayed;
        if (outcome_.error.empty() && !outcome_.stoppedByCoordinator && !*env_.shutdown) complete(stats);
        return outcome_;
    }

  private:
    std::string lease() const { return "lease " + std::to_string(job_.lease_id()); }

    void stopByCoordinator(const std::string& why) {
        if (!outcome_.stoppedByCoordinator) env_.log(lease() + ": stop: " + why);
        outcome_.stoppedByCoordinator = true;
        stop_ = true;
    }

    // Retries a call on transient errors, for as long as the worker is not shutting down (then for the
    // grace period). Returns the last status.
    template <class Call>
    grpc::Status retry(const std::string& what, Call&& call) {
        Backoff backoff(250, 30'000);
        std::optional<std::chrono::steady_clock::time_point> giveUpAt;
        while (true) {
            grpc::Status status = call();
            if (status.ok() || !isTransient(status)) return status;
            if (*env_.shutdown && !giveUpAt)
                giveUpAt = std::chrono::steady_clock::now() + std::chrono::seconds(env_.shutdownGraceSeconds);
            if (giveUpAt && std::chrono::steady_clock::now() > *giveUpAt) return status;
            std::int64_t delay = backoff.nextMs();
            env_.log(what + " not delivered (" + status.error_message() + "); retrying in " +
                     std::to_string(delay) + " ms");
            std::this_thread::sleep_for(std::chrono::milliseconds(delay));
        }
    }

    // Runs under generateData's lock: games finishing meanwhile wait, which bounds what is held here.
    void upload(const std::vector<tuner::LabeledPosition>& positions) {
        if (stop_) return;
        for (auto& chunk : coord::encodeChunks(positions)) {
            v1::DataChunkUpload req;
            req.set_worker_id(env_.workerId);
            req.set_lease_id(job_.lease_id());
            req.set_slice(job_.datagen().slice());
            req.set_sequence(std::uint64_t(++sequence_));
            req.set_positions(chunk.positions);
            req.set_sha256(xq::sha256Hex(chunk.data));
            req.set_data(std::move(chunk.data));
            v1::DataChunkAck ack;
            grpc::Status status = retry("chunk " + std::to_string(sequence_), [&] {
                auto ctx = env_.client->context(30);
                return stub_->UploadChunk(ctx.get(), req, &ack);
            });
            std::lock_guard lock(mutex_);
            if (!status.ok()) {
                if (isTransient(status)) {
                    outcome_.error = "chunk " + std::to_string(sequence_) + " not delivered at shutdown";
                    stop_ = true;
                } else if (status.error_code() == grpc::StatusCode::FAILED_PRECONDITION) {
                    stopByCoordinator("chunk not taken: " + describe(status));  // the lease is over
                } else {
                    // A chunk the coordinator will never take: hand the slice back with the reason, so
                    // a test whose slices keep failing this way is stopped rather than retried forever.
                    outcome_.error = "chunk " + std::to_string(sequence_) + " refused: " + describe(status);
                    stop_ = true;
                }
                return;
            }
            ++outcome_.chunks;
            outcome_.positions += std::int64_t(req.positions());
            if (ack.command() == v1::LEASE_STOP) {
                stopByCoordinator(ack.reason());
                return;
            }
        }
    }

    void complete(const tuner::DatagenStats& stats) {
        v1::CompleteSliceRequest req;
        req.set_worker_id(env_.workerId);
        req.set_lease_id(job_.lease_id());
        req.set_slice(job_.datagen().slice());
        req.set_chunks(std::uint64_t(outcome_.chunks));
        req.set_positions(std::uint64_t(outcome_.positions));
        req.set_games_played(std::uint64_t(stats.gamesPlayed));
        req.set_games_failed(std::uint64_t(stats.gamesFailed));
        v1::CompleteSliceResponse resp;
        grpc::Status status = retry(lease() + " completion", [&] {
            auto ctx = env_.client->context(30);
            return stub_->CompleteSlice(ctx.get(), req, &resp);
        });
        if (status.ok()) {
            outcome_.complete = true;
            env_.log(lease() + ": slice " + std::to_string(job_.datagen().slice()) + " completed, " +
                     std::to_string(outcome_.chunks) + " chunks with " + std::to_string(outcome_.positions) +
                     " positions acknowledged");
        } else if (isTransient(status))
            outcome_.error = "completion not delivered: " + status.error_message();
        else  // handed back with the reason; a lease that is already over ignores the hand-back
            outcome_.error = "completion refused: " + describe(status);
    }

    void heartbeatLoop() {
        heartbeatLease(env_, job_.lease_id(), heartbeatDone_, stop_, [this](const std::string& why) {
            std::lock_guard lock(mutex_);
            stopByCoordinator(why);
        });
    }

    const v1::Job& job_;
    const JobEnvironment& env_;
    std::unique_ptr<v1::DataService::Stub> stub_;
    std::mutex mutex_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> heartbeatDone_{false};
    std::int64_t sequence_ = 0;
    DatagenOutcome outcome_;
};

}  // namespace

tuner::DatagenOptions datagenOptions(const v1::DatagenJob& job, const std::string& engine,
                                     const std::string& weights, const std::string& net, int concurrency) {
    const auto& spec = job.spec();
    const bool go = spec.game() == "capturego";
    if (go ? spec.engine().protocol() != "gtp"
           : !spec.engine().protocol().empty() && spec.engine().protocol() != "uci")
        throw std::invalid_argument(std::string("datagen needs a ") + (go ? "GTP" : "UCI") +
                                    " engine, not '" + spec.engine().protocol() + "'");
    tuner::DatagenOptions o;
    o.enginePath = engine;
    o.engineArgs.assign(spec.engine().args().begin(), spec.engine().args().end());
    for (const auto& [name, value] : spec.engine().options()) o.engineOptions.emplace_back(name, value);
    if (!weights.empty()) o.engineOptions.emplace_back("EvalFile", weights);
    if (spec.engine().net_sha256().empty() != net.empty())
        throw std::invalid_argument("the job names a network the worker did not fetch");
    if (!net.empty()) {
        if (go) throw std::invalid_argument("a GTP engine takes no network");
        addNetworkOptions(o.engineOptions, net);
    }
    o.games = int(job.games());
    o.firstGame = std::int64_t(job.first_game());
    o.nodes = std::int64_t(spec.nodes());
    o.randomPlies = int(spec.random_plies());
    o.seed = spec.seed();
    o.concurrency = std::max(1, std::min(concurrency, int(job.games())));
    o.sampleRate = spec.sample_rate();
    o.balancedCp = int(spec.balanced_cp());
    if (spec.max_plies() > 0) o.maxPlies = int(spec.max_plies());
    o.game = games::parseGame(spec.game()).value_or(games::Game::Xiangqi);
    o.board = spec.board();
    o.rules.ruleSet = parseRuleSet(spec.rules()).value_or(RuleSet::ASIAN);
    o.rules.moveLimitPlies = defaultMoveLimitPlies(o.rules.ruleSet);
    o.skipMateScores = !spec.keep_mate_scores();
    if (spec.chunk_positions() > 0) o.chunkSize = int(spec.chunk_positions());
    return o;
}

DatagenOutcome runDatagenLease(const v1::Job& job, const JobEnvironment& env, ArtifactCache& cache) {
    const auto& dj = job.datagen();
    env.log(lease(job) + ": datagen test " + std::to_string(job.test_id()) + ", slice " +
            std::to_string(dj.slice()) + ", games " + std::to_string(dj.first_game()) + ".." +
            std::to_string(dj.first_game() + dj.games() - 1) + " at " + std::to_string(dj.spec().nodes()) +
            " nodes");
    DatagenOutcome outcome;
    tuner::DatagenOptions options;
    try {
        LeaseKeeper keeper(job, env);  // a large engine takes a while to fetch and verify
        std::string engine = cache.get(*env.client, dj.spec().engine().binary_sha256(), true);
        std::string weights;
        if (!dj.spec().engine().weights_sha256().empty())
            weights = cache.get(*env.client, dj.spec().engine().weights_sha256(), false);
        std::string net;  // the run's best network: fetched once, then verified from the cache
        if (!dj.spec().engine().net_sha256().empty())
            net = cache.get(*env.client, dj.spec().engine().net_sha256(), false);
        options = datagenOptions(dj, engine, weights, net, env.concurrency);
        if (env.sandbox && env.sandbox->enabled) {
            auto argv = env.sandbox->wrap(options.enginePath, options.engineArgs, {weights, net});
            options.enginePath = argv[0];
            options.engineArgs.assign(argv.begin() + 1, argv.end());
        }
    } catch (const std::exception& e) {
        outcome.error = e.what();
    }
    if (outcome.error.empty()) {
        DatagenSession session(job, env);
        outcome = session.run(options);
    }
    if (outcome.complete) {
        env.log(lease(job) + ": slice " + std::to_string(dj.slice()) +
                " done: " + std::to_string(outcome.positions) + " positions in " +
                std::to_string(outcome.chunks) + " chunks");
    } else if (!outcome.stoppedByCoordinator) {
        releaseLease(env, job.lease_id(), outcome.error);
    }
    return outcome;
}

}  // namespace xq::worker
