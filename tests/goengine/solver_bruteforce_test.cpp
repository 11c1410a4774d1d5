// The solver against a brute-force proof written on the rules library alone (capturego/position.h and
// result.h): minimax over every legal move, passes included, the game ended by judge(), positional
// superko applied by the library's own history along each line. On random 5x5 positions near the end,
// both sides to move, with and without a pending pass: Atari Go (with and without komi) and target 2;
// and positions of random games under targets 2 to 4 that went through captures, solved with the game's
// history, where superko bans moves along the search (the general search's table must not carry a value
// across paths that ban differently).
// (Under the go rule set games run through captures and refills for as long as superko allows, far beyond
// a brute force even with two empty points: the solver's general search is not checked there.)
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <random>
#include <unordered_map>

#include "capturego/notation.h"
#include "capturego/position_text.h"
#include "capturego/result.h"
#include "goengine/convert.h"
#include "goengine/solver.h"

namespace solver_bruteforce_test {

using namespace xq::go;

namespace {

std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

// The value of `pos` for its side to move: 1 win, 0 draw, -1 loss. Memoised on the position (stones,
// side to move, passes, captures) and, when `withHistory`, the set of stone placements seen so far in the
// game, on which superko legality depends: exact under every rule set. Without it (Atari Go only, where no
// placement can repeat before the game ends) the memo is far smaller.
class BruteForce {
  public:
    explicit BruteForce(bool withHistory, std::uint64_t nodeLimit)
        : history_(withHistory), limit_(nodeLimit) {}
    int value(cg::Position& pos) {
        if (++nodes_ > limit_) return 0;  // the caller checks exhausted()
        const cg::Result r = cg::judge(pos);
        if (r.isOver()) {
            if (r.outcome == cg::Outcome::Draw) return 0;
            return (r.outcome == cg::Outcome::BlackWins) == (pos.toMove() == cg::Color::Black) ? 1 : -1;
        }
        std::uint64_t key = pos.hash() ^ (pos.toMove() == cg::Color::White ? 0x9E3779B97F4A7C15ULL : 0) ^
                            (std::uint64_t(pos.consecutivePasses()) << 62) ^
                            (std::uint64_t(pos.captures(cg::Color::Black)) * 0xBF58476D1CE4E5B9ULL) ^
                            (std::uint64_t(pos.captures(cg::Color::White)) * 0x94D049BB133111EBULL);
        if (history_) {
            std::vector<std::uint64_t> seen = pos.history();
            std::sort(seen.begin(), seen.end());
            seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
            for (std::uint64_t h : seen) key += mix(h);
        }
        if (auto it = table_.find(key); it != table_.end()) return it->second;
        int best = -2;
        for (cg::Move m : pos.legalMoves()) {
            pos.play(m);
            best = std::max(best, -value(pos));
            pos.undo();
            if (best == 1) break;
        }
        table_[key] = best;
        return best;
    }
    bool exhausted() const { return nodes_ > limit_; }
    std::uint64_t nodes() const { return nodes_; }

  private:
    bool history_;
    std::uint64_t limit_, nodes_ = 0;
    std::unordered_map<std::uint64_t, int> table_;
};

// A position after random moves from the empty board, with `empties` empty points left, nobody past the
// target and no two passes; nullopt when the random game ended first.
std::optional<cg::Position> randomPosition(std::mt19937_64& rng, int size, cg::Rules rules, int empties) {
    cg::Position pos(size, rules);
    while (pos.stoneCount(cg::Color::Black) + pos.stoneCount(cg::Color::White) < size * size - empties) {
        std::vector<cg::Move> legal = pos.legalMoves();
        legal.pop_back();  // the pass
        if (legal.empty()) return std::nullopt;
        pos.play(legal[rng() % legal.size()]);
        if (cg::judge(pos).isOver()) return std::nullopt;
    }
    cg::Position start = pos;  // a fresh game: no history, as the solver's root has none
    start.setToMove(rng() % 2 ? cg::Color::White : cg::Color::Black);
    if (rng() % 4 == 0) start.setConsecutivePasses(1);
    return start;
}

int solverValue(const SolveResult& r, cg::Color toMove) {
    if (r.winner == Winner::Draw) return 0;
    return (r.winner == Winner::Black) == (toMove == cg::Color::Black) ? 1 : -1;
}

struct Tally {
    int compared = 0, wins = 0, losses = 0, draws = 0;
    int dropped = 0;  // the brute force or the solver hit its limit
    int bans = 0;     // compared positions whose proof met a superko ban
    double seconds = 0;
};

// Compares the solver with the brute force on `start` (whose history, if any, is `earlier` on the solver's
// board). Positions either side cannot finish within its limit are counted in `dropped`.
void compare(const cg::Position& start, bool withHistory, std::uint64_t limit, Tally& t,
             const std::vector<SmallPos>& earlier = {}) {
    const auto t0 = std::chrono::steady_clock::now();
    BruteForce bf(withHistory, limit);
    cg::Position work = start;
    const int want = bf.value(work);
    if (bf.exhausted()) {
        ++t.dropped;
        return;
    }
    SolverOptions o;
    o.hashMegabytes = 8;
    o.rules = engineRules(start.rules());
    o.nodeLimit = 20'000'000;
    Solver solver(start.size(), o);
    const SmallPos root = smallFromPosition(solver.geometry(), start);
    const SolveResult r = solver.solve(root, earlier);
    if (!r.solved) {
        ++t.dropped;
        return;
    }
    t.bans += r.superkoConflicts;
    ASSERT_EQ(solverValue(r, start.toMove()), want)
        << cg::positionText(start) << "\n"
        << cg::diagram(start) << "solver nodes " << r.nodes << ", brute force nodes " << bf.nodes();
    // The proving move achieves the value.
    if (r.move >= -1) {
        cg::Move m = r.move == -1
                         ? cg::Move::pass()
                         : cg::Move::at(solver.geometry().col(r.move), solver.geometry().row(r.move));
        cg::Position after = start;
        ASSERT_TRUE(after.play(m)) << cg::moveName(m);
        BruteForce check(withHistory, limit * 2);
        EXPECT_EQ(-check.value(after), want) << cg::positionText(start) << " move " << cg::moveName(m);
    }
    ++t.compared;
    t.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    (want > 0 ? t.wins : want < 0 ? t.losses : t.draws) += 1;
}

}  // namespace

TEST(GoSolverBruteForce, AtariGoOnFiveByFiveNearTheEnd) {
    std::mt19937_64 rng(5);
    Tally t;
    for (int i = 0; i < 120; ++i) {
        auto pos = randomPosition(rng, 5, cg::Rules::capture(1), 9 + int(rng() % 6));
        if (!pos) continue;
        compare(*pos, false, 3'000'000, t);
        if (HasFatalFailure()) return;
    }
    std::cout << "compared " << t.compared << " (wins " << t.wins << ", losses " << t.losses << ", draws "
              << t.draws << ") in " << t.seconds << " s\n";
    EXPECT_GT(t.compared, 60);
    EXPECT_GT(t.wins, 5);
    EXPECT_GT(t.losses, 5);
}

TEST(GoSolverBruteForce, AtariGoWithKomiCanBeDecidedByArea) {
    std::mt19937_64 rng(6);
    Tally t;
    for (int i = 0; i < 60; ++i) {
        auto pos = randomPosition(rng, 5, cg::Rules::capture(1, i % 2 ? 0.5 : -2), 6 + int(rng() % 5));
        if (!pos) continue;
        compare(*pos, false, 3'000'000, t);
        if (HasFatalFailure()) return;
    }
    EXPECT_GT(t.compared, 30);
}

// A random game under `rules` that goes on until `empties` points are empty, preferring captures (half
// of the moves capture when they can), so that kos and refills arise; the position keeps its history.
// `earlier` gets the game's positions before the last on the solver's board. nullopt if the game ended
// or no capture happened.
std::optional<cg::Position> randomGame(std::mt19937_64& rng, int size, cg::Rules rules, int empties,
                                       std::vector<SmallPos>& earlier) {
    const SmallGeometry& g = SmallGeometry::of(size);
    cg::Position pos(size, rules);
    earlier.clear();
    for (int moves = 0; moves < 200; ++moves) {
        if (pos.stoneCount(cg::Color::Black) + pos.stoneCount(cg::Color::White) >= size * size - empties) {
            if (pos.captures(cg::Color::Black) + pos.captures(cg::Color::White) == 0) return std::nullopt;
            return pos;
        }
        std::vector<cg::Move> legal = pos.legalMoves(), captures;
        legal.pop_back();  // the pass
        if (legal.empty()) return std::nullopt;
        const int before = pos.captures(pos.toMove());
        for (cg::Move m : legal) {
            cg::Position next = pos;
            next.play(m);
            if (next.captures(pos.toMove()) > before) captures.push_back(m);
        }
        const std::vector<cg::Move>& from = !captures.empty() && rng() % 2 ? captures : legal;
        earlier.push_back(smallFromPosition(g, pos));
        pos.play(from[rng() % from.size()]);
        if (cg::judge(pos).isOver()) return std::nullopt;
    }
    return std::nullopt;
}

TEST(GoSolverBruteForce, TargetsTwoToFourWithTheGamesHistoryThroughKos) {
    std::mt19937_64 rng(11);
    Tally t;
    std::vector<SmallPos> earlier;
    for (int i = 0; i < 1000 && t.compared < 300; ++i) {
        const cg::Rules rules = cg::Rules::capture(2 + i % 3, i % 3 ? 0 : 0.5);
        auto pos = randomGame(rng, 5, rules, 4 + int(rng() % 5), earlier);
        if (!pos) continue;
        compare(*pos, true, 2'000'000, t, earlier);
        if (HasFatalFailure()) return;
    }
    std::cout << "compared " << t.compared << " (wins " << t.wins << ", losses " << t.losses << ", draws "
              << t.draws << ", superko bans met " << t.bans << ", dropped " << t.dropped << ") in "
              << t.seconds << " s\n";
    EXPECT_GE(t.compared, 100);
    EXPECT_GE(t.bans, 20);
    EXPECT_LE(t.dropped, t.compared / 10);
}

TEST(GoSolverBruteForce, TargetTwoOnFewEmptyPoints) {
    std::mt19937_64 rng(7);
    Tally t;
    for (int i = 0; i < 150; ++i) {
        auto pos = randomPosition(rng, 5, cg::Rules::capture(2, i % 3 ? 0 : 0.5), 3 + int(rng() % 5));
        if (!pos) continue;
        compare(*pos, true, 300'000, t);
        if (HasFatalFailure()) return;
    }
    std::cout << "compared " << t.compared << " (wins " << t.wins << ", losses " << t.losses << ", draws "
              << t.draws << ", superko bans met " << t.bans << ", dropped " << t.dropped << ") in "
              << t.seconds << " s\n";
    EXPECT_GT(t.compared, 30);
    EXPECT_LE(t.dropped, t.compared / 10);
}

}  // namespace solver_bruteforce_test
