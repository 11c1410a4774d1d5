// The board rules of Capture Go and Go: captures, suicide, groups and liberties, passes, undo, hashing,
// the area score, and the fast Position against a plain reference implementation.
#include "capturego/position.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "capturego/position_text.h"
#include "test_helpers.h"

using namespace xq::capturego;
using xq::capturego::test::drawn;
using xq::capturego::test::mv;
using xq::capturego::test::playAll;
using xq::capturego::test::pt;
using xq::capturego::test::randomMove;
using xq::capturego::test::ReferenceBoard;

namespace {

std::vector<Point> sorted(std::vector<Point> points) {
    std::sort(points.begin(), points.end(),
              [](Point a, Point b) { return a.row != b.row ? a.row < b.row : a.col < b.col; });
    return points;
}

std::vector<Point> stonePoints(const std::vector<Move>& moves) {
    std::vector<Point> points;
    for (Move m : moves)
        if (!m.isPass()) points.push_back(m.point());
    return points;
}

}  // namespace

TEST(CaptureGoRules, TheEmptyBoardHasEveryPointAndThePassLegalWithBlackToMove) {
    Position pos(9);
    EXPECT_EQ(pos.toMove(), Color::Black);
    std::vector<Move> moves = pos.legalMoves();
    ASSERT_EQ(moves.size(), 82u);
    EXPECT_TRUE(moves.back().isPass());
    EXPECT_EQ(moves.front(), Move::at(0, 0));  // A1: row 1 first
    EXPECT_EQ(moves[1], Move::at(1, 0));       // then B1
    EXPECT_EQ(pos.stoneCount(Color::Black) + pos.stoneCount(Color::White), 0);
    EXPECT_THROW(Position(4), std::invalid_argument);
    EXPECT_THROW(Position(20), std::invalid_argument);
    EXPECT_THROW(Position(9, Rules::capture(0)), std::invalid_argument);
}

TEST(CaptureGoRules, ASingleStoneWithoutLibertiesIsCaptured) {
    Position pos = drawn({".....",  //
                          ".....",  //
                          "..X..",  //
                          ".XO..",  //
                          "..X.."});
    EXPECT_EQ(pos.liberties(pt(pos, "C2")), 1);
    playAll(pos, {"D2"});
    EXPECT_EQ(pos.at(pt(pos, "C2")), Cell::Empty);
    EXPECT_EQ(pos.captures(Color::Black), 1);
    EXPECT_EQ(pos.captures(Color::White), 0);
    EXPECT_EQ(pos.lastCaptured(), std::vector<Point>{pt(pos, "C2")});
    EXPECT_EQ(pos.toMove(), Color::White);
    EXPECT_EQ(pos.liberties(pt(pos, "C3")), 4);  // the capture gave C3 back its liberty C2
}

TEST(CaptureGoRules, AStoneInTheCornerIsCapturedByTwoStones) {
    Position pos(5);
    playAll(pos, {"A2", "A1", "B1"});
    EXPECT_EQ(pos.at(pt(pos, "A1")), Cell::Empty);
    EXPECT_EQ(pos.captures(Color::Black), 1);
}

TEST(CaptureGoRules, AWholeGroupIsCapturedWithItsLastLiberty) {
    Position pos = drawn({".....",  //
                          "XXX..",  //
                          "OOO..",  //
                          "XXX..",  //
                          "....."});
    EXPECT_EQ(pos.groupSize(pt(pos, "A3")), 3);
    EXPECT_EQ(pos.liberties(pt(pos, "B3")), 1);
    EXPECT_EQ(pos.libertyPoints(pt(pos, "A3")), std::vector<Point>{pt(pos, "D3")});
    playAll(pos, {"D3"});
    EXPECT_EQ(pos.captures(Color::Black), 3);
    EXPECT_EQ(sorted(pos.lastCaptured()), sorted({pt(pos, "A3"), pt(pos, "B3"), pt(pos, "C3")}));
    EXPECT_EQ(pos.liberties(pt(pos, "A4")), 7);  // A4-C4 gained A3, B3, C3 besides A5, B5, C5 and D4
}

TEST(CaptureGoRules, OneMoveCapturesEveryOpponentGroupItTakesTheLastLibertyOf) {
    Position pos = drawn({".....",  //
                          ".X.X.",  //
                          "XO.OX",  //
                          ".X.X.",  //
                          "....."});
    playAll(pos, {"C3"});
    EXPECT_EQ(pos.captures(Color::Black), 2);
    EXPECT_EQ(pos.at(pt(pos, "B3")), Cell::Empty);
    EXPECT_EQ(pos.at(pt(pos, "D3")), Cell::Empty);
    EXPECT_EQ(pos.liberties(pt(pos, "C3")), 4);
}

TEST(CaptureGoRules, WhenBothSidesAreWithoutLibertiesOnlyTheOpponentsGroupsGo) {
    // B1 has no empty neighbour: after black plays there, black's B1 and white's A1, B2 and C1 are all
    // without liberties. The three white groups go; black's stone stays, with their points as liberties.
    Position pos = drawn({".....",  //
                          ".....",  //
                          ".X...",  //
                          "XOX..",  //
                          "O.OX."});
    for (const char* p : {"A1", "B2", "C1"}) EXPECT_EQ(pos.liberties(pt(pos, p)), 1) << p;
    EXPECT_TRUE(pos.isLegal(mv(pos, "B1")));
    playAll(pos, {"B1"});
    EXPECT_EQ(pos.at(pt(pos, "B1")), Cell::Black);
    EXPECT_EQ(pos.captures(Color::Black), 3);
    EXPECT_EQ(pos.liberties(pt(pos, "B1")), 3);
    EXPECT_EQ(pos.stoneCount(Color::White), 0);
}

TEST(CaptureGoRules, TheMoversOwnGroupWithoutLibertiesStaysWhenTheMoveCaptures) {
    // White's D1 fills the last liberty of its own C2-E2 group and of black's E1: black's stone goes.
    Position pos = drawn({".....",  //
                          ".....",  //
                          "..XXX",  //
                          ".XOOO",  //
                          "..X.X"},
                         Color::White);
    EXPECT_EQ(pos.liberties(pt(pos, "C2")), 1);  // only D1
    EXPECT_EQ(pos.liberties(pt(pos, "E1")), 1);  // only D1
    playAll(pos, {"D1"});
    EXPECT_EQ(pos.at(pt(pos, "E1")), Cell::Empty);
    EXPECT_EQ(pos.at(pt(pos, "D1")), Cell::White);
    EXPECT_EQ(pos.captures(Color::White), 1);
    EXPECT_EQ(pos.groupSize(pt(pos, "D1")), 4);
    EXPECT_EQ(pos.liberties(pt(pos, "D1")), 1);     // E1
    EXPECT_EQ(pos.at(pt(pos, "C1")), Cell::Black);  // C1 kept its liberty B1
}

TEST(CaptureGoRules, SuicideIsIllegalForOneStoneAndForAGroup) {
    Position corner = drawn({".....",  //
                             ".....",  //
                             ".....",  //
                             "O....",  //
                             ".O..."});
    EXPECT_EQ(corner.check(mv(corner, "A1")), Legality::Suicide);
    EXPECT_EQ(corner.whyIllegal(mv(corner, "A1")), "A1 is suicide");
    std::string why;
    EXPECT_FALSE(corner.play(mv(corner, "A1"), &why));
    EXPECT_EQ(why, "A1 is suicide");
    EXPECT_EQ(corner.toMove(), Color::Black);  // nothing changed

    Position group = drawn({".....",  //
                            ".....",  //
                            "OO...",  //
                            "XXO..",  //
                            ".XO.."});
    EXPECT_EQ(group.check(mv(group, "A1")), Legality::Suicide);  // A2-B2-B1 would have no liberty left
    std::vector<Point> legal = stonePoints(group.legalMoves());
    EXPECT_EQ(std::count(legal.begin(), legal.end(), pt(group, "A1")), 0);
}

TEST(CaptureGoRules, ThePointThatIsSuicideForOneSideIsACaptureForTheOther) {
    Position pos = drawn({".....",  //
                          ".....",  //
                          "OO...",  //
                          "XXO..",  //
                          ".XO.."},
                         Color::White);
    playAll(pos, {"A1"});
    EXPECT_EQ(pos.captures(Color::White), 3);
    EXPECT_EQ(pos.stoneCount(Color::Black), 0);
}

TEST(CaptureGoRules, OccupiedAndOffBoardPointsAreIllegalWithTheirReason) {
    Position pos(9);
    playAll(pos, {"D4"});
    EXPECT_EQ(pos.check(mv(pos, "D4")), Legality::Occupied);
    EXPECT_EQ(pos.whyIllegal(mv(pos, "D4")), "D4 is occupied");
    EXPECT_EQ(pos.check(Move::at(9, 9)), Legality::OffBoard);
    EXPECT_EQ(pos.whyIllegal(Move::at(9, 9)), "K10 is off the 9x9 board");
    EXPECT_EQ(pos.whyIllegal(Move::at(-1, 0)), "(-1,0) is off the 9x9 board");
    EXPECT_EQ(pos.whyIllegal(mv(pos, "E5")), "");
}

TEST(CaptureGoRules, PassesAreAlwaysLegalAndCountedUntilAStoneIsPlayed) {
    Position pos = drawn({".....",  //
                          ".....",  //
                          ".....",  //
                          "O....",  //
                          ".O..."});
    std::uint64_t before = pos.hash();
    EXPECT_TRUE(pos.isLegal(Move::pass()));
    playAll(pos, {"pass"});
    EXPECT_EQ(pos.consecutivePasses(), 1);
    EXPECT_EQ(pos.toMove(), Color::White);
    EXPECT_EQ(pos.hash(), before);
    playAll(pos, {"pass"});
    EXPECT_EQ(pos.consecutivePasses(), 2);
    playAll(pos, {"pass"});  // the board has no notion of the game's end: passes go on counting
    EXPECT_EQ(pos.consecutivePasses(), 3);
    playAll(pos, {"C3"});
    EXPECT_EQ(pos.consecutivePasses(), 0);
    EXPECT_EQ(pos.history().size(), 5u);
    EXPECT_EQ(pos.lastMove(), mv(pos, "C3"));
}

TEST(CaptureGoRules, GroupsAndLibertiesAreReportedForEveryStoneOfTheGroup) {
    Position pos = drawn({".....",  //
                          ".XX..",  //
                          ".XO..",  //
                          ".....",  //
                          "....."});
    for (const char* p : {"B4", "C4", "B3"}) {
        EXPECT_EQ(pos.groupSize(pt(pos, p)), 3) << p;
        EXPECT_EQ(pos.liberties(pt(pos, p)), 6) << p;  // B5 C5 A4 D4 A3 B2
    }
    EXPECT_EQ(sorted(pos.group(pt(pos, "C4"))), sorted({pt(pos, "B4"), pt(pos, "C4"), pt(pos, "B3")}));
    EXPECT_EQ(
        sorted(pos.libertyPoints(pt(pos, "B3"))),
        sorted({pt(pos, "B5"), pt(pos, "C5"), pt(pos, "A4"), pt(pos, "D4"), pt(pos, "A3"), pt(pos, "B2")}));
    EXPECT_EQ(pos.liberties(pt(pos, "C3")), 2);
    EXPECT_EQ(pos.liberties(pt(pos, "A1")), 0);  // empty
    EXPECT_EQ(pos.groupSize(pt(pos, "A1")), 0);
    EXPECT_TRUE(pos.group(pt(pos, "A1")).empty());
}

TEST(CaptureGoRules, TheHashDependsOnTheStonePlacementOnly) {
    Position a(9), b(9);
    playAll(a, {"D4", "E5", "C3", "F6"});
    playAll(b, {"C3", "F6", "D4", "E5"});
    EXPECT_EQ(a.hash(), b.hash());
    std::string text = positionText(a);  // "... b ..." : the same stones with White to move
    text.replace(text.find(" b "), 3, " w ");
    EXPECT_EQ(parsePositionText(text).hash(), a.hash());
    EXPECT_NE(Position(9).hash(), Position(7).hash());  // the empty boards of two sizes differ
    EXPECT_NE(a.hash(), Position(9).hash());
}

TEST(CaptureGoRules, UndoRestoresTheBoardTheCountsAndTheHistory) {
    std::mt19937_64 rng(11);
    for (int size : {5, 9, 13}) {
        Position pos(size, Rules::go());  // the board plays on whatever the rules' verdict
        std::vector<std::string> texts{positionText(pos)};
        std::vector<std::uint64_t> hashes{pos.hash()};
        for (int ply = 0; ply < 250; ++ply) {
            ASSERT_TRUE(pos.play(randomMove(pos, rng, 5)));
            texts.push_back(positionText(pos));
            hashes.push_back(pos.hash());
        }
        EXPECT_EQ(pos.history(), hashes);
        EXPECT_GT(pos.captures(Color::Black) + pos.captures(Color::White), 0);
        while (pos.plies() > 0) {
            texts.pop_back();
            hashes.pop_back();
            ASSERT_TRUE(pos.undo());
            ASSERT_EQ(positionText(pos), texts.back());
            ASSERT_EQ(pos.hash(), hashes.back());
            ASSERT_EQ(pos.history(), hashes);
            // The groups are whole again: a position set up from the text agrees on every liberty.
            Position fresh = parsePositionText(texts.back());
            for (int r = 0; r < size; ++r)
                for (int c = 0; c < size; ++c) ASSERT_EQ(pos.liberties({c, r}), fresh.liberties({c, r}));
        }
        EXPECT_FALSE(pos.undo());
    }
}

TEST(CaptureGoRules, IncrementalLibertiesAndLegalMovesAgreeWithAPlainReferenceImplementation) {
    std::mt19937_64 rng(2024);
    int compared = 0;
    for (int size : {5, 6, 7, 9}) {
        for (int game = 0; game < 3; ++game) {
            Position pos(size, Rules::go());
            ReferenceBoard reference(pos);
            for (int ply = 0; ply < 160; ++ply) {
                std::vector<Point> expected = reference.legalPoints();
                ASSERT_EQ(sorted(stonePoints(pos.legalMoves())), sorted(expected)) << diagram(pos);
                for (int r = 0; r < size; ++r)
                    for (int c = 0; c < size; ++c)
                        if (pos.at({c, r}) != Cell::Empty) {
                            ASSERT_EQ(pos.liberties({c, r}), reference.libertiesAt({c, r})) << diagram(pos);
                        }
                ASSERT_EQ(pos.hash(), parsePositionText(positionText(pos)).hash());
                Move m = randomMove(pos, rng, 4);
                ASSERT_TRUE(pos.play(m));
                reference.play(m);
                ++compared;
            }
        }
    }
    EXPECT_EQ(compared, 4 * 3 * 160);
}

TEST(CaptureGoRules, AreaScoreCountsStonesAndTheEmptyRegionsThatReachOnlyOneColour) {
    Position pos = drawn({"..X.O",  //
                          "..X.O",  //
                          "XXX.O",  //
                          "...OO",  //
                          "...O."});
    // Black: 5 stones + A4 A5 B4 B5 (4). White: 6 stones + E1 (1). The region D3-D5 reaches both, and so
    // does the bottom-left region A1-C2 (it touches black's A3-C3 and white's D1-D2).
    AreaScore score = pos.areaScore();
    EXPECT_EQ(score.black, 9);
    EXPECT_EQ(score.white, 7);
    EXPECT_EQ(Position(5).areaScore().black, 0);  // an empty board reaches no one
    Position lone(5);
    playAll(lone, {"C3"});
    EXPECT_EQ(lone.areaScore().black, 25);
    EXPECT_EQ(lone.areaScore().white, 0);
}
