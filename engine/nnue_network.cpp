#include "nnue_network.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "nnue_features.h"
#include "util/sha256.h"

namespace xq::nnue {

namespace {

static_assert(std::endian::native == std::endian::little,
              "the network file is little-endian, as is this host");
static_assert(HEADER_BYTES == 8 + 4 * 8 + 8 + DESCRIPTION_BYTES, "the header of docs/nnue.md");

[[noreturn]] void fail(const std::string& what) {
    throw NetworkError(what);
}

std::string hex64(std::uint64_t v) {
    char buf[19];
    std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
    return buf;
}

template <typename T>
T readAt(std::string_view bytes, std::size_t offset) {
    T v;
    std::memcpy(&v, bytes.data() + offset, sizeof v);
    return v;
}

template <typename T>
void append(std::string& out, T v) {
    char buf[sizeof v];
    std::memcpy(buf, &v, sizeof v);
    out.append(buf, sizeof v);
}

template <typename T>
void appendArray(std::string& out, const AlignedVector<T>& v) {
    out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

template <typename T>
std::size_t readArray(std::string_view bytes, std::size_t offset, AlignedVector<T>& v) {
    std::memcpy(v.data(), bytes.data() + offset, v.size() * sizeof(T));
    return offset + v.size() * sizeof(T);
}

// Byte offsets of the header's fields.
enum : std::size_t {
    OFF_VERSION = 8,
    OFF_FEATURE_SET = 12,
    OFF_INPUTS = 16,
    OFF_HIDDEN = 20,
    OFF_BUCKETS = 24,
    OFF_QA = 28,
    OFF_QB = 32,
    OFF_SCALE = 36,
    OFF_HASH = 40,
    OFF_DESCRIPTION = 48,
};

}  // namespace

Network Network::zero(int hidden) {
    Network net;
    net.hidden = hidden;
    net.w1.assign(std::size_t(INPUTS) * std::size_t(hidden), 0);
    net.b1.assign(std::size_t(hidden), 0);
    net.w2.assign(2 * std::size_t(hidden), 0);
    return net;
}

std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t h) {
    for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ULL;
    return h;
}

std::uint64_t fileHash(std::string_view fileBytes, std::uint32_t version) {
    if (version == 1) return fnv1a64(fileBytes.substr(HEADER_BYTES));
    return fnv1a64(fileBytes.substr(OFF_HASH + 8), fnv1a64(fileBytes.substr(0, OFF_HASH)));
}

std::string networkName(std::string_view fileBytes) {
    return "xq-" + sha256Hex(fileBytes).substr(0, 12) + ".nnue";
}

bool looksLikeNetwork(std::string_view firstBytes) {
    return firstBytes.substr(0, 6) == std::string_view(MAGIC, 6);
}

bool fileLooksLikeNetwork(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char buf[6] = {};
    in.read(buf, sizeof buf);
    return in.gcount() == sizeof buf && looksLikeNetwork(std::string_view(buf, sizeof buf));
}

Network parseNetwork(std::string_view bytes) {
    if (bytes.size() < HEADER_BYTES)
        fail("file too short: " + std::to_string(bytes.size()) + " bytes, less than the " +
             std::to_string(HEADER_BYTES) + "-byte header");
    if (std::memcmp(bytes.data(), MAGIC, sizeof MAGIC) != 0)
        fail(looksLikeNetwork(bytes)
                 ? "wrong magic: 'XQNNUE' is not followed by \\r\\n (was the file changed by a "
                   "text-mode transfer?)"
                 : "wrong magic: not an XQNNUE network file");
    const auto version = readAt<std::uint32_t>(bytes, OFF_VERSION);
    if (version < OLDEST_FILE_VERSION || version > FILE_VERSION)
        fail("unsupported version " + std::to_string(version) + " (this engine reads versions " +
             std::to_string(OLDEST_FILE_VERSION) + " to " + std::to_string(FILE_VERSION) + ")");
    const auto featureSet = readAt<std::uint32_t>(bytes, OFF_FEATURE_SET);
    if (featureSet != FEATURE_SET_PS1260)
        fail("unsupported feature set id " + std::to_string(featureSet) + " (this engine has " +
             std::to_string(FEATURE_SET_PS1260) + ", PS-1260)");
    const auto inputs = readAt<std::uint32_t>(bytes, OFF_INPUTS);
    if (inputs != std::uint32_t(INPUTS))
        fail("wrong input count " + std::to_string(inputs) + " (feature set PS-1260 has " +
             std::to_string(INPUTS) + ")");
    const auto hidden = readAt<std::uint32_t>(bytes, OFF_HIDDEN);
    if (hidden == 0 || hidden % HIDDEN_STEP != 0 || hidden > std::uint32_t(MAX_HIDDEN))
        fail("hidden size H = " + std::to_string(hidden) + " is not a positive multiple of " +
             std::to_string(HIDDEN_STEP) + " up to " + std::to_string(MAX_HIDDEN));
    const auto buckets = readAt<std::uint32_t>(bytes, OFF_BUCKETS);
    if (buckets != std::uint32_t(OUTPUT_BUCKETS))
        fail("wrong output bucket count " + std::to_string(buckets) + " (version 1 has " +
             std::to_string(OUTPUT_BUCKETS) + ")");
    const std::size_t expected = HEADER_BYTES + payloadBytes(int(hidden));
    if (bytes.size() < expected)
        fail("file truncated: " + std::to_string(bytes.size()) + " bytes, expected " +
             std::to_string(expected) + " for H = " + std::to_string(hidden));
    if (bytes.size() > expected)
        fail("file too long: " + std::to_string(bytes.size()) + " bytes, expected " +
             std::to_string(expected) + " for H = " + std::to_string(hidden) + " (" +
             std::to_string(bytes.size() - expected) + " bytes after the payload)");
    // The hash before the values it covers (version 2: the header's too), so that a changed byte is named
    // as what it is, a damaged file.
    const auto hash = readAt<std::uint64_t>(bytes, OFF_HASH);
    const std::uint64_t actual = fileHash(bytes, version);
    if (hash != actual)
        fail(std::string(version == 1 ? "payload hash mismatch: the header says "
                                      : "hash mismatch: the header says ") +
             hex64(hash) + ", the " + (version == 1 ? "payload hashes" : "file hashes") + " to " +
             hex64(actual) + " (corrupt file)");
    const auto qa = readAt<std::int32_t>(bytes, OFF_QA), qb = readAt<std::int32_t>(bytes, OFF_QB);
    if (qa != QA || qb != QB)
        fail("unsupported quantisation QA = " + std::to_string(qa) + ", QB = " + std::to_string(qb) +
             " (this engine computes with QA = " + std::to_string(QA) + ", QB = " + std::to_string(QB) + ")");
    const auto scale = readAt<std::int32_t>(bytes, OFF_SCALE);
    if (scale <= 0 || scale > MAX_SCALE)
        fail("SCALE = " + std::to_string(scale) + " is not in 1.." + std::to_string(MAX_SCALE));

    Network net = Network::zero(int(hidden));
    net.scale = scale;
    std::string_view desc = bytes.substr(OFF_DESCRIPTION, DESCRIPTION_BYTES);
    net.description = std::string(desc.substr(0, desc.find('\0')));
    std::size_t at = readArray(bytes, HEADER_BYTES, net.w1);
    at = readArray(bytes, at, net.b1);
    at = readArray(bytes, at, net.w2);
    net.b2 = readAt<std::int32_t>(bytes, at);
    net.version = version;
    net.hash = hash;
    net.name = networkName(bytes);
    checkNetwork(net);
    return net;
}

std::string readNetworkBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw NetworkError("cannot open network file '" + path + "'");
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw NetworkError("cannot read network file '" + path + "'");
    return bytes;
}

Network loadNetworkFile(const std::string& path) {
    const std::string bytes = readNetworkBytes(path);
    try {
        return parseNetwork(bytes);
    } catch (const NetworkError& e) {
        throw NetworkError("network file '" + path + "': " + e.what());
    }
}

std::string serializeNetwork(Network& net) {
    if (net.hidden <= 0 || net.hidden % HIDDEN_STEP != 0 || net.hidden > MAX_HIDDEN)
        fail("cannot write a network with H = " + std::to_string(net.hidden));
    if (net.w1.size() != std::size_t(INPUTS) * std::size_t(net.hidden) ||
        net.b1.size() != std::size_t(net.hidden) || net.w2.size() != 2 * std::size_t(net.hidden))
        fail("cannot write a network whose arrays do not match H = " + std::to_string(net.hidden));
    if (net.description.size() > DESCRIPTION_BYTES)
        fail("description longer than " + std::to_string(DESCRIPTION_BYTES) + " bytes");
    std::string payload;
    payload.reserve(payloadBytes(net.hidden));
    appendArray(payload, net.w1);
    appendArray(payload, net.b1);
    appendArray(payload, net.w2);
    append(payload, net.b2);

    std::string out(MAGIC, sizeof MAGIC);
    append(out, FILE_VERSION);
    append(out, FEATURE_SET_PS1260);
    append(out, std::uint32_t(INPUTS));
    append(out, std::uint32_t(net.hidden));
    append(out, std::uint32_t(OUTPUT_BUCKETS));
    append(out, std::int32_t(QA));
    append(out, std::int32_t(QB));
    append(out, std::int32_t(net.scale));
    append(out, std::uint64_t(0));  // the hash, below
    std::string desc = net.description;
    desc.resize(DESCRIPTION_BYTES, '\0');
    out += desc;
    out += payload;
    net.version = FILE_VERSION;
    net.hash = fileHash(out, FILE_VERSION);
    std::memcpy(out.data() + OFF_HASH, &net.hash, sizeof net.hash);
    net.name = networkName(out);
    return out;
}

void writeNetworkBytes(const std::string& path, std::string_view bytes) {
    errno = 0;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    const auto reason = [] { return errno ? std::string(": ") + std::strerror(errno) : std::string(); };
    if (!out) throw NetworkError("cannot write network file '" + path + "'" + reason());
    out.write(bytes.data(), std::streamsize(bytes.size()));
    if (!out.flush()) throw NetworkError("error writing network file '" + path + "'" + reason());
}

std::string saveNetworkFile(const std::string& path, Network& net) {
    writeNetworkBytes(path, serializeNetwork(net));
    return net.name;
}

NetworkBounds networkBounds(const Network& net) {
    NetworkBounds b;
    const int h = net.hidden;
    b.accMax = b.accMin = h ? net.b1[0] : 0;
    std::int64_t w2Sum = 0;
    for (std::int16_t w : net.w2) {
        w2Sum += std::abs(int(w));
        b.w2MaxAbs = std::max(b.w2MaxAbs, std::abs(int(w)));
    }
    b.outputWorstCase = std::int64_t(QA) * QA * w2Sum;
    // Per hidden unit: the bias plus, for each of the 14 (relative colour, kind) groups, the largest (or most
    // negative) weights of as many squares as that group can have pieces. Square clashes between groups are
    // ignored, so this bounds every reachable position from outside.
    std::vector<int> column(SQUARE_NB);
    for (int i = 0; i < h; ++i) {
        std::int64_t hi = net.b1[std::size_t(i)], lo = net.b1[std::size_t(i)];
        for (int group = 0; group < 2 * KINDS; ++group) {
            const int count = MaxPiecesOfKind[group % KINDS];
            for (int s = 0; s < SQUARE_NB; ++s) column[std::size_t(s)] = net.row(group * SQUARE_NB + s)[i];
            std::partial_sort(column.begin(), column.begin() + count, column.end(), std::greater<int>());
            for (int k = 0; k < count; ++k) hi += std::max(column[std::size_t(k)], 0);
            std::partial_sort(column.begin(), column.begin() + count, column.end());
            for (int k = 0; k < count; ++k) lo += std::min(column[std::size_t(k)], 0);
        }
        if (i == 0 || hi > b.accMax) b.accMax = int(std::min<std::int64_t>(hi, 1 << 30)), b.accMaxUnit = i;
        if (i == 0 || lo < b.accMin) b.accMin = int(std::max<std::int64_t>(lo, -(1 << 30))), b.accMinUnit = i;
    }
    return b;
}

void checkNetwork(const Network& net) {
    for (std::size_t i = 0; i < net.w2.size(); ++i)
        if (std::abs(int(net.w2[i])) > 127)
            fail("output weight W2[" + std::to_string(i) + "] = " + std::to_string(net.w2[i]) +
                 " is outside -127..127 (the int16 product with an activation could overflow)");
    const NetworkBounds b = networkBounds(net);
    if (b.outputWorstCase >= (std::int64_t(1) << 31))
        fail("output weights too large: QA * QA * sum |W2| = " + std::to_string(b.outputWorstCase) +
             " is not below 2^31 (the int32 output sum could overflow)");
    if (b.accMax > 32767)
        fail("feature weights too large: hidden unit " + std::to_string(b.accMaxUnit) + " can reach " +
             std::to_string(b.accMax) + " (bias plus the largest weights of each piece kind), over int16");
    if (b.accMin < -32768)
        fail("feature weights too large: hidden unit " + std::to_string(b.accMinUnit) + " can reach " +
             std::to_string(b.accMin) +
             " (bias plus the most negative weights of each piece kind), under int16");
}

}  // namespace xq::nnue
