// The solver's 4x4 Atari Go values from the empty board, with and without passes, against the brute
// force of atari_go_brute_force.h (about 15 s and 6.5 million positions: too slow for the default run).
#include <gtest/gtest.h>

#include <iostream>

#include "atari_go_brute_force.h"
#include "goengine/solver.h"

namespace solver_values_slow {

using namespace xq::go;

TEST(SolverSlow, FourByFourFromTheEmptyBoardAgreesWithABruteForce) {
    const SmallGeometry& g = SmallGeometry::of(4);
    for (bool passes : {true, false}) {
        test::AtariGoBruteForce bf(g, passes);
        const Winner want = bf.winner(SmallPos{});
        std::cout << "4x4, passes " << (passes ? "allowed" : "forbidden") << ": " << bf.positions()
                  << " positions\n";
        SolverOptions o;
        o.hashMegabytes = 16;
        o.passAllowed = passes;
        SolveResult r = Solver(4, o).solve(SmallPos{});
        ASSERT_TRUE(r.solved);
        EXPECT_EQ(r.winner, want) << "passes " << passes;
        EXPECT_EQ(want, passes ? Winner::Draw : Winner::White);  // what solver_test.cpp takes as known
    }
}

}  // namespace solver_values_slow
