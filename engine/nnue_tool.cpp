#include "nnue_tool.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "nnue_accumulator.h"

namespace xq::nnue {

namespace {

// splitmix64: fixed across compilers and standard libraries, unlike the std distributions.
struct Rng {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    int between(int lo, int hi) { return lo + int(next() % std::uint64_t(hi - lo + 1)); }
};

}  // namespace

Network randomNetwork(int hidden, std::uint64_t seed, const RandomRanges& r) {
    if (hidden <= 0 || hidden % HIDDEN_STEP != 0 || hidden > MAX_HIDDEN)
        throw NetworkError("H must be a positive multiple of " + std::to_string(HIDDEN_STEP) + " up to " +
                           std::to_string(MAX_HIDDEN) + ", got " + std::to_string(hidden));
    Network net = Network::zero(hidden);
    Rng rng{seed};
    for (auto& w : net.w1) w = std::int16_t(rng.between(-r.w1, r.w1));
    for (auto& b : net.b1) b = std::int16_t(rng.between(r.b1Low, r.b1High));
    const std::int64_t w2Limit = ((std::int64_t(1) << 31) - 1) / (std::int64_t(QA) * QA * 2 * hidden);
    const int w2 = int(std::min<std::int64_t>({r.w2, 127, w2Limit}));
    for (auto& w : net.w2) w = std::int16_t(rng.between(-w2, w2));
    net.b2 = rng.between(-r.b2, r.b2);
    net.description = "random network H=" + std::to_string(hidden) + " seed=" + std::to_string(seed);
    checkNetwork(net);
    serializeNetwork(net);  // sets the hash and the name
    return net;
}

std::string networkInfo(const Network& net) {
    std::ostringstream s;
    char hash[19];
    std::snprintf(hash, sizeof hash, "0x%016llx", static_cast<unsigned long long>(net.hash));
    const NetworkBounds b = networkBounds(net);
    Position start;
    s << "name:            " << net.name << "\n"
      << "version:         " << net.version << "\n"
      << "feature set:     " << FEATURE_SET_PS1260 << " (PS-1260)\n"
      << "architecture:    (" << INPUTS << " -> " << net.hidden << ") x 2 -> " << OUTPUT_BUCKETS
      << ", SCReLU\n"
      << "quantisation:    QA " << QA << ", QB " << QB << ", SCALE " << net.scale << "\n"
      << "hash:            " << hash << " (FNV-1a 64 of " << (net.version == 1 ? "the payload" : "the file")
      << ")\n"
      << "size:            " << HEADER_BYTES + payloadBytes(net.hidden) << " bytes\n"
      << "description:     " << net.description << "\n"
      << "accumulator:     " << b.accMin << " .. " << b.accMax << " at worst (int16)\n"
      << "output sum:      " << b.outputWorstCase << " at worst (int32 below 2147483648), max |W2| "
      << b.w2MaxAbs << "\n"
      << "start position:  " << evaluate(net, start) << " cp (Red to move)\n";
    return s.str();
}

std::string evalReport(const Network& net, const Position& pos) {
    const int stm = evaluate(net, pos);
    const int red = pos.sideToMove() == RED ? stm : -stm;
    std::ostringstream s;
    s << "NNUE network: " << net.name << " (H = " << net.hidden << ")\n"
      << "NNUE evaluation: " << stm << " (side to move), " << red << " (Red's view)\n"
      << "Final evaluation: " << red << "\n";
    return s.str();
}

}  // namespace xq::nnue
