#include "nnue_file.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>

#include "nnue_network.h"
#include "training_set.h"

namespace xq::tuner::nnue {

namespace {

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
    b.outputSum = ::xq::nnue::networkBounds(net).outputWorstCase;
    return b;
}

void checkNetBounds(const QuantisedNet& net) {
    const NetBounds b = netBounds(net);
    if (b.accumulator > INT16_MAX)
        throw NetError("an accumulator could reach " + std::to_string(b.accumulator) +
                       " over 32 features, beyond int16 (clip W1 and b1)");
    ::xq::nnue::checkNetwork(net);  // the engine's limits: W2q within +-127, the int32 output sum
}

QuantisedNet quantise(const Model& m, const std::string& description) {
    QuantisedNet q = QuantisedNet::zero(m.hidden);
    q.description = description.substr(0, ::xq::nnue::DESCRIPTION_BYTES - 1);
    for (std::size_t i = 0; i < m.w1.size(); ++i) q.w1[i] = toInt16(double(m.w1[i]) * QA, "a W1 weight");
    for (std::size_t i = 0; i < m.b1.size(); ++i) q.b1[i] = toInt16(double(m.b1[i]) * QA, "a b1 bias");
    for (std::size_t i = 0; i < m.w2.size(); ++i) q.w2[i] = toInt16(double(m.w2[i]) * QB, "a W2 weight");
    const double b2 = std::round(double(m.b2) * QA * QB);
    if (std::abs(b2) > double(std::numeric_limits<std::int32_t>::max()) / q.scale)
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
    // cp = out * SCALE in the model, the integers' value * q.scale / (QA * QB) in the file.
    const double toModel = double(q.scale) / SCALE;
    for (std::size_t i = 0; i < q.w2.size(); ++i) m.w2[i] = float(q.w2[i] * toModel / QB);
    m.b2 = float(double(q.b2) * toModel / (QA * QB));
    return m;
}

std::string netFileName(std::string_view fileBytes) {
    return xq::nnue::networkName(fileBytes);  // the engine's: both sides name a file the same way
}

std::string writeNetFile(const std::string& out, const QuantisedNet& net) {
    checkNetBounds(net);
    QuantisedNet copy = net;  // serializeNetwork sets the hash and the name
    const std::string bytes = ::xq::nnue::serializeNetwork(copy);
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
    return ::xq::nnue::loadNetworkFile(path);
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
    return int((std::int64_t(sum / QA) + net.b2) * net.scale / (QA * QB));
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
