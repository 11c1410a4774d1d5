// `xq-go solve`: proves the game-theoretic result (win for Black, win for White, or draw) of a position
// on boards up to 7x7, with the move that achieves it.
//
// Search. A null-window alpha-beta over the three values -1/0/+1 of the side to move: first "does the side
// to move win?", then, if not, "does it at least draw?". Depth-first to the end of the game (a game of
// Atari Go lasts at most about two moves per point), with every bound it proves exact, so the table
// keeps it for good. Iterative deepening (depth limits whose unresolved leaves count as "unknown"; forced
// moves use no depth) is an option, off by default: it cost 235 times the nodes on 4x4 and did not
// finish 5x5 in the time plain depth-first search took 20 s, because leaves of Atari Go are decided by
// the end of the game, and shallow iterations prove little. Moves are ordered by the table's move,
// ataris, liberties and a history table. Table keys are the least of the eight symmetric hashes, so one
// entry serves all symmetric positions.
//
// Atari Go knowledge (target 1), every rule exact under our rules:
//  - the side to move that can capture wins at once;
//  - a stone that leaves its own group with one liberty loses (the opponent captures), so such moves
//    are never tried, and a side with a group in atari may only play that group's liberty;
//  - a side whose group in atari cannot be saved loses (passing does not help);
//  - a ladder reader (the attacker ataris without leaving itself in atari, the defender's only
//    replies are the forced extensions; a budget of nodes per call) proves wins without search.
// Passes. A pass is always legal and is searched as a move (last). After a pass, the opponent's pass
// ends the game: with the capture counts equal (always so under target 1) the Tromp-Taylor area with
// komi decides, and equal area is a draw. The "last move was a pass" flag is part of the position and of
// its key. Under target 1 no position can repeat before the game ends (stones are only added), so
// superko never bites and table results do not depend on the path. With `passAllowed` false the solver
// plays the classic Atari Go of the literature: no passes, and a side that can only self-atari loses.
//
// Other rules (target above 1, or the go rule set): plain alpha-beta over every legal move with
// positional superko checked against the game so far and the search path. A value there depends on the
// earlier positions that superko may ban below the node (graph history interaction), so the table key
// adds a hash of those that can still come back. An earlier position comes back only once the stones it
// lacks are captured, and so is every stone placed meanwhile that it does not hold; each capture takes a
// stone of its player, and before the last capture of the game each side captures at most target - 1 -
// (its captures) stones: counting stones rules most earlier positions out (solver.cpp, mayRecur; under
// the go rules every one counts). Two nodes with one key thus have the same legal moves all the way
// down, and every result is exact; `superkoConflicts` only reports that a ban was met. The cost, 4x4
// from the empty board under target 2: 1.57M nodes in 0.53 s, against 0.76M in 0.26 s with the
// history-blind key that could be wrong.
//
// No stone move with passes forbidden (`passAllowed` false): the position is scored as two passes would
// end it (captures, then area with komi), in both searches. The seed rules (shared/seeds, Capture Go)
// make passing every player's right and end the game when both pass; they have no rule by which a player
// without a move loses (that is Xiangqi's stalemate rule). A side whose every move is a self-atari still
// loses under target 1: it has moves, and each is captured.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "goengine/small_board.h"
#include "goengine/solver_table.h"
#include "goengine/types.h"

namespace xq::go {

struct SolverOptions {
    Rules rules = Rules::capture(1, 0.0);
    bool passAllowed = true;
    bool symmetry = true;
    bool iterativeDeepening = false;  // measured slower here: see solve_command.h
    bool ladders = true;
    bool plainSearch = false;  // target 1 too through the plain search (a cross-check for tests)
    int ladderBudget = 64;     // ladder reader nodes per call
    std::size_t hashMegabytes = 512;
    std::uint64_t nodeLimit = 0;  // 0: none
    double timeLimit = 0;         // seconds, 0: none
    std::ostream* progress = nullptr;
    double progressInterval = 5.0;  // seconds between progress lines
};

struct SolveResult {
    bool solved = false;           // false: a node or time limit stopped the search
    Winner winner = Winner::None;  // Black, White or Draw
    int move = -2;                 // the proving first move: a point, -1 pass, -2 none (lost, or game over)
    std::string moveName;
    std::uint64_t nodes = 0;
    double seconds = 0;
    int depth = 0;                  // last iterative-deepening depth (0: depth-first to the end)
    bool superkoConflicts = false;  // other rules only: a superko ban was met (the result accounts for it)
    std::string toString() const;
    std::string toJson() const;
};

class Solver {
  public:
    Solver(int size, SolverOptions options);
    ~Solver();
    // Proves the value of `root`. `history`: the earlier positions of the game (their stones are what
    // counts), for superko under the other rules.
    SolveResult solve(const SmallPos& root, const std::vector<SmallPos>& history = {});
    // The same with this call's own limits (seconds, nodes; 0: none), keeping the table: the player
    // solves every move of a game with one table, whose proven bounds stay true.
    SolveResult solve(const SmallPos& root, const std::vector<SmallPos>& history, double seconds,
                      std::uint64_t nodes);
    const SmallGeometry& geometry() const { return g_; }
    std::uint64_t nodes() const { return nodes_; }

    // Static helpers, public for tests.
    // Whether the side to move of `pos` (target 1) wins by a ladder: a chain of ataris it survives, all
    // the defender's replies forced. `budget` is decremented per node.
    bool ladderWin(const SmallPos& pos, int& budget) const;

  private:
    enum class Tri : std::int8_t { False, True, Unknown };
    // A position of the game or of the search path (other rules): its stones and their symmetric hashes.
    struct PathEntry {
        Bits stones[2];
        std::uint64_t hash[8];
    };
    // The general search's key: the position and the earlier positions that can still recur below it.
    std::uint64_t generalKey(const SmallPos& pos, int* symmetry) const;
    bool repeats(const SmallPos& pos) const;  // its stones are those of a position of the path
    static PathEntry pathEntry(const SmallPos& pos);
    bool hasStoneMove(const SmallPos& pos) const;  // a legal move other than a pass (superko aside)
    Tri searchAtari(const SmallPos& pos, int beta, int depth, int ply, std::uint64_t key, int symmetry);
    Tri searchGeneral(const SmallPos& pos, int beta, int depth, int ply);
    Tri search(const SmallPos& pos, int beta, int depth, int ply) {
        if (!atariMode_) return searchGeneral(pos, beta, depth, ply);
        int symmetry = 0;
        std::uint64_t key = pos.canonicalKey(g_, o_.symmetry, &symmetry);
        return searchAtari(pos, beta, depth, ply, key, symmetry);
    }
    Tri rootSearch(const SmallPos& root, int beta);
    bool ladderTry(const SmallPos& pos, int x, Bits attackerAtari, int& budget) const;
    int passValue(const SmallPos& pos) const;  // value for the side to move if the game ended now
    bool stopNow();
    void report(const char* what);
    void store(std::uint64_t key, int symmetry, int beta, Tri r, int move, int depth, std::uint64_t work);

    const SmallGeometry& g_;
    SolverOptions o_;
    bool atariMode_;
    std::unique_ptr<SolverTable> table_;
    std::uint64_t nodes_ = 0;
    bool aborted_ = false;
    bool superkoConflicts_ = false;
    int rootMove_ = -2;
    std::string rootProgress_;  // "3/33 C2": the root move being searched, for progress lines
    int iteration_ = 0;
    std::vector<PathEntry> path_;  // the game and the search path (other rules)
    std::uint32_t history_[2][64] = {};
    double start_ = 0, lastReport_ = 0;
};

}  // namespace xq::go
