// The bytes of a datagen chunk: gzip-compressed `FEN ; result` lines (selfplay/dataset.h), as workers
// upload them and the coordinator stores them. Encoding splits positions so that no chunk outgrows the
// wire limit; decoding checks every line, so a coordinator never stores what the tuner cannot read.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "dataset.h"

namespace xq::coord {

constexpr std::size_t MaxChunkBytes = 1 << 20;       // compressed, per upload
constexpr std::size_t MaxChunkTextBytes = 32 << 20;  // inflated: guards against gzip bombs
constexpr std::uint64_t MaxChunkPositions = 100'000;

struct EncodedChunk {
    std::string data;  // gzip
    std::uint64_t positions = 0;
};

// Gzip in memory. gunzip throws std::invalid_argument when the data is not gzip, is truncated or
// inflates beyond maxBytes; with `members`, several gzip members one after the other are read as one
// text (a file of concatenated members), otherwise bytes after the first member are an error.
std::string gzipText(std::string_view text);
std::string gunzipText(std::string_view data, std::size_t maxBytes, bool members = false);

// One or more chunks holding `positions` in order, each at most maxBytes compressed and
// MaxChunkPositions lines (halving a run of positions until it fits).
std::vector<EncodedChunk> encodeChunks(const std::vector<tuner::LabeledPosition>& positions,
                                       std::size_t maxBytes = MaxChunkBytes);

// The positions of a chunk; throws std::invalid_argument naming the first bad line ("line 7: bad FEN:
// ...") or the compression problem.
std::vector<tuner::LabeledPosition> decodeChunk(std::string_view data);

}  // namespace xq::coord
