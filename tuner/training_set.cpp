#include "training_set.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

#include "xiangqi/position.h"

namespace xq::tuner {

int resolveThreads(int threads) {
    if (threads > 0) return threads;
    unsigned n = std::thread::hardware_concurrency();
    return n ? int(n) : 1;
}

ParamMatrix toParams(const eval::Weights& w) {
    ParamMatrix p(eval::WEIGHT_NB, 2);
    for (int i = 0; i < eval::WEIGHT_NB; ++i) {
        p(i, 0) = w[i].mg;
        p(i, 1) = w[i].eg;
    }
    return p;
}

eval::Weights toWeights(const ParamMatrix& p) {
    eval::Weights w;
    for (int i = 0; i < eval::WEIGHT_NB; ++i) {
        w[i].mg = int(std::lround(p(i, 0)));
        w[i].eg = int(std::lround(p(i, 1)));
    }
    return w;
}

std::size_t TrainingSet::memoryBytes() const {
    return std::size_t(coef.nonZeros()) * (sizeof(float) + sizeof(std::int32_t)) +
           std::size_t(coef.rows() + 1) * sizeof(std::int32_t) + std::size_t(size()) * 3 * sizeof(float);
}

ParamMask TrainingSet::activeParameters(std::int64_t first, std::int64_t last) const {
    ParamMask active = ParamMask::Constant(eval::WEIGHT_NB, 2, false);
    for (std::int64_t i = first; i < last; ++i) {
        bool mg = mgFactor[i] != 0, eg = egFactor[i] != 0;
        for (SparseRows::InnerIterator it(coef, Eigen::Index(i)); it; ++it) {
            if (it.value() == 0) continue;
            active(it.col(), 0) = active(it.col(), 0) || mg;
            active(it.col(), 1) = active(it.col(), 1) || eg;
        }
    }
    return active;
}

void TrainingSetBuilder::reserve(std::int64_t rows, std::int64_t nonZeros) {
    rowStart_.reserve(std::size_t(rows + 1));
    columns_.reserve(std::size_t(nonZeros));
    values_.reserve(std::size_t(nonZeros));
    mgFactor_.reserve(std::size_t(rows));
    egFactor_.reserve(std::size_t(rows));
    result_.reserve(std::size_t(rows));
}

namespace {

void appendTaper(std::vector<float>& mg, std::vector<float>& eg, int phase, int scale) {
    double s = double(scale) / eval::SCALE_NORMAL;
    mg.push_back(float(double(phase) / eval::PHASE_MAX * s));
    eg.push_back(float(double(eval::PHASE_MAX - phase) / eval::PHASE_MAX * s));
}

constexpr std::int64_t MAX_NON_ZEROS = std::numeric_limits<std::int32_t>::max();

}  // namespace

void TrainingSetBuilder::add(const eval::Trace& t, float result) {
    for (int i = 0; i < eval::WEIGHT_NB; ++i)
        if (t.coef[i]) {
            columns_.push_back(i);
            values_.push_back(float(t.coef[i]));
        }
    if (std::int64_t(columns_.size()) > MAX_NON_ZEROS)
        throw DataError("too many positions for one training set (over 2^31 coefficients)");
    rowStart_.push_back(std::int32_t(columns_.size()));
    appendTaper(mgFactor_, egFactor_, t.phase, t.scale);
    result_.push_back(result);
}

void TrainingSetBuilder::add(const std::vector<std::pair<int, float>>& coef, int phase, int scale,
                             float result) {
    std::vector<std::pair<int, float>> sorted = coef;  // Eigen wants ascending columns within a row
    std::sort(sorted.begin(), sorted.end());
    for (auto [col, v] : sorted) {
        if (col < 0 || col >= eval::WEIGHT_NB) throw DataError("coefficient column out of range");
        columns_.push_back(col);
        values_.push_back(v);
    }
    if (std::int64_t(columns_.size()) > MAX_NON_ZEROS)
        throw DataError("too many positions for one training set (over 2^31 coefficients)");
    rowStart_.push_back(std::int32_t(columns_.size()));
    appendTaper(mgFactor_, egFactor_, phase, scale);
    result_.push_back(result);
}

TrainingSet TrainingSetBuilder::finish() {
    TrainingSet set;
    const auto rows = Eigen::Index(result_.size());
    set.coef.resize(rows, eval::WEIGHT_NB);
    set.coef.resizeNonZeros(Eigen::Index(values_.size()));
    std::copy(rowStart_.begin(), rowStart_.end(), set.coef.outerIndexPtr());
    std::copy(columns_.begin(), columns_.end(), set.coef.innerIndexPtr());
    std::copy(values_.begin(), values_.end(), set.coef.valuePtr());
    set.mgFactor = Eigen::Map<const Eigen::VectorXf>(mgFactor_.data(), rows);
    set.egFactor = Eigen::Map<const Eigen::VectorXf>(egFactor_.data(), rows);
    set.result = Eigen::Map<const Eigen::VectorXf>(result_.data(), rows);
    *this = TrainingSetBuilder();  // frees the staging copies
    return set;
}

TrainingSet buildTrainingSet(const std::vector<LabeledPosition>& positions, int threads) {
    threads = resolveThreads(threads);
    TrainingSetBuilder builder;
    builder.reserve(std::int64_t(positions.size()), std::int64_t(positions.size()) * 48);
    // Blocks keep the traces of only one block in memory (a trace is ~3.4 KB).
    constexpr std::int64_t BLOCK = 1 << 14;
    std::vector<eval::Trace> traces(
        std::size_t(std::min<std::int64_t>(BLOCK, std::int64_t(positions.size()))));
    const auto total = std::int64_t(positions.size());
    for (std::int64_t first = 0; first < total; first += BLOCK) {
        const std::int64_t n = std::min(BLOCK, total - first);
        std::int64_t badIndex = -1;
        std::string badWhy;
#pragma omp parallel for num_threads(threads) schedule(static)
        for (std::int64_t i = 0; i < n; ++i) {
            try {
                Position pos(positions[std::size_t(first + i)].fen);
                traces[std::size_t(i)] = eval::trace(pos);
            } catch (const FenError& e) {
#pragma omp critical
                if (badIndex < 0 || first + i < badIndex) {
                    badIndex = first + i;
                    badWhy = e.what();
                }
            }
        }
        if (badIndex >= 0)
            throw DataError("position " + std::to_string(badIndex + 1) + ": bad FEN: " + badWhy);
        for (std::int64_t i = 0; i < n; ++i)
            builder.add(traces[std::size_t(i)], positions[std::size_t(first + i)].result);
    }
    return builder.finish();
}

double lossAndGradient(const TrainingSet& set, std::int64_t first, std::int64_t last,
                       const ParamMatrix& params, double k, int threads, ParamMatrix* gradient) {
    const std::int64_t n = last - first;
    if (gradient) gradient->setZero(eval::WEIGHT_NB, 2);
    if (n <= 0) return 0;
    threads = std::max(1, std::min<int>(resolveThreads(threads), int((n + 1023) / 1024)));
    // Flat parameter copies: column-interleaved so one row's mg and eg reads share a cache line.
    std::vector<double> w(2 * eval::WEIGHT_NB);
    for (int i = 0; i < eval::WEIGHT_NB; ++i) w[2 * i] = params(i, 0), w[2 * i + 1] = params(i, 1);
    const std::int32_t* outer = set.coef.outerIndexPtr();
    const std::int32_t* inner = set.coef.innerIndexPtr();
    const float* values = set.coef.valuePtr();
    const float* mgF = set.mgFactor.data();
    const float* egF = set.egFactor.data();
    const float* res = set.result.data();
    double totalLoss = 0;
    std::vector<double> totalGrad(gradient ? 2 * eval::WEIGHT_NB : 0, 0.0);

#pragma omp parallel num_threads(threads)
    {
        std::vector<double> grad(gradient ? 2 * eval::WEIGHT_NB : 0, 0.0);
        double loss = 0;
#pragma omp for schedule(static) nowait
        for (std::int64_t i = first; i < last; ++i) {
            double mg = 0, eg = 0;
            for (std::int32_t p = outer[i]; p < outer[i + 1]; ++p) {
                const double* wp = &w[2 * std::size_t(inner[p])];
                mg += values[p] * wp[0];
                eg += values[p] * wp[1];
            }
            const double e = mgF[i] * mg + egF[i] * eg;
            const double s = sigmoid(k * e);
            const double diff = s - res[i];
            loss += diff * diff;
            if (gradient) {
                // d/dE (s - r)^2 = 2 (s - r) s (1 - s) k
                const double dE = 2.0 * diff * s * (1.0 - s) * k;
                const double dMg = dE * mgF[i], dEg = dE * egF[i];
                for (std::int32_t p = outer[i]; p < outer[i + 1]; ++p) {
                    double* gp = &grad[2 * std::size_t(inner[p])];
                    gp[0] += values[p] * dMg;
                    gp[1] += values[p] * dEg;
                }
            }
        }
#pragma omp critical
        {
            totalLoss += loss;
            for (std::size_t j = 0; j < grad.size(); ++j) totalGrad[j] += grad[j];
        }
    }
    if (gradient)
        for (int i = 0; i < eval::WEIGHT_NB; ++i) {
            (*gradient)(i, 0) = totalGrad[2 * std::size_t(i)] / double(n);
            (*gradient)(i, 1) = totalGrad[2 * std::size_t(i) + 1] / double(n);
        }
    return totalLoss / double(n);
}

}  // namespace xq::tuner
