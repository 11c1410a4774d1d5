#include "scheduler.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

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

// Seconds of thinking per move for one engine, from the settings `xq match` understands.
double secondsPerMove(const std::string& tc, std::int64_t nps, const ChunkPolicy& policy) {
    double perMove = 0;
    bool known = false;
    std::string text = tc;
    std::replace(text.begin(), text.end(), ',', ' ');
    std::istringstream in(text);
    std::string item;
    double plies = policy.pliesPerGame / 2;  // moves per side
    while (in >> item) {
        auto eq = item.find('=');
        std::string key = eq == std::string::npos ? "tc" : item.substr(0, eq);
        std::string value = eq == std::string::npos ? item : item.substr(eq + 1);
        if (key == "nodes") {
            perMove = std::max(perMove, std::atof(value.c_str()) / double(nps));
            known = true;
        } else if (key == "st") {
            perMove = std::max(perMove, std::atof(value.c_str()));
            known = true;
        } else if (key == "depth") {
            perMove = std::max(perMove, 0.05 * std::atof(value.c_str()));
            known = true;
        } else if (key == "tc") {
            // moves/time or base+inc, possibly several periods separated by ':'; the first one rules.
            std::string period = value.substr(0, value.find(':'));
            auto slash = period.find('/');
            auto plus = period.find('+');
            if (slash != std::string::npos) {
                double moves = std::max(1.0, std::atof(period.substr(0, slash).c_str()));
                perMove = std::max(perMove, std::atof(period.substr(slash + 1).c_str()) / moves);
            } else {
                double base = std::atof(period.substr(0, plus).c_str());
                double inc = plus == std::string::npos ? 0 : std::atof(period.substr(plus + 1).c_str());
                // Engines spend most of their clock but rarely all of it.
                perMove = std::max(perMove, 0.8 * base / plies + inc);
            }
            known = true;
        }
    }
    return known ? perMove : 1.0;
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

}  // namespace xq::coord
