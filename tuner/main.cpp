// xq-tuner: fits the evaluation weights to `FEN ; result` data and writes a weights file for EvalFile;
// `xq-tuner nnue ...` trains the engine's network instead (nnue_cli.h).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "dataset.h"
#include "nnue_cli.h"
#include "training_set.h"
#include "tuner.h"
#include "weights.h"

namespace {

struct Options {
    std::vector<std::string> data;
    std::string out;
    std::string json;
    std::string start;
    std::string emitDefaults;
    std::string optimizer = "adam";
    xq::tuner::TunerOptions tuner;
    double validationFraction = 0.1;
    std::int64_t maxPositions = 0;
};

double secondsSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

nlohmann::json jsonNumber(double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

int run(Options& o) {
    using namespace xq::tuner;
    auto t0 = std::chrono::steady_clock::now();
    o.tuner.optimizer = o.optimizer == "adagrad" ? Optimizer::AdaGrad : Optimizer::Adam;

    xq::eval::Weights start = xq::eval::defaultWeights();
    if (!o.start.empty()) start = xq::eval::loadWeightsFile(o.start);

    std::vector<LabeledPosition> positions;
    for (const std::string& path : o.data) {
        readDataFile(path, [&](const LabeledPosition& p) {
            positions.push_back(p);
            return o.maxPositions <= 0 || std::int64_t(positions.size()) < o.maxPositions;
        });
        if (o.maxPositions > 0 && std::int64_t(positions.size()) >= o.maxPositions) break;
    }
    if (positions.size() < 2) {
        std::cerr << "xq-tuner: need at least 2 positions, the data has " << positions.size() << "\n";
        return 2;
    }
    const double readSeconds = secondsSince(t0);
    // Validation takes the last positions of the data as written. Self-play data comes game by game, and
    // positions of one game share its result: a random split would put every game on both sides and
    // validation would not see over-fitting to games. Only the training part is shuffled (mini-batches).
    const auto total = std::int64_t(positions.size());
    auto validation = std::int64_t(std::llround(double(total) * o.validationFraction));
    if (o.validationFraction > 0) validation = std::clamp<std::int64_t>(validation, 1, total - 1);
    const std::int64_t trainRows = total - validation;
    std::mt19937_64 rng(o.tuner.seed);
    std::shuffle(positions.begin(), positions.begin() + trainRows, rng);

    auto t1 = std::chrono::steady_clock::now();
    TrainingSet set = buildTrainingSet(positions, o.tuner.threads);
    const double traceSeconds = secondsSince(t1);
    positions.clear();
    positions.shrink_to_fit();
    std::cerr << "xq-tuner: " << total << " positions (" << trainRows << " train, " << validation
              << " validation), read in " << readSeconds << " s, traced in " << traceSeconds << " s; "
              << set.coef.nonZeros() << " coefficients, " << set.memoryBytes() / (1024.0 * 1024.0) << " MiB ("
              << double(set.memoryBytes()) / double(total) << " bytes/position)\n";

    auto onEpoch = [&](const EpochReport& e) {
        char line[200];
        std::snprintf(line, sizeof line, "epoch %4d  train %.6f  validation %.6f  %.2f s\n", e.epoch,
                      e.trainLoss, e.validationLoss, e.seconds);
        std::cerr << line;
    };
    TuneResult r = tune(set, trainRows, start, o.tuner, onEpoch);
    std::cerr << "xq-tuner: K = " << r.k << " (" << r.finalK << " after rescaling the weights by " << r.scale
              << "); " << r.tunedParameters << " parameters tuned, " << r.frozenParameters
              << " without data kept; best epoch " << r.bestEpoch
              << (r.stoppedEarly ? " (stopped early)" : "") << "\n";

    xq::eval::saveWeightsFile(o.out, r.weights);
    if (!o.emitDefaults.empty()) {
        std::ofstream src(o.emitDefaults);
        xq::eval::writeWeightsSource(src, r.weights);
        if (!src.flush()) {
            std::cerr << "xq-tuner: cannot write " << o.emitDefaults << "\n";
            return 1;
        }
    }
    int changed = 0;
    for (int i = 0; i < xq::eval::WEIGHT_NB; ++i) changed += !(r.weights[i] == start[i]);

    std::printf("positions %lld (train %lld, validation %lld)\n", (long long)total, (long long)trainRows,
                (long long)validation);
    std::printf("k %.8f (with the written weights %.8f, scale factor %.4f)\n", r.k, r.finalK, r.scale);
    std::printf("loss before: train %.6f validation %.6f\n", r.initialTrainLoss, r.initialValidationLoss);
    std::printf("loss after (rounded weights): train %.6f validation %.6f\n", r.finalTrainLoss,
                r.finalValidationLoss);
    std::printf("epochs %zu, best %d, weights changed %d of %d\n", r.epochs.size(), r.bestEpoch, changed,
                xq::eval::WEIGHT_NB);
    std::printf("wrote %s\n", o.out.c_str());

    if (!o.json.empty()) {
        nlohmann::json j;
        j["k"] = r.k;
        j["final_k"] = r.finalK;
        j["scale"] = r.scale;
        j["positions"] = total;
        j["train_positions"] = trainRows;
        j["validation_positions"] = validation;
        j["coefficients"] = set.coef.nonZeros();
        j["memory_bytes"] = set.memoryBytes();
        j["optimizer"] = o.optimizer;
        j["l2"] = o.tuner.l2;
        j["epochs"] = r.epochs.size();
        j["best_epoch"] = r.bestEpoch;
        j["stopped_early"] = r.stoppedEarly;
        j["tuned_parameters"] = r.tunedParameters;
        j["frozen_parameters"] = r.frozenParameters;
        j["weights_changed"] = changed;
        j["initial_train_loss"] = r.initialTrainLoss;
        j["initial_validation_loss"] = jsonNumber(r.initialValidationLoss);
        j["final_train_loss"] = r.finalTrainLoss;
        j["final_validation_loss"] = jsonNumber(r.finalValidationLoss);
        j["train_loss"] = nlohmann::json::array();
        j["validation_loss"] = nlohmann::json::array();
        j["epoch_seconds"] = nlohmann::json::array();
        for (const EpochReport& e : r.epochs) {
            j["train_loss"].push_back(e.trainLoss);
            j["validation_loss"].push_back(jsonNumber(e.validationLoss));
            j["epoch_seconds"].push_back(e.seconds);
        }
        j["seconds"] = secondsSince(t0);
        std::ofstream out(o.json);
        out << j.dump(2) << "\n";
        if (!out.flush()) {
            std::cerr << "xq-tuner: cannot write " << o.json << "\n";
            return 1;
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "nnue")
        return xq::tuner::nnue::runNnueCommand(argc - 1, argv + 1);
    CLI::App app{"xq-tuner: fit the evaluation weights to `FEN ; result` positions"};
    app.footer("xq-tuner nnue --help: train the engine's network (NNUE) instead");
    Options o;
    app.add_option("--data", o.data, "position files (FEN ; result lines, plain or .gz)")
        ->required()
        ->check(CLI::ExistingFile);
    app.add_option("--out", o.out, "weights file to write (load it with setoption name EvalFile)")
        ->required();
    app.add_option("--json", o.json,
                   "write a JSON report (k, per-epoch train_loss and validation_loss, counts)");
    app.add_option("--start", o.start, "start from this weights file instead of the built-in defaults")
        ->check(CLI::ExistingFile);
    app.add_option("--emit-defaults", o.emitDefaults, "also write C++ source for engine/weights_default.cpp");
    app.add_option("--epochs", o.tuner.epochs, "maximum epochs")->check(CLI::Range(1, 1000000));
    app.add_option("--optimizer", o.optimizer, "adam or adagrad")->check(CLI::IsMember({"adam", "adagrad"}));
    app.add_option("--batch", o.tuner.batchSize, "positions per mini-batch")->check(CLI::Range(1, 1 << 30));
    app.add_option("--lr", o.tuner.learningRate,
                   "learning rate in centipawns per step (default adam 1, adagrad 5)")
        ->check(CLI::PositiveNumber);
    app.add_option("--validation-fraction", o.validationFraction,
                   "share of positions held out for validation")
        ->check(CLI::Range(0.0, 0.9));
    app.add_option("--patience", o.tuner.patience,
                   "epochs without validation improvement before stopping (0: never)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--l2", o.tuner.l2,
                   "ridge penalty per (100 cp)^2 of each weight's change from the start (default 0: off)")
        ->check(CLI::Range(0.0, 1e6));
    app.add_option("--k", o.tuner.k, "use this sigmoid scale instead of fitting it")
        ->check(CLI::PositiveNumber);
    app.add_option("--threads", o.tuner.threads, "threads (0: all cores)")->check(CLI::Range(0, 1024));
    app.add_option("--seed", o.tuner.seed, "shuffling seed");
    app.add_flag(
        "!--free-scale", o.tuner.preserveScale,
        "keep the fitted overall scale of the evaluation (default: rescale to the starting mean |eval|)");
    app.add_option("--max-positions", o.maxPositions, "read at most this many positions (0: all)")
        ->check(CLI::NonNegativeNumber);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    try {
        return run(o);
    } catch (const std::exception& e) {
        std::cerr << "xq-tuner: " << e.what() << "\n";
        return 1;
    }
}
