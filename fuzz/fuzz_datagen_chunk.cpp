// Datagen chunks as the coordinator receives them (coordinator/common/data_chunk.h): the fuzzer's bytes as
// the gzip data itself (first byte even) or as the text inside it (odd). decodeChunk either throws
// std::invalid_argument or returns positions that encode to chunks which decode to the same positions.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "data_chunk.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    if (data[0] & 1) bytes = xq::coord::gzipText(bytes);
    std::vector<xq::tuner::LabeledPosition> positions;
    try {
        positions = xq::coord::decodeChunk(bytes);
    } catch (const std::invalid_argument&) {
        return 0;
    }
    std::vector<xq::tuner::LabeledPosition> again;
    for (const auto& chunk : xq::coord::encodeChunks(positions, 4096)) {
        auto part = xq::coord::decodeChunk(chunk.data);
        if (part.size() != chunk.positions) __builtin_trap();
        again.insert(again.end(), part.begin(), part.end());
    }
    if (again.size() != positions.size()) __builtin_trap();
    for (std::size_t i = 0; i < again.size(); ++i)
        if (again[i].fen != positions[i].fen || again[i].result != positions[i].result ||
            again[i].score != positions[i].score)
            __builtin_trap();
    return 0;
}
