// The NNUE debug check in a real search (engine/nnue_accumulator.h, IncrementalChecks): this executable
// compiles nnue_accumulator.cpp itself with XQ_NNUE_VERIFY (tests/engine/CMakeLists.txt), so every
// evaluation the searcher makes, over many positions, moves, captures and null moves, is compared with a
// full refresh, and a wrong incremental update aborts the search naming the position. Not named *_test.cpp:
// test_engine, whose nnue_accumulator is the release one, does not take it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "bench.h"
#include "nnue_accumulator.h"
#include "nnue_default.h"
#include "nnue_test_util.h"
#include "test_positions.h"
#include "thread.h"
#include "xiangqi/movegen.h"

using namespace xq;
using namespace xq::nnue;

namespace {

// Searches of the bench positions (openings, middlegames, endgames) with the network, and of random
// positions from playouts, to a fixed depth; returns the checks they made.
IncrementalChecks checksOfSearches(std::shared_ptr<const Network> net, int depth) {
    const IncrementalChecks before = incrementalChecks();
    runBench(depth, 1, 16, nullptr, net);
    ThreadPool pool;
    pool.network = net;
    for (const std::string& fen : test::randomPositions(77, 12, 60)) {
        SearchLimits limits;
        limits.depth = depth - 2;
        pool.think(Position(fen), limits);
    }
    const IncrementalChecks after = incrementalChecks();
    const IncrementalChecks made{after.evaluations - before.evaluations, after.captures - before.captures};
    std::printf("%s: %llu evaluations checked, %llu of them after a capture\n", net->name.c_str(),
                (unsigned long long)made.evaluations, (unsigned long long)made.captures);
    return made;
}

TEST(NnueVerify, TheCheckIsCompiledIntoThisBuild) {
    const Network net = randomNetwork(32, 3);
    AccumulatorStack stack;
    Position pos;
    stack.reset(net, pos, 4);
    const IncrementalChecks before = incrementalChecks();
    stack.evaluate(pos, 0);
    EXPECT_EQ(incrementalChecks().evaluations, before.evaluations + 1);
}

TEST(NnueVerify, SearchesWithTheDefaultNetworkMatchAFullRefreshAtEveryEvaluation) {
    if (!hasDefaultNetwork()) GTEST_SKIP() << "the build embeds no network";
    const IncrementalChecks c = checksOfSearches(defaultNetwork(), 8);
    EXPECT_GT(c.evaluations, 100000u);
    EXPECT_GT(c.captures, 5000u);
}

// Random and extreme weights (accumulators far outside 0..QA both ways, W2 at the int32 bound) reach
// values a trained network does not.
TEST(NnueVerify, SearchesWithRandomAndExtremeNetworksMatchAFullRefreshAtEveryEvaluation) {
    for (auto net : {std::make_shared<const Network>(randomNetwork(64, 5)),
                     std::make_shared<const Network>(test::extremeNetwork(256, 6))}) {
        const IncrementalChecks c = checksOfSearches(net, 7);
        EXPECT_GT(c.evaluations, 20000u) << net->name;
        EXPECT_GT(c.captures, 1000u) << net->name;
    }
}

// The check itself: a stack told the wrong move (a capture recorded as a quiet move) evaluates a wrong
// accumulator, and the check stops the process naming the position and the unit.
TEST(NnueVerifyDeathTest, AWrongIncrementalUpdateAbortsNamingThePosition) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const Network net = randomNetwork(32, 7);
    Position pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    AccumulatorStack stack;
    stack.reset(net, pos, 4);
    const MoveList moves = legalMoves(pos);
    const Move* capture = std::find_if(moves.begin(), moves.end(), [&](Move m) { return pos.isCapture(m); });
    ASSERT_NE(capture, moves.end());  // a cannon takes a horse
    stack.push(1, pos.movedPiece(*capture), fromSq(*capture), toSq(*capture), NO_PIECE);  // capture left out
    pos.doMove(*capture);
    EXPECT_DEATH(stack.evaluate(pos, 1),
                 "NNUE check failed: the incremental evaluation differs from a full "
                 "refresh at ply 1 of position .* accumulator, hidden unit");
}

}  // namespace
