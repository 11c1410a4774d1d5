// Self-play data generation with the real engine (skipped only when xq-engine is not built).
#include "datagen.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <unordered_set>

#include "capturego/position_text.h"
#include "chess/position.h"
#include "oracle.h"
#include "quiet.h"
#include "quiet_chess.h"

namespace xq::tuner {
namespace datagen_test {

const std::string EnginePath = std::string(XQ_BIN_DIR) + "/xq-engine";

DatagenOptions smallRun() {
    DatagenOptions o;
    o.enginePath = EnginePath;
    o.games = 6;
    o.nodes = 300;
    o.randomPlies = 6;
    o.concurrency = 2;
    o.sampleRate = 0.5;
    o.maxPlies = 160;
    o.chunkSize = 16;
    o.seed = 42;
    return o;
}

TEST(DatagenTest, ProducesValidQuietUniquePositions) {
    XQ_REQUIRE_ORACLE(std::filesystem::exists(EnginePath), "no engine at " << EnginePath);
    DatagenOptions o = smallRun();
    std::vector<LabeledPosition> all;
    int chunks = 0, progressCalls = 0;
    std::atomic<bool> stop{false};
    DatagenStats s = generateData(
        o,
        [&](std::vector<LabeledPosition>& chunk) {
            EXPECT_LE(int(chunk.size()), o.chunkSize);
            all.insert(all.end(), chunk.begin(), chunk.end());
            ++chunks;
        },
        stop, [&](const DatagenStats&) { ++progressCalls; });

    EXPECT_EQ(s.gamesPlayed + s.gamesFailed + s.gamesGivenUp, o.games);
    EXPECT_EQ(s.gamesFailed, 0);
    EXPECT_EQ(s.gamesPlayed, s.redWins + s.draws + s.blackWins);
    EXPECT_EQ(progressCalls, o.games);
    ASSERT_GT(s.positions, 20);
    EXPECT_EQ(std::int64_t(all.size()), s.positions);
    EXPECT_GT(chunks, 1);
    EXPECT_EQ(s.sampled, s.inCheck + s.noisy + s.mateScores + s.duplicates + s.positions);
    EXPECT_GT(s.plies, s.positions);

    std::unordered_set<std::uint64_t> keys;
    for (const LabeledPosition& p : all) {
        Position pos(p.fen);  // valid FEN (throws otherwise)
        EXPECT_FALSE(pos.inCheck()) << p.fen;
        EXPECT_TRUE(isQuiet(pos)) << p.fen;
        EXPECT_TRUE(p.result == 0.0f || p.result == 0.5f || p.result == 1.0f);
        EXPECT_TRUE(keys.insert(pos.key()).second) << "duplicate " << p.fen;
        // Openings are random plies from the start: never the start position itself.
        EXPECT_NE(p.fen, Position::StartFEN);
    }
    // Every kept position carries the engine's score (mates are skipped), from Red's view: the sum over
    // Red-to-move and Black-to-move positions of a won side's games leans the same way.
    double redWinsScore = 0, blackWinsScore = 0;
    for (const LabeledPosition& p : all) {
        ASSERT_TRUE(p.score) << p.fen;
        EXPECT_LE(std::abs(*p.score), MaxDataScore);
        if (p.result == 1.0f) redWinsScore += *p.score;
        if (p.result == 0.0f) blackWinsScore += *p.score;
    }
    if (s.redWins > 0) {
        EXPECT_GT(redWinsScore, 0);
    }
    if (s.blackWins > 0) {
        EXPECT_LT(blackWinsScore, 0);
    }
}

TEST(DatagenTest, SlicesOfGameNumbersDoNotRepeatEachOther) {
    XQ_REQUIRE_ORACLE(std::filesystem::exists(EnginePath), "no engine at " << EnginePath);
    DatagenOptions o = smallRun();
    o.games = 2;
    o.concurrency = 1;
    o.sampleRate = 1.0;
    o.maxPlies = 30;
    std::atomic<bool> stop{false};
    std::vector<LabeledPosition> a, b;
    generateData(
        o, [&](auto& c) { a.insert(a.end(), c.begin(), c.end()); }, stop);
    o.firstGame = 2;
    generateData(
        o, [&](auto& c) { b.insert(b.end(), c.begin(), c.end()); }, stop);
    ASSERT_FALSE(a.empty());
    ASSERT_FALSE(b.empty());
    std::unordered_set<std::string> fa;
    for (const auto& p : a) fa.insert(p.fen);
    int shared = 0;
    for (const auto& p : b) shared += int(fa.count(p.fen));
    EXPECT_LT(shared, int(b.size()) / 2);
}

TEST(DatagenTest, StopReturnsPromptly) {
    XQ_REQUIRE_ORACLE(std::filesystem::exists(EnginePath), "no engine at " << EnginePath);
    DatagenOptions o = smallRun();
    o.games = 1000;
    std::atomic<bool> stop{true};
    DatagenStats s = generateData(
        o, [](auto&) {}, stop);
    EXPECT_EQ(s.gamesPlayed, 0);
}

TEST(DatagenTest, BadOptionsAndEnginesAreErrors) {
    std::atomic<bool> stop{false};
    DatagenOptions o = smallRun();
    o.games = 0;
    EXPECT_THROW(generateData(
                     o, [](auto&) {}, stop),
                 std::invalid_argument);
    o = smallRun();
    o.sampleRate = 0;
    EXPECT_THROW(generateData(
                     o, [](auto&) {}, stop),
                 std::invalid_argument);
    o = smallRun();
    o.enginePath = "";
    EXPECT_THROW(generateData(
                     o, [](auto&) {}, stop),
                 std::invalid_argument);

    // An engine that cannot run, and one that exits at once: a runtime error saying so.
    o = smallRun();
    o.enginePath = "/nonexistent/engine";
    o.startupTimeoutMs = 2000;
    EXPECT_THROW(generateData(
                     o, [](auto&) {}, stop),
                 std::runtime_error);
    o.enginePath = "/bin/false";
    try {
        generateData(
            o, [](auto&) {}, stop);
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("did not start"), std::string::npos) << e.what();
    }
}

// Chess through the same generator: Debian's Stockfish plays itself from random plies off the chess start;
// every kept position is a legal chess FEN, quiet by the chess test, labelled from White's view.
TEST(DatagenTest, ChessSelfPlayOfStockfishKeepsQuietChessPositions) {
    const std::string stockfish = "/usr/games/stockfish";
    ASSERT_TRUE(std::filesystem::exists(stockfish)) << "stockfish is not installed (scripts/install-deps.sh)";
    DatagenOptions o = smallRun();
    o.game = games::Game::Chess;
    o.enginePath = stockfish;
    o.engineOptions = {{"Hash", "8"}};
    o.games = 4;
    o.nodes = 500;
    o.maxPlies = 120;
    std::vector<LabeledPosition> all;
    std::atomic<bool> stop{false};
    DatagenStats s = generateData(
        o, [&](std::vector<LabeledPosition>& chunk) { all.insert(all.end(), chunk.begin(), chunk.end()); },
        stop);
    EXPECT_EQ(s.gamesFailed, 0);
    EXPECT_EQ(s.gamesPlayed, s.redWins + s.draws + s.blackWins);
    ASSERT_GT(s.positions, 10);
    EXPECT_EQ(std::int64_t(all.size()), s.positions);
    std::unordered_set<std::uint64_t> keys;
    for (const LabeledPosition& p : all) {
        chess::Position pos;
        std::string error;
        ASSERT_TRUE(pos.setFen(p.fen, &error)) << p.fen << ": " << error;
        EXPECT_FALSE(pos.inCheck()) << p.fen;
        EXPECT_TRUE(isQuiet(pos)) << p.fen;
        EXPECT_TRUE(keys.insert(pos.key()).second) << "duplicate " << p.fen;
        EXPECT_EQ(positionKey(p.fen), pos.key());
        // The data line reads back as a chess position.
        LabeledPosition back;
        EXPECT_TRUE(parseDataLine(p.fen + " ; " + formatResult(p.result), back)) << p.fen;
    }
}

// Capture Go through the same generator: xq-go over GTP plays itself on a 7x7 board (target 1) from random
// stones; every kept position is a position text of that board without a group in atari, labelled from
// Black's view (the first player's) and without a score (GTP reports none).
TEST(DatagenTest, CaptureGoSelfPlayOfXqGoKeepsPositionTextsWithoutAGroupInAtari) {
    const std::string xqGo = std::string(XQ_BIN_DIR) + "/xq-go";
    ASSERT_TRUE(std::filesystem::exists(xqGo)) << "no xq-go at " << xqGo;
    DatagenOptions o = smallRun();
    o.game = games::Game::CaptureGo;
    o.enginePath = xqGo;
    o.engineArgs = {"--nodes", "500"};
    o.board = "size=7,rules=capture,target=1";
    o.games = 8;
    o.randomPlies = 4;
    o.maxPlies = 100;
    std::vector<LabeledPosition> all;
    std::atomic<bool> stop{false};
    DatagenStats s = generateData(
        o, [&](std::vector<LabeledPosition>& chunk) { all.insert(all.end(), chunk.begin(), chunk.end()); },
        stop);
    EXPECT_EQ(s.gamesFailed, 0);
    EXPECT_EQ(s.gamesPlayed, o.games);
    EXPECT_EQ(s.gamesPlayed, s.redWins + s.draws + s.blackWins);
    ASSERT_GT(s.positions, 5);
    EXPECT_EQ(std::int64_t(all.size()), s.positions);
    std::unordered_set<std::uint64_t> keys;
    int blackWon = 0, whiteWon = 0;
    for (const LabeledPosition& p : all) {
        EXPECT_TRUE(isCaptureGoText(p.fen)) << p.fen;
        const capturego::Position pos = capturego::parsePositionText(p.fen);
        EXPECT_EQ(pos.size(), 7) << p.fen;
        EXPECT_EQ(pos.rules().target, 1) << p.fen;
        EXPECT_FALSE(pos.anyGroupInAtari()) << p.fen;
        EXPECT_FALSE(p.score) << p.fen;
        EXPECT_TRUE(p.result == 0.0f || p.result == 0.5f || p.result == 1.0f);
        (p.result == 1.0f ? blackWon : whiteWon) += p.result != 0.5f;
        EXPECT_TRUE(keys.insert(positionKey(p.fen)).second) << "duplicate " << p.fen;
        LabeledPosition back;
        ASSERT_TRUE(parseDataLine(formatDataLine(p), back)) << p.fen;
        EXPECT_EQ(back.fen, p.fen);
    }
    // Labels are the first player's (Black's): 1.0 only from games Black won.
    EXPECT_EQ(blackWon > 0, s.redWins > 0);
    EXPECT_EQ(whiteWon > 0, s.blackWins > 0);

    DatagenOptions bad = o;
    bad.board = "size=3";
    try {
        generateData(
            bad, [](std::vector<LabeledPosition>&) {}, stop);
        FAIL() << "a 3x3 board was taken";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("board: size must be a whole number from 5 to 19"),
                  std::string::npos)
            << e.what();
    }
    DatagenOptions xiangqi = smallRun();
    xiangqi.board = "size=9";
    EXPECT_THROW(generateData(
                     xiangqi, [](std::vector<LabeledPosition>&) {}, stop),
                 std::invalid_argument);
}

}  // namespace datagen_test
}  // namespace xq::tuner
