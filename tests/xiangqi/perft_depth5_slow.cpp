#include <gtest/gtest.h>

#include "reference_data.h"
#include "xiangqi/movegen.h"

using namespace xq;

TEST(PerftSlow, MatchesEveryReferenceCaseAtDepth5) {
    int checked = 0;
    for (const auto& c : testdata::perftCases()) {
        if (c.depth != 5) continue;
        Position pos(c.fen);
        EXPECT_EQ(perft(pos, c.depth), c.nodes) << c.fen;
        ++checked;
    }
    EXPECT_GE(checked, 6);
}
