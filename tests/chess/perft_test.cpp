// Chess move generation against the published perft counts of the standard positions, to depth 5 (depth 6
// runs under the slow label), and the divide that `xq judge --game chess --perft` prints.
#include <gtest/gtest.h>

#include "chess/movegen.h"
#include "perft_cases.h"

using namespace xq::chess;

class ChessPerft : public ::testing::TestWithParam<ChessPerftCase> {};

TEST_P(ChessPerft, CountsEveryDepthToFiveExactly) {
    const auto& c = GetParam();
    Position pos;
    std::string error;
    ASSERT_TRUE(pos.setFen(c.fen, &error)) << error;
    std::string before = pos.fen();
    for (int depth = 1; depth <= 5; ++depth)
        EXPECT_EQ(perft(pos, depth), c.nodes[depth - 1]) << "depth " << depth;
    EXPECT_EQ(pos.fen(), before) << "making and unmaking moves left the position changed";
}

INSTANTIATE_TEST_SUITE_P(StandardPositions, ChessPerft, ::testing::ValuesIn(chessPerftCases()),
                         [](const auto& p) { return std::string(p.param.name); });

TEST(ChessPerftDivide, SplitsTheCountByFirstMoveInUciText) {
    Position pos;
    auto divide = perftDivide(pos, 3);
    ASSERT_EQ(divide.size(), 20u);
    std::uint64_t sum = 0;
    for (const auto& [move, n] : divide) sum += n;
    EXPECT_EQ(sum, 8902u);
    bool found = false;
    for (const auto& [move, n] : divide)
        if (move == "e2e4") {
            found = true;
            EXPECT_EQ(n, 600u);  // as Stockfish's `go perft 3` divides it
        }
    EXPECT_TRUE(found);
}
