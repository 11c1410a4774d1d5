// The alpha-beta engine for the capture rule set: negamax with iterative deepening, a transposition
// table, move ordering by threats (captures, ataris, saving a group in atari), killers and history, and
// exact Atari Go pruning (target 1: a capture wins at once, self-ataris lose and are not searched, a
// side with a group in atari may only save it). Leaves are scored by liberties, a ladder reader, captures
// and area.
//
// Why alpha-beta here rather than MCTS: capture races are sharp (one tempo decides, and almost every
// move loses to a concrete sequence), which full-width search with forced-move pruning reads exactly,
// while random playouts blur it; measured through `xq-go match` at equal time (see engine.h), this
// search beat both MCTS variants on 9x9 Atari Go. The go rule set is left to MCTS (mcts.h).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "goengine/board.h"

namespace xq::go {

constexpr int kWinScore = 30000;
constexpr int kWinBound = kWinScore - 1000;  // scores beyond this are proven game results

struct SearchLimits {
    double seconds = 0;       // 0: no time limit
    std::uint64_t nodes = 0;  // 0: no node limit
    int depth = 0;            // 0: no depth limit (up to 64)
    const std::atomic<bool>* stop = nullptr;
};

struct SearchResult {
    Point move = kPass;
    int score = 0;  // side to move's view; beyond ±kWinBound a proven win or loss
    int depth = 0;
    std::uint64_t nodes = 0;
    double seconds = 0;
    bool resign = false;  // the search proved the game lost
    std::string info;
};

class AlphaBeta {
  public:
    explicit AlphaBeta(std::size_t hashMegabytes = 16);
    SearchResult search(Board& b, const SearchLimits& limits);
    void clear();
    // Static score of the position for the side to move.
    int evaluate(Board& b);

  private:
    struct Entry {
        std::uint64_t key = 0;
        std::int16_t score = 0;
        std::int16_t move = -1;
        std::int8_t depth = -1;
        std::uint8_t bound = 0;  // 1 lower, 2 upper, 3 exact
    };
    struct Move {
        Point p;
        int score;
    };
    int negamax(Board& b, int depth, int alpha, int beta, int ply);
    // Moves of the side to move, ordered; returns a proven-win score instead when one is immediate.
    bool generate(Board& b, int ply, Point ttMove, std::vector<Move>& out, int& immediate);
    bool timeUp();

    std::vector<Entry> table_;
    std::uint64_t mask_ = 0;
    std::uint64_t nodes_ = 0;
    SearchLimits limits_;
    std::chrono::steady_clock::time_point start_;
    bool stopped_ = false;
    Point killers_[128][2] = {};
    int history_[2][kMaxCells] = {};
    std::vector<std::vector<Move>> moveStack_;
    Point rootBest_ = kNoPoint;
};

}  // namespace xq::go
