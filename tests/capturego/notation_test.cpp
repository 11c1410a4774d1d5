// GTP coordinates: columns A..T without I, rows from the bottom, "pass"; errors that name the problem.
#include "capturego/notation.h"

#include <gtest/gtest.h>

using namespace xq::capturego;

namespace {

std::string parseError(std::string_view text, int size) {
    try {
        parseMove(text, size);
    } catch (const ParseError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST(CaptureGoNotation, ColumnsSkipIAndRowsCountFromTheBottom) {
    EXPECT_EQ(pointName({0, 0}), "A1");
    EXPECT_EQ(pointName({3, 3}), "D4");
    EXPECT_EQ(pointName({7, 0}), "H1");
    EXPECT_EQ(pointName({8, 0}), "J1");
    EXPECT_EQ(pointName({18, 18}), "T19");
    EXPECT_EQ(moveName(Move::pass()), "pass");
    EXPECT_EQ(moveName(Move::at(2, 9)), "C10");
    EXPECT_EQ(parsePoint("J1", 9), (Point{8, 0}));
    EXPECT_EQ(parsePoint("A9", 9), (Point{0, 8}));
}

TEST(CaptureGoNotation, InputIsCaseInsensitiveAndMayCarrySpaces) {
    EXPECT_EQ(parseMove("d4", 9), Move::at(3, 3));
    EXPECT_EQ(parseMove(" D4\n", 9), Move::at(3, 3));
    EXPECT_EQ(parseMove("PASS", 9), Move::pass());
    EXPECT_EQ(parseMove("Pass", 9), Move::pass());
    EXPECT_EQ(parseMove("t19", 19), Move::at(18, 18));
}

TEST(CaptureGoNotation, EveryPointOfEveryBoardSizeRoundTrips) {
    for (int size = kMinBoardSize; size <= kMaxBoardSize; ++size)
        for (int row = 0; row < size; ++row)
            for (int col = 0; col < size; ++col) {
                Point p{col, row};
                ASSERT_EQ(parsePoint(pointName(p), size), p) << pointName(p);
            }
}

TEST(CaptureGoNotation, ErrorsNameWhatIsWrong) {
    EXPECT_EQ(parseError("", 9), "empty move: expected a point like D4, or pass");
    EXPECT_EQ(parseError("I5", 9), "'I5': GTP columns skip I (... H, J ...)");
    EXPECT_EQ(parseError("Z5", 19), "'Z5': column Z is beyond T (columns are A to T, I skipped)");
    EXPECT_EQ(parseError("4D", 9), "'4D': expected a column letter A to T first");
    EXPECT_EQ(parseError("D", 9), "'D': the row number is missing");
    EXPECT_EQ(parseError("Dx", 9), "'Dx': expected a row number after the column, found 'x'");
    EXPECT_EQ(parseError("D0", 9), "'D0': rows count from 1 (no row 0, no leading zero)");
    EXPECT_EQ(parseError("D04", 9), "'D04': rows count from 1 (no row 0, no leading zero)");
    EXPECT_EQ(parseError("D4x", 9), "'D4x': unexpected 'x' after the row number");
    EXPECT_EQ(parseError("K10", 9), "K10 is off the 9x9 board");
    EXPECT_EQ(parseError("J10", 9), "J10 is off the 9x9 board");
    EXPECT_EQ(parseError("E6", 5), "E6 is off the 5x5 board");
    EXPECT_EQ(parseError("D123456789", 9), "'D123456789': the row number is far too large");
    EXPECT_EQ(parseError("resign", 9), "'resign' is not a board move (resigning ends the game)");
}
