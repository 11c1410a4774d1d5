// The player behind `genmove`: picks the engine for the rules, applies the level and the clock, asks the
// solver first on small boards, and decides when to resign.
//
// Engines (`--engine`, GTP `xq-engine`):
//   auto         alpha-beta under the capture rule set, tactical MCTS under the go rule set (default);
//   alphabeta    search.h;   mcts   tactical-playout MCTS;   random-mcts   the plain UCT baseline (mcts.h).
// Under Atari Go (target 1) on boards up to 7x7 at full strength, auto and alphabeta first give the
// solver 40% of the move's time, with a table kept across moves: a proven win or draw is played at once.
//
// Levels, the Skill Level (`--level N`, GTP `level N` or `xq-level N`), 0 (weakest) to 20 (full strength,
// the default), for a play page: below 20 the search gets a node budget of 200 * 1.6^level nodes (alpha-beta)
// or 20 * 1.6^level playouts (MCTS), on top of the clock, and with probability 0.6 * ((20 - level) / 20)^2
// plays a random sane move instead (legal, not a self-atari; saving the largest group in atari that can be
// saved, by extending or capturing back): 60% at level 0, 15% at level 10, under 1% at 19. The search's
// move at those levels is checked the same way (Player::steady): a weak level may misjudge, but it takes a
// capture that wins at once, answers an atari and never leaves a group of three stones or more in atari
// when another move does not. The
// solver is used at level 20 only. Random choices follow `seed`, so games are reproducible.
//
// Resigning: at full strength, on a loss the alpha-beta search proves under Atari Go (its table ignores
// the game's history, which superko makes matter under the other rules), or on MCTS's resign threshold.
//
// Time: `moveTime` seconds per move if set; otherwise the GTP clock (time_settings, time_left), spending
// remaining / max(8, empty points / 2) plus 80% of a byo-yomi period's share per move, at most 40% of
// what is left, less a 30 ms margin for the answer; with no clock, `defaultMoveTime` (1 s) unless a node
// limit (`--nodes`) is set, which then is the only limit.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "goengine/board.h"
#include "goengine/mcts.h"
#include "goengine/search.h"
#include "goengine/solver.h"

namespace xq::go {

enum class EngineKind : std::uint8_t { Auto, AlphaBeta, Mcts, RandomMcts };
const char* engineName(EngineKind k);
std::optional<EngineKind> parseEngine(const std::string& name);

constexpr int kMaxLevel = 20;

struct PlayerOptions {
    EngineKind engine = EngineKind::Auto;
    int level = kMaxLevel;
    std::uint64_t nodes = 0;       // per move; 0: none
    double moveTime = 0;           // fixed seconds per move; 0: the clock decides
    double defaultMoveTime = 1.0;  // with no clock and no node limit
    std::size_t hashMegabytes = 64;
    bool solver = true;
    std::uint64_t seed = 1;
};

// The GTP clock: time_settings and time_left, seconds.
struct GameClock {
    bool set = false;
    double mainTime = 0, byoTime = 0;
    int byoStones = 0;
    double left[2] = {0, 0};
    int stonesLeft[2] = {0, 0};  // 0: in main time
    bool unlimited() const { return !set || (byoTime > 0 && byoStones == 0); }
    void settings(double main, double byo, int stones);
    void spend(Color c, double seconds);  // our own bookkeeping between time_left commands
};

struct Decision {
    Point move = kPass;
    bool resign = false;
    std::string info;
};

class Player {
  public:
    explicit Player(PlayerOptions options = {});
    ~Player();
    PlayerOptions& options() { return o_; }
    // Chooses a move for the side to move of b (b is left as it was).
    Decision genmove(Board& b, const GameClock& clock);
    // Seconds to spend on this move (0: no time limit).
    double budget(const Board& b, const GameClock& clock) const;
    void newGame();  // forgets the tables: a new game, or new rules for this one

  private:
    EngineKind effectiveEngine(const Board& b) const;
    std::optional<Decision> trySolver(Board& b, double seconds);
    Point randomSaneMove(Board& b);
    // The weaker levels' check on a move: a capture that wins at once is played, a group in atari that
    // can be saved is saved (the largest first), and no move leaves a group of three stones or more in
    // atari when another move does not.
    Point steady(Board& b, Point move);

    PlayerOptions o_;
    std::mt19937_64 rng_;
    std::unique_ptr<AlphaBeta> alphaBeta_;
    std::unique_ptr<Solver> solver_;
    int solverSize_ = 0;
    double solverKomi_ = 0;
};

}  // namespace xq::go
