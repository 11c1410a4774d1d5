// `xq-engine bench`: a fixed set of positions searched to a fixed depth. Its node count is the signature of
// the search and evaluation (quoted as "Bench: N" in commits; checked by workers before a test).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

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

// Searches every bench position to `depth` from a cleared table; progress goes to log (may be null).
BenchResult runBench(int depth, int threads = 1, int hashMegabytes = 16, std::ostream* log = nullptr);

}  // namespace xq
