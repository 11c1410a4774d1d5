// The playing engines on tactics whose answers are known: capture in one, saving a group in atari, a
// ladder, a net, a double atari; the MCTS engines capturing in one; and the bench signature.
#include "goengine/search.h"

#include <gtest/gtest.h>

#include "goengine/bench.h"
#include "goengine/mcts.h"
#include "goengine/solve_command.h"
#include "goengine/solver.h"

namespace search_test {

using namespace xq::go;

namespace {

// Plays "B C3" style moves (any colour order) and leaves `toMove` to move.
Board position(int size, std::initializer_list<const char*> moves, Color toMove,
               Rules rules = Rules::capture()) {
    Board b(size, rules);
    for (const char* m : moves) {
        Point p = b.parsePoint(m + 2);
        EXPECT_EQ(b.play(p, m[0] == 'B' ? Black : White), MoveError::None) << m;
    }
    b.setToMove(toMove);
    return b;
}

SearchResult searchDepth(Board& b, int depth) {
    AlphaBeta ab(16);
    SearchLimits l;
    l.depth = depth;
    return ab.search(b, l);
}

}  // namespace

TEST(GoSearch, CapturesInOneAtOnce) {
    Board b = position(9, {"W E5", "B E4", "B D5", "B F5"}, Black);
    SearchResult r = searchDepth(b, 3);
    EXPECT_EQ(b.pointName(r.move), "E6");
    EXPECT_GT(r.score, kWinBound);
}

TEST(GoSearch, SavesAGroupInAtariByExtending) {
    // Black E5 is in atari (liberty E6); White cannot be captured; extending to E6 gives three liberties.
    Board b = position(9, {"B E5", "W E4", "W D5", "W F5"}, Black);
    SearchResult r = searchDepth(b, 3);
    EXPECT_EQ(b.pointName(r.move), "E6");
    EXPECT_LT(r.score, kWinBound);
    EXPECT_GT(r.score, -kWinBound);
}

TEST(GoSearch, ReadsALadderToTheEdgeAsAWin) {
    // White C2 (liberties C3, D2) against black B2, C1, D3: C3 starts a ladder that ends on the edge.
    Board b = position(9, {"B B2", "W C2", "B C1", "B D3", "W G7"}, Black);
    SearchResult r = searchDepth(b, 6);
    EXPECT_EQ(b.pointName(r.move), "C3");
    EXPECT_GT(r.score, kWinBound);
}

TEST(GoSearch, PlaysADoubleAtari) {
    // White D4 and F4, each with two liberties one of which is E4... black E4 ataris both.
    Board b = position(9, {"W D4", "B C4", "B D5", "W F4", "B G4", "B F5", "B D2", "B F2"}, Black);
    // D4: liberties D3, E4; F4: E4, F3. Black E4 leaves each one liberty: White saves one, Black takes the
    // other.
    SearchResult r = searchDepth(b, 4);
    EXPECT_GT(r.score, kWinBound);
}

TEST(GoSearch, RefusesSelfAtariInAtariGo) {
    // Black's only non-losing moves avoid A1 and the like; the search never plays a self-atari.
    Board b = position(5, {"W B1", "W A2"}, Black);
    SearchResult r = searchDepth(b, 3);
    EXPECT_NE(b.pointName(r.move), "A1");
    EXPECT_GT(b.probe(r.move, Black, 2).libs, 1);
}

TEST(GoSearch, ProvesALossWithTwoGroupsInAtari) {
    Board b = position(9, {"B A1", "W A2", "B J9", "W H9"}, Black);
    SearchResult r = searchDepth(b, 3);
    EXPECT_LT(r.score, -kWinBound);
    EXPECT_TRUE(r.resign);
}

TEST(GoSearch, StopsAtTheNodeLimit) {
    Board b(9);
    AlphaBeta ab(16);
    SearchLimits l;
    l.nodes = 5000;
    SearchResult r = ab.search(b, l);
    EXPECT_LE(r.nodes, 5100u);
    EXPECT_TRUE(b.legal(r.move, Black));
}

TEST(GoMcts, BothFlavoursCaptureInOne) {
    for (Playout p : {Playout::Tactical, Playout::Random}) {
        Board b = position(7, {"W D4", "B D3", "B C4", "B E4"}, Black);
        MctsOptions o;
        o.playout = p;
        Mcts m(o);
        SearchLimits l;
        l.nodes = 3000;
        SearchResult r = m.search(b, l);
        EXPECT_EQ(b.pointName(r.move), "D5") << int(p);
    }
}

TEST(GoMcts, PlaysLegalMovesUnderGoRules) {
    Board b(7, Rules::go(7.5));
    Mcts m;
    SearchLimits l;
    l.nodes = 500;
    for (int i = 0; i < 20 && !b.gameOver(); ++i) {
        SearchResult r = m.search(b, l);
        ASSERT_EQ(b.play(r.move), MoveError::None);
    }
}

TEST(GoBench, SignatureIsDeterministic) {
    BenchResult a = runBench(2), b = runBench(2);
    EXPECT_EQ(a.nodes, b.nodes);
    EXPECT_GT(a.nodes, 1000u);
}

}  // namespace search_test
