#include "nnue_data.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>

#include "training_set.h"

namespace xq::tuner::nnue {

PackedPosition packPosition(const Position& pos, float result, std::optional<int> score) {
    PackedPosition p;
    int n = 0;
    bool tooMany = false;
    forEachSquare(pos.occupied(), [&](Square s) {
        if (n == MAX_ACTIVE) {
            tooMany = true;
            return;
        }
        p.red[std::size_t(n++)] = std::uint16_t(featureIndex(RED, pos.pieceOn(s), s));
    });
    if (tooMany) throw DataError("more than 32 pieces on the board");
    p.count = std::uint8_t(n);
    p.stm = std::uint8_t(pos.sideToMove());
    p.score = score ? std::int16_t(*score) : NO_SCORE;  // |score| <= MaxDataScore = 30000 fits
    p.result = result;
    return p;
}

std::uint64_t NnueData::fingerprint() const {
    std::uint64_t h = fnv1a64({});
    auto mix = [&h](const void* data, std::size_t n) { h = fnv1a64({static_cast<const char*>(data), n}, h); };
    for (const PackedPosition& p : positions) {
        mix(p.red.data(), std::size_t(p.count) * sizeof(std::uint16_t));
        mix(&p.count, 1);
        mix(&p.stm, 1);
        mix(&p.score, sizeof p.score);
        mix(&p.result, sizeof p.result);
    }
    return h;
}

std::vector<std::string> dataFiles(const std::vector<std::string>& paths) {
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    for (const std::string& path : paths) {
        std::error_code ec;
        if (fs::is_directory(path, ec)) {
            std::vector<std::string> found;
            for (const fs::directory_entry& e : fs::directory_iterator(path, ec)) {
                const std::string name = e.path().filename().string();
                if (!e.is_regular_file() || name.starts_with(".") || name.starts_with("tmp-")) continue;
                if (endsWith(name, ".txt") || endsWith(name, ".txt.gz")) found.push_back(e.path().string());
            }
            if (ec) throw DataError(path + ": cannot list: " + ec.message());
            if (found.empty()) throw DataError(path + ": no data files (*.txt, *.txt.gz) in the directory");
            std::sort(found.begin(), found.end());
            out.insert(out.end(), found.begin(), found.end());
        } else if (fs::is_regular_file(path, ec)) {
            out.push_back(path);
        } else {
            throw DataError(path + ": no such file or directory");
        }
    }
    return out;
}

namespace {

// Lines of one file in blocks, numbered from 1 (plain or gzip, as readDataFile).
class LineReader {
  public:
    explicit LineReader(const std::string& path) : path_(path) {
        file_ = gzopen(path.c_str(), "rb");
        if (!file_) throw DataError(path + ": cannot open: " + std::strerror(errno));
        gzbuffer(file_, 1 << 17);
    }
    ~LineReader() { gzclose(file_); }
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    // Fills lines (and their numbers) with up to `max` lines; false at the end of the file.
    bool next(std::vector<std::string>& lines, std::vector<long>& numbers, std::size_t max) {
        lines.clear();
        numbers.clear();
        std::string line;
        while (lines.size() < max) {
            line.clear();
            bool gotAny = false;
            while (gzgets(file_, buf_, int(sizeof buf_))) {
                gotAny = true;
                line += buf_;
                if (line.back() == '\n') break;
            }
            if (!gotAny) break;
            ++lineNo_;
            lines.push_back(std::move(line));
            numbers.push_back(lineNo_);
        }
        int err = 0;
        const char* msg = gzerror(file_, &err);
        if (err != Z_OK && err != Z_STREAM_END) {
            std::string why = msg ? msg : "read error";
            if (why.starts_with(path_ + ": ")) why.erase(0, path_.size() + 2);  // zlib names the file too
            throw DataError(path_ + ":" + std::to_string(lineNo_ + 1) + ": " + why);
        }
        return !lines.empty();
    }

  private:
    std::string path_;
    gzFile file_ = nullptr;
    char buf_[4096];
    long lineNo_ = 0;
};

}  // namespace

NnueData readNnueData(const std::vector<std::string>& files, int threads, std::int64_t maxPositions,
                      const std::function<void(const std::string&, const NnueData&)>& onFile,
                      PositionKeys* seen) {
    threads = resolveThreads(threads);
    NnueData data;
    constexpr std::size_t BLOCK = 1 << 15;
    std::vector<std::string> lines;
    std::vector<long> numbers;
    std::vector<PackedPosition> packed(BLOCK);
    std::vector<signed char> kept(BLOCK);  // 1 position, 0 blank or comment line
    std::vector<std::uint64_t> keys(seen ? BLOCK : 0);
    const auto limit = maxPositions > 0 ? maxPositions : std::numeric_limits<std::int64_t>::max();
    for (const std::string& path : files) {
        if (data.size() >= limit) break;
        LineReader reader(path);
        data.files.push_back(path);
        while (data.size() < limit && reader.next(lines, numbers, BLOCK)) {
            const auto n = std::int64_t(lines.size());
            std::int64_t bad = -1;
            std::string why;
#pragma omp parallel num_threads(threads)
            {
                // One of each per thread: the FEN's string keeps its capacity, and the position is set by
                // each line's FEN as parseDataLine checks it (no second parse).
                LabeledPosition p;
                Position pos;
#pragma omp for schedule(dynamic, 256)
                for (std::int64_t i = 0; i < n; ++i) {
                    try {
                        kept[std::size_t(i)] = 0;
                        if (!parseDataLine(lines[std::size_t(i)], p, &pos)) continue;
                        if (const games::Game game = dataGame(p.fen); game != games::Game::Xiangqi)
                            throw DataError(std::string("a ") +
                                            (game == games::Game::Chess ? "chess" : "Capture Go") +
                                            " position (the network plays Xiangqi)");
                        packed[std::size_t(i)] = packPosition(pos, p.result, p.score);
                        if (seen) keys[std::size_t(i)] = pos.key();
                        kept[std::size_t(i)] = 1;
                    } catch (const std::exception& e) {
#pragma omp critical(nnue_read_error)
                        if (bad < 0 || i < bad) {
                            bad = i;
                            why = e.what();
                        }
                    }
                }
            }
            if (bad >= 0)
                throw DataError(path + ":" + std::to_string(numbers[std::size_t(bad)]) + ": " + why);
            for (std::int64_t i = 0; i < n && data.size() < limit; ++i) {
                if (!kept[std::size_t(i)]) continue;
                if (seen && !seen->insert(keys[std::size_t(i)]).second) {
                    ++data.duplicates;
                    continue;
                }
                data.positions.push_back(packed[std::size_t(i)]);
                data.withScore += packed[std::size_t(i)].score != NO_SCORE;
            }
        }
        if (onFile) onFile(path, data);
    }
    if (data.size() > std::int64_t(std::numeric_limits<std::uint32_t>::max()))
        throw DataError("too many positions (the trainer indexes them with 32 bits)");
    data.positions.shrink_to_fit();
    return data;
}

Split splitData(std::int64_t size, double validationFraction, std::uint64_t seed, SplitMode mode) {
    std::vector<std::uint32_t> order(std::size_t(std::max<std::int64_t>(size, 0)));
    std::iota(order.begin(), order.end(), 0u);
    if (mode == SplitMode::File)
        throw std::invalid_argument("splitData: a validation file's split is splitLast");
    if (mode == SplitMode::Shuffle) {
        std::mt19937_64 rng(seed);
        std::shuffle(order.begin(), order.end(), rng);
    } else {
        std::reverse(order.begin(), order.end());
    }
    auto validation = std::int64_t(std::llround(double(size) * std::clamp(validationFraction, 0.0, 1.0)));
    if (validationFraction > 0 && size >= 2) validation = std::clamp<std::int64_t>(validation, 1, size - 1);
    Split s;
    s.validation.assign(order.begin(), order.begin() + validation);
    s.train.assign(order.begin() + validation, order.end());
    // Sorted, so that evaluating and shuffling start from an order that does not depend on the split's
    // shuffle (the epochs shuffle the training indices themselves).
    std::sort(s.validation.begin(), s.validation.end());
    std::sort(s.train.begin(), s.train.end());
    return s;
}

Split splitLast(std::int64_t size, std::int64_t validation) {
    size = std::max<std::int64_t>(size, 0);
    validation = std::clamp<std::int64_t>(validation, 0, size);
    Split s;
    for (std::int64_t i = 0; i < size; ++i)
        (i < size - validation ? s.train : s.validation).push_back(std::uint32_t(i));
    return s;
}

}  // namespace xq::tuner::nnue
