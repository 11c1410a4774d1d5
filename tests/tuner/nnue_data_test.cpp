#include "nnue_data.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>

#include "nnue_test_util.h"
#include "playouts.h"

namespace xq::tuner::nnue {
namespace {

using FeatureSet = std::multiset<int>;

// docs/nnue.md read straight from the FEN's text, without the engine's board: each piece is
// (relColor * 7 + kind) * 90 + square, the square turned by 180 degrees for Black.
std::pair<FeatureSet, FeatureSet> featuresFromFenText(const std::string& fen, bool& redToMove) {
    FeatureSet red, black;
    const std::string board = fen.substr(0, fen.find(' '));
    int rank = 9, file = 0;
    for (char c : board) {
        if (c == '/') {
            --rank;
            file = 0;
        } else if (c >= '1' && c <= '9') {
            file += c - '0';
        } else {
            const bool isRed = c >= 'A' && c <= 'Z';
            const int kind = int(std::string("KABNRCP").find(char(std::toupper(c))));
            const int square = rank * 9 + file;
            red.insert(((isRed ? 0 : 1) * 7 + kind) * 90 + square);
            black.insert(((isRed ? 1 : 0) * 7 + kind) * 90 + (9 - rank) * 9 + (8 - file));
            ++file;
        }
    }
    const char side = fen[fen.find(' ') + 1];
    redToMove = side == 'w' || side == 'r';
    return {red, black};
}

TEST(NnueDataTest, FeaturesFollowTheContractFromBothSides) {
    for (const LabeledPosition& lp : tuner::test::randomPositions(400, 3)) {
        bool redToMove = true;
        auto [red, black] = featuresFromFenText(lp.fen, redToMove);
        PackedPosition p = packPosition(Position(lp.fen), 0.5f, std::nullopt);
        std::array<std::uint16_t, MAX_ACTIVE> stm{}, other{};
        const int n = perspectiveFeatures(p, stm.data(), other.data());
        FeatureSet s(stm.begin(), stm.begin() + n), o(other.begin(), other.begin() + n);
        EXPECT_EQ(p.stm, redToMove ? RED : BLACK) << lp.fen;
        EXPECT_EQ(redToMove ? s : o, red) << lp.fen;
        EXPECT_EQ(redToMove ? o : s, black) << lp.fen;
    }
}

TEST(NnueDataTest, StartPositionLooksTheSameToBothSides) {
    PackedPosition p = packPosition(Position(), 0.5f, std::nullopt);
    std::array<std::uint16_t, MAX_ACTIVE> stm{}, other{};
    ASSERT_EQ(perspectiveFeatures(p, stm.data(), other.data()), 32);
    FeatureSet s(stm.begin(), stm.end()), o(other.begin(), other.end());
    EXPECT_EQ(s, o);
    EXPECT_EQ(s.count(4), 1u);                         // own king on e1 (square 4)
    EXPECT_EQ(s.count((7 + 0) * 90 + 85), 1u);         // the opponent's king on e10 (square 85)
    EXPECT_EQ(s.count(5 * 90 + 2 * 9 + 1), 1u);        // own cannon on b3
    EXPECT_EQ(s.count((7 + 6) * 90 + 6 * 9 + 0), 1u);  // the opponent's pawn on a7
}

TEST(NnueDataTest, TargetBlendsScoreAndResultFromTheSideToMove) {
    Position redToMove, blackToMove("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    const double s = sigmoid(200.0 / 400);
    EXPECT_NEAR(trainingTarget(packPosition(redToMove, 1.0f, 200), 0.5, 400), 0.5 * s + 0.5, 1e-12);
    EXPECT_NEAR(trainingTarget(packPosition(blackToMove, 1.0f, 200), 0.5, 400), 0.5 * (1 - s), 1e-12);
    EXPECT_NEAR(trainingTarget(packPosition(blackToMove, 1.0f, 200), 1.0, 400), 1 - s, 1e-12);
    // Without a score the result alone, whatever lambda.
    EXPECT_EQ(trainingTarget(packPosition(blackToMove, 0.25f, std::nullopt), 0.7, 400), 0.75);
}

TEST(NnueDataTest, ReadsFilesAndDirectoriesWithScoresAndWithout) {
    test::TempDir dir;
    auto positions = tuner::test::randomPositions(300, 5);
    {
        DataWriter a(dir.file("a.txt.gz")), b(dir.file("b.txt"));
        for (std::size_t i = 0; i < positions.size(); ++i) {
            LabeledPosition p = positions[i];
            p.result = float(i % 3) / 2;
            if (i % 2) p.score = int(i) - 150;
            (i < 200 ? a : b).write(p);
        }
    }
    std::ofstream(dir.file("tmp-9.txt.gz")) << "not gzip, still being written";
    std::ofstream(dir.file("notes.json")) << "{}";
    const std::vector<std::string> files = dataFiles({dir.path()});
    ASSERT_EQ(files, (std::vector<std::string>{dir.file("a.txt.gz"), dir.file("b.txt")}));
    NnueData data = readNnueData(files, 2);
    ASSERT_EQ(data.size(), 300);
    EXPECT_EQ(data.withScore, 150);
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const PackedPosition& p = data.positions[i];
        EXPECT_EQ(p.result, float(i % 3) / 2);
        EXPECT_EQ(p.score, i % 2 ? std::int16_t(int(i) - 150) : NO_SCORE);
        EXPECT_EQ(p.stm, Position(positions[i].fen).sideToMove());
    }
    EXPECT_EQ(readNnueData(files, 1, 120).size(), 120);
    EXPECT_EQ(readNnueData(files, 1).fingerprint(), data.fingerprint());
}

TEST(NnueDataTest, BadLineOrMissingFileIsAClearError) {
    test::TempDir dir;
    {
        std::ofstream f(dir.file("bad.txt"));
        f << Position::StartFEN << " ; 1.0 ; 20\n# a comment\n" << Position::StartFEN << " ; 0.5 ; lots\n";
    }
    try {
        readNnueData({dir.file("bad.txt")}, 2);
        FAIL() << "a bad score was accepted";
    } catch (const DataError& e) {
        EXPECT_NE(std::string(e.what()).find("bad.txt:3: bad score 'lots'"), std::string::npos) << e.what();
    }
    {
        std::ofstream f(dir.file("chess.txt"));
        f << "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ; 0.5\n";
    }
    {
        std::ofstream f(dir.file("go.txt"));
        f << Position::StartFEN << " ; 0.5\n5/1O3/2X2/5/5 b 0 0 0 capture:1 0 ; 1.0\n";
    }
    for (const std::string where : {"chess.txt:1: a chess", "go.txt:2: a Capture Go"}) {
        try {
            readNnueData({dir.file(where.substr(0, where.find(':')))}, 2);
            ADD_FAILURE() << where << " was accepted";
        } catch (const DataError& e) {
            EXPECT_NE(std::string(e.what()).find(where + " position (the network plays Xiangqi)"),
                      std::string::npos)
                << e.what();
        }
    }
    try {
        dataFiles({dir.file("missing.txt.gz")});
        FAIL() << "a missing file was accepted";
    } catch (const DataError& e) {
        EXPECT_NE(std::string(e.what()).find("missing.txt.gz: no such file"), std::string::npos) << e.what();
    }
    std::filesystem::create_directories(dir.file("empty"));
    EXPECT_THROW(dataFiles({dir.file("empty")}), DataError);
}

// The board and side to move of a FEN with other move counters: the same position for --dedup.
std::string withCounters(const std::string& fen, const std::string& counters) {
    std::size_t at = 0;
    for (int spaces = 0; spaces < 4 && at != std::string::npos; ++spaces) at = fen.find(' ', at + 1);
    return fen.substr(0, at) + " " + counters;
}

TEST(NnueDataTest, SeenKeysKeepTheFirstOfRepeatedPositionsAcrossFilesAndReads) {
    test::TempDir dir;
    const auto positions = tuner::test::randomPositions(10, 9);
    ASSERT_EQ(positions.size(), 10u);
    ASSERT_NE(withCounters(positions[4].fen, "7 40"), positions[4].fen);
    {
        DataWriter a(dir.file("a.txt")), b(dir.file("b.txt.gz")), v(dir.file("v.txt"));
        for (int i = 0; i < 6; ++i) a.write(LabeledPosition(positions[std::size_t(i)].fen, 1.0f, 10 * i));
        // Repeats: within a file with another label, and in the next file with other move counters.
        a.write(LabeledPosition(positions[2].fen, 0.0f, -500));
        b.write(LabeledPosition(withCounters(positions[4].fen, "7 40"), 0.5f, 1));
        for (int i = 6; i < 9; ++i) b.write(LabeledPosition(positions[std::size_t(i)].fen, 0.5f, 10 * i));
        v.write(LabeledPosition(positions[8].fen, 0.0f, 3));
        v.write(LabeledPosition(positions[9].fen, 0.0f, 4));
    }
    const std::vector<std::string> files = {dir.file("a.txt"), dir.file("b.txt.gz")};
    const NnueData all = readNnueData(files, 2);
    EXPECT_EQ(all.size(), 11);
    EXPECT_EQ(all.duplicates, 0);

    PositionKeys seen;
    const NnueData once = readNnueData(files, 2, 0, {}, &seen);
    ASSERT_EQ(once.size(), 9);
    EXPECT_EQ(once.duplicates, 2);
    EXPECT_EQ(seen.size(), 9u);
    for (int i = 0; i < 9; ++i) {  // the first of each, in order, with its own label
        EXPECT_EQ(once.positions[std::size_t(i)].score, 10 * i);
        EXPECT_EQ(once.positions[std::size_t(i)].result, i < 6 ? 1.0f : 0.5f);
    }
    // The same set across reads: a validation file keeps only what the training files do not have.
    const NnueData validation = readNnueData({dir.file("v.txt")}, 1, 0, {}, &seen);
    ASSERT_EQ(validation.size(), 1);
    EXPECT_EQ(validation.duplicates, 1);
    EXPECT_EQ(validation.positions[0].score, 4);
    // --max-positions counts the positions kept.
    PositionKeys again;
    EXPECT_EQ(readNnueData(files, 1, 8, {}, &again).size(), 8);
}

TEST(NnueDataTest, SplitIsSeededDisjointAndComplete) {
    Split a = splitData(1000, 0.05, 7), b = splitData(1000, 0.05, 7), c = splitData(1000, 0.05, 8);
    EXPECT_EQ(a.validation.size(), 50u);
    EXPECT_EQ(a.train.size(), 950u);
    EXPECT_EQ(a.validation, b.validation);
    EXPECT_NE(a.validation, c.validation);
    std::set<std::uint32_t> all(a.train.begin(), a.train.end());
    all.insert(a.validation.begin(), a.validation.end());
    EXPECT_EQ(all.size(), 1000u);
    EXPECT_TRUE(splitData(10, 0, 1).validation.empty());
}

TEST(NnueDataTest, TailSplitHoldsOutTheLastPositions) {
    Split s = splitData(100, 0.1, 7, SplitMode::Tail);
    EXPECT_EQ(s.validation, (std::vector<std::uint32_t>{90, 91, 92, 93, 94, 95, 96, 97, 98, 99}));
    ASSERT_EQ(s.train.size(), 90u);
    EXPECT_EQ(s.train.front(), 0u);
    EXPECT_EQ(s.train.back(), 89u);
    // A validation file's positions are the last ones read.
    s = splitLast(10, 3);
    EXPECT_EQ(s.validation, (std::vector<std::uint32_t>{7, 8, 9}));
    EXPECT_EQ(s.train.size(), 7u);
    EXPECT_THROW(splitData(10, 0.1, 1, SplitMode::File), std::invalid_argument);
}

}  // namespace
}  // namespace xq::tuner::nnue
