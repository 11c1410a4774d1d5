// The positions a tuner fits, reduced once to the evaluation's linear form.
//
// Every position is traced once (eval::trace). Its coefficients become one row of a sparse Eigen matrix C
// (columns: the weights table); its phase and scale become two factors per row, so that
//     E_i = mgFactor_i * (C_i . w_mg) + egFactor_i * (C_i . w_eg)
// i.e. E = A_mg w_mg + A_eg w_eg with A_mg = diag(mgFactor) C and A_eg = diag(egFactor) C. The midgame and
// endgame matrices share C's structure, so C is stored once (half the memory of storing both). E is the
// engine's evaluation without its integer truncations (within 2 cp of it).
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <cmath>
#include <cstdint>
#include <vector>

#include "dataset.h"
#include "evaluate.h"
#include "weights.h"

namespace xq::tuner {

using SparseRows = Eigen::SparseMatrix<float, Eigen::RowMajor, std::int32_t>;

// Parameters as a WEIGHT_NB x 2 matrix: column 0 the midgame values, column 1 the endgame values.
using ParamMatrix = Eigen::Matrix<double, Eigen::Dynamic, 2>;
using ParamMask = Eigen::Matrix<bool, Eigen::Dynamic, 2>;

ParamMatrix toParams(const eval::Weights& w);
// Rounds to the nearest integers (the evaluation is integer).
eval::Weights toWeights(const ParamMatrix& p);

struct TrainingSet {
    SparseRows coef;           // C: one row per position, one column per weight
    Eigen::VectorXf mgFactor;  // phase / PHASE_MAX * scale / SCALE_NORMAL
    Eigen::VectorXf egFactor;  // (PHASE_MAX - phase) / PHASE_MAX * scale / SCALE_NORMAL
    Eigen::VectorXf result;    // Red's score, 0..1

    std::int64_t size() const { return result.size(); }
    std::size_t memoryBytes() const;

    // The linear evaluation of row i under params.
    double evaluate(std::int64_t i, const ParamMatrix& params) const {
        double mg = 0, eg = 0;
        for (SparseRows::InnerIterator it(coef, Eigen::Index(i)); it; ++it) {
            mg += double(it.value()) * params(it.col(), 0);
            eg += double(it.value()) * params(it.col(), 1);
        }
        return mgFactor[i] * mg + egFactor[i] * eg;
    }
    // Which parameters have a non-zero coefficient in rows [first, last): the others cannot be fitted.
    ParamMask activeParameters(std::int64_t first, std::int64_t last) const;
};

// Collects rows, then hands them over as a TrainingSet.
class TrainingSetBuilder {
  public:
    void reserve(std::int64_t rows, std::int64_t nonZeros);
    void add(const eval::Trace& t, float result);
    // For synthetic data: coefficients as (weight index, value) pairs.
    void add(const std::vector<std::pair<int, float>>& coef, int phase, int scale, float result);
    std::int64_t rows() const { return std::int64_t(result_.size()); }
    // Throws DataError when the matrix would exceed Eigen's 32-bit index (about 50 million positions).
    TrainingSet finish();

  private:
    std::vector<std::int32_t> rowStart_{0}, columns_;
    std::vector<float> values_, mgFactor_, egFactor_, result_;
};

// Traces the positions on `threads` threads (0: all cores) and builds the set, rows in the given order.
TrainingSet buildTrainingSet(const std::vector<LabeledPosition>& positions, int threads = 0);

// Mean squared error of sigmoid(k * E) against the results over rows [first, last), and its gradient
// with respect to the parameters (skipped when gradient is null). Runs on `threads` threads.
double lossAndGradient(const TrainingSet& set, std::int64_t first, std::int64_t last,
                       const ParamMatrix& params, double k, int threads, ParamMatrix* gradient);

inline double sigmoid(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

int resolveThreads(int threads);  // 0: all cores

}  // namespace xq::tuner
