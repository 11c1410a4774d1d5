#include "nnue_file.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>

#include "nnue_network.h"
#include "training_set.h"

namespace xq::tuner::nnue {

static_assert(std::endian::native == std::endian::little, "the file is written as a little-endian image");

namespace {

constexpr char MAGIC[8] = {'X', 'Q', 'N', 'N', 'U', 'E', '\r', '\n'};
constexpr std::uint32_t VERSION = 1, FEATURE_SET = 1, BUCKETS = 1;

std::size_t payloadBytes(int hidden) {
    const auto h = std::size_t(hidden);
    return 2 * std::size_t(INPUTS) * h + 2 * h + 2 * 2 * h + 4;
}

template <typename T>
void put(std::string& out, T v) {
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    out.append(b, sizeof(T));
}

template <typename T>
T get(std::string_view in, std::size_t at) {
    T v;
    std::memcpy(&v, in.data() + at, sizeof(T));
    return v;
}

template <typename T>
void putArray(std::string& out, const std::vector<T>& v) {
    out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

template <typename T>
std::size_t getArray(std::string_view in, std::size_t at, std::vector<T>& v, std::size_t n) {
    v.resize(n);
    std::memcpy(v.data(), in.data() + at, n * sizeof(T));
    return at + n * sizeof(T);
}

std::int16_t toInt16(double v, const char* what) {
    const double r = std::round(v);
    if (r < INT16_MIN || r > INT16_MAX) throw NetError(std::string(what) + " does not fit int16");
    return std::int16_t(r);
}

}  // namespace

NetBounds netBounds(const QuantisedNet& net) {
    NetBounds b;
    const auto h = std::size_t(net.hidden);
    std::vector<std::int64_t> column(INPUTS);
    for (std::size_t j = 0; j < h; ++j) {
        for (std::size_t f = 0; f < std::size_t(INPUTS); ++f) column[f] = net.w1[f * h + j];
        // The most and the least any 32 features can add: the 32 largest positive and negative entries.
        std::sort(column.begin(), column.end());
        std::int64_t low = net.b1[j], high = net.b1[j];
        for (int i = 0; i < MAX_ACTIVE; ++i) {
            low += std::min<std::int64_t>(0, column[std::size_t(i)]);
            high += std::max<std::int64_t>(0, column[std::size_t(INPUTS - 1 - i)]);
        }
        b.accumulator = std::max({b.accumulator, std::abs(low), std::abs(high)});
    }
    std::int64_t w2 = 0;
    for (std::int16_t w : net.w2) w2 += std::abs(std::int64_t(w));
    b.outputSum = std::int64_t(QA) * QA * w2;
    return b;
}

void checkNetBounds(const QuantisedNet& net) {
    const NetBounds b = netBounds(net);
    if (b.accumulator > INT16_MAX)
        throw NetError("an accumulator could reach " + std::to_string(b.accumulator) +
                       " over 32 features, beyond int16 (clip W1 and b1)");
    if (b.outputSum >= (std::int64_t(1) << 31))
        throw NetError("QA * QA * sum |W2q| = " + std::to_string(b.outputSum) +
                       " is not below 2^31: the engine's int32 output sum could overflow");
    for (std::int16_t w : net.w2)
        if (std::abs(int(w)) > 127) throw NetError("a W2q beyond +-127: a_i * W2q_i would not fit int16");
}

QuantisedNet quantise(const Model& m, const std::string& description) {
    QuantisedNet q;
    q.hidden = m.hidden;
    q.description = description.substr(0, DESCRIPTION_BYTES - 1);
    q.w1.resize(m.w1.size());
    for (std::size_t i = 0; i < m.w1.size(); ++i) q.w1[i] = toInt16(double(m.w1[i]) * QA, "a W1 weight");
    q.b1.resize(m.b1.size());
    for (std::size_t i = 0; i < m.b1.size(); ++i) q.b1[i] = toInt16(double(m.b1[i]) * QA, "a b1 bias");
    q.w2.resize(m.w2.size());
    for (std::size_t i = 0; i < m.w2.size(); ++i) q.w2[i] = toInt16(double(m.w2[i]) * QB, "a W2 weight");
    const double b2 = std::round(double(m.b2) * QA * QB);
    if (std::abs(b2) > double(std::numeric_limits<std::int32_t>::max()) / QSCALE)
        throw NetError("b2 is too large for the file's int32");
    q.b2 = std::int32_t(b2);
    checkNetBounds(q);
    return q;
}

Model dequantise(const QuantisedNet& q) {
    Model m;
    m.hidden = q.hidden;
    m.w1.resize(q.w1.size());
    for (std::size_t i = 0; i < q.w1.size(); ++i) m.w1[i] = float(q.w1[i]) / QA;
    m.b1.resize(q.b1.size());
    for (std::size_t i = 0; i < q.b1.size(); ++i) m.b1[i] = float(q.b1[i]) / QA;
    m.w2.resize(q.w2.size());
    for (std::size_t i = 0; i < q.w2.size(); ++i) m.w2[i] = float(q.w2[i]) / QB;
    m.b2 = float(double(q.b2) / (QA * QB));
    return m;
}

std::string serializeNet(const QuantisedNet& net) {
    std::string payload;
    payload.reserve(payloadBytes(net.hidden));
    putArray(payload, net.w1);
    putArray(payload, net.b1);
    putArray(payload, net.w2);
    put(payload, net.b2);
    std::string out(MAGIC, sizeof MAGIC);
    for (std::uint32_t v : {VERSION, FEATURE_SET, std::uint32_t(INPUTS), std::uint32_t(net.hidden), BUCKETS})
        put(out, v);
    for (std::int32_t v : {QA, QB, QSCALE}) put(out, v);
    put(out, fnv1a64(payload));
    std::string description = net.description.substr(0, DESCRIPTION_BYTES - 1);
    description.resize(DESCRIPTION_BYTES, '\0');
    out += description;
    return out + payload;
}

QuantisedNet parseNet(std::string_view bytes, const std::string& name) {
    auto fail = [&](const std::string& why) -> NetError { return NetError(name + ": " + why); };
    if (bytes.size() < HEADER_BYTES) throw fail("too short for the header");
    if (std::memcmp(bytes.data(), MAGIC, sizeof MAGIC) != 0) throw fail("wrong magic (not an XQNNUE file)");
    if (auto v = get<std::uint32_t>(bytes, 8); v != VERSION) throw fail("version " + std::to_string(v));
    if (auto v = get<std::uint32_t>(bytes, 12); v != FEATURE_SET)
        throw fail("feature set " + std::to_string(v));
    if (auto v = get<std::uint32_t>(bytes, 16); v != std::uint32_t(INPUTS))
        throw fail("inputs " + std::to_string(v));
    const auto hidden = get<std::uint32_t>(bytes, 20);
    if (hidden == 0 || hidden % 16 || hidden > 2048) throw fail("hidden size " + std::to_string(hidden));
    if (auto v = get<std::uint32_t>(bytes, 24); v != BUCKETS)
        throw fail("output buckets " + std::to_string(v));
    if (get<std::int32_t>(bytes, 28) != QA || get<std::int32_t>(bytes, 32) != QB ||
        get<std::int32_t>(bytes, 36) != QSCALE)
        throw fail("quantisation constants other than QA 255, QB 64, SCALE 400");
    const std::size_t expected = HEADER_BYTES + payloadBytes(int(hidden));
    if (bytes.size() != expected)
        throw fail(std::string(bytes.size() < expected ? "short" : "long") +
                   " file: " + std::to_string(bytes.size()) + " bytes, expected " + std::to_string(expected));
    const std::string_view payload = bytes.substr(HEADER_BYTES);
    if (fnv1a64(payload) != get<std::uint64_t>(bytes, 40)) throw fail("the payload hash does not match");
    QuantisedNet q;
    q.hidden = int(hidden);
    const std::string_view description = bytes.substr(48, DESCRIPTION_BYTES);
    q.description.assign(description.substr(0, description.find('\0')));
    std::size_t at = HEADER_BYTES;
    at = getArray(bytes, at, q.w1, std::size_t(INPUTS) * hidden);
    at = getArray(bytes, at, q.b1, hidden);
    at = getArray(bytes, at, q.w2, 2 * std::size_t(hidden));
    q.b2 = get<std::int32_t>(bytes, at);
    return q;
}

std::string netFileName(std::string_view fileBytes) {
    return xq::nnue::networkName(fileBytes);  // the engine's: both sides name a file the same way
}

std::string writeNetFile(const std::string& out, const QuantisedNet& net) {
    checkNetBounds(net);
    const std::string bytes = serializeNet(net);
    std::error_code ec;
    const std::string path = std::filesystem::is_directory(out, ec)
                                 ? (std::filesystem::path(out) / netFileName(bytes)).string()
                                 : out;
    const std::string tmp = path + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f.write(bytes.data(), std::streamsize(bytes.size()));
        if (!f.flush()) throw NetError(tmp + ": cannot write");
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) throw NetError(path + ": cannot rename " + tmp);
    return path;
}

QuantisedNet readNetFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw NetError(path + ": cannot open");
    std::ostringstream ss;
    ss << in.rdbuf();
    return parseNet(ss.str(), path);
}

int evaluateQuantised(const QuantisedNet& net, const PackedPosition& p) {
    const auto h = std::size_t(net.hidden);
    std::array<std::uint16_t, MAX_ACTIVE> stm{}, other{};
    const int n = perspectiveFeatures(p, stm.data(), other.data());
    std::array<std::int32_t, 2 * 2048> acc;  // the side to move's accumulator, then the other's
    for (int side = 0; side < 2; ++side) {
        std::int32_t* a = &acc[std::size_t(side) * h];
        std::copy(net.b1.begin(), net.b1.end(), a);
        const std::uint16_t* features = side == 0 ? stm.data() : other.data();
        for (int i = 0; i < n; ++i) {
            const std::int16_t* row = &net.w1[std::size_t(features[i]) * h];
            for (std::size_t j = 0; j < h; ++j) a[j] += row[j];
        }
    }
    std::int32_t sum = 0;
    for (std::size_t i = 0; i < 2 * h; ++i) {
        const std::int32_t a = std::clamp<std::int32_t>(acc[i], 0, QA);
        const auto product = std::int16_t(a * net.w2[i]);  // |a * W2q| <= 255 * 127 fits int16
        sum += std::int32_t(product) * a;
    }
    return int((std::int64_t(sum / QA) + net.b2) * QSCALE / (QA * QB));
}

double quantisedLoss(const QuantisedNet& net, const NnueData& data, const std::vector<std::uint32_t>& indices,
                     const LossSpec& loss, int threads) {
    const auto n = std::int64_t(indices.size());
    if (n == 0) return 0;
    threads = std::max(1, std::min<int>(resolveThreads(threads), int((n + 255) / 256)));
    std::vector<double> sums(std::size_t(threads), 0.0);
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int t = 0; t < threads; ++t) {
        double sum = 0;
        for (std::int64_t i = n * t / threads; i < n * (t + 1) / threads; ++i) {
            const PackedPosition& p = data.positions[indices[std::size_t(i)]];
            const double d =
                sigmoid(evaluateQuantised(net, p) / loss.wdlK) - trainingTarget(p, loss.lambda, loss.wdlK);
            sum += d * d;
        }
        sums[std::size_t(t)] = sum;
    }
    double total = 0;
    for (double v : sums) total += v;
    return total / double(n);
}

}  // namespace xq::tuner::nnue
