// Helpers for the network tests: the float reference of docs/nnue.md on the dequantised weights, random
// networks at the edges of the quantisation limits, and board turning.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>

#include "nnue_features.h"
#include "nnue_network.h"
#include "nnue_tool.h"
#include "xiangqi/position.h"

namespace xq::test {

// The network in floating point, as the trainer's model computes it: acc = b1 + sum W1[f], x = concat(acc
// of the side to move, acc of the other), out = sum clamp(x, 0, 1)^2 * W2 + b2, in centipawns (out * SCALE).
inline double referenceEvaluate(const nnue::Network& net, const Position& pos) {
    const int h = net.hidden;
    double out = double(net.b2) / (nnue::QA * nnue::QB);
    const Color stm = pos.sideToMove();
    for (int half = 0; half < 2; ++half) {
        const Color p = half == 0 ? stm : ~stm;
        std::array<int, nnue::MAX_ACTIVE_FEATURES> features{};
        const int n = nnue::activeFeatures(pos, p, features);
        for (int i = 0; i < h; ++i) {
            double acc = double(net.b1[std::size_t(i)]) / nnue::QA;
            for (int k = 0; k < n; ++k) acc += double(net.row(features[std::size_t(k)])[i]) / nnue::QA;
            const double x = std::clamp(acc, 0.0, 1.0);
            out += x * x * double(net.w2[std::size_t(half * h + i)]) / nnue::QB;
        }
    }
    return out * net.scale;
}

// The largest difference docs/nnue.md allows between the integer and the float evaluation: the two
// truncating divisions, below 1 + SCALE / (QA * QB) centipawns, and float rounding.
inline double roundingAllowance(const nnue::Network& net) {
    return 1.0 + double(net.scale) / (nnue::QA * nnue::QB) + 1e-6;
}

// A random network whose weights reach the limits the engine accepts: W2 as large as the int32 output sum
// allows, W1 large enough to push accumulators beyond 0..QA both ways.
inline nnue::Network extremeNetwork(int hidden, std::uint64_t seed) {
    nnue::RandomRanges r;
    r.w1 = 500;
    r.b1Low = -400, r.b1High = 600;
    r.w2 = 127;
    r.b2 = 50 * nnue::QA * nnue::QB;
    return nnue::randomNetwork(hidden, seed, r);
}

// The position with the colours swapped and the board turned by 180 degrees: each side sees what the other
// saw, so a network (whose features are relative to the perspective) must evaluate both the same.
inline std::string rotateColors(const std::string& fen) {
    std::string board = fen.substr(0, fen.find(' ')), rest = fen.substr(fen.find(' ') + 1);
    std::string turned(board.rbegin(), board.rend());
    for (char& c : turned)
        if (std::isalpha(static_cast<unsigned char>(c))) c = char(c ^ 0x20);
    return turned + " " + (rest[0] == 'b' ? "w" : "b") + rest.substr(1);
}

}  // namespace xq::test
