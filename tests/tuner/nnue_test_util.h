// Helpers of the network trainer's tests: positions from random legal playouts labelled by the
// hand-written evaluation, and a temporary directory.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <string>

#include "evaluate.h"
#include "nnue_data.h"
#include "playouts.h"

namespace xq::tuner::nnue::test {

// Scores are the hand-written evaluation (Red's view), results its sign (a win above 150 cp, a loss below
// -150): a target a small network can learn.
inline NnueData evaluatedPositions(int count, std::uint64_t seed) {
    NnueData data;
    for (const LabeledPosition& lp : tuner::test::randomPositions(count, seed)) {
        Position pos(lp.fen);
        const int score = std::clamp(eval::evaluate(pos), -3000, 3000);
        const float result = score > 150 ? 1.0f : score < -150 ? 0.0f : 0.5f;
        data.positions.push_back(packPosition(pos, result, score));
        ++data.withScore;
    }
    return data;
}

class TempDir {
  public:
    TempDir() {
        static std::atomic<int> counter{0};
        path_ = std::filesystem::temp_directory_path() /
                ("xq_nnue_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
        std::filesystem::remove_all(path_);
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string file(const std::string& name) const { return (path_ / name).string(); }
    std::string path() const { return path_.string(); }

  private:
    std::filesystem::path path_;
};

}  // namespace xq::tuner::nnue::test
