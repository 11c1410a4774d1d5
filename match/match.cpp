// Matchmaking: game pairs over the openings, `concurrency` games at once, each slot with its own two
// engine processes that live across games; results gathered into pairs and totals.
#include "match.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "affinity.h"
#include "engine.h"
#include "game.h"
#include "pgn.h"
#include "read_interrupts.h"
#include "sgf_record.h"
#include "text.h"

namespace xq::match {

const char* protocolName(Protocol p) {
    switch (p) {
        case Protocol::Ucci:
            return "ucci";
        case Protocol::Fairy:
            return "fairy";
        case Protocol::Gtp:
            return "gtp";
        case Protocol::Uci:
            break;
    }
    return "uci";
}

std::optional<Protocol> parseProtocol(std::string_view name) {
    if (name == "uci") return Protocol::Uci;
    if (name == "ucci") return Protocol::Ucci;
    if (name == "fairy") return Protocol::Fairy;
    if (name == "gtp") return Protocol::Gtp;
    return std::nullopt;
}

const char* failureName(Failure f) {
    switch (f) {
        case Failure::Crash:
            return "crash";
        case Failure::TimeLoss:
            return "time loss";
        case Failure::IllegalMove:
            return "illegal move";
        case Failure::Stall:
            return "stall";
        case Failure::None:
            break;
    }
    return "none";
}

double GameRecord::scoreOf(int engine) const {
    if (result == GameResult::DRAW) return 0.5;
    if (result == GameResult::NONE) return 0;
    bool redWon = result == GameResult::RED_WINS;
    return redWon == (engine == redEngine) ? 1.0 : 0.0;
}

void MatchTotals::add(const PairResult& pair) {
    for (const GameRecord& g : pair.games) {
        plies += long(g.moves.size());
        double s = g.scoreOf(0);
        wdl[s == 1.0 ? 0 : s == 0.5 ? 1 : 2]++;
        if (g.failedEngine >= 0) {
            EngineFailures& f = failures[g.failedEngine];
            switch (g.failure) {
                case Failure::Crash:
                    ++f.crashes;
                    break;
                case Failure::TimeLoss:
                    ++f.timeLosses;
                    break;
                case Failure::IllegalMove:
                    ++f.illegalMoves;
                    break;
                case Failure::Stall:
                    ++f.stalls;
                    break;
                case Failure::None:
                    break;
            }
        }
    }
    penta[pair.pentaIndex]++;
    ++pairs;
}

MatchRunner::MatchRunner(MatchConfig config) : config_(std::move(config)) {
    for (int e = 0; e < 2; ++e) {
        const EngineConfig& ec = config_.engines[e];
        std::string who = "engine " + std::to_string(e + 1) + (ec.name.empty() ? "" : " ('" + ec.name + "')");
        if (ec.cmd.empty()) throw std::invalid_argument(who + " has no command (cmd=PATH)");
        if (!ec.tc.isLimited())
            throw std::invalid_argument(who + " has no time control: give tc=, st=, nodes= or depth=");
        if (config_.engines[e].name.empty()) config_.engines[e].name = ec.cmd;
    }
    if (config_.games < 2) throw std::invalid_argument("a match needs at least 2 games (one pair)");
    if (config_.concurrency < 1) throw std::invalid_argument("concurrency must be at least 1");
    if (config_.firstPair < 0) throw std::invalid_argument("firstPair must not be negative");
    if (config_.adjudication.resignMoves < 0 || config_.adjudication.drawMoves < 0 ||
        config_.adjudication.maxPlies < 0)
        throw std::invalid_argument("adjudication move counts must not be negative");
    for (int e = 0; e < 2; ++e) {
        config_.engines[e].game = config_.game;
        const std::string who = "engine " + std::to_string(e + 1) + " ('" + config_.engines[e].name + "')";
        const Protocol p = config_.engines[e].protocol;
        if (config_.game == games::Game::Chess && p == Protocol::Ucci)
            throw std::invalid_argument(who +
                                        ": UCCI is a Xiangqi protocol; a chess engine speaks uci or fairy");
        if (config_.game == games::Game::CaptureGo && p != Protocol::Gtp)
            throw std::invalid_argument(who + ": a Capture Go engine speaks GTP: give proto=gtp");
        if (config_.game != games::Game::CaptureGo && p == Protocol::Gtp)
            throw std::invalid_argument(who + ": GTP is a Go protocol; " + games::gameName(config_.game) +
                                        " engines speak uci, ucci or fairy");
    }
    if (config_.openings.empty()) {
        Opening start;
        start.fen = config_.startPosition.empty() ? games::startFen(config_.game) : config_.startPosition;
        config_.openings.push_back(std::move(start));
    }
    if (config_.randomOrder) shuffleOpenings(config_.openings, config_.openingSeed);
    // Catch a bad opening now rather than in the middle of the match, and bring it to its normal form: the
    // ones this match plays. A book read with OpeningCheck::Every was checked whole already, and one read
    // with Deferred is checked here only as far as the match goes: a long book would cost a short match more
    // than its games.
    const std::size_t used = std::min<std::size_t>(config_.openings.size(), std::size_t(config_.games / 2));
    for (std::size_t k = 0; k < used; ++k) {
        const std::size_t i = (std::size_t(config_.firstPair) + k) % config_.openings.size();
        Opening& opening = config_.openings[i];
        try {
            checkOpening(opening, config_.game);
        } catch (const std::exception& e) {
            // Read from a book, its file and line say where; made in code, its position does.
            throw std::invalid_argument((opening.origin.empty()
                                             ? "opening " + std::to_string(i + 1) + " ('" + opening.fen + "')"
                                             : opening.origin) +
                                        ": " + e.what());
        }
    }
    if (config_.pinSlots) {
        int width = 1;
        for (const EngineConfig& ec : config_.engines)
            for (const auto& [name, value] : ec.options)
                if (equalsIgnoringCase(name, "Threads")) width = std::max(width, std::atoi(value.c_str()));
        slotCpus_ = planSlotCpus(std::min(config_.concurrency, 2 * (config_.games / 2)), width, usableCpus());
    }
}

MatchRunner::~MatchRunner() = default;

void MatchRunner::setGameCallback(std::function<void(const GameRecord&)> onGame) {
    onGame_ = std::move(onGame);
}

MatchTotals MatchRunner::run(const std::function<void(const PairResult&)>& onPair,
                             const std::atomic<bool>& stop) {
    const int pairs = config_.games / 2;
    const int totalGames = 2 * pairs;
    const int slots = std::min(config_.concurrency, totalGames);

    std::mutex mutex;  // guards everything below and serialises the callbacks
    MatchTotals totals;
    // Only pairs in flight are held: --games is an upper bound that an SPRT usually stops far below.
    std::map<int, PairResult> pending;
    std::map<int, int> finishedInPair;
    int nextGame = 0;
    int consecutiveStartFailures[2] = {0, 0};
    std::atomic<bool> abort{false};
    std::exception_ptr error;

    StopCheck stopCheck = [&] {
        return stop.load(std::memory_order_relaxed) || abort.load(std::memory_order_relaxed);
    };
    auto fail = [&](std::exception_ptr e) {
        if (!error) error = e;
        abort = true;
    };

    // Engine processes per slot, kept across games. Slot 0's engines start before any game, so an
    // engine that cannot run at all is an error here rather than a string of lost games.
    std::vector<std::unique_ptr<EngineClient>> clients;
    for (int i = 0; i < 2 * slots; ++i) {
        EngineConfig engine = config_.engines[i % 2];
        if (config_.game == games::Game::Xiangqi)
            engine.repetitionRule =
                config_.adjudication.rules.ruleSet == xq::RuleSet::CHINESE ? "Chinese" : "Asian";
        clients.push_back(std::make_unique<EngineClient>(std::move(engine), config_.startupTimeoutMs,
                                                         config_.stallTimeoutMs));
        if (!slotCpus_.empty()) clients.back()->pinTo(slotCpus_[std::size_t(i / 2)]);
    }
    for (int e = 0; e < 2 && !stopCheck(); ++e) clients[std::size_t(e)]->start(stopCheck);

    auto worker = [&](int slot) {
        if (!slotCpus_.empty()) pinCurrentThread(slotCpus_[std::size_t(slot)]);
        // Without clocks a game's thread need not preempt its engines, and its waits may end a little
        // late: it waits in blocking reads (read_interrupts.h).
        auto timed = [](const TimeControl& tc) { return tc.hasClock() || tc.moveTimeMs > 0; };
        const bool untimed = !timed(config_.engines[0].tc) && !timed(config_.engines[1].tc);
        if (untimed) preferNotToPreempt();
        std::optional<ScopedReadInterrupts> interrupts;
        if (untimed) interrupts.emplace();
        EngineClient* engines[2] = {clients[std::size_t(2 * slot)].get(),
                                    clients[std::size_t(2 * slot + 1)].get()};
        while (!stopCheck()) {
            int game;
            {
                std::lock_guard lock(mutex);
                if (nextGame >= totalGames) break;
                game = nextGame++;
            }
            GameSetup setup;
            setup.game = config_.game;
            setup.pairIndex = config_.firstPair + game / 2;
            setup.gameInPair = game % 2;
            setup.redEngine = game % 2;  // engines[0] is red in the first game of a pair
            setup.opening = &config_.openings[std::size_t(setup.pairIndex) % config_.openings.size()];
            setup.adjudication = &config_.adjudication;
            bool startFailed[2] = {false, false};
            GameRecord record;
            try {
                record = playGame(engines, setup, stopCheck, startFailed);
            } catch (...) {
                std::lock_guard lock(mutex);
                fail(std::current_exception());
                break;
            }
            if (record.end == GameEnd::Abandoned) break;

            std::lock_guard lock(mutex);
            for (int e = 0; e < 2; ++e) {
                consecutiveStartFailures[e] = startFailed[e] ? consecutiveStartFailures[e] + 1 : 0;
                // An engine that never starts would lose every game in a blink; that is a broken
                // setup, not a result.
                if (consecutiveStartFailures[e] >= 3)
                    fail(std::make_exception_ptr(
                        std::runtime_error("engine '" + config_.engines[e].name +
                                           "' failed to start 3 times in a row: " + record.reason)));
            }
            if (abort) break;
            try {
                if (!config_.pgnPath.empty())
                    appendPgn(config_.pgnPath,
                              config_.game == games::Game::CaptureGo
                                  ? formatSgf(record, config_)
                                  : formatPgn(record, config_, 2 * record.pairIndex + record.gameInPair + 1));
                if (onGame_) onGame_(record);
                int local = game / 2;
                pending[local].games[record.gameInPair] = std::move(record);
                if (++finishedInPair[local] == 2) {
                    PairResult& pair = pending[local];
                    pair.pairIndex = config_.firstPair + local;
                    double points = pair.games[0].scoreOf(0) + pair.games[1].scoreOf(0);
                    pair.pentaIndex = int(std::lround(points * 2));
                    totals.add(pair);
                    if (onPair) onPair(pair);
                    pending.erase(local);
                    finishedInPair.erase(local);
                }
            } catch (...) {
                fail(std::current_exception());
                break;
            }
        }
    };

    std::vector<std::thread> threads;
    for (int i = 0; i < slots; ++i) threads.emplace_back(worker, i);
    for (std::thread& t : threads) t.join();
    if (error) std::rethrow_exception(error);
    return totals;
}

}  // namespace xq::match
