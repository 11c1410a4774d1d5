// The trained network in the engine's integer form (docs/nnue.md): quantisation of the float model with the
// trainer's (stricter) overflow checks, and a small integer inference exactly as the contract states, to
// measure what the quantisation costs. The file itself is the engine's: its one reader and writer
// (engine/nnue_network.h) read, write and name it here too.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "nnue_data.h"
#include "nnue_model.h"
#include "nnue_network.h"

namespace xq::tuner::nnue {

// The network as the file holds it, and the reader's error (what() names the reason): the engine's.
using QuantisedNet = ::xq::nnue::Network;
using NetError = ::xq::nnue::NetworkError;
using ::xq::nnue::HEADER_BYTES;
using ::xq::nnue::QA;
using ::xq::nnue::QB;

// The largest |accumulator| any 32 features can reach (b1q plus the 32 largest |W1q| of each hidden unit)
// and the bound QA * QA * sum |W2q| of the output sum; the contract wants the first <= 32767 and the
// second < 2^31.
struct NetBounds {
    std::int64_t accumulator = 0;
    std::int64_t outputSum = 0;
};
NetBounds netBounds(const QuantisedNet& net);
// Throws NetError naming the bound a network exceeds.
void checkNetBounds(const QuantisedNet& net);

// round(W1 * QA), round(b1 * QA), round(W2 * QB), round(b2 * QA * QB); checks the bounds.
QuantisedNet quantise(const Model& model, const std::string& description);
// The float model of the quantised weights (W1q / QA, b1q / QA, W2q / QB, b2q / (QA * QB), the last two
// times the file's SCALE / the model's SCALE).
Model dequantise(const QuantisedNet& net);

// "xq-" and the first 12 hex digits of the SHA-256 of the file's bytes, and ".nnue".
std::string netFileName(std::string_view fileBytes);
// Checks the bounds and writes the file (temporary file, then rename); `out` a directory: the file is named
// netFileName there. Returns the path written.
std::string writeNetFile(const std::string& out, const QuantisedNet& net);
// The engine's loadNetworkFile: every check of the contract, NetError naming the file and the reason.
QuantisedNet readNetFile(const std::string& path);

// The integer inference of the contract: centipawns from the side to move's view.
int evaluateQuantised(const QuantisedNet& net, const PackedPosition& p);

// The mean loss of the integer network's evaluations over data[indices] (cp / K through the sigmoid).
double quantisedLoss(const QuantisedNet& net, const NnueData& data, const std::vector<std::uint32_t>& indices,
                     const LossSpec& loss, int threads);

}  // namespace xq::tuner::nnue
