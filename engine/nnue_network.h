// The network (NNUE) as the engine holds it, and its file: reading with every check docs/nnue.md asks for,
// writing, naming. docs/nnue.md is the contract with the trainer (features, architecture, quantisation, file
// format); this file and nnue_features.h implement it for the engine.
//
// For the trainer and tools: parseNetwork/loadNetworkFile refuse a malformed file with a NetworkError naming
// what is wrong; serializeNetwork writes the file's bytes (the header's hash computed), networkName names
// them. checkNetwork is the engine's overflow check (the trainer's export must pass it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace xq::nnue {

// The file's constants (docs/nnue.md). Version 2 (written) hashes the whole file but the hash field;
// version 1 (still read: the shipped network is one) hashed the payload only.
inline constexpr char MAGIC[8] = {'X', 'Q', 'N', 'N', 'U', 'E', '\r', '\n'};
constexpr std::uint32_t FILE_VERSION = 2;
constexpr std::uint32_t OLDEST_FILE_VERSION = 1;
constexpr std::uint32_t FEATURE_SET_PS1260 = 1;
constexpr int INPUTS = 1260;  // PS-1260: 2 relative colours x 7 kinds x 90 squares
constexpr int OUTPUT_BUCKETS = 1;
constexpr int HIDDEN_STEP = 16;   // H is a multiple of this ...
constexpr int MAX_HIDDEN = 2048;  // ... and at most this
constexpr int QA = 255;
constexpr int QB = 64;
constexpr int DEFAULT_SCALE = 400;
constexpr int MAX_SCALE = 100000;  // SCALE is 1..MAX_SCALE
constexpr std::size_t DESCRIPTION_BYTES = 64;
constexpr std::size_t HEADER_BYTES = 112;
// The size of the payload (weights and biases) for H hidden units.
constexpr std::size_t payloadBytes(int hidden) {
    return 2 * (std::size_t(INPUTS) * std::size_t(hidden) + std::size_t(hidden) + 2 * std::size_t(hidden)) +
           4;
}

struct NetworkError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// 64-byte aligned storage, so that SIMD loads of whole rows never split a cache line.
template <typename T>
struct AlignedAllocator {
    using value_type = T;
    static constexpr std::align_val_t Alignment{64};
    AlignedAllocator() = default;
    template <typename U>
    AlignedAllocator(const AlignedAllocator<U>&) {}
    T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), Alignment)); }
    void deallocate(T* p, std::size_t) { ::operator delete(p, Alignment); }
    template <typename U>
    bool operator==(const AlignedAllocator<U>&) const {
        return true;
    }
};
template <typename T>
using AlignedVector = std::vector<T, AlignedAllocator<T>>;

// A quantised network `(INPUTS -> H) x 2 -> 1` (docs/nnue.md): integers exactly as in the file.
struct Network {
    int hidden = 0;  // H
    int scale = DEFAULT_SCALE;
    std::string description;         // up to 64 bytes, without the NUL padding
    AlignedVector<std::int16_t> w1;  // [INPUTS][H], feature-major: one row of H per feature
    AlignedVector<std::int16_t> b1;  // [H]
    AlignedVector<std::int16_t> w2;  // [2H]: the side to move's half first
    std::int32_t b2 = 0;
    // Set by parseNetwork and serializeNetwork: the file's version, its FNV-1a 64 (fileHash) and its name.
    std::uint32_t version = FILE_VERSION;
    std::uint64_t hash = 0;
    std::string name;  // "xq-3f2a9c0d11e4.nnue"

    // An all-zero network with H hidden units.
    static Network zero(int hidden);
    const std::int16_t* row(int feature) const {
        return w1.data() + std::size_t(feature) * std::size_t(hidden);
    }
};

std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t h = 0xcbf29ce484222325ULL);
// The hash a file of `version` stores in its header: FNV-1a 64 of the payload (version 1), or of every byte
// but the hash field's 8 (version 2: magic, header fields, description and payload). fileBytes: at least
// the header.
std::uint64_t fileHash(std::string_view fileBytes, std::uint32_t version);
// "xq-" + the first 12 hex digits of the SHA-256 of the whole file + ".nnue".
std::string networkName(std::string_view fileBytes);

// Whether a file's first bytes mark it as a network ("XQNNUE"; the full magic is checked by the reader, so
// that a file mangled by a text-mode transfer is refused as a network with the reason, not read as weights).
bool looksLikeNetwork(std::string_view firstBytes);
bool fileLooksLikeNetwork(const std::string& path);

// The bytes as read: every check of docs/nnue.md plus checkNetwork; throws NetworkError naming the reason.
Network parseNetwork(std::string_view bytes);
// A file's bytes, unchecked; throws NetworkError naming the file if it cannot be read.
std::string readNetworkBytes(const std::string& path);
// parseNetwork of a file's bytes; the error names the file.
Network loadNetworkFile(const std::string& path);
// The file's bytes for net in the current version (hash computed); sets net.version, net.hash and net.name.
std::string serializeNetwork(Network& net);
// Writes the file; returns its name (networkName). Throws NetworkError if it cannot.
std::string saveNetworkFile(const std::string& path, Network& net);
// Writes a network file's bytes as they are (`xq-engine nnue export`: the embedded file, byte for byte);
// throws NetworkError naming the path and the system's reason if it cannot.
void writeNetworkBytes(const std::string& path, std::string_view bytes);

// The integer ranges the inference relies on (docs/nnue.md, Quantisation), from the weights: accumulator
// bounds over any position with at most the starting number of pieces of each kind and colour, and the
// output layer's worst-case int32 sum.
struct NetworkBounds {
    int accMax = 0, accMin = 0;  // extreme accumulator values over the hidden units
    int accMaxUnit = 0, accMinUnit = 0;
    std::int64_t outputWorstCase = 0;  // QA * QA * sum |W2q|
    int w2MaxAbs = 0;
};
NetworkBounds networkBounds(const Network& net);
// Throws NetworkError if the network could overflow int16 or int32 anywhere in the inference.
void checkNetwork(const Network& net);

}  // namespace xq::nnue
