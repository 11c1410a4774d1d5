#include <gtest/gtest.h>

#include "xiangqi/position.h"

using namespace xq;

static std::string fenError(const std::string& fen) {
    try {
        Position pos(fen);
    } catch (const FenError& e) {
        return e.what();
    }
    return "";
}

TEST(Fen, RoundTrips) {
    for (const char* fen :
         {Position::StartFEN, "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
          "3k5/9/9/6c2/9/9/9/6R2/9/5K3 b - - 2 30"}) {
        EXPECT_EQ(Position(fen).fen(), fen);
    }
}

TEST(Fen, AcceptsRForRedAndShortForms) {
    EXPECT_EQ(Position("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r").fen(),
              Position::StartFEN);
    EXPECT_EQ(Position("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b").sideToMove(), BLACK);
}

TEST(Fen, ErrorsNameWhatAndWhere) {
    {
        EXPECT_NE(fenError("").find("empty"), std::string::npos);
        EXPECT_NE(fenError("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w").find("ranks"),
                  std::string::npos);
        EXPECT_NE(
            fenError("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/9/RNBAKABNR w").find("11 ranks"),
            std::string::npos);
        EXPECT_NE(fenError("rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
                      .find("rank 8 has 8 files"),
                  std::string::npos);
        EXPECT_NE(fenError("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w")
                      .find("more than 9 files"),
                  std::string::npos);
        EXPECT_NE(fenError("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w")
                      .find("bad piece letter 'X'"),
                  std::string::npos);
        EXPECT_NE(fenError("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x")
                      .find("bad side to move 'x'"),
                  std::string::npos);
        EXPECT_NE(
            fenError("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w").find("red has no king"),
            std::string::npos);
        EXPECT_NE(fenError("4k4/9/9/9/9/9/9/9/9/K8 w").find("red king on a0 is outside the palace"),
                  std::string::npos);
        EXPECT_NE(fenError("4k4/9/9/9/9/9/9/9/4K4/3K5 w").find("too many red kings"), std::string::npos);
        EXPECT_NE(fenError("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - x 1").find("halfmove"), std::string::npos);
        EXPECT_NE(fenError("4k4/9/9/9/9/9/9/9/9/4K4 w").find("not to move"), std::string::npos)
            << "kings facing each other with red to move means black left its king attacked";
        EXPECT_NE(fenError("3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1 extra").find("unexpected"),
                  std::string::npos);
        EXPECT_NE(fenError("3k5/9/9/9/9/A8/9/9/9/4K4 w").find("can never reach"), std::string::npos);
        EXPECT_NE(fenError("3k5/9/9/9/9/9/9/9/P8/4K4 w").find("can never reach"), std::string::npos);
    }
}

TEST(Fen, HalfmoveClockAndMoveNumberAreKept) {
    Position pos("3k5/9/9/6c2/9/9/9/6R2/9/5K3 b - - 2 30");
    EXPECT_EQ(pos.rule60(), 2);
    EXPECT_EQ(pos.fullmoveNumber(), 30);
    EXPECT_EQ(pos.sideToMove(), BLACK);
}

TEST(Fen, ErrorsCountRanksAndFilesInTheSingularForOne) {
    EXPECT_EQ(fenError("4k4 w"), "the board has 1 rank, expected 10");
    EXPECT_EQ(fenError("4k4/9 w"), "the board has 2 ranks, expected 10");
    EXPECT_EQ(fenError("4k4/9/9/9/9/9/9/9/9/1 w"), "rank 0 has 1 file, expected 9");
    EXPECT_EQ(fenError("4k4/1/9/9/9/9/9/9/9/4K4 w"), "rank 8 has 1 file, expected 9");
}
