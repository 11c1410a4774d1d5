// Monte-Carlo tree search (UCT) in two flavours, selectable in xq-go:
//  - `random-mcts`, the baseline: uniformly random legal playouts (passing only when no move is left; under
//    the go rule set a player does not fill its own one-point eyes, without which random playouts never
//    end), and every legal move in the tree;
//  - `mcts`, with tactical playouts (capture a group in atari, save an own group in atari, avoid
//    self-ataris, then random) and, under Atari Go, the same exact pruning in the tree as the alpha-beta
//    engine. It is the engine of the go rule set.
// Values are wins (draws count half) for the player who made the move into a node; the answer is the
// most visited root move.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "goengine/board.h"
#include "goengine/search.h"

namespace xq::go {

enum class Playout : std::uint8_t { Random, Tactical };

struct MctsOptions {
    Playout playout = Playout::Tactical;
    double exploration = 0.7;
    std::uint64_t seed = 1;
    std::size_t maxNodes = 2'000'000;
    double resignBelow = 0.02;  // resign when the best move's win rate falls below this (0: never)
};

class Mcts {
  public:
    explicit Mcts(MctsOptions options = {});
    // limits.nodes counts playouts.
    SearchResult search(Board& b, const SearchLimits& limits);

  private:
    struct Node {
        Point move = kPass;
        Color mover = Empty;
        int firstChild = -1;
        int childCount = 0;
        std::uint32_t visits = 0;
        float wins = 0;
        bool expanded = false;
    };
    void expand(Board& b, int node);
    int select(int node) const;
    // Plays the scratch board out; returns the winner.
    Winner playout(Board& pb);
    Point playoutMove(Board& pb);
    Point randomMove(Board& pb, bool avoidSelfAtari);

    MctsOptions o_;
    std::mt19937_64 rng_;
    std::vector<Node> nodes_;
    Board scratch_;
    std::vector<Point> empties_;
};

}  // namespace xq::go
