// Datagen chunks: gzip `FEN ; result` text encoded by workers and checked by the coordinator.
#include "data_chunk.h"

#include <gtest/gtest.h>

#include "xiangqi/movegen.h"
#include "xiangqi/position.h"

using namespace xq::coord;
using xq::tuner::LabeledPosition;

namespace {

// Distinct real positions: a walk of first legal moves from the start position.
std::vector<LabeledPosition> walk(int n) {
    std::vector<LabeledPosition> out;
    xq::Position pos;
    for (int i = 0; i < n; ++i) {
        out.push_back({pos.fen(), i % 3 == 0 ? 1.0f : i % 3 == 1 ? 0.5f : 0.0f});
        auto legal = xq::legalMoves(pos);
        if (legal.size == 0) break;
        pos.doMove(legal.moves[std::size_t(i) % std::size_t(legal.size)]);
    }
    return out;
}

}  // namespace

TEST(DataChunk, RoundTripKeepsEveryPositionAndResult) {
    auto positions = walk(40);
    auto chunks = encodeChunks(positions);
    ASSERT_EQ(chunks.size(), 1u);
    EXPECT_EQ(chunks[0].positions, positions.size());
    auto back = decodeChunk(chunks[0].data);
    ASSERT_EQ(back.size(), positions.size());
    for (std::size_t i = 0; i < back.size(); ++i) {
        EXPECT_EQ(back[i].fen, positions[i].fen);
        EXPECT_EQ(back[i].result, positions[i].result);
    }
}

TEST(DataChunk, LargeRunsAreSplitUnderTheByteLimit) {
    auto positions = walk(60);
    auto chunks = encodeChunks(positions, 600);
    ASSERT_GT(chunks.size(), 1u);
    std::size_t total = 0;
    std::vector<LabeledPosition> back;
    for (const auto& c : chunks) {
        EXPECT_LE(c.data.size(), 600u);
        auto part = decodeChunk(c.data);
        EXPECT_EQ(part.size(), c.positions);
        total += c.positions;
        back.insert(back.end(), part.begin(), part.end());
    }
    ASSERT_EQ(total, positions.size());
    for (std::size_t i = 0; i < back.size(); ++i) EXPECT_EQ(back[i].fen, positions[i].fen);
}

TEST(DataChunk, GarbageIsRefusedWithAReason) {
    auto expectRefused = [](const std::string& data, const std::string& words) {
        try {
            decodeChunk(data);
            ADD_FAILURE() << "accepted: " << words;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
        }
    };
    expectRefused("not gzip at all, just some text", "not gzip");
    std::string good = encodeChunks(walk(10))[0].data;
    expectRefused(good.substr(0, good.size() / 2), "gzip");
    expectRefused(good + "trailing", "after the end");
    expectRefused(gzipText("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w ; 1.0\nnonsense\n"),
                  "line 2");
    expectRefused(gzipText("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w ; 2.5\n"),
                  "line 1");
    expectRefused(gzipText("xxxxx/9/9 w ; 1.0\n"), "bad FEN");
}

TEST(DataChunk, InflationIsBounded) {
    std::string zeros(4 << 20, '0');
    std::string bomb = gzipText(zeros);
    EXPECT_LT(bomb.size(), 100'000u);
    EXPECT_THROW(gunzipText(bomb, 1 << 20), std::invalid_argument);
    EXPECT_EQ(gunzipText(bomb, 8 << 20).size(), zeros.size());
}
