// `xq-engine bench`: a fixed set of positions searched to a fixed depth. Its node count is the signature of
// the search and evaluation (quoted as "Bench: N" in commits; checked by workers before a test).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "nnue_default.h"

namespace xq {

constexpr int BENCH_DEFAULT_DEPTH = 10;

// FENs: openings, middlegames and endgames.
const std::vector<std::string>& benchPositions();

struct BenchResult {
    std::uint64_t nodes = 0;
    std::int64_t milliseconds = 0;
    std::uint64_t nodesPerSecond() const {
        return milliseconds > 0 ? nodes * 1000 / std::uint64_t(milliseconds) : nodes * 1000;
    }
};

// Searches every bench position to `depth` from a cleared table; progress goes to log (may be null). The
// search evaluates with network, or with the hand-written evaluation when it is null; the default is the
// engine's default evaluation (the embedded network if the build has one).
BenchResult runBench(int depth, int threads = 1, int hashMegabytes = 16, std::ostream* log = nullptr,
                     std::shared_ptr<const nnue::Network> network = nnue::defaultNetwork());

}  // namespace xq
