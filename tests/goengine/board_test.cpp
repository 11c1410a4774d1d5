// The general board: captures, suicide, superko, passes, the end of the game and scoring, make/undo;
// and random games played on it and on the solver's 64-bit board agreeing point for point.
#include "goengine/board.h"

#include <gtest/gtest.h>

#include <random>

#include "goengine/small_board.h"
#include "goengine/solve_command.h"

namespace board_test {

using namespace xq::go;

namespace {

// Plays "B C3", "W pass", ... (colour letter, point) and fails the test on an illegal move.
void playAll(Board& b, std::initializer_list<const char*> moves) {
    for (const char* m : moves) {
        Color c = m[0] == 'B' ? Black : White;
        Point p = b.parsePoint(m + 2);
        ASSERT_NE(p, kNoPoint) << m;
        ASSERT_EQ(b.play(p, c), MoveError::None) << m << "\n" << b.toString();
    }
}

Color at(const Board& b, const char* name) {
    return b.at(b.parsePoint(name));
}

// Liberty and stone counts recomputed from scratch, against the incremental ones.
void expectGroupsConsistent(const Board& b) {
    for (Point p : b.points()) {
        if (b.at(p) == Empty) continue;
        std::vector<Point> stack{p}, seen{p};
        std::vector<Point> libs;
        while (!stack.empty()) {
            Point q = stack.back();
            stack.pop_back();
            EXPECT_EQ(b.head(q), b.head(p));
            for (Point r : b.neighbours(q)) {
                if (b.at(r) == b.at(p) && std::find(seen.begin(), seen.end(), r) == seen.end())
                    seen.push_back(r), stack.push_back(r);
                if (b.at(r) == Empty && std::find(libs.begin(), libs.end(), r) == libs.end())
                    libs.push_back(r);
            }
        }
        EXPECT_EQ(b.liberties(p), int(libs.size())) << b.pointName(p) << "\n" << b.toString();
        EXPECT_EQ(b.groupSize(p), int(seen.size())) << b.pointName(p);
    }
}

}  // namespace

TEST(GoBoard, StartsEmptyWithBlackToMoveAndEveryPointLegal) {
    Board b(9);
    EXPECT_EQ(b.toMove(), Black);
    EXPECT_EQ(b.legalMoves().size(), 81u);
    EXPECT_FALSE(b.gameOver());
}

TEST(GoBoard, PointNamesSkipTheLetterI) {
    Board b(19);
    EXPECT_EQ(b.pointName(b.point(7, 0)), "H1");
    EXPECT_EQ(b.pointName(b.point(8, 0)), "J1");
    EXPECT_EQ(b.parsePoint("j1"), b.point(8, 0));
    EXPECT_EQ(b.parsePoint("I5"), kNoPoint);
    EXPECT_EQ(b.parsePoint("T19"), b.point(18, 18));
    EXPECT_EQ(b.parsePoint("A20"), kNoPoint);
    EXPECT_EQ(b.parsePoint("PASS"), kPass);
    Board small(6);
    EXPECT_EQ(small.parsePoint("G1"), kNoPoint);
}

TEST(GoBoard, CrosscutOnSixBySixPutsBlackOnC3AndD4AndWhiteOnC4AndD3) {
    Board b(6, Rules::capture(), StartPosition::Crosscut);
    EXPECT_EQ(at(b, "C3"), Black);
    EXPECT_EQ(at(b, "D4"), Black);
    EXPECT_EQ(at(b, "C4"), White);
    EXPECT_EQ(at(b, "D3"), White);
    EXPECT_EQ(b.toMove(), Black);
    EXPECT_EQ(b.legalMoves().size(), 32u);
}

TEST(GoBoard, CrosscutOnOddSizesSitsJustBelowLeftOfTheCentre) {
    Board b(7, Rules::capture(), StartPosition::Crosscut);  // centre D4
    EXPECT_EQ(at(b, "C3"), Black);
    EXPECT_EQ(at(b, "D4"), Black);
    EXPECT_EQ(at(b, "C4"), White);
    EXPECT_EQ(at(b, "D3"), White);
}

TEST(GoBoard, FillingTheLastLibertyCapturesAndCounts) {
    Board b(5, Rules::capture(3));
    playAll(b, {"B B2", "W C2", "B C1", "W D1", "B C3", "W A1", "B D2"});
    EXPECT_EQ(at(b, "C2"), Empty);
    EXPECT_EQ(b.captures(Black), 1);
    EXPECT_EQ(b.captures(White), 0);
    EXPECT_EQ(b.liberties(b.parsePoint("D2")), 3);  // C2 came back as a liberty, with E2 and D3
    expectGroupsConsistent(b);
}

TEST(GoBoard, AMoveThatFillsTheLastLibertyOfBothSidesCapturesOnlyTheOpponent) {
    //  4 . . . .
    //  3 O X . .     Black A2 breathes only at A1, and so do White's B1-B2.
    //  2 X O X .     Black fills A1: both groups are left without liberties,
    //  1 . O X .     and only White's is removed.
    Board b(4, Rules::capture(5));
    playAll(b, {"W A3", "W B1", "W B2", "B A2", "B C1", "B C2", "B B3"});
    ASSERT_EQ(b.liberties(b.parsePoint("A2")), 1);
    ASSERT_EQ(b.liberties(b.parsePoint("B1")), 1);
    ASSERT_EQ(b.play(b.parsePoint("A1"), Black), MoveError::None);
    EXPECT_EQ(at(b, "B1"), Empty);
    EXPECT_EQ(at(b, "B2"), Empty);
    EXPECT_EQ(at(b, "A1"), Black);
    EXPECT_EQ(at(b, "A2"), Black);
    EXPECT_EQ(b.captures(Black), 2);
    EXPECT_EQ(b.liberties(b.parsePoint("A1")), 2);  // B1 and B2
    expectGroupsConsistent(b);
}

TEST(GoBoard, OneStoneCapturesTwoGroupsAtOnce) {
    Board b(5, Rules::capture(10));
    // White B1 and D1 both breathe only at C1 (besides neighbours taken by Black).
    playAll(b, {"W B1", "W D1", "B A1", "B B2", "B D2", "B E1"});
    ASSERT_EQ(b.play(b.parsePoint("C1"), Black), MoveError::None);
    EXPECT_EQ(at(b, "B1"), Empty);
    EXPECT_EQ(at(b, "D1"), Empty);
    EXPECT_EQ(b.captures(Black), 2);
    expectGroupsConsistent(b);
}

TEST(GoBoard, SuicideIsIllegalForOneStoneAndForAGroup) {
    Board b(5, Rules::capture(5));
    playAll(b, {"W A2", "W B1"});
    EXPECT_EQ(b.check(b.parsePoint("A1"), Black), MoveError::Suicide);
    EXPECT_EQ(b.play(b.parsePoint("A1"), Black), MoveError::Suicide);
    EXPECT_EQ(at(b, "A1"), Empty);
    // A two-stone group that would have no liberty: Black B2 + C1 region surrounded.
    Board g(4, Rules::capture(5));
    playAll(g, {"B A1", "W A2", "W B2", "W C1"});
    EXPECT_EQ(g.check(g.parsePoint("B1"), Black), MoveError::Suicide);
}

TEST(GoBoard, AMoveWithoutLibertiesThatCapturesIsLegal) {
    Board b(5, Rules::capture(5));
    playAll(b, {"W A2", "W B1", "B A3", "B B2", "B C1"});
    // White A2 and B1 are in atari on A1; Black at A1 has no liberty of its own but captures.
    EXPECT_EQ(b.play(b.parsePoint("A1"), Black), MoveError::None);
    EXPECT_EQ(b.captures(Black), 2);
    expectGroupsConsistent(b);
}

TEST(GoBoard, OccupiedPointsAndPointsOffTheBoardAreRefused) {
    Board b(5);
    playAll(b, {"B C3"});
    EXPECT_EQ(b.play(b.parsePoint("C3"), White), MoveError::Occupied);
    EXPECT_EQ(b.check(kNoPoint, White), MoveError::OffBoard);
}

TEST(GoBoard, KoRecaptureIsForbiddenBySuperko) {
    Board b(5, Rules::capture(10));
    // Ko at B2/C2: Black takes at C2, White may not retake at B2 at once.
    playAll(b, {"B B1", "W C1", "B A2", "W D2", "B B3", "W C3", "W B2"});
    ASSERT_EQ(b.play(b.parsePoint("C2"), Black), MoveError::None);
    EXPECT_EQ(at(b, "B2"), Empty);
    EXPECT_EQ(b.check(b.parsePoint("B2"), White), MoveError::Superko);
    EXPECT_EQ(b.play(b.parsePoint("B2"), White), MoveError::Superko);
}

TEST(GoBoard, ARetakeAfterAPassIsStillForbiddenByPositionalSuperko) {
    Board b(5, Rules::capture(10));
    playAll(b, {"B B1", "W C1", "B A2", "W D2", "B B3", "W C3", "W B2", "B C2", "W pass"});
    // Black to move; White plays out of turn (GTP allows it): the retake would recreate an earlier board.
    EXPECT_EQ(b.check(b.parsePoint("B2"), White), MoveError::Superko);
}

TEST(GoBoard, PassesAreLegalAndTwoInARowEndTheGame) {
    Board b(5, Rules::capture(1));
    playAll(b, {"B C3", "W pass", "B D3", "W pass"});
    EXPECT_FALSE(b.gameOver());
    playAll(b, {"B pass"});
    ASSERT_TRUE(b.gameOver());
    EXPECT_EQ(b.result().reason, EndReason::Passes);
    EXPECT_EQ(b.result().winner, Winner::Black);  // Black's stones own the board by area
    EXPECT_EQ(b.play(b.parsePoint("A1"), White), MoveError::GameOver);
    EXPECT_TRUE(b.legalMoves().empty());
}

TEST(GoBoard, ReachingTheCaptureTargetEndsTheGame) {
    Board b(5, Rules::capture(1));
    playAll(b, {"W A1", "B A2"});
    ASSERT_EQ(b.play(b.parsePoint("B1"), Black), MoveError::None);
    ASSERT_TRUE(b.gameOver());
    EXPECT_EQ(b.result().winner, Winner::Black);
    EXPECT_EQ(b.result().reason, EndReason::Capture);
    EXPECT_EQ(b.result().toString(), "B+C");
}

TEST(GoBoard, BelowTheTargetTheGameGoesOn) {
    Board b(5, Rules::capture(2));
    playAll(b, {"W A1", "B A2", "B B1"});
    EXPECT_FALSE(b.gameOver());
    EXPECT_EQ(b.captures(Black), 1);
}

TEST(GoBoard, AfterTwoPassesMoreCapturesWinBeforeArea) {
    Board b(5, Rules::capture(3));
    playAll(b, {"W A1", "B A2", "B B1", "W C3", "W C4", "W D3", "B pass", "W pass"});
    ASSERT_TRUE(b.gameOver());
    EXPECT_EQ(b.result().winner, Winner::Black);
    EXPECT_EQ(b.result().toString(), "B+C");
    EXPECT_EQ(b.result().captureMargin, 1);
}

TEST(GoBoard, AreaIsStonesPlusRegionsReachingOnlyThatColour) {
    Board b(5, Rules::go(0.5));
    // A black wall on column B, a white wall on column D: A is Black's, E is White's, C is neutral.
    for (int r = 1; r <= 5; ++r) {
        ASSERT_EQ(b.play(b.parsePoint("B" + std::to_string(r)), Black), MoveError::None);
        ASSERT_EQ(b.play(b.parsePoint("D" + std::to_string(r)), White), MoveError::None);
    }
    EXPECT_EQ(b.area(Black), 10);
    EXPECT_EQ(b.area(White), 10);
    EXPECT_DOUBLE_EQ(b.areaMargin(), -0.5);
    playAll(b, {"B pass", "W pass"});
    EXPECT_EQ(b.result().winner, Winner::White);
    EXPECT_EQ(b.result().toString(), "W+0.5");
}

TEST(GoBoard, EqualAreaWithoutKomiIsADraw) {
    Board b(4, Rules::capture(1, 0.0));
    playAll(b, {"B B1", "W C1", "B B2", "W C2", "B B3", "W C3", "B B4", "W C4", "B pass", "W pass"});
    EXPECT_EQ(b.result().winner, Winner::Draw);
    EXPECT_EQ(b.result().toString(), "0");
}

TEST(GoBoard, UndoRestoresStonesHashesCapturesAndSuperkoHistory) {
    Board b(5, Rules::capture(10));
    playAll(b, {"B B1", "W C1", "B A2", "W D2", "B B3", "W C3", "W B2"});
    const std::string before = b.toString();
    const auto hash = b.stoneHash();
    const auto key = b.key();
    ASSERT_EQ(b.play(b.parsePoint("C2"), Black), MoveError::None);
    EXPECT_EQ(b.captures(Black), 1);
    ASSERT_TRUE(b.undo());
    EXPECT_EQ(b.toString(), before);
    EXPECT_EQ(b.stoneHash(), hash);
    EXPECT_EQ(b.key(), key);
    EXPECT_EQ(b.captures(Black), 0);
    EXPECT_EQ(b.toMove(), Black);
    expectGroupsConsistent(b);
    // The undone position is no longer in the history: playing it again is legal, retaking is not.
    ASSERT_EQ(b.play(b.parsePoint("C2"), Black), MoveError::None);
    EXPECT_EQ(b.check(b.parsePoint("B2"), White), MoveError::Superko);
    while (b.undo()) {
    }
    EXPECT_EQ(b.moveCount(), 0);
    EXPECT_EQ(b.stoneHash(), 0u);
}

TEST(GoBoard, UndoAfterTheGameEndedResumesIt) {
    Board b(5, Rules::capture(1));
    playAll(b, {"W A1", "B A2", "B B1"});
    ASSERT_TRUE(b.gameOver());
    ASSERT_TRUE(b.undo());
    EXPECT_FALSE(b.gameOver());
    EXPECT_EQ(b.captures(Black), 0);
}

TEST(GoBoard, ProbeForeseesCapturesAndLiberties) {
    Board b(5, Rules::capture(5));
    playAll(b, {"W A2", "W B1", "B A3", "B B2", "B C1"});
    Board::Probe p = b.probe(b.parsePoint("A1"), Black);
    EXPECT_EQ(p.captured, 2);
    EXPECT_EQ(p.libs, 2);  // A2 and B1 come back
    Board::Probe q = b.probe(b.parsePoint("E5"), White);
    EXPECT_EQ(q.captured, 0);
    EXPECT_EQ(q.libs, 2);
}

// Random games on both boards: the same stones, the same legality (but superko, which only the general
// board tracks) and the same area, move after move; and the general board's groups stay consistent.
TEST(GoBoard, RandomGamesAgreeWithTheSolversBitboard) {
    std::mt19937_64 rng(12345);
    for (int size : {2, 3, 4, 5, 6, 7}) {
        const SmallGeometry& g = SmallGeometry::of(size);
        for (int game = 0; game < 40; ++game) {
            Board b(size, Rules::capture(1000));
            SmallPos s;
            for (int ply = 0; ply < 4 * size * size && !b.gameOver(); ++ply) {
                // Compare legality point by point.
                std::vector<Point> legal;
                for (Point p : b.points()) {
                    SmallPos t = s;
                    bool smallLegal = t.play(g, g.index(b.col(p), b.row(p)));
                    MoveError e = b.check(p, b.toMove());
                    if (e == MoveError::Superko) continue;
                    ASSERT_EQ(e == MoveError::None, smallLegal) << b.toString() << b.pointName(p);
                    if (smallLegal) legal.push_back(p);
                }
                if (legal.empty() || rng() % 20 == 0) {
                    b.play(kPass);
                    s.pass();
                    continue;
                }
                Point p = legal[rng() % legal.size()];
                ASSERT_EQ(b.play(p), MoveError::None);
                ASSERT_TRUE(s.play(g, g.index(b.col(p), b.row(p))));
                for (Point q : b.points()) {
                    Bits m = bit(g.index(b.col(q), b.row(q)));
                    Color expected = (s.stones[0] & m) ? Black : (s.stones[1] & m) ? White : Empty;
                    ASSERT_EQ(b.at(q), expected) << b.toString();
                }
                ASSERT_EQ(b.captures(Black), s.captures[0]);
                ASSERT_EQ(b.captures(White), s.captures[1]);
                ASSERT_EQ(b.area(Black), s.area(g, 0));
                ASSERT_EQ(b.area(White), s.area(g, 1));
                if (ply % 7 == 0) expectGroupsConsistent(b);
            }
        }
    }
}

TEST(GoBoard, SymmetricPositionsShareTheSolversCanonicalKey) {
    const SmallGeometry& g = SmallGeometry::of(6);
    SmallPos a = smallStart(g, StartPosition::Crosscut), b = a;
    a.addStone(g, 0, g.parse("B2"));
    b.addStone(g, 0, g.parse("E5"));  // the same move rotated by 180 degrees
    EXPECT_EQ(a.canonicalKey(g, true, nullptr), b.canonicalKey(g, true, nullptr));
    EXPECT_NE(a.canonicalKey(g, false, nullptr), b.canonicalKey(g, false, nullptr));
    SmallPos c = smallStart(g, StartPosition::Crosscut);
    c.addStone(g, 0, g.parse("B5"));  // not symmetric to B2 on the crosscut (colours swap)
    EXPECT_NE(a.canonicalKey(g, true, nullptr), c.canonicalKey(g, true, nullptr));
}

}  // namespace board_test
