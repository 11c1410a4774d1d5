#include "scheduler.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "time_control.h"

namespace xq::coord {

std::optional<std::int64_t> pickTest(const std::vector<Candidate>& candidates) {
    const Candidate* best = nullptr;
    auto load = [](const Candidate& c) { return double(c.activeCores) / std::max(c.throughput, 1e-9); };
    for (const auto& c : candidates) {
        if (c.pairsAvailable <= 0) continue;
        if (!best || c.priority > best->priority ||
            (c.priority == best->priority &&
             (load(c) < load(*best) || (load(c) == load(*best) && c.testId < best->testId))))
            best = &c;
    }
    if (!best) return std::nullopt;
    return best->testId;
}

namespace {

// Seconds of thinking per move for one engine, from the settings `xq match` understands (1 s when they
// cannot be read).
double secondsPerMove(const std::string& text, std::int64_t nps, const ChunkPolicy& policy) {
    match::TimeControl tc;
    try {
        tc = match::TimeControl::parse(text);
    } catch (const std::invalid_argument&) {
        return 1.0;
    }
    const double plies = policy.pliesPerGame / 2;  // moves per side
    double perMove = 0;
    if (tc.nodes > 0) perMove = std::max(perMove, double(tc.nodes) / double(nps));
    if (tc.moveTimeMs > 0) perMove = std::max(perMove, tc.moveTimeMs / 1000.0);
    if (tc.depth > 0) perMove = std::max(perMove, 0.05 * tc.depth);
    if (tc.perMoveMs > 0) {
        // Engines are told the limit as an increment and the bank as their clock.
        perMove = std::max(perMove, tc.perMoveMs / 1000.0 + 0.8 * tc.bankMs / 1000.0 / plies);
    } else if (tc.hasClock()) {
        // The first period rules.
        const match::TimePeriod& p = tc.periods[0];
        const double time = p.timeMs / 1000.0, inc = p.incrementMs / 1000.0;
        if (p.moves > 0)
            perMove = std::max(perMove, time / p.moves);
        else  // engines spend most of their clock but rarely all of it
            perMove = std::max(perMove, 0.8 * time / plies + inc);
    }
    return perMove;
}

}  // namespace

double estimateGameSeconds(const std::string& tcBase, const std::string& tcDev, std::int64_t workerNps,
                           const ChunkPolicy& policy) {
    std::int64_t nps = workerNps > 0 ? workerNps : policy.defaultNps;
    double perMove = (secondsPerMove(tcBase, nps, policy) + secondsPerMove(tcDev, nps, policy)) / 2;
    return policy.pliesPerGame * (perMove + policy.overheadSecondsPerMove);
}

std::int64_t chunkPairs(double gameSeconds, std::int64_t concurrency, std::int64_t pairsAvailable,
                        const ChunkPolicy& policy) {
    double pairSeconds = std::max(2 * gameSeconds, 1e-3);
    auto pairs =
        std::int64_t(policy.targetSeconds * double(std::max<std::int64_t>(concurrency, 1)) / pairSeconds);
    pairs = std::clamp<std::int64_t>(pairs, 1, std::max<std::int64_t>(policy.maxPairs, 1));
    return std::min(pairs, pairsAvailable);
}

std::string suspicionReason(const FailureTally& t, const SuspicionLimits& limits) {
    auto over = [&](std::int64_t count, double rate) {
        return count > limits.freeFailures + std::int64_t(std::floor(rate * double(t.games)));
    };
    auto say = [&](std::int64_t count, const char* what) {
        return std::to_string(count) + " " + what + " in " + std::to_string(t.games) + " games";
    };
    if (over(t.crashes + t.stalls, limits.crashRate)) return say(t.crashes + t.stalls, "crashes or stalls");
    if (over(t.illegalMoves, limits.illegalRate)) return say(t.illegalMoves, "illegal moves");
    if (over(t.timeLosses, limits.timeLossRate)) return say(t.timeLosses, "time losses");
    return {};
}

std::string failedLeasesReason(std::int64_t failedInARow, std::int64_t limit, const std::string& lastError) {
    if (limit <= 0 || failedInARow < limit) return {};
    return std::to_string(failedInARow) + " leases in a row failed" +
           (lastError.empty() ? std::string() : "; last: " + lastError.substr(0, 300));
}

bool reportFailed(std::int64_t games, std::int64_t crashes, std::int64_t stalls) {
    return games > 0 && crashes + stalls >= games;
}

}  // namespace xq::coord
