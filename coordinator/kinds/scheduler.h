// Which test a worker plays next and how many pairs it gets: pure functions, no storage, no network.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace xq::coord {

struct Candidate {
    std::int64_t testId = 0;
    int priority = 0;
    double throughput = 1;            // relative share among tests of equal priority
    std::int64_t activeCores = 0;     // concurrency of its active leases
    std::int64_t pairsAvailable = 0;  // pairs neither done nor leased
};

// Highest priority first; among equals, the test furthest below its throughput share (fewest active
// cores per unit of throughput), then the oldest. nullopt when nothing has pairs to hand out.
std::optional<std::int64_t> pickTest(const std::vector<Candidate>& candidates);

struct ChunkPolicy {
    double targetSeconds = 180;   // a lease should take a few minutes of play
    std::int64_t maxPairs = 250;  // however fast the games
    std::int64_t defaultNps = 1'000'000;
    double pliesPerGame = 160;
    double overheadSecondsPerMove = 0.003;  // process round trip, adjudication, bookkeeping
};

// Rough wall time of one game under a time control written as `xq match` reads it; both engines' time
// control strings are given because they may differ. Unknown forms count as 1 s per move.
double estimateGameSeconds(const std::string& tcBase, const std::string& tcDev, std::int64_t workerNps,
                           const ChunkPolicy& policy);

// Pairs for one lease: enough for targetSeconds with `concurrency` games at once, at least 1, at most
// maxPairs and what is available.
std::int64_t chunkPairs(double gameSeconds, std::int64_t concurrency, std::int64_t pairsAvailable,
                        const ChunkPolicy& policy);

// Limits beyond which a worker's failures on a test are not bad luck but a broken machine.
struct SuspicionLimits {
    std::int64_t freeFailures = 3;  // tolerated outright
    double crashRate = 0.05;        // per game, beyond the free ones
    double timeLossRate = 0.10;
    double illegalRate = 0.05;
};

struct FailureTally {
    std::int64_t games = 0, crashes = 0, timeLosses = 0, illegalMoves = 0, stalls = 0;
};

// Empty when within limits, otherwise why the worker is suspended, e.g. "7 crashes in 40 games".
std::string suspicionReason(const FailureTally& t, const SuspicionLimits& limits);

// A test whose engines cannot be played fails, as fishtest's do, instead of handing its work out forever.
// A failed lease is one handed back with an error (an engine that does not start, a download that fails)
// or a report whose every game crashed or stalled (an engine that dies on its first search); a report with
// any other game ends the run of failures. Whichever workers they come from, `limit` failed leases in a
// row (0: no limit) fail the test: this says why, or is empty while the test may go on.
std::string failedLeasesReason(std::int64_t failedInARow, std::int64_t limit, const std::string& lastError);
// Whether a report of `games` games with these failures is a failed lease (every game crashed or stalled).
bool reportFailed(std::int64_t games, std::int64_t crashes, std::int64_t stalls);

}  // namespace xq::coord
