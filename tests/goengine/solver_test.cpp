// The solver: small results (3x3 against a brute force), its Atari Go knowledge against a plain full-width
// search on random positions, ladders, passes, and the classic no-pass variant.
#include "goengine/solver.h"

#include <gtest/gtest.h>

#include <random>

#include "atari_go_brute_force.h"
#include "goengine/solve_command.h"

namespace solver_test {

using namespace xq::go;

namespace {

SolverOptions quick(bool plain = false) {
    SolverOptions o;
    o.hashMegabytes = 16;
    o.iterativeDeepening = false;
    o.plainSearch = plain;
    return o;
}

SmallPos fromRows(const SmallGeometry& g, std::initializer_list<const char*> rowsTopDown, int toMove = 0) {
    SmallPos p;
    int r = g.n - 1;
    for (const char* row : rowsTopDown) {
        for (int c = 0; c < g.n; ++c) {
            if (row[c] == 'X') p.addStone(g, 0, g.index(c, r));
            if (row[c] == 'O') p.addStone(g, 1, g.index(c, r));
        }
        --r;
    }
    p.toMove = std::uint8_t(toMove);
    return p;
}

// A random position reached by `stones` random moves without captures.
SmallPos randomPosition(const SmallGeometry& g, std::mt19937_64& rng, int stones) {
    for (;;) {
        SmallPos p;
        bool ok = true;
        for (int i = 0; i < stones && ok; ++i) {
            Bits empty = g.mask & ~p.occupied();
            std::vector<int> pts;
            for (Bits e = empty; e; e &= e - 1) pts.push_back(lowestBit(e));
            bool played = false;
            for (int tries = 0; tries < 20 && !played; ++tries) {
                SmallPos t = p;
                int captured = 0;
                if (t.play(g, pts[rng() % pts.size()], &captured) && captured == 0) p = t, played = true;
            }
            ok = played;
        }
        // Only positions without a group in atari: the others are decided at once.
        for (int c = 0; c < 2 && ok; ++c)
            for (Bits rest = p.stones[c]; rest && ok;) {
                Bits grp = g.group(rest & -rest, p.stones[c]);
                rest &= ~grp;
                ok = popcount(g.neighbours(grp) & ~p.occupied()) >= 2;
            }
        if (ok) return p;
    }
}

}  // namespace

TEST(Solver, ThreeByThreeIsAWinForBlackAtTheCentreAsABruteForceProves) {
    const SmallGeometry& g = SmallGeometry::of(3);
    test::AtariGoBruteForce bf(g, true);
    const Winner want = bf.winner(SmallPos{});
    EXPECT_EQ(want, Winner::Black);
    Solver s(3, quick());
    SolveResult r = s.solve(SmallPos{});
    ASSERT_TRUE(r.solved);
    EXPECT_EQ(r.winner, want);
    EXPECT_EQ(r.moveName, "B2");
    SmallPos afterB2;
    ASSERT_TRUE(afterB2.play(g, g.parse("B2")));
    EXPECT_EQ(bf.winner(afterB2), Winner::Black);  // the proving move keeps the win
}

// Proved by the brute force in solver_values_slow.cpp (test_goengine_slow, 15 s: 5.5 million positions).
TEST(Solver, FourByFourIsADrawWithPassesAndAWhiteWinWithout) {
    Solver s(4, quick());
    SolveResult r = s.solve(SmallPos{});
    ASSERT_TRUE(r.solved);
    EXPECT_EQ(r.winner, Winner::Draw);
    SolverOptions o = quick();
    o.passAllowed = false;
    Solver classic(4, o);
    SolveResult c = classic.solve(SmallPos{});
    ASSERT_TRUE(c.solved);
    EXPECT_EQ(c.winner, Winner::White);
}

// With passes forbidden, a side that has no stone move at all is scored as two passes would end the game
// (area with komi), by the Atari Go search as by the plain one. Black, to move, has no stone move against
// White's two eyes: White holds all 16 points, so with komi -16 the areas tie.
TEST(Solver, WithPassesForbiddenASideWithoutAMoveIsScoredOnAreaByBothSearches) {
    const SmallGeometry& g = SmallGeometry::of(4);
    const SmallPos p = fromRows(g, {".OO.", "OOOO", "OOOO", "OOOO"});
    for (bool plain : {false, true}) {
        SolverOptions o = quick(plain);
        o.passAllowed = false;
        o.rules = Rules::capture(1, -16);
        SolveResult r = Solver(4, o).solve(p);
        ASSERT_TRUE(r.solved);
        EXPECT_EQ(r.winner, Winner::Draw) << "plain " << plain;
        o.rules = Rules::capture(1, -15.5);
        EXPECT_EQ(Solver(4, o).solve(p).winner, Winner::White) << "plain " << plain;
        o.rules = Rules::capture(1, -16.5);
        EXPECT_EQ(Solver(4, o).solve(p).winner, Winner::Black) << "plain " << plain;
    }
}

TEST(Solver, CaptureInOneIsFoundAtTheRoot) {
    const SmallGeometry& g = SmallGeometry::of(5);
    SmallPos p = fromRows(g, {".....", ".....", ".XO..", "..X..", "....."});
    p.addStone(g, 0, g.parse("D3"));  // White C3 now breathes only at C4
    Solver s(5, quick());
    SolveResult r = s.solve(p);
    EXPECT_EQ(r.winner, Winner::Black);
    EXPECT_EQ(r.moveName, "C4");
    EXPECT_EQ(r.nodes, 1u);
}

TEST(Solver, LadderReaderSeesALadderToTheEdge) {
    const SmallGeometry& g = SmallGeometry::of(7);
    // White C2 (liberties C3, D2) next to black B2, C1, D3: Black ataris at C3, White's extension to D2
    // leaves two liberties (D1, E2), Black ataris at E2 and White dies on the edge.
    SmallPos q = fromRows(g, {".......", ".......", ".......", ".......", ".......", ".XO....", "..X...."});
    q.addStone(g, 0, g.parse("D3"));
    int budget = 64;
    Solver s(7, quick());
    EXPECT_TRUE(s.ladderWin(q, budget));
    SolveResult r = s.solve(q);
    EXPECT_EQ(r.winner, Winner::Black);
}

TEST(Solver, LadderReaderLetsAStoneInTheOpenEscape) {
    const SmallGeometry& g = SmallGeometry::of(7);
    // White D4 with liberties D3 and E4: either atari lets it out to three liberties.
    SmallPos q = fromRows(g, {".......", ".......", "...X...", "..XO...", ".......", ".......", "......."});
    int budget = 64;
    Solver s(7, quick());
    EXPECT_FALSE(s.ladderWin(q, budget));
}

TEST(Solver, APassAfterAPassEndsTheGameOnArea) {
    const SmallGeometry& g = SmallGeometry::of(4);
    // Black owns more area; White has just passed: Black passes and wins on area.
    SmallPos p = fromRows(g, {".X.O", "XX.O", "..XO", "..XO"});
    p.passed = 1;
    Solver s(4, quick());
    SolveResult r = s.solve(p);
    ASSERT_TRUE(r.solved);
    EXPECT_EQ(r.winner, Winner::Black);
    EXPECT_EQ(r.moveName, "pass");
}

TEST(Solver, CrosscutOnFourByFourIsAWinForBlack) {
    const SmallGeometry& g = SmallGeometry::of(4);
    Solver s(4, quick());
    SolveResult r = s.solve(smallStart(g, StartPosition::Crosscut));
    ASSERT_TRUE(r.solved);
    EXPECT_EQ(r.winner, Winner::Black);
}

TEST(Solver, IterativeDeepeningAndSymmetryDoNotChangeResults) {
    const SmallGeometry& g = SmallGeometry::of(4);
    std::mt19937_64 rng(7);
    for (int i = 0; i < 10; ++i) {
        SmallPos p = randomPosition(g, rng, 6);
        SolverOptions a = quick(), b = quick();
        b.iterativeDeepening = true;
        b.symmetry = false;
        SolveResult ra = Solver(4, a).solve(p), rb = Solver(4, b).solve(p);
        ASSERT_TRUE(ra.solved && rb.solved);
        EXPECT_EQ(ra.winner, rb.winner) << p.toString(g);
    }
}

// The Atari Go knowledge (forced moves, self-atari pruning, ladders, symmetry) against the plain search
// over every legal move, on random positions of 4x4 and 5x5, both sides to move, with and without a
// pending pass, with and without passes.
TEST(Solver, AtariGoKnowledgeAgreesWithAPlainSearchOnRandomPositions) {
    std::mt19937_64 rng(2024);
    int checked = 0, nontrivial = 0;
    for (int size : {4, 5}) {
        const SmallGeometry& g = SmallGeometry::of(size);
        for (int i = 0; i < (size == 4 ? 60 : 25); ++i) {
            SmallPos p = randomPosition(g, rng, size == 4 ? 3 + int(rng() % 6) : 9 + int(rng() % 6));
            p.toMove = std::uint8_t(rng() % 2);
            p.passed = std::uint8_t(rng() % 4 == 0);
            bool passes = rng() % 4 != 0;
            SolverOptions fast = quick(), plain = quick(true);
            fast.passAllowed = plain.passAllowed = passes;
            fast.nodeLimit = plain.nodeLimit = 3'000'000;
            SolveResult a = Solver(size, fast).solve(p), b = Solver(size, plain).solve(p);
            if (!a.solved || !b.solved) continue;
            ++checked;
            nontrivial += b.nodes > 1000;
            EXPECT_EQ(a.winner, b.winner) << p.toString(g) << "to move " << int(p.toMove) << " passed "
                                          << int(p.passed) << " passes " << passes;
        }
    }
    EXPECT_GT(checked, 60);
    EXPECT_GT(nontrivial, 20);
}

}  // namespace solver_test
