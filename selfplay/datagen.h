// Self-play training data: an engine plays itself at a fixed node count from randomised openings, and
// sampled quiet positions are labelled with the game's final result and the engine's search score. Xiangqi
// and chess engines over UCI; Capture Go engines over GTP.
//
// A library call, so that `xq datagen` and a distributed worker share it: the worker runs a slice of
// games (firstGame, games) with the test's seed and uploads each chunk the callback hands it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "board.h"
#include "dataset.h"
#include "xiangqi/rules.h"

namespace xq::tuner {

struct DatagenOptions {
    std::string enginePath;
    std::vector<std::string> engineArgs;
    std::vector<std::pair<std::string, std::string>> engineOptions;  // setoption name/value, in order
    int games = 100;
    // Game numbers firstGame .. firstGame + games - 1: each number fixes its opening and sampling, so
    // slices run on different machines never repeat each other.
    std::int64_t firstGame = 0;
    std::int64_t nodes = 5000;  // per move
    int randomPlies = 8;        // random legal plies from the game's start position
    std::uint64_t seed = 1;
    int concurrency = 1;         // games (engine processes) at once
    double sampleRate = 0.25;    // chance that a position of a game is considered at all
    int balancedCp = 150;        // openings whose first search scores beyond +-this are replayed
    int maxOpeningTries = 200;   // per game, before the game is given up
    int maxPlies = 400;          // a game this long (after the opening) is a draw
    bool skipMateScores = true;  // positions where the engine sees a mate teach the evaluation nothing
    int chunkSize = 4096;        // positions per callback
    xq::RuleConfig rules;        // Xiangqi's; chess games end by FIDE's rules
    games::Game game = games::Game::Xiangqi;
    // Capture Go: the board as `--board` reads it (games/capturego_settings.h; empty: 9x9, capture:1). The
    // engine speaks GTP, reports no scores (openings are not filtered by balance, lines carry no score) and
    // plays at its own settings (`nodes` is not told to it); random plies are stones (never a pass), and an
    // opening or a sampled position with a group in atari is left out (the next move may capture).
    std::string board;
    int startupTimeoutMs = 10000;
    int stallTimeoutMs = 10000;
};

struct DatagenStats {
    std::int64_t gamesPlayed = 0;   // finished and used
    std::int64_t gamesFailed = 0;   // an engine failure; the game's positions are dropped
    std::int64_t gamesGivenUp = 0;  // no balanced opening within maxOpeningTries
    std::int64_t openingsRejected = 0;
    std::int64_t redWins = 0, draws = 0, blackWins = 0;  // redWins: the first player's (White in chess)
    std::int64_t plies = 0;                              // engine moves played
    std::int64_t sampled = 0;                            // positions drawn by the sample rate
    std::int64_t inCheck = 0;                            // ... rejected: side to move in check
    std::int64_t noisy = 0;                              // ... rejected: a capture wins material
    std::int64_t mateScores = 0;                         // ... rejected: the engine announced a mate
    std::int64_t duplicates = 0;                         // ... rejected: seen before in this run
    std::int64_t positions = 0;                          // kept
    double seconds = 0;
    int gamesTotal = 0;
};

// Called (never concurrently) with each chunk of new, deduplicated positions; the last chunk may be
// shorter. onProgress runs (never concurrently) after each game.
using ChunkCallback = std::function<void(std::vector<LabeledPosition>& chunk)>;
using ProgressCallback = std::function<void(const DatagenStats&)>;

// Plays the games; returns when all are done or soon after `stop` becomes true (games in flight are
// dropped). Throws std::invalid_argument for bad options and std::runtime_error when the engine cannot
// be started or keeps failing; exceptions from the callbacks propagate.
DatagenStats generateData(const DatagenOptions& options, const ChunkCallback& onChunk,
                          const std::atomic<bool>& stop, const ProgressCallback& onProgress = {});

}  // namespace xq::tuner
