#include "nnue_checkpoint.h"

#include <bit>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace xq::tuner::nnue {

static_assert(std::endian::native == std::endian::little, "checkpoints are little-endian byte images");

namespace {

constexpr char CHECKPOINT_MAGIC[8] = {'X', 'Q', 'N', 'N', 'C', 'K', 'P', 'T'};
// 2: the split mode is a byte 0..2 (shuffle, tail, file) followed by the validation file's position count.
// 3: the name of the network the run started from (--init) after the data's fingerprint, a uint32 length
// and the bytes (empty: random weights). Version 2 is still read (a random start).
constexpr std::uint32_t CHECKPOINT_VERSION = 3;
constexpr std::uint32_t OLDEST_CHECKPOINT_VERSION = 2;
constexpr std::uint32_t MAX_INIT_NAME = 256;

struct Writer {
    std::string out;
    template <typename T>
    void put(T v) {
        char b[sizeof(T)];
        std::memcpy(b, &v, sizeof(T));
        out.append(b, sizeof(T));
    }
    void floats(const Floats& v) {
        put(std::uint64_t(v.size()));
        out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
    }
};

struct Reader {
    const std::string& in;
    const std::string& name;
    std::size_t at = 0;
    std::size_t end;

    [[noreturn]] void fail(const std::string& why) const { throw CheckpointError(name + ": " + why); }
    template <typename T>
    T get() {
        if (end - at < sizeof(T)) fail("truncated");
        T v;
        std::memcpy(&v, in.data() + at, sizeof(T));
        at += sizeof(T);
        return v;
    }
    void floats(Floats& v, std::size_t expected) {
        if (get<std::uint64_t>() != expected) fail("an array has the wrong size for the network");
        if ((end - at) / sizeof(float) < expected) fail("truncated");
        v.resize(expected);
        std::memcpy(v.data(), in.data() + at, expected * sizeof(float));
        at += expected * sizeof(float);
    }
};

void putModel(Writer& w, const Model& m) {
    w.floats(m.w1);
    w.floats(m.b1);
    w.floats(m.w2);
    w.put(m.b2);
}

void getModel(Reader& r, Model& m, int hidden) {
    m.hidden = hidden;
    r.floats(m.w1, std::size_t(INPUTS) * std::size_t(hidden));
    r.floats(m.b1, std::size_t(hidden));
    r.floats(m.w2, std::size_t(2 * hidden));
    m.b2 = r.get<float>();
}

}  // namespace

std::string serializeCheckpoint(const TrainerState& s) {
    Writer w;
    w.out.append(CHECKPOINT_MAGIC, sizeof CHECKPOINT_MAGIC);
    w.put(CHECKPOINT_VERSION);
    const TrainerOptions& o = s.options;
    w.put(std::int32_t(o.hidden));
    w.put(std::int32_t(o.epochs));
    w.put(std::int64_t(o.batchSize));
    for (double v : {o.learningRate, o.finalLearningRateRatio, o.loss.lambda, o.loss.wdlK, o.adam.beta1,
                     o.adam.beta2, o.adam.epsilon, o.adam.weightDecay, o.validationFraction})
        w.put(v);
    w.put(std::uint64_t(o.seed));
    w.put(std::uint8_t(o.denseOptimizer));
    w.put(std::uint8_t(o.validationSplit));
    w.put(std::int64_t(o.validationPositions));
    w.put(std::int32_t(s.epochsDone));
    w.put(std::int64_t(s.steps));
    w.put(std::int64_t(s.dataPositions));
    w.put(std::uint64_t(s.dataFingerprint));
    w.put(std::uint32_t(s.initNetwork.size()));
    w.out += s.initNetwork;
    w.put(std::uint32_t(s.history.size()));
    for (const EpochStats& e : s.history) {
        w.put(std::int32_t(e.epoch));
        for (double v :
             {e.trainLoss, e.validationLoss, e.trainSeconds, e.seconds, e.positionsPerSecond, e.learningRate})
            w.put(v);
    }
    putModel(w, s.model);
    putModel(w, s.adam.m);
    putModel(w, s.adam.v);
    w.put(fnv1a64(w.out));
    return w.out;
}

TrainerState parseCheckpoint(const std::string& bytes, const std::string& name) {
    Reader r{bytes, name, 0, bytes.size()};
    if (bytes.size() < sizeof CHECKPOINT_MAGIC + 8 ||
        std::memcmp(bytes.data(), CHECKPOINT_MAGIC, sizeof CHECKPOINT_MAGIC) != 0)
        r.fail("not a trainer checkpoint (wrong magic)");
    std::uint64_t stored;
    std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
    if (fnv1a64(std::string_view(bytes).substr(0, bytes.size() - 8)) != stored)
        r.fail("damaged (the hash does not match)");
    r.end = bytes.size() - 8;
    r.at = sizeof CHECKPOINT_MAGIC;
    const auto version = r.get<std::uint32_t>();
    if (version < OLDEST_CHECKPOINT_VERSION || version > CHECKPOINT_VERSION)
        r.fail("checkpoint version " + std::to_string(version) + ", this trainer reads " +
               std::to_string(OLDEST_CHECKPOINT_VERSION) + " to " + std::to_string(CHECKPOINT_VERSION));
    TrainerState s;
    TrainerOptions& o = s.options;
    o.hidden = r.get<std::int32_t>();
    if (o.hidden < 16 || o.hidden > 2048 || o.hidden % 16) r.fail("bad hidden size");
    o.epochs = r.get<std::int32_t>();
    o.batchSize = r.get<std::int64_t>();
    for (double* v : {&o.learningRate, &o.finalLearningRateRatio, &o.loss.lambda, &o.loss.wdlK, &o.adam.beta1,
                      &o.adam.beta2, &o.adam.epsilon, &o.adam.weightDecay, &o.validationFraction})
        *v = r.get<double>();
    o.seed = r.get<std::uint64_t>();
    o.denseOptimizer = r.get<std::uint8_t>() != 0;
    const auto split = r.get<std::uint8_t>();
    if (split > std::uint8_t(SplitMode::File)) r.fail("unknown validation split " + std::to_string(split));
    o.validationSplit = SplitMode(split);
    o.validationPositions = r.get<std::int64_t>();
    s.epochsDone = r.get<std::int32_t>();
    s.steps = r.get<std::int64_t>();
    s.dataPositions = r.get<std::int64_t>();
    s.dataFingerprint = r.get<std::uint64_t>();
    if (version >= 3) {
        const auto n = r.get<std::uint32_t>();
        if (n > MAX_INIT_NAME || r.end - r.at < n) r.fail("bad name of the start network");
        s.initNetwork.assign(bytes, r.at, n);
        r.at += n;
    }
    const auto epochs = r.get<std::uint32_t>();
    if (epochs != std::uint32_t(s.epochsDone)) r.fail("the loss history does not match the epochs done");
    for (std::uint32_t i = 0; i < epochs; ++i) {
        EpochStats e;
        e.epoch = r.get<std::int32_t>();
        for (double* v : {&e.trainLoss, &e.validationLoss, &e.trainSeconds, &e.seconds, &e.positionsPerSecond,
                          &e.learningRate})
            *v = r.get<double>();
        s.history.push_back(e);
    }
    getModel(r, s.model, o.hidden);
    getModel(r, s.adam.m, o.hidden);
    getModel(r, s.adam.v, o.hidden);
    if (r.at != r.end) r.fail("unexpected bytes after the state");
    return s;
}

void saveCheckpoint(const std::string& path, const TrainerState& state) {
    const std::string bytes = serializeCheckpoint(state);
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), std::streamsize(bytes.size()));
        if (!out.flush()) throw CheckpointError(tmp + ": cannot write");
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) throw CheckpointError(path + ": cannot rename " + tmp);
}

TrainerState loadCheckpoint(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw CheckpointError(path + ": cannot open");
    std::ostringstream ss;
    ss << in.rdbuf();
    return parseCheckpoint(ss.str(), path);
}

}  // namespace xq::tuner::nnue
