// The trained network in the engine's integer form (docs/nnue.md): quantisation of the float model with the
// contract's overflow checks, the version-1 file (header, FNV-1a 64 of the payload, description), its
// content name, and a small integer inference exactly as the contract states, to measure what the
// quantisation costs.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "nnue_data.h"
#include "nnue_model.h"

namespace xq::tuner::nnue {

constexpr int QA = 255, QB = 64, QSCALE = 400;
constexpr std::size_t HEADER_BYTES = 112;
constexpr std::size_t DESCRIPTION_BYTES = 64;

// A network that must not be written (it could overflow the engine's integers), or a file that is not a
// network; what() names the reason.
struct NetError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct QuantisedNet {
    int hidden = 0;
    std::vector<std::int16_t> w1;  // [INPUTS][hidden]
    std::vector<std::int16_t> b1;  // [hidden]
    std::vector<std::int16_t> w2;  // [2 * hidden]
    std::int32_t b2 = 0;
    std::string description;  // at most 63 bytes
};

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
// The float model of the quantised weights (W1q / QA, ..., b2q / (QA * QB)).
Model dequantise(const QuantisedNet& net);

std::string serializeNet(const QuantisedNet& net);
// Refuses, naming the reason, what the contract says a reader refuses.
QuantisedNet parseNet(std::string_view bytes, const std::string& name = "network");

// "xq-" and the first 12 hex digits of the SHA-256 of the file's bytes, and ".nnue".
std::string netFileName(std::string_view fileBytes);
// Writes the file (temporary file, then rename); `out` a directory: the file is named netFileName there.
// Returns the path written.
std::string writeNetFile(const std::string& out, const QuantisedNet& net);
QuantisedNet readNetFile(const std::string& path);

// The integer inference of the contract: centipawns from the side to move's view.
int evaluateQuantised(const QuantisedNet& net, const PackedPosition& p);

// The mean loss of the integer network's evaluations over data[indices] (cp / K through the sigmoid).
double quantisedLoss(const QuantisedNet& net, const NnueData& data, const std::vector<std::uint32_t>& indices,
                     const LossSpec& loss, int threads);

}  // namespace xq::tuner::nnue
