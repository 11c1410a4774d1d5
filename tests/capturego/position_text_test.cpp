// The position text form (this game's FEN): printing, exact round trips, the start positions, and errors
// that name what is wrong.
#include "capturego/position_text.h"

#include <gtest/gtest.h>

#include <random>

#include "test_helpers.h"

using namespace xq::capturego;
using xq::capturego::test::pt;
using xq::capturego::test::randomMove;

namespace {

std::string textError(std::string_view text) {
    try {
        parsePositionText(text);
    } catch (const ParseError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST(CaptureGoPositionText, TheEmptyBoardIsWrittenWithRunsOfEmptyPoints) {
    EXPECT_EQ(positionText(Position(9)), "9/9/9/9/9/9/9/9/9 b 0 0 0 capture:1 0");
    EXPECT_EQ(positionText(emptyPosition(5, Rules::go())), "5/5/5/5/5 b 0 0 0 go 7.5");
    EXPECT_EQ(positionText(emptyPosition(13, Rules::capture(3, 0.5))),
              "13/13/13/13/13/13/13/13/13/13/13/13/13 b 0 0 0 capture:3 0.5");
}

TEST(CaptureGoPositionText, TheCrosscutHasEachColourOnOneDiagonalOfTheCentralSquare) {
    Position six = crosscutPosition(6);
    EXPECT_EQ(positionText(six), "6/6/2OX2/2XO2/6/6 b 0 0 0 capture:1 0");
    EXPECT_EQ(six.at(pt(six, "C3")), Cell::Black);
    EXPECT_EQ(six.at(pt(six, "D4")), Cell::Black);
    EXPECT_EQ(six.at(pt(six, "C4")), Cell::White);
    EXPECT_EQ(six.at(pt(six, "D3")), Cell::White);

    Position nine = crosscutPosition(9);  // odd: the square's upper-right point is the centre E5
    EXPECT_EQ(positionText(nine), "9/9/9/9/3OX4/3XO4/9/9/9 b 0 0 0 capture:1 0");
    EXPECT_EQ(nine.at(pt(nine, "D4")), Cell::Black);
    EXPECT_EQ(nine.at(pt(nine, "E5")), Cell::Black);
    EXPECT_EQ(nine.at(pt(nine, "D5")), Cell::White);
    EXPECT_EQ(nine.at(pt(nine, "E4")), Cell::White);

    Position five = crosscutPosition(5);
    EXPECT_EQ(five.at(pt(five, "B2")), Cell::Black);
    EXPECT_EQ(five.at(pt(five, "C3")), Cell::Black);
    Position nineteen = crosscutPosition(19, Rules::capture(5));
    EXPECT_EQ(nineteen.at(pt(nineteen, "J9")), Cell::Black);
    EXPECT_EQ(nineteen.at(pt(nineteen, "K10")), Cell::Black);
    EXPECT_EQ(nineteen.at(pt(nineteen, "J10")), Cell::White);
    EXPECT_EQ(nineteen.at(pt(nineteen, "K9")), Cell::White);
    EXPECT_EQ(nineteen.rules().target, 5);
    for (int size = kMinBoardSize; size <= kMaxBoardSize; ++size) {
        Position pos = crosscutPosition(size);
        EXPECT_EQ(pos.stoneCount(Color::Black), 2);
        EXPECT_EQ(pos.stoneCount(Color::White), 2);
        EXPECT_EQ(pos.toMove(), Color::Black);
        EXPECT_EQ(pos.validate(), "");
    }
}

TEST(CaptureGoPositionText, TextsRoundTripExactly) {
    for (const char* text : {
             "9/9/9/9/9/9/9/9/9 b 0 0 0 capture:1 0",
             "6/6/2OX2/2XO2/6/6 w 2 3 1 capture:4 -3",
             "5/1XO2/X1XO1/1XO2/5 w 1 0 0 go 0.5",
             "19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19 b 0 0 0 go 7.5",
             "X18/10O8/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/18X w 0 0 2 capture:10 6",
             "1OXO1/OX1XO/5/5/5 b 0 0 0 go 0",
         }) {
        EXPECT_EQ(positionText(parsePositionText(text)), text);
    }
    // Extra whitespace between fields is tolerated and disappears.
    EXPECT_EQ(positionText(parsePositionText("  5/5/5/5/5   b 0\t0 0 go 7.5 \n")),
              "5/5/5/5/5 b 0 0 0 go 7.5");
}

TEST(CaptureGoPositionText, PositionsOfRandomGamesRoundTrip) {
    std::mt19937_64 rng(5);
    for (int size : {5, 8, 11, 19}) {
        Position pos(size, Rules::capture(50));
        for (int ply = 0; ply < 120; ++ply) {
            pos.play(randomMove(pos, rng, 3));
            std::string text = positionText(pos);
            Position back = parsePositionText(text);
            ASSERT_EQ(positionText(back), text);
            ASSERT_EQ(back.hash(), pos.hash());
            ASSERT_EQ(back.captures(Color::White), pos.captures(Color::White));
        }
    }
}

TEST(CaptureGoPositionText, ErrorsNameWhatIsWrong) {
    EXPECT_EQ(textError(""), "empty position text");
    EXPECT_EQ(
        textError("9/9/9/9/9/9/9/9/9 b 0 0 0 capture:1"),
        "position text ends before the komi (expected: board side black-captures white-captures passes rules "
        "komi)");
    EXPECT_EQ(textError("9/9/9/9/9/9/9/9/9 b 0 0 0 capture:1 0 extra"),
              "unexpected text after the komi: 'extra'");
    EXPECT_EQ(textError("4/4/4/4 b 0 0 0 capture:1 0"), "the board has 4 rows; boards are 5x5 to 19x19");
    EXPECT_EQ(textError("9/9/10/9/9/9/9/9/9 b 0 0 0 capture:1 0"),
              "row 3 from the top has 10 points on a 9x9 board");
    EXPECT_EQ(textError("9/9/9/9/9/9/9/9/20 b 0 0 0 capture:1 0"),
              "row 9 from the top: '20' is not a run of 1 to 19 empty points");
    EXPECT_EQ(textError("9/9/X9/9/9/9/9/9/9 b 0 0 0 capture:1 0"),
              "row 3 from the top has 10 points on a 9x9 board");
    EXPECT_EQ(textError("9/9/9/8/9/9/9/9/9 b 0 0 0 capture:1 0"),
              "row 4 from the top has 8 points on a 9x9 board");
    EXPECT_EQ(textError("9/9/9/9/9/9/9/9/4Y4 b 0 0 0 capture:1 0"),
              "row 9 from the top: unknown character 'Y' (X black, O white, digits for empty points)");
    EXPECT_EQ(textError("5/5/5/05/5 b 0 0 0 capture:1 0"),
              "row 4 from the top: '05' is not a run of 1 to 19 empty points");
    EXPECT_EQ(textError("19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/199 b 0 0 0 go 7.5"),
              "row 19 from the top: runs of empty points are one or two digits, then a stone");
    EXPECT_EQ(textError("9/9/9/9/9/9/9/9/9 x 0 0 0 capture:1 0"), "unknown side 'x' (b or w)");
    EXPECT_EQ(textError("9/9/9/9/9/9/9/9/9 B 0 0 0 capture:1 0"), "unknown side 'B' (b or w)");
    EXPECT_EQ(textError("9/9/9/9/9/9/9/9/9 b -1 0 0 capture:1 0"),
              "black's captures '-1' are not a whole number 0 or more");
    EXPECT_EQ(textError("9/9/9/9/9/9/9/9/9 b 0 01 0 capture:1 0"),
              "white's captures '01' are not a whole number 0 or more");
    EXPECT_EQ(textError("9/9/9/9/9/9/9/9/9 b 0 0 x capture:1 0"),
              "consecutive passes 'x' are not a whole number 0 or more");
    EXPECT_EQ(textError("9/9/9/9/9/9/9/9/9 b 0 0 0 capture:0 0"),
              "capture target '0' must be a whole number 1 or more");
    EXPECT_EQ(textError("9/9/9/9/9/9/9/9/9 b 0 0 0 chess 0"),
              "unknown rules 'chess' (capture:<target> or go)");
    EXPECT_EQ(textError("9/9/9/9/9/9/9/9/9 b 0 0 0 go 7.25"),
              "komi '7.25' is not a multiple of 0.5 written like 0, 7.5 or -3");
    EXPECT_EQ(textError("9/9/9/9/9/9/9/9/9 b 0 0 0 go 7.0"),
              "komi '7.0' is not a multiple of 0.5 written like 0, 7.5 or -3");
    EXPECT_EQ(textError("5/5/5/O4/XO3 b 0 0 0 capture:1 0"), "the black group at A1 has no liberties");
    EXPECT_EQ(textError("5/5/5/5/5 b 2 1 0 capture:1 0"),
              "black (2) and white (1) have both reached the capture target 1");
}

TEST(CaptureGoPositionText, TheDiagramShowsTheBoardForPeople) {
    std::string picture = diagram(crosscutPosition(6));
    EXPECT_NE(picture.find("   A B C D E F"), std::string::npos);
    EXPECT_NE(picture.find(" 4 . . O X . . 4"), std::string::npos);
    EXPECT_NE(picture.find(" 3 . . X O . . 3"), std::string::npos);
    EXPECT_NE(picture.find("black to move; captures: black 0, white 0"), std::string::npos);
}
