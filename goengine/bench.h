// `xq-go bench`: the engine's functional signature. A fixed set of positions (sizes 6 to 13, both rule
// sets, targets 1 and 3) searched by the alpha-beta engine to a fixed depth from a cleared table, plus
// the solver on two small positions; single-threaded and deterministic, so "Nodes searched: N" changes
// only when the search or the evaluation does.
#pragma once

#include <cstdint>
#include <iosfwd>

namespace xq::go {

constexpr int kBenchDepth = 4;

struct BenchResult {
    std::uint64_t nodes = 0;
    double seconds = 0;
};

// Progress per position goes to log (may be null).
BenchResult runBench(int depth = kBenchDepth, std::ostream* log = nullptr);

}  // namespace xq::go
