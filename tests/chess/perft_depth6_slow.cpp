// Chess perft at depth 6 on the standard positions (slow: about 19 billion leaves in all).
#include <gtest/gtest.h>

#include "chess/movegen.h"
#include "perft_cases.h"

using namespace xq::chess;

class ChessPerftDepth6 : public ::testing::TestWithParam<ChessPerftCase> {};

TEST_P(ChessPerftDepth6, CountsDepthSixExactly) {
    const auto& c = GetParam();
    Position pos;
    ASSERT_TRUE(pos.setFen(c.fen));
    EXPECT_EQ(perft(pos, 6), c.nodes[5]);
}

INSTANTIATE_TEST_SUITE_P(StandardPositions, ChessPerftDepth6, ::testing::ValuesIn(chessPerftCases()),
                         [](const auto& p) { return std::string(p.param.name); });
