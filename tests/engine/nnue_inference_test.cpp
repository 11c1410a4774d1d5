// The network's integer inference: it computes the float model of docs/nnue.md up to the stated rounding,
// its features are the contract's, the AVX2 and scalar paths agree, and the searcher's incremental
// accumulators equal a full refresh after any sequence of moves, captures, null moves and unmakes.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "nnue_accumulator.h"
#include "nnue_features.h"
#include "nnue_test_util.h"
#include "test_positions.h"
#include "xiangqi/movegen.h"

using namespace xq;
using namespace xq::nnue;

namespace {

std::vector<Network> testNetworks() {
    std::vector<Network> nets;
    nets.push_back(randomNetwork(16, 1));
    nets.push_back(randomNetwork(256, 2));
    nets.push_back(test::extremeNetwork(32, 3));
    nets.push_back(test::extremeNetwork(256, 4));
    Network scaled = randomNetwork(64, 5);
    scaled.scale = 1234;
    nets.push_back(scaled);
    return nets;
}

// Both perspectives' accumulators of pos from a full refresh.
AlignedVector<std::int16_t> refreshed(const Network& net, const Position& pos, Backend backend) {
    AlignedVector<std::int16_t> acc(2 * std::size_t(net.hidden));
    refresh(net, pos, acc.data(), backend);
    return acc;
}

// Whether the stack's accumulators at ply equal a full refresh of pos.
::testing::AssertionResult matchesRefresh(AccumulatorStack& stack, const Network& net, const Position& pos,
                                          int ply) {
    // Evaluated first: a ply whose parent is computed is then updated and evaluated in one pass.
    const int value = stack.evaluate(pos, ply);
    const auto full = refreshed(net, pos, Backend::SCALAR);
    for (Color p : {RED, BLACK}) {
        const std::int16_t* acc = stack.accumulator(pos, ply, p);
        for (int i = 0; i < net.hidden; ++i)
            if (acc[i] != full[std::size_t(p) * std::size_t(net.hidden) + std::size_t(i)])
                return ::testing::AssertionFailure() << "perspective " << p << " unit " << i
                                                     << " differs at ply " << ply << " in " << pos.fen();
    }
    if (value != evaluate(net, pos) || stack.evaluate(pos, ply) != value)
        return ::testing::AssertionFailure() << "evaluation differs at ply " << ply << " in " << pos.fen();
    return ::testing::AssertionSuccess();
}

}  // namespace

TEST(NnueFeatures, IndicesFollowTheContract) {
    // Red's king on e0: Red sees its own king (kind 0) on square 4; Black sees an opponent's king turned to
    // square 89 - 4.
    EXPECT_EQ(featureIndex(RED, R_KING, makeSquare(4, 0)), 4);
    EXPECT_EQ(featureIndex(BLACK, R_KING, makeSquare(4, 0)), (1 * 7 + 0) * 90 + 85);
    // Black's pawn on a6 seen by Black: own pawn (kind 6), file 8 - 0, rank 9 - 6.
    EXPECT_EQ(featureIndex(BLACK, B_PAWN, makeSquare(0, 6)), 6 * 90 + makeSquare(8, 3));
    EXPECT_EQ(featureIndex(RED, B_PAWN, makeSquare(0, 6)), (7 + 6) * 90 + makeSquare(0, 6));
    // Kinds in FEN order K A B N R C P.
    const Piece order[] = {R_KING, R_ADVISOR, R_BISHOP, R_KNIGHT, R_ROOK, R_CANNON, R_PAWN};
    for (int k = 0; k < 7; ++k) EXPECT_EQ(featureIndex(RED, order[k], 0), k * 90);
    EXPECT_EQ(featureIndex(RED, B_PAWN, 89), INPUTS - 1);
    // Each side sees its own pieces from the bottom: the start position has the same features for both.
    Position start;
    std::array<int, MAX_ACTIVE_FEATURES> red{}, black{};
    ASSERT_EQ(activeFeatures(start, RED, red), 32);
    ASSERT_EQ(activeFeatures(start, BLACK, black), 32);
    std::sort(red.begin(), red.end());
    std::sort(black.begin(), black.end());
    EXPECT_EQ(red, black);
}

TEST(NnueInference, IntegerEvaluationEqualsTheFloatReferenceWithinRounding) {
    const auto fens = test::randomPositions(77, 300, 160);
    for (const Network& net : testNetworks()) {
        double worst = 0;
        int clampedLow = 0, clampedHigh = 0;
        for (const auto& fen : fens) {
            Position pos(fen);
            const int value = evaluate(net, pos);
            const double reference = test::referenceEvaluate(net, pos);
            worst = std::max(worst, std::abs(value - reference));
            ASSERT_LE(std::abs(value - reference), test::roundingAllowance(net))
                << net.description << " " << fen << ": integer " << value << ", float " << reference;
            const auto acc = refreshed(net, pos, Backend::SCALAR);
            for (std::int16_t a : acc) clampedLow += a<0, clampedHigh += a> QA;
        }
        // The positions exercised both ends of the activation's clamp.
        EXPECT_GT(clampedLow, 0) << net.description;
        if (net.description.find("seed=3") != std::string::npos) {
            EXPECT_GT(clampedHigh, 0);
        }
        RecordProperty("worst_difference_" + std::to_string(net.hidden), std::to_string(worst));
    }
}

TEST(NnueInference, AConstantNetworkGivesItsBiasExactly) {
    Network net = Network::zero(16);
    net.b2 = 3 * QA * QB;  // 3.0 in output units: 3 * SCALE centipawns
    serializeNetwork(net);
    EXPECT_EQ(evaluate(net, Position()), 1200);
    net.b2 = -QA * QB / 2;
    EXPECT_EQ(evaluate(net, Position()), -200);
}

TEST(NnueInference, TheColourFlippedTurnedBoardEvaluatesTheSame) {
    const Network net = randomNetwork(64, 21);
    for (const auto& fen : test::randomPositions(5, 100)) {
        Position pos(fen), turned(test::rotateColors(fen));
        EXPECT_EQ(evaluate(net, pos), evaluate(net, turned)) << fen << " vs " << turned.fen();
    }
}

TEST(NnueInference, Avx2AndScalarPathsAgree) {
    if (!HAS_AVX2) GTEST_SKIP() << "this build has no AVX2 (the scalar path is what it runs)";
    for (const Network& net : testNetworks())
        for (const auto& fen : test::randomPositions(91, 150, 160)) {
            Position pos(fen);
            ASSERT_EQ(refreshed(net, pos, Backend::AVX2), refreshed(net, pos, Backend::SCALAR)) << fen;
            ASSERT_EQ(evaluate(net, pos, Backend::AVX2), evaluate(net, pos, Backend::SCALAR)) << fen;
        }
}

// Random games from the start, with the searcher's pattern: a move is recorded before it is made, plies
// are evaluated now and then (so updates span several plies, and long gaps fall back to a refresh), and
// unmakes go back several plies before the game goes on another way.
void checkIncrementalUpdates(Backend backend) {
    for (const Network& net : {randomNetwork(32, 31), test::extremeNetwork(256, 32)}) {
        std::mt19937 rng(1234);
        AccumulatorStack stack(backend);
        Position pos;
        constexpr int Plies = 64;
        stack.reset(net, pos, Plies + 1);
        int ply = 0, captures = 0, checked = 0, unmade = 0, nulls = 0;
        for (int step = 0; step < 4000; ++step) {
            MoveList moves = legalMoves(pos);
            const bool goBack = ply > 0 && (moves.size == 0 || ply == Plies || rng() % 8 == 0);
            if (goBack) {
                for (int k = 1 + int(rng() % 6); k > 0 && ply > 0; --k, --ply) {
                    if (pos.state().move == MOVE_NULL)
                        pos.undoNullMove();
                    else
                        pos.undoMove();
                    ++unmade;
                }
            } else if (moves.size == 0) {
                break;
            } else if (!pos.inCheck() && rng() % 16 == 0) {
                stack.pushNull(++ply);
                pos.doNullMove();
                ++nulls;
            } else {
                const Move m = moves.moves[rng() % unsigned(moves.size)];
                captures += pos.isCapture(m);
                stack.push(++ply, pos.movedPiece(m), fromSq(m), toSq(m), pos.pieceOn(toSq(m)));
                pos.doMove(m);
            }
            // After an unmake the ply's accumulator is the one computed before; otherwise only sometimes.
            if (goBack || rng() % 3 == 0) {
                ASSERT_TRUE(matchesRefresh(stack, net, pos, ply)) << "step " << step;
                ++checked;
            }
        }
        EXPECT_GT(captures, 100);
        EXPECT_GT(checked, 1000);
        EXPECT_GT(unmade, 500);
        EXPECT_GT(nulls, 50);
    }
}

TEST(NnueAccumulator, IncrementalUpdatesEqualAFullRefresh) {
    checkIncrementalUpdates(BEST_BACKEND);
}

TEST(NnueAccumulator, IncrementalUpdatesEqualAFullRefreshOnTheScalarPath) {
    checkIncrementalUpdates(Backend::SCALAR);
}

TEST(NnueAccumulator, AChainLongerThanTheUpdateDistanceIsRefreshed) {
    const Network net = randomNetwork(16, 41);
    AccumulatorStack stack;
    Position pos;
    stack.reset(net, pos, 64);
    std::mt19937 rng(9);
    int ply = 0;
    // No evaluation for 3 * MAX_UPDATE_DISTANCE plies: the next one cannot be reached by updates alone.
    for (; ply < 3 * AccumulatorStack::MAX_UPDATE_DISTANCE; ++ply) {
        MoveList moves = legalMoves(pos);
        ASSERT_GT(moves.size, 0);
        const Move m = moves.moves[rng() % unsigned(moves.size)];
        stack.push(ply + 1, pos.movedPiece(m), fromSq(m), toSq(m), pos.pieceOn(toSq(m)));
        pos.doMove(m);
    }
    EXPECT_TRUE(matchesRefresh(stack, net, pos, ply));
    pos.undoMove();
    EXPECT_TRUE(matchesRefresh(stack, net, pos, ply - 1));
}
