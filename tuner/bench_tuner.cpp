// xq-tuner-bench: how long an epoch takes and how much memory a million positions need.
//
//   xq-tuner-bench [POSITIONS=1000000] [THREADS=0] [EPOCHS=3] [BATCH=16384] [DATA_FILE]
//
// Without a data file it builds the set from real positions (random playouts with the rules core,
// traced by the engine) repeated to POSITIONS rows, so the sparsity is the real one.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>

#include "training_set.h"
#include "tuner.h"
#include "xiangqi/movegen.h"
#include "xiangqi/rules.h"

namespace {

double secondsSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

long peakRssKiB() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::atol(line.c_str() + 6);
    return -1;
}

std::vector<xq::tuner::LabeledPosition> randomPositions(int count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<xq::tuner::LabeledPosition> out;
    while (int(out.size()) < count) {
        xq::Position pos;
        int plies = 10 + int(rng() % 140);
        bool ok = true;
        for (int p = 0; p < plies && ok; ++p) {
            xq::MoveList legal = xq::legalMoves(pos);
            if (legal.size == 0)
                ok = false;
            else
                pos.doMove(legal.moves[rng() % std::uint64_t(legal.size)]);
            if (ok && xq::adjudicate(pos).isOver()) ok = false;
        }
        if (ok) out.push_back({pos.fen(), float(rng() % 3) / 2});
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    long positions = argc > 1 ? std::atol(argv[1]) : 1000000;
    int threads = argc > 2 ? std::atoi(argv[2]) : 0;
    int epochs = argc > 3 ? std::atoi(argv[3]) : 3;
    long batch = argc > 4 ? std::atol(argv[4]) : 16384;
    if (positions < 2 || threads < 0 || epochs < 1 || batch < 1) {
        std::fprintf(stderr, "usage: xq-tuner-bench [POSITIONS] [THREADS] [EPOCHS] [BATCH] [DATA_FILE]\n");
        return 2;
    }
    using namespace xq::tuner;
    threads = resolveThreads(threads);
    auto t0 = std::chrono::steady_clock::now();
    std::vector<LabeledPosition> base;
    if (argc > 5) {
        readDataFile(argv[5], [&](const LabeledPosition& p) {
            base.push_back(p);
            return long(base.size()) < positions;
        });
    } else {
        base = randomPositions(int(std::min(positions, 50000L)), 7);
    }
    std::printf("source: %zu distinct positions (%s), %.2f s\n", base.size(),
                argc > 5 ? argv[5] : "random playouts", secondsSince(t0));
    auto t1 = std::chrono::steady_clock::now();
    TrainingSet unique = buildTrainingSet(base, threads);
    double traceSeconds = secondsSince(t1);
    std::printf("trace + build: %.3f s for %zu positions (%.2f us/position)\n", traceSeconds, base.size(),
                traceSeconds * 1e6 / double(base.size()));
    base.clear();
    base.shrink_to_fit();

    // Repeat the rows up to the requested count, in a shuffled order (as the tuner sees them).
    std::mt19937_64 rng(11);
    TrainingSetBuilder builder;
    builder.reserve(positions, positions * unique.coef.nonZeros() / unique.size() + 64);
    std::vector<std::pair<int, float>> row;
    for (long i = 0; i < positions; ++i) {
        auto r = Eigen::Index(rng() % std::uint64_t(unique.size()));
        row.clear();
        for (SparseRows::InnerIterator it(unique.coef, r); it; ++it)
            row.emplace_back(int(it.col()), it.value());
        // Recover phase and scale from the factors (scale is 64 or 0).
        float total = unique.mgFactor[r] + unique.egFactor[r];
        int scale = total > 0 ? xq::eval::SCALE_NORMAL : 0;
        int phase = total > 0 ? int(std::lround(unique.mgFactor[r] / total * xq::eval::PHASE_MAX)) : 0;
        builder.add(row, phase, scale, unique.result[r]);
    }
    TrainingSet set = builder.finish();
    std::printf(
        "set: %lld positions, %lld coefficients (%.1f per position), %.1f MiB = %.1f MiB per million\n",
        (long long)set.size(), (long long)set.coef.nonZeros(),
        double(set.coef.nonZeros()) / double(set.size()), double(set.memoryBytes()) / (1 << 20),
        double(set.memoryBytes()) / (1 << 20) * 1e6 / double(set.size()));

    TunerOptions o;
    o.threads = threads;
    o.epochs = epochs;
    o.batchSize = batch;
    o.patience = 0;
    auto t2 = std::chrono::steady_clock::now();
    double k = fitK(set, 0, set.size(), toParams(xq::eval::defaultWeights()), threads);
    std::printf("fit K: %.3f s (K = %.6f)\n", secondsSince(t2), k);
    o.k = k;
    TuneResult r = tune(set, set.size(), xq::eval::defaultWeights(), o, [&](const EpochReport& e) {
        std::printf("epoch %d: %.3f s (mini-batch passes + a full loss pass), train loss %.6f\n", e.epoch,
                    e.seconds, e.trainLoss);
        std::fflush(stdout);
    });
    double sum = 0;
    for (const auto& e : r.epochs) sum += e.seconds;
    std::printf("threads %d, batch %ld: mean epoch %.3f s over %lld positions = %.3f s per million\n",
                threads, batch, sum / double(r.epochs.size()), (long long)set.size(),
                sum / double(r.epochs.size()) * 1e6 / double(set.size()));
    std::printf("peak resident memory of this process: %.1f MiB\n", double(peakRssKiB()) / 1024);
    return 0;
}
