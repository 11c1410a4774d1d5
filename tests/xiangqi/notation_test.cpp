// Chinese move notation: each rule of how players write a move, on positions where it applies.
#include "xiangqi/notation.h"

#include <gtest/gtest.h>

#include "xiangqi/rules.h"

namespace {

std::string written(const std::string& fen, const std::string& iccs) {
    xq::Position pos(fen);
    auto m = xq::parseMove(pos, iccs);
    if (!m) return "illegal " + iccs;
    return xq::chineseNotation(pos, *m);
}

const std::string Start = xq::Position::StartFEN;
const std::string AfterCentralCannon =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";

}  // namespace

TEST(ChineseNotation, RedCountsFilesFromItsRightInChineseNumerals) {
    EXPECT_EQ(written(Start, "h2e2"), "炮二平五");
    EXPECT_EQ(written(Start, "b0c2"), "马八进七");
    EXPECT_EQ(written(Start, "a0a1"), "车九进一");
    EXPECT_EQ(written(Start, "i3i4"), "兵一进一");
    EXPECT_EQ(written(Start, "c0e2"), "相七进五");
    EXPECT_EQ(written(Start, "d0e1"), "仕六进五");
    EXPECT_EQ(written(Start, "e0e1"), "帅五进一");
}

TEST(ChineseNotation, BlackCountsFilesFromItsRightInFullWidthDigits) {
    EXPECT_EQ(written(AfterCentralCannon, "h9g7"), "马８进７");
    EXPECT_EQ(written(AfterCentralCannon, "b7e7"), "炮２平５");
    EXPECT_EQ(written(AfterCentralCannon, "c9e7"), "象３进５");
    EXPECT_EQ(written(AfterCentralCannon, "f9e8"), "士６进５");
    EXPECT_EQ(written(AfterCentralCannon, "a6a5"), "卒１进１");
}

TEST(ChineseNotation, LinePiecesCountRanksAndOthersNameTheFileTheyReach) {
    const std::string fen = "4k4/9/9/R8/9/9/9/4B4/4N4/4K4 w - - 0 1";
    EXPECT_EQ(written(fen, "a6a2"), "车九退四");
    EXPECT_EQ(written(fen, "a6e6"), "车九平五");
    EXPECT_EQ(written(fen, "e1c0"), "马五退七");
    EXPECT_EQ(written(fen, "e2g4"), "相五进三");
    EXPECT_EQ(written(fen, "e2c0"), "相五退七");
}

TEST(ChineseNotation, TwoPiecesOnOneFileAreFrontAndRearFromTheirOwnSide) {
    // Red cannons on h2 and h5; black rooks on b9 and b5 (Black's front is toward rank 0).
    const std::string red = "1r2k4/9/9/9/1r5C1/9/9/7C1/9/3K5 w - - 0 1";
    EXPECT_EQ(written(red, "h5h7"), "前炮进二");
    EXPECT_EQ(written(red, "h2e2"), "后炮平五");
    const std::string black = "1r2k4/9/9/9/1r5C1/9/9/7C1/9/3K5 b - - 0 1";
    EXPECT_EQ(written(black, "b5b3"), "前车进２");
    EXPECT_EQ(written(black, "b9c9"), "后车平３");
}

TEST(ChineseNotation, ThreePawnsOnAFileAreFrontMiddleRearAndStacksOnTwoFilesNameTheFile) {
    const std::string three = "4k4/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1";
    EXPECT_EQ(written(three, "e7e8"), "前兵进一");
    EXPECT_EQ(written(three, "e6d6"), "中兵平六");
    EXPECT_EQ(written(three, "e5f5"), "后兵平四");
    const std::string twoStacks = "4k4/9/9/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1";
    EXPECT_EQ(written(twoStacks, "c6c7"), "前兵七进一");
    EXPECT_EQ(written(twoStacks, "g5f5"), "后兵三平四");
}

TEST(ChineseNotation, AdvisorsAndElephantsOnOneFileAreToldApartByWhereTheyGo) {
    // Elephants on c0 and c4: the one going forward and the one going back.
    const std::string fen = "4k4/9/9/9/9/2B6/9/9/9/2B2K3 w - - 0 1";
    EXPECT_EQ(written(fen, "c0e2"), "相七进五");
    EXPECT_EQ(written(fen, "c4e2"), "相七退五");
}
