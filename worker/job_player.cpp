#include "job_player.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "backoff.h"
#include "capturego_settings.h"
#include "data_chunk.h"
#include "lease_heartbeat.h"
#include "pgn.h"
#include "report_games.h"
#include "sgf_record.h"
#include "tc_scaling.h"
#include "xiangqi/rules.h"

namespace xq::worker {

namespace v1 = xq::v1;

namespace {

match::EngineConfig engineConfig(const v1::EngineSpec& spec, const std::string& binary,
                                 const std::string& weights, const std::string& net, const char* fallbackName,
                                 const Sandbox* sandbox) {
    match::EngineConfig e;
    e.name = spec.name().empty() ? fallbackName : spec.name();
    std::vector<std::string> argv =
        sandbox ? sandbox->wrap(binary, {spec.args().begin(), spec.args().end()}, {weights, net})
                : std::vector<std::string>{binary};
    if (!sandbox) argv.insert(argv.end(), spec.args().begin(), spec.args().end());
    e.cmd = argv[0];
    e.args.assign(argv.begin() + 1, argv.end());
    auto protocol = match::parseProtocol(spec.protocol().empty() ? "uci" : spec.protocol());
    if (!protocol) throw std::invalid_argument("unknown engine protocol '" + spec.protocol() + "'");
    e.protocol = *protocol;
    for (const auto& [name, value] : spec.options()) e.options.emplace_back(name, value);
    if (!weights.empty()) e.options.emplace_back("EvalFile", weights);
    if (!net.empty()) {
        if (!spec.net_sha256().empty() && e.protocol != match::Protocol::Uci)
            throw std::invalid_argument("a network needs an engine over uci (option EvalFile)");
        addNetworkOptions(e.options, net);
    }
    e.tc = match::TimeControl::parse(spec.tc());
    return e;
}

void addFailures(v1::Failures& f, const match::GameRecord& g) {
    switch (g.failure) {
        case match::Failure::Crash:
            f.set_crashes(f.crashes() + 1);
            break;
        case match::Failure::TimeLoss:
            f.set_time_losses(f.time_losses() + 1);
            break;
        case match::Failure::IllegalMove:
            f.set_illegal_moves(f.illegal_moves() + 1);
            break;
        case match::Failure::Stall:
            f.set_stalls(f.stalls() + 1);
            break;
        case match::Failure::None:
            break;
    }
}

}  // namespace

void addNetworkOptions(std::vector<std::pair<std::string, std::string>>& options, const std::string& net) {
    std::erase_if(options, [](const auto& o) { return o.first == "Use NNUE"; });
    options.emplace_back("EvalFile", net);
    options.emplace_back("Use NNUE", "true");
}

match::MatchConfig makeMatchConfig(const v1::MatchJob& job, const JobEnvironment& env) {
    const auto& spec = job.spec();
    match::MatchConfig cfg;
    if (!spec.game().empty()) {
        auto game = games::parseGame(spec.game());
        if (!game) throw std::invalid_argument("unknown game '" + spec.game() + "'");
        cfg.game = *game;
    }
    // Capture Go: the board's empty position, and the board's rules and komi over every opening's.
    std::optional<games::CaptureGoSettings> board;
    if (cfg.game == games::Game::CaptureGo) {
        board = games::parseCaptureGoSettings(spec.board(), "board");
        cfg.startPosition = games::captureGoStartText(*board);
    } else if (!spec.board().empty()) {
        throw std::invalid_argument("the job gives a board, which only a capturego test has");
    }
    // Engine 0 is the one results are counted for: dev.
    if (spec.dev().net_sha256().empty() != env.devNet.empty() ||
        spec.base().net_sha256().empty() != env.baseNet.empty())
        throw std::invalid_argument("the job names a network the worker did not fetch");
    cfg.engines[0] = engineConfig(spec.dev(), env.devBinary, env.devWeights, env.devNet, "dev", env.sandbox);
    cfg.engines[1] =
        engineConfig(spec.base(), env.baseBinary, env.baseWeights, env.baseNet, "base", env.sandbox);
    if (cfg.engines[0].name == cfg.engines[1].name) cfg.engines[1].name += "-base";
    cfg.games = int(2 * job.pair_count());
    cfg.concurrency = std::max(1, spec.concurrency_per_worker() > 0
                                      ? std::min(int(spec.concurrency_per_worker()), env.concurrency)
                                      : env.concurrency);
    cfg.pinSlots = env.affinity;
    // The coordinator checked the whole book when the test was submitted; the runner checks the openings
    // this job's pairs play (a job of a few pairs need not read every position of a long book).
    if (!env.openingsPath.empty())
        cfg.openings = match::loadOpenings(env.openingsPath, cfg.game, match::OpeningCheck::Deferred);
    if (board)
        for (auto& opening : cfg.openings) {
            match::parseOpening(opening, cfg.game);
            opening.fen = games::captureGoOpeningText(*board, opening.fen);
        }
    cfg.firstPair = int(job.first_pair());
    cfg.adjudication.resignScore = spec.resign_score();
    cfg.adjudication.resignMoves = spec.resign_moves();
    cfg.adjudication.drawScore = spec.draw_score();
    cfg.adjudication.drawMoves = spec.draw_moves();
    cfg.adjudication.drawAfterMove = spec.draw_move_number();
    cfg.adjudication.maxPlies = 2 * spec.max_moves();
    cfg.adjudication.rules.ruleSet = parseRuleSet(spec.rules()).value_or(RuleSet::ASIAN);
    cfg.adjudication.rules.moveLimitPlies = defaultMoveLimitPlies(cfg.adjudication.rules.ruleSet);
    cfg.event = "xq test";
    cfg.pgnPath = env.pgnPath;
    if (env.clockScale != 1)
        for (auto& e : cfg.engines) e.tc = match::scaleTimeControl(e.tc, env.clockScale);
    return cfg;
}

v1::PairResult toWire(const match::PairResult& pair) {
    v1::PairResult out;
    out.set_pair_index(std::uint64_t(pair.pairIndex));
    out.set_penta_index(std::uint32_t(pair.pentaIndex));
    for (const auto& g : pair.games) {
        double s = g.scoreOf(0);
        if (s > 0.75)
            out.set_wins(out.wins() + 1);
        else if (s > 0.25)
            out.set_draws(out.draws() + 1);
        else
            out.set_losses(out.losses() + 1);
    }
    return out;
}

namespace {

// The state shared by the runner's callback, the reporter and the heartbeat.
class JobSession {
  public:
    JobSession(const v1::Job& job, const JobEnvironment& env) : job_(job), env_(env) {}

    JobOutcome run() {
        match::MatchConfig& cfg = config_;
        try {
            cfg = makeMatchConfig(job_.match(), env_);
        } catch (const std::exception& e) {
            outcome_.error = std::string("cannot configure the match: ") + e.what();
            return outcome_;
        }
        cfg.event = "xq test " + std::to_string(job_.test_id());
        std::thread reporter([this] { reportLoop(); });
        std::thread heartbeat([this] { heartbeatLoop(); });
        try {
            match::MatchRunner runner(cfg);
            runner.run([this](const match::PairResult& p) { onPair(p); }, stopRunner_);
        } catch (const std::exception& e) {
            outcome_.error = std::string("match failed: ") + e.what();
        }
        {
            std::lock_guard lock(mutex_);
            runnerDone_ = true;
        }
        wake_.notify_all();
        reporter.join();
        heartbeatDone_ = true;
        heartbeat.join();
        return outcome_;
    }

  private:
    void onPair(const match::PairResult& p) {
        // The pair's games as PGN, sent with the report that carries its result.
        std::string pgn;
        for (const auto& g : p.games)
            pgn += config_.game == games::Game::CaptureGo
                       ? match::formatSgf(g, config_)
                       : match::formatPgn(g, config_, 2 * g.pairIndex + g.gameInPair + 1);
        std::lock_guard lock(mutex_);
        pending_.push_back(toWire(p));
        pendingPgn_.push_back(std::move(pgn));
        for (const auto& g : p.games) addFailures(pendingFailures_, g);
        ++outcome_.pairsPlayed;
        wake_.notify_all();
    }

    void stop(bool byCoordinator, const std::string& why) {
        if (byCoordinator && !outcome_.stoppedByCoordinator) {
            outcome_.stoppedByCoordinator = true;
            env_.log("lease " + std::to_string(job_.lease_id()) + ": stop: " + why);
        }
        stopRunner_ = true;
    }

    void reportLoop() {
        std::uint64_t sequence = 0;
        std::optional<std::chrono::steady_clock::time_point> giveUpAt;
        while (true) {
            v1::ReportRequest req;
            {
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [&] { return !pending_.empty() || runnerDone_; });
                if (pending_.empty()) return;
                // One batch takes everything finished so far; it keeps its number until acknowledged.
                req.set_worker_id(env_.workerId);
                req.set_lease_id(job_.lease_id());
                req.set_sequence(++sequence);
                std::string pgn;
                while (!pending_.empty() && req.pairs_size() < 256) {
                    *req.add_pairs() = pending_.front();
                    pending_.pop_front();
                    pgn += pendingPgn_.front();
                    pendingPgn_.pop_front();
                }
                *req.mutable_failures() = pendingFailures_;
                pendingFailures_.Clear();
                req.set_pgn_gz(std::move(pgn));  // compressed below, outside the lock
            }
            attachPgn(req);
            Backoff backoff(250, 30'000);
            while (true) {
                auto ctx = env_.client->context(20);
                v1::ReportResponse resp;
                grpc::Status status = env_.client->worker().ReportResults(ctx.get(), req, &resp);
                if (status.ok()) {
                    // One line per acknowledgement: what the coordinator must keep (scripts/soak.sh checks).
                    env_.log("lease " + std::to_string(job_.lease_id()) + ": report " +
                             std::to_string(req.sequence()) + " acknowledged, " +
                             std::to_string(req.pairs_size()) + " pairs" +
                             (resp.duplicate() ? " (a repeat)" : ""));
                    std::lock_guard lock(mutex_);
                    outcome_.pairsAcknowledged += req.pairs_size();
                    if (resp.command() == v1::LEASE_STOP) stop(true, resp.reason());
                    break;
                }
                if (!isTransient(status.error_code())) {
                    env_.log("lease " + std::to_string(job_.lease_id()) + ": report " +
                             std::to_string(req.sequence()) + " refused: " +
                             coord::statusCodeName(int(status.error_code())) + ": " + status.error_message());
                    std::lock_guard lock(mutex_);
                    stop(true, status.error_message());
                    break;
                }
                if (*env_.shutdown && !giveUpAt)
                    giveUpAt =
                        std::chrono::steady_clock::now() + std::chrono::seconds(env_.shutdownGraceSeconds);
                if (giveUpAt && std::chrono::steady_clock::now() > *giveUpAt) {
                    env_.log("giving up on " + std::to_string(req.pairs_size()) +
                             " unacknowledged pairs at shutdown");
                    return;
                }
                std::int64_t delay = backoff.nextMs();
                env_.log("report " + std::to_string(req.sequence()) + " not delivered (" +
                         status.error_message() + "); retrying in " + std::to_string(delay) + " ms");
                std::this_thread::sleep_for(std::chrono::milliseconds(delay));
            }
        }
    }

    // Replaces the plain PGN in pgn_gz by its gzip; a batch whose games exceed the report's limit goes
    // without them (the results matter more), and the log says so.
    void attachPgn(v1::ReportRequest& req) {
        if (req.pgn_gz().empty()) return;
        std::string gz = coord::gzipText(req.pgn_gz());
        if (gz.size() > coord::MaxReportPgnBytes || req.pgn_gz().size() > coord::MaxReportPgnTextBytes) {
            env_.log("lease " + std::to_string(job_.lease_id()) + ": the games of report " +
                     std::to_string(req.sequence()) + " are too large to send (" + std::to_string(gz.size()) +
                     " bytes compressed); sending the results alone");
            gz.clear();
        }
        req.set_pgn_gz(std::move(gz));
    }

    void heartbeatLoop() {
        heartbeatLease(env_, job_.lease_id(), heartbeatDone_, stopRunner_, [this](const std::string& why) {
            std::lock_guard lock(mutex_);
            stop(true, why);
        });
    }

    const v1::Job& job_;
    const JobEnvironment& env_;
    std::mutex mutex_;
    std::condition_variable wake_;
    match::MatchConfig config_;
    std::deque<v1::PairResult> pending_;
    std::deque<std::string> pendingPgn_;  // one entry per pair in pending_
    v1::Failures pendingFailures_;
    bool runnerDone_ = false;
    std::atomic<bool> stopRunner_{false};
    std::atomic<bool> heartbeatDone_{false};
    JobOutcome outcome_;
};

}  // namespace

JobOutcome playJob(const v1::Job& job, const JobEnvironment& env) {
    JobSession session(job, env);
    return session.run();
}

}  // namespace xq::worker
