// Networks for tests and for checking the pipeline, and reports about a network: `xq-engine nnue random`
// writes a random valid network, `xq-engine nnue info` describes one, and the `eval` command's report when
// the engine evaluates with a network.
#pragma once

#include <cstdint>
#include <string>

#include "nnue_network.h"
#include "xiangqi/position.h"

namespace xq::nnue {

// Ranges of the random integers (inclusive, symmetric unless stated). The defaults give evaluations of a
// few hundred centipawns; any values within the limits of checkNetwork make a valid network.
struct RandomRanges {
    int w1 = 40;
    int b1Low = 0, b1High = 160;
    int w2 = 16;  // lowered as needed to keep QA * QA * sum |W2| below 2^31
    int b2 = QA * QB;
};

// A random network with H hidden units (a multiple of 16 up to 2048), the same for the same seed.
Network randomNetwork(int hidden, std::uint64_t seed, const RandomRanges& ranges = {});

// The header, description, name, checked bounds, and the start position's evaluation.
std::string networkInfo(const Network& net);

// The `eval` command's report with a network: its name and the evaluation from both views, ending in the
// line "Final evaluation: N" (Red's view, as the hand-written report).
std::string evalReport(const Network& net, const Position& pos);

}  // namespace xq::nnue
