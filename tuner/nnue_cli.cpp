#include "nnue_cli.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include "nnue_checkpoint.h"
#include "nnue_data.h"
#include "nnue_file.h"
#include "nnue_trainer.h"
#include "training_set.h"

namespace xq::tuner::nnue {

namespace {

namespace fs = std::filesystem;

struct CliOptions {
    std::vector<std::string> data;
    std::string out, checkpoint;
    std::string init;                 // a network file to start from
    std::string validation = "0.05";  // a fraction, or files of validation positions
    std::string validationSplit = "shuffle";
    TrainerOptions trainer;
    int threads = 0;
    std::int64_t maxPositions = 0;
    double progressSeconds = 5;
    bool json = false;
    bool dedup = false;  // keep the first of repeated positions (Zobrist key)
};

// A user's mistake that is not a parse error of CLI11's (exit code 2, as those).
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

double secondsSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::string clock(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) return "?";
    const long s = std::lround(seconds);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    return buf;
}

nlohmann::json number(double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

long peakResidentKiB() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::atol(line.c_str() + 6);
    return -1;
}

// The whole string as a finite number, or nothing.
std::optional<double> parseNumber(const std::string& s) {
    if (s.empty()) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
    return v;
}

// A finite number in [lo, hi] (above lo when lowOpen): CLI11's Range and PositiveNumber let NaN through.
CLI::Validator numberIn(double lo, double hi, bool lowOpen = false) {
    const std::string range = std::string(lowOpen ? "(" : "[") + CLI::detail::to_string(lo) + ", " +
                              CLI::detail::to_string(hi) + "]";
    return CLI::Validator(
        [=](std::string& s) -> std::string {
            const std::optional<double> v = parseNumber(s);
            if (!v) return "'" + s + "' is not a number";
            if (*v < lo || *v > hi || (lowOpen && *v == lo)) return s + " is not in " + range;
            return {};
        },
        "NUMBER in " + range);
}

CLI::Validator wholeNumberIn(long long lo, long long hi, long long multipleOf = 1) {
    std::string what = "in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    if (multipleOf > 1) what += ", a multiple of " + std::to_string(multipleOf);
    return CLI::Validator(
        [=](std::string& s) -> std::string {
            char* end = nullptr;
            errno = 0;
            const long long v = std::strtoll(s.c_str(), &end, 10);
            if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE)
                return "'" + s + "' is not a whole number";
            if (v < lo || v > hi || v % multipleOf) return s + " is not " + what;
            return {};
        },
        "INT " + what);
}

// --validation: a fraction of the data, or files/directories of their own.
constexpr double MAX_VALIDATION_FRACTION = 0.9;
std::optional<double> validationFraction(const std::string& v) {
    return parseNumber(v);
}

// The directory a file will be written in must be one, or creatable: its nearest existing ancestor a
// writable directory. Checked before the data is read and trained on, so that a mistake here does not cost
// the run; the directory is created only when the file is written.
void checkWritableDir(const fs::path& dir, const std::string& what) {
    std::error_code ec;
    fs::path p = dir.empty() ? fs::path(".") : dir;
    while (!fs::exists(p, ec) && p.has_parent_path() && p.parent_path() != p) p = p.parent_path();
    if (!fs::exists(p, ec)) p = ".";
    if (!fs::is_directory(p, ec)) throw std::runtime_error(what + ": " + p.string() + " is not a directory");
    // A file made and removed: access() says yes to root, on read-only mounts and in /proc.
    std::string probe = (p / ".xq-tuner-probe-XXXXXX").string();
    const int fd = ::mkstemp(probe.data());
    if (fd < 0)
        throw std::runtime_error(what + ": cannot write in " + p.string() + ": " + std::strerror(errno));
    ::close(fd);
    ::unlink(probe.c_str());
}

void createDir(const fs::path& dir, const std::string& what) {
    std::error_code ec;
    if (!dir.empty()) fs::create_directories(dir, ec);
    if (ec) throw std::runtime_error(what + ": cannot create " + dir.string() + ": " + ec.message());
}

// --out: a file ending in .nnue, or a directory where the file is named xq-<hash>.nnue.
fs::path outDir(const std::string& out) {
    std::error_code ec;
    return out.ends_with(".nnue") && !fs::is_directory(out, ec) ? fs::path(out).parent_path() : fs::path(out);
}

std::string splitName(SplitMode m) {
    return m == SplitMode::Shuffle ? "shuffle" : m == SplitMode::Tail ? "tail" : "file";
}

// A resumed run keeps the checkpoint's hyper-parameters: one given on the command line must agree.
void checkResumeOptions(const CLI::App& app, const CliOptions& o, const TrainerState& s) {
    const TrainerOptions &given = o.trainer, &saved = s.options;
    auto same = [&](const char* name, double a, double b) {
        if (app.count(name) && a != b)
            throw UsageError(std::string(name) + " " + CLI::detail::to_string(a) +
                             " differs from the checkpoint's " + CLI::detail::to_string(b) +
                             " (a resumed run keeps its hyper-parameters)");
    };
    same("--hidden", given.hidden, saved.hidden);
    same("--lambda", given.loss.lambda, saved.loss.lambda);
    same("--wdl-k", given.loss.wdlK, saved.loss.wdlK);
    same("--lr", given.learningRate, saved.learningRate);
    same("--lr-final-ratio", given.finalLearningRateRatio, saved.finalLearningRateRatio);
    same("--wd", given.adam.weightDecay, saved.adam.weightDecay);
    same("--batch", double(given.batchSize), double(saved.batchSize));
    same("--seed", double(given.seed), double(saved.seed));
    same("--dense-optimizer", given.denseOptimizer, saved.denseOptimizer);
    if (app.count("--epochs") && given.epochs < s.epochsDone)
        throw UsageError("--epochs " + std::to_string(given.epochs) + " is fewer than the " +
                         std::to_string(s.epochsDone) + " the checkpoint has done");

    const std::optional<double> fraction = validationFraction(o.validation);
    if (saved.validationSplit == SplitMode::File) {
        if (fraction)
            throw UsageError("the checkpoint validated on a file of " +
                             std::to_string(saved.validationPositions) +
                             " positions: give the same --validation FILE");
    } else if (app.count("--validation")) {
        if (!fraction)
            throw UsageError("--validation " + o.validation + ": the checkpoint held out a fraction " +
                             CLI::detail::to_string(saved.validationFraction) + " of the data, not a file");
        same("--validation", *fraction, saved.validationFraction);
    }
    if (app.count("--validation-split") && given.validationSplit != saved.validationSplit)
        throw UsageError("--validation-split " + splitName(given.validationSplit) +
                         " differs from the checkpoint's " + splitName(saved.validationSplit));
}

int run(const CLI::App& app, CliOptions& o) {
    const auto t0 = std::chrono::steady_clock::now();
    const int threads = resolveThreads(o.threads);
    const std::string outWhat = "--out " + o.out;
    checkWritableDir(outDir(o.out), outWhat);

    // The options, the checkpoint and the file lists are checked before the (long) read of the data.
    const std::optional<double> fraction = validationFraction(o.validation);
    if (!fraction && app.count("--validation-split"))
        throw UsageError("--validation-split chooses held-out positions of the data; --validation " +
                         o.validation + " is a file of its own");
    const std::vector<std::string> files = dataFiles(o.data);
    const std::vector<std::string> validationFiles =
        fraction ? std::vector<std::string>{} : dataFiles({o.validation});
    for (const std::string& v : validationFiles)
        for (const std::string& f : files)
            if (fs::equivalent(v, f)) throw UsageError(v + " is both training data and --validation data");

    TrainerState state;
    const bool resuming = !o.checkpoint.empty() && fs::exists(o.checkpoint);
    const std::string checkpointWhat = "--checkpoint " + o.checkpoint;
    if (!o.checkpoint.empty()) {
        std::error_code ec;
        if (fs::is_directory(o.checkpoint, ec))
            throw std::runtime_error(checkpointWhat + " is a directory (name the checkpoint file)");
        checkWritableDir(fs::path(o.checkpoint).parent_path(), checkpointWhat);
    }
    if (resuming) {
        state = loadCheckpoint(o.checkpoint);
        checkResumeOptions(app, o, state);
        if (app.count("--epochs")) state.options.epochs = o.trainer.epochs;  // the schedule stretches
    }
    // --init: the network's H is the run's. On a checkpoint the checkpoint's weights win; its start network
    // must be the one named (a resumed run does not start again from another).
    std::optional<QuantisedNet> init;
    if (!o.init.empty()) {
        init = readNetFile(o.init);
        if (resuming && state.initNetwork != init->name)
            throw UsageError("--init " + o.init + " (" + init->name + ") is not the network the checkpoint " +
                             "started from (" +
                             (state.initNetwork.empty() ? "random weights" : state.initNetwork) + ")");
        if (!resuming && app.count("--hidden") && o.trainer.hidden != init->hidden)
            throw UsageError("--hidden " + std::to_string(o.trainer.hidden) + " differs from --init " +
                             o.init + "'s H = " + std::to_string(init->hidden));
        o.trainer.hidden = init->hidden;
    }

    // --dedup: one set of keys for the training and the validation files, so that a validation position is
    // none the run trains on.
    PositionKeys keys;
    PositionKeys* seen = o.dedup ? &keys : nullptr;
    const auto onFile = [&](const std::string& file, const NnueData& d) {
        if (o.dedup)
            std::fprintf(stderr, "xq-tuner nnue: read %s (%lld positions so far, %lld repeats dropped)\n",
                         file.c_str(), (long long)d.size(), (long long)d.duplicates);
        else
            std::fprintf(stderr, "xq-tuner nnue: read %s (%lld positions so far)\n", file.c_str(),
                         (long long)d.size());
    };
    NnueData data = readNnueData(files, threads, o.maxPositions, onFile, seen);
    std::int64_t validationPositions = 0;
    if (!validationFiles.empty()) {
        NnueData v = readNnueData(validationFiles, threads, 0, {}, seen);
        data.duplicates += v.duplicates;
        if (v.size() == 0) throw DataError("--validation " + o.validation + ": no positions");
        validationPositions = v.size();
        data.positions.insert(data.positions.end(), v.positions.begin(), v.positions.end());
        data.withScore += v.withScore;
        std::fprintf(stderr, "xq-tuner nnue: %lld validation positions from %s\n", (long long)v.size(),
                     o.validation.c_str());
    }
    const double readSeconds = secondsSince(t0);
    if (data.size() - validationPositions < 2)
        throw DataError("need at least 2 training positions, the data has " +
                        std::to_string(data.size() - validationPositions));
    const std::string dropped =
        o.dedup ? "; " + std::to_string(data.duplicates) + " repeated positions dropped (--dedup)" : "";
    std::fprintf(stderr,
                 "xq-tuner nnue: %lld positions from %zu files in %.1f s; %lld with a score, %lld without "
                 "(their target is the result alone)%s; %.1f MiB in memory\n",
                 (long long)data.size(), files.size() + validationFiles.size(), readSeconds,
                 (long long)data.withScore, (long long)(data.size() - data.withScore), dropped.c_str(),
                 double(data.memoryBytes()) / (1 << 20));

    int resumedFrom = 0;
    if (resuming) {
        if (state.dataPositions != data.size() || state.dataFingerprint != data.fingerprint() ||
            (state.options.validationSplit == SplitMode::File &&
             state.options.validationPositions != validationPositions))
            throw std::runtime_error(o.checkpoint + ": trained on other data (" +
                                     std::to_string(state.dataPositions) + " positions; now " +
                                     std::to_string(data.size()) +
                                     "): resume on the same files, or name a new --checkpoint");
        resumedFrom = state.epochsDone;
        std::fprintf(stderr, "xq-tuner nnue: resumed %s after epoch %d of %d\n", o.checkpoint.c_str(),
                     state.epochsDone, state.options.epochs);
    } else {
        TrainerOptions t = o.trainer;
        if (fraction) {
            t.validationFraction = *fraction;
        } else {
            t.validationSplit = SplitMode::File;
            t.validationFraction = 0;
            t.validationPositions = validationPositions;
        }
        state = initialState(t, data);
        if (init) {
            state.model = dequantise(*init);
            state.initNetwork = init->name;
            Model clipped = state.model;
            clipped.clip();
            if (clipped.w1 != state.model.w1 || clipped.b1 != state.model.b1 || clipped.w2 != state.model.w2)
                std::fprintf(stderr,
                             "xq-tuner nnue: --init %s has weights beyond the trainer's range (+-%g, and sum "
                             "|W2| within %g): training clips them\n",
                             o.init.c_str(), double(CLIP), outputWeightBound(init->hidden));
        }
    }
    const TrainerOptions& opt = state.options;
    const Split split = splitFor(opt, data.size());
    std::fprintf(stderr,
                 "xq-tuner nnue: (1260 -> %d) x 2 -> 1, %lld parameters; %zu train, %zu validation positions "
                 "(%s); %d epochs, batch %lld, lr %g (cosine to x%g), AdamW decay %g%s, lambda %g, K %g, %d "
                 "threads\n",
                 opt.hidden, (long long)state.model.parameterCount(), split.train.size(),
                 split.validation.size(), splitName(opt.validationSplit).c_str(), opt.epochs,
                 (long long)opt.batchSize, opt.learningRate, opt.finalLearningRateRatio, opt.adam.weightDecay,
                 opt.denseOptimizer ? " (dense)" : "", opt.loss.lambda, opt.loss.wdlK, threads);

    const double startValidationLoss =
        split.validation.empty() ? NAN : meanLoss(state.model, data, split.validation, opt.loss, threads);
    const std::string startWeights = resuming                    ? "the checkpoint's weights"
                                     : state.initNetwork.empty() ? "the start weights"
                                                                 : "the --init network " + state.initNetwork;
    std::fprintf(stderr, "epoch %d/%d  validation %.6f  (%s)\n", state.epochsDone, opt.epochs,
                 startValidationLoss, startWeights.c_str());

    TrainerCallbacks cb;
    cb.progressSeconds = o.progressSeconds;
    cb.onProgress = [](const Progress& p) {
        std::fprintf(stderr, "epoch %d/%d  %5.1f%%  train %.6f  %.0f pos/s  ETA %s\n", p.epoch, p.epochs,
                     100.0 * double(p.done) / double(p.total), p.trainLoss, p.positionsPerSecond,
                     clock(p.etaSeconds).c_str());
    };
    double epochSeconds = 0, trainedSeconds = 0;
    std::int64_t trainedPositions = 0;
    cb.onEpoch = [&](const EpochStats& e, const TrainerState& s) {
        epochSeconds += e.seconds;
        trainedSeconds += e.trainSeconds;
        trainedPositions += std::int64_t(split.train.size());
        const double eta = epochSeconds / double(e.epoch - resumedFrom) * double(s.options.epochs - e.epoch);
        std::fprintf(stderr,
                     "epoch %d/%d  train %.6f  validation %.6f  lr %.3g  %.0f pos/s  %.1f s  ETA %s\n",
                     e.epoch, s.options.epochs, e.trainLoss, e.validationLoss, e.learningRate,
                     e.positionsPerSecond, e.seconds, clock(eta).c_str());
        if (!o.checkpoint.empty()) {
            createDir(fs::path(o.checkpoint).parent_path(), checkpointWhat);
            saveCheckpoint(o.checkpoint, s);
        }
    };
    const auto t1 = std::chrono::steady_clock::now();
    train(state, data, split, threads, cb);
    const double trainSeconds = secondsSince(t1);

    // The float model's validation loss, then the integer network's as the engine computes it.
    const double floatLoss =
        split.validation.empty() ? NAN : meanLoss(state.model, data, split.validation, opt.loss, threads);
    char description[256];  // the file keeps 63 bytes
    std::snprintf(description, sizeof description, "%lld positions, %d epochs, lambda %.2f, val loss %.6f",
                  (long long)data.size(), state.epochsDone, opt.loss.lambda, floatLoss);
    const QuantisedNet net = quantise(state.model, description);
    const NetBounds bounds = netBounds(net);
    const double quantLoss =
        split.validation.empty() ? NAN : quantisedLoss(net, data, split.validation, opt.loss, threads);
    double sumDiff = 0, maxDiff = 0;
    Scratch scratch;
    scratch.reset(opt.hidden);
    for (std::uint32_t i : split.validation) {
        const double diff = std::abs(double(evaluateQuantised(net, data.positions[i])) -
                                     double(forward(state.model, data.positions[i], scratch)) * SCALE);
        sumDiff += diff;
        maxDiff = std::max(maxDiff, diff);
    }
    const double meanDiff = split.validation.empty() ? 0 : sumDiff / double(split.validation.size());
    createDir(outDir(o.out), outWhat);
    const std::string path = writeNetFile(o.out, net);
    const std::string name = fs::path(path).filename().string();
    const auto bytes = std::int64_t(fs::file_size(path));
    const double positionsPerSecond = trainedSeconds > 0 ? double(trainedPositions) / trainedSeconds : NAN;

    // With --json, stdout has the report alone and this summary goes to stderr.
    FILE* summary = o.json ? stderr : stdout;
    std::fprintf(summary, "positions %lld (train %zu, validation %zu; %lld with a score)%s\n",
                 (long long)data.size(), split.train.size(), split.validation.size(),
                 (long long)data.withScore, dropped.c_str());
    if (!state.initNetwork.empty()) std::fprintf(summary, "started from %s\n", state.initNetwork.c_str());
    std::fprintf(summary, "%-6s %-10s %-10s %-12s %s\n", "epoch", "train", "validation", "positions/s",
                 "seconds");
    std::fprintf(summary, "%-6d %-10s %-10.6f\n", resumedFrom, "", startValidationLoss);
    for (const EpochStats& e : state.history)
        if (e.epoch > resumedFrom)
            std::fprintf(summary, "%-6d %-10.6f %-10.6f %-12.0f %.1f\n", e.epoch, e.trainLoss,
                         e.validationLoss, e.positionsPerSecond, e.seconds);
    std::fprintf(summary, "training speed: %.0f positions/s on %d threads\n", positionsPerSecond, threads);
    std::fprintf(summary,
                 "validation loss: float %.6f, quantised %.6f; |int - float| %.2f cp mean, %.1f cp max\n",
                 floatLoss, quantLoss, meanDiff, maxDiff);
    std::fprintf(summary, "bounds: accumulator %lld of 32767, output sum %lld of 2^31 (%.1f%%)\n",
                 (long long)bounds.accumulator, (long long)bounds.outputSum,
                 100.0 * double(bounds.outputSum) / double(std::int64_t(1) << 31));
    std::fprintf(summary, "wrote %s (%lld bytes): %s\n", path.c_str(), (long long)bytes,
                 net.description.c_str());

    if (o.json) {
        nlohmann::json j;
        j["network"] = path;
        j["name"] = name;
        j["bytes"] = bytes;
        j["description"] = net.description;
        j["hidden"] = opt.hidden;
        // The network the run started from (on a resumed run: the checkpoint's), null for random weights.
        j["init"] = state.initNetwork.empty() ? nlohmann::json(nullptr) : nlohmann::json(state.initNetwork);
        j["init_file"] = o.init.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.init);
        j["files"] = files;
        j["validation_files"] = validationFiles;
        j["positions"] = data.size();
        j["positions_with_score"] = data.withScore;
        j["dedup"] = o.dedup;
        j["duplicates"] = data.duplicates;  // repeated positions dropped (0 without --dedup)
        j["train_positions"] = split.train.size();
        j["validation_positions"] = split.validation.size();
        j["validation_split"] = splitName(opt.validationSplit);
        j["validation_fraction"] = opt.validationSplit == SplitMode::File
                                       ? nlohmann::json(nullptr)
                                       : nlohmann::json(opt.validationFraction);
        j["data_memory_bytes"] = data.memoryBytes();
        j["peak_resident_kib"] = peakResidentKiB();
        j["threads"] = threads;
        j["epochs"] = state.epochsDone;
        j["resumed_from_epoch"] = resumedFrom;
        j["checkpoint"] = o.checkpoint.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.checkpoint);
        j["batch"] = opt.batchSize;
        j["lr"] = opt.learningRate;
        j["lr_final_ratio"] = opt.finalLearningRateRatio;
        j["weight_decay"] = opt.adam.weightDecay;
        j["lambda"] = opt.loss.lambda;
        j["wdl_k"] = opt.loss.wdlK;
        j["seed"] = opt.seed;
        j["dense_optimizer"] = opt.denseOptimizer;
        j["start_validation_loss"] = number(startValidationLoss);
        j["loss_curve"] = nlohmann::json::array();
        for (const EpochStats& e : state.history)
            j["loss_curve"].push_back({{"epoch", e.epoch},
                                       {"train_loss", e.trainLoss},
                                       {"validation_loss", number(e.validationLoss)},
                                       {"positions_per_second", e.positionsPerSecond},
                                       {"seconds", e.seconds},
                                       {"learning_rate", e.learningRate}});
        j["positions_per_second"] = number(positionsPerSecond);
        j["final_validation_loss_float"] = number(floatLoss);
        j["final_validation_loss_quantised"] = number(quantLoss);
        j["quantisation_cp_mean_abs"] = meanDiff;
        j["quantisation_cp_max_abs"] = maxDiff;
        j["accumulator_bound"] = bounds.accumulator;
        j["output_sum_bound"] = bounds.outputSum;
        j["read_seconds"] = readSeconds;
        j["train_seconds"] = trainSeconds;
        j["seconds"] = secondsSince(t0);
        std::cout << j.dump(2) << std::endl;
    }
    return 0;
}

}  // namespace

int runNnueCommand(int argc, char** argv) {
    CLI::App app{"xq-tuner nnue: train the engine's network (docs/nnue.md) on `FEN ; result ; score` data"};
    app.name("xq-tuner nnue");
    app.footer(
        "Progress goes to stderr; stdout has a summary, or with --json the report alone. Exit codes: 0 done, "
        "1 "
        "bad data, checkpoint or output file (named, with the line for data), 2 bad options.");
    CliOptions o;
    TrainerOptions& t = o.trainer;
    app.add_option("data,--data", o.data,
                   "data files or directories (*.txt, *.txt.gz in a directory; `FEN ; result ; score` lines, "
                   "plain or gzip)")
        ->required();
    app.add_option("--out", o.out,
                   "directory to write the network in, named xq-<sha256 prefix>.nnue (created if missing); "
                   "or a file name ending in .nnue")
        ->required();
    app.add_option(
           "--init", o.init,
           "warm start: fine-tune this network file (the engine's format; its H is the run's) instead "
           "of random weights; on an existing --checkpoint the checkpoint's weights win and it must "
           "have started from this network")
        ->check(CLI::ExistingFile);
    app.add_option("--hidden", t.hidden, "hidden size H per perspective (with --init: the network's)")
        ->check(wholeNumberIn(16, 2048, 16))
        ->capture_default_str();
    app.add_option("--epochs", t.epochs, "passes over the training positions (on --checkpoint: the new end)")
        ->check(wholeNumberIn(1, 100000))
        ->capture_default_str();
    app.add_option("--batch", t.batchSize, "positions per mini-batch")
        ->check(wholeNumberIn(1, 1 << 24))
        ->capture_default_str();
    app.add_option("--lr", t.learningRate, "AdamW's learning rate at the start")
        ->check(numberIn(0, 10, true))
        ->capture_default_str();
    app.add_option("--lr-final-ratio", t.finalLearningRateRatio, "the cosine schedule ends at lr times this")
        ->check(numberIn(0, 1))
        ->capture_default_str();
    app.add_option("--wd,--weight-decay", t.adam.weightDecay, "AdamW's decoupled weight decay")
        ->check(numberIn(0, 1))
        ->capture_default_str();
    app.add_option("--lambda", t.loss.lambda,
                   "the target's blend: lambda * sigmoid(score / K) + (1 - lambda) * result (the result "
                   "alone for a line without a score)")
        ->check(numberIn(0, 1))
        ->capture_default_str();
    app.add_option("--wdl-k", t.loss.wdlK, "K of sigmoid(cp / K)")
        ->check(numberIn(0, 1e6, true))
        ->capture_default_str();
    app.add_option("--validation", o.validation,
                   "a fraction of the data held out (0 to " +
                       CLI::detail::to_string(MAX_VALIDATION_FRACTION) +
                       "; 0: none), or files/directories of validation positions")
        ->check(CLI::Validator(
            [](std::string& s) -> std::string {
                const std::optional<double> v = validationFraction(s);
                if (v && (*v < 0 || *v > MAX_VALIDATION_FRACTION))
                    return s + " is not a fraction from 0 to " +
                           CLI::detail::to_string(MAX_VALIDATION_FRACTION);
                std::error_code ec;
                if (!v && !fs::exists(s, ec)) return s + ": not a fraction, and no such file or directory";
                return {};
            },
            "FRACTION|FILE"))
        ->capture_default_str();
    app.add_option(
           "--validation-split", o.validationSplit,
           "with a fraction: shuffle (a seeded shuffle picks the positions) or tail (the last positions "
           "as read: whole games, as self-play files keep a game together)")
        ->check(CLI::IsMember({"shuffle", "tail"}))
        ->capture_default_str();
    app.add_option("--threads", o.threads,
                   "threads (0: all cores); on a busy machine OMP_WAIT_POLICY=passive in the environment, or "
                   "1 thread, can be faster (tuner/README.md)")
        ->check(wholeNumberIn(0, 1024));
    app.add_option("--seed", t.seed, "seed of the start weights, the split and the shuffles")
        ->capture_default_str();
    app.add_option(
        "--checkpoint", o.checkpoint,
        "the training state, saved after every epoch; when the file exists the run resumes from it "
        "(same data; hyper-parameters given must agree, --epochs may extend the run)");
    app.add_flag("--json", o.json,
                 "print a JSON report on stdout (loss curve, positions, positions/s, network)");
    app.add_flag(
        "--dedup", o.dedup,
        "keep the first of repeated positions across all data files (the same Zobrist key: pieces and "
        "side to move, as `xq data export`); the others are counted and dropped");
    app.add_option("--max-positions", o.maxPositions, "read at most this many training positions (0: all)")
        ->check(wholeNumberIn(0, std::numeric_limits<std::uint32_t>::max()));
    app.add_option("--progress-seconds", o.progressSeconds, "seconds between progress lines within an epoch")
        ->check(numberIn(0, 1e9, true))
        ->capture_default_str();
    app.add_flag("--dense-optimizer", t.denseOptimizer,
                 "update every first-layer row each step (for measuring)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }
    t.validationSplit = o.validationSplit == "tail" ? SplitMode::Tail : SplitMode::Shuffle;
    try {
        return run(app, o);
    } catch (const UsageError& e) {
        std::cerr << "xq-tuner nnue: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "xq-tuner nnue: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace xq::tuner::nnue
