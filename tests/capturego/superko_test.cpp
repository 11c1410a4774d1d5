// Positional superko: no move may recreate a stone placement seen earlier in the game (the start counts,
// the side to move does not); passes never violate it. Simple ko, ko threats, passes in a ko, a triple-ko
// cycle and a three-move cycle that returns with the other side to move.
#include <gtest/gtest.h>

#include "capturego/position.h"
#include "capturego/position_text.h"
#include "test_helpers.h"

using namespace xq::capturego;
using xq::capturego::test::drawn;
using xq::capturego::test::mv;
using xq::capturego::test::playAll;
using xq::capturego::test::pt;

namespace {

// A ko on the left: white's B3 can be taken at C3, and black's C3 retaken at B3.
Position koPosition() {
    return drawn({".....",  //
                  ".XO..",  //
                  "XO.O.",  //
                  ".XO..",  //
                  "....."});
}

}  // namespace

TEST(CaptureGoSuperko, AKoCannotBeRetakenAtOnce) {
    Position pos = koPosition();
    playAll(pos, {"C3"});
    EXPECT_EQ(pos.captures(Color::Black), 1);
    EXPECT_EQ(pos.check(mv(pos, "B3")), Legality::Superko);
    EXPECT_EQ(pos.whyIllegal(mv(pos, "B3")), "B3 repeats an earlier position (superko)");
    std::string why;
    EXPECT_FALSE(pos.play(mv(pos, "B3"), &why));
    EXPECT_EQ(why, "B3 repeats an earlier position (superko)");
}

TEST(CaptureGoSuperko, AKoCanBeRetakenAfterAnExchangeElsewhere) {
    Position pos = koPosition();
    playAll(pos, {"C3", "E5", "E4"});  // a ko threat and its answer change the board
    EXPECT_TRUE(pos.isLegal(mv(pos, "B3")));
    playAll(pos, {"B3"});
    EXPECT_EQ(pos.captures(Color::White), 1);
    EXPECT_EQ(pos.check(mv(pos, "C3")), Legality::Superko);  // and now black must wait
}

TEST(CaptureGoSuperko, PassesDoNotLiftTheBanOnAnEarlierPosition) {
    // Under simple-ko rules the ban ends with a pass; positional superko still forbids the retake, as it
    // recreates the position before black's capture.
    Position pos = koPosition();
    playAll(pos, {"C3", "pass", "pass"});
    EXPECT_EQ(pos.toMove(), Color::White);
    EXPECT_EQ(pos.check(mv(pos, "B3")), Legality::Superko);
}

TEST(CaptureGoSuperko, APassIsLegalEvenThoughItRepeatsThePosition) {
    Position pos = koPosition();
    playAll(pos, {"C3"});
    EXPECT_TRUE(pos.occurred(pos.hash()));
    EXPECT_EQ(pos.check(Move::pass()), Legality::Legal);
    playAll(pos, {"pass", "pass", "pass"});
    EXPECT_EQ(pos.history().size(), 5u);
}

TEST(CaptureGoSuperko, AllThreeKosOfATripleKoCycleAreRefusedOnTheMoveThatWouldCloseTheCycle) {
    // Three kos: K1 (B8/C8) and K3 (B2/C2) with a white stone to take, K2 (G8/H8) with a black one.
    // Taking them in turn, B C8, W G8, B C2, W B8, B H8 brings every ko back but K3; W B2 would recreate
    // the start. No single move is an immediate ko retake, so only superko forbids it.
    Position pos = drawn({".XO...XO.",  //
                          "XO.O.X.XO",  //
                          ".XO...XO.",  //
                          ".........",  //
                          ".........",  //
                          ".........",  //
                          ".XO......",  //
                          "XO.O.....",  //
                          ".XO......"});
    std::string start = positionText(pos);
    playAll(pos, {"C8", "G8", "C2", "B8", "H8"});
    EXPECT_EQ(pos.captures(Color::Black), 3);
    EXPECT_EQ(pos.captures(Color::White), 2);
    EXPECT_EQ(pos.check(mv(pos, "B2")), Legality::Superko);
    EXPECT_EQ(pos.check(mv(pos, "G8")), Legality::Superko);  // as is the immediate retake of K2
    // One move elsewhere and the cycle can go round once more.
    playAll(pos, {"E5", "E4"});
    EXPECT_TRUE(pos.isLegal(mv(pos, "B2")));
    playAll(pos, {"B2"});
    std::string after = positionText(pos);
    EXPECT_NE(after, start);  // E5 and E4 make it a new position
}

TEST(CaptureGoSuperko, AThreeMoveCycleIsRefusedThoughItWouldReturnWithTheOtherSideToMove) {
    // Black fills A1 (A1-B1 in atari), white captures both at C1, black recaptures C1 at B1: the board is
    // the start again, now with White to move where Black moved at the start. Positional superko forbids
    // it (situational superko would not). The start position counts.
    Position pos = drawn({".....",  //
                          ".....",  //
                          ".....",  //
                          "OOX..",  //
                          ".X.X."});
    std::uint64_t start = pos.hash();
    playAll(pos, {"A1", "C1"});
    EXPECT_EQ(pos.captures(Color::White), 2);
    EXPECT_EQ(pos.liberties(pt(pos, "C1")), 1);
    EXPECT_EQ(pos.check(mv(pos, "B1")), Legality::Superko);
    EXPECT_TRUE(pos.isLegal(mv(pos, "A1")));
    // Played for real on a board whose history does not hold the start, B1 captures and gives the start.
    Position fresh = parsePositionText(positionText(pos));
    playAll(fresh, {"B1"});
    EXPECT_EQ(fresh.hash(), start);
    EXPECT_EQ(fresh.toMove(), Color::White);
}

TEST(CaptureGoSuperko, TheStartPositionCountsEvenWhenItIsSetUp) {
    // The start: black has just taken the ko at C3, white to move. White may retake (a new position) but
    // black may then not take back: that would recreate the start.
    Position pos = parsePositionText("5/1XO2/X1XO1/1XO2/5 w 0 0 0 capture:3 0");
    playAll(pos, {"B3"});
    EXPECT_EQ(pos.check(mv(pos, "C3")), Legality::Superko);
}

TEST(CaptureGoSuperko, UndoForgetsThePositionsItTakesBack) {
    Position pos = koPosition();
    playAll(pos, {"C3"});
    std::uint64_t taken = pos.hash();
    ASSERT_TRUE(pos.undo());
    EXPECT_FALSE(pos.occurred(taken));
    EXPECT_EQ(pos.history().size(), 1u);
    playAll(pos, {"E5", "E4", "C3"});  // other stones: no repetition
    EXPECT_EQ(pos.check(mv(pos, "B3")), Legality::Superko);
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(pos.undo());
    EXPECT_EQ(positionText(pos), positionText(koPosition()));
}
