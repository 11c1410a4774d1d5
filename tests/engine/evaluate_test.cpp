#include "evaluate.h"

#include <gtest/gtest.h>

#include <random>

#include "test_positions.h"
#include "xiangqi/movegen.h"

using namespace xq;
using namespace xq::eval;

TEST(Evaluate, TraceAgreesWithEvaluationOnManyPositions) {
    auto fens = xq::test::randomPositions(42, 400);
    fens.push_back(Position::StartFEN);
    for (const auto& fen : fens) {
        Position pos(fen);
        Trace t = trace(pos);
        ASSERT_EQ(evaluateTrace(t, defaultWeights()), evaluate(pos, defaultWeights())) << fen;
    }
}

TEST(Evaluate, TraceAgreesForArbitraryWeights) {
    // The trace must be a true linear form: any weights, not only the defaults, give the same result.
    std::mt19937 rng(7);
    auto fens = xq::test::randomPositions(43, 150);
    for (int round = 0; round < 5; ++round) {
        Weights w;
        for (int i = 0; i < WEIGHT_NB; ++i) w[i] = {int(rng() % 401) - 200, int(rng() % 401) - 200};
        for (const auto& fen : fens) {
            Position pos(fen);
            ASSERT_EQ(evaluateTrace(trace(pos), w), evaluate(pos, w)) << fen;
        }
    }
}

TEST(Evaluate, IncrementalAccumulatorMatchesTheFullEvaluation) {
    // The searcher updates material and piece squares move by move; along random games (captures
    // included) the result must equal a recount, and the evaluation from it the full evaluation.
    std::mt19937 rng(11);
    for (int game = 0; game < 40; ++game) {
        Position pos;
        Accumulator acc = accumulate(pos);
        for (int ply = 0; ply < 150; ++ply) {
            MoveList moves = legalMoves(pos);
            if (moves.size == 0) break;
            // Prefer captures so that material changes often.
            Move m = moves.moves[rng() % std::uint64_t(moves.size)];
            for (Move c : moves)
                if (pos.isCapture(c) && rng() % 2) m = c;
            acc = afterMove(acc, pos.movedPiece(m), fromSq(m), toSq(m), pos.pieceOn(toSq(m)));
            pos.doMove(m);
            const Accumulator fresh = accumulate(pos);
            ASSERT_EQ(acc.mg, fresh.mg) << pos.fen();
            ASSERT_EQ(acc.eg, fresh.eg) << pos.fen();
            ASSERT_EQ(acc.count, fresh.count) << pos.fen();
            ASSERT_EQ(evaluate(pos, acc), evaluate(pos)) << pos.fen();
        }
    }
}

TEST(Evaluate, AccumulatorFollowsNewWeights) {
    Weights w = defaultWeights();
    w[W_MATERIAL + int(ROOK) - int(ADVISOR)].mg += 37;
    w[W_PST + (int(KNIGHT) - int(KING)) * PST_SIZE + 12].eg -= 11;
    for (const auto& fen : xq::test::randomPositions(45, 50)) {
        Position pos(fen);
        setActiveWeights(w);
        const int changed = evaluate(pos, accumulate(pos));
        setActiveWeights(defaultWeights());
        EXPECT_EQ(changed, evaluate(pos, w)) << fen;
        EXPECT_EQ(evaluate(pos, accumulate(pos)), evaluate(pos, defaultWeights())) << fen;
    }
}

TEST(Evaluate, TraceCoefficientsAreTheFeatureCounts) {
    Position start;
    Trace t = trace(start);
    // Symmetric start: material and piece squares cancel; only the tempo remains, for Red.
    EXPECT_EQ(t.coef[W_MATERIAL + int(ROOK) - int(ADVISOR)], 0);
    EXPECT_EQ(t.coef[W_TEMPO], 1);
    EXPECT_EQ(t.phase, PHASE_MAX);
    EXPECT_EQ(t.scale, SCALE_NORMAL);
    // Red without one rook: one rook fewer in Red's view.
    Position noRook("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1");
    Trace t2 = trace(noRook);
    EXPECT_EQ(t2.coef[W_MATERIAL + int(ROOK) - int(ADVISOR)], -1);
    EXPECT_EQ(t2.phase, PHASE_MAX - 4);
}

TEST(Evaluate, ColourFlipNegatesTheEvaluation) {
    for (const auto& fen : xq::test::randomPositions(44, 200)) {
        Position pos(fen), flipped(xq::test::flipColors(fen));
        EXPECT_EQ(evaluate(pos), -evaluate(flipped)) << fen;
    }
}

TEST(Evaluate, MaterialAdvantageShows) {
    // Red is a rook up.
    Position pos("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    EXPECT_GT(evaluate(pos), 500);
}

TEST(Evaluate, NoAttackingMaterialIsADraw) {
    Position pos("3akab2/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1");
    EXPECT_EQ(evaluate(pos), 0);
    EXPECT_EQ(trace(pos).scale, 0);
}

TEST(Evaluate, ReportEndsWithTheFinalEvaluation) {
    Position pos("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    std::string report = evalReport(pos);
    std::string last = report.substr(report.rfind("Final evaluation: "));
    EXPECT_EQ(last, "Final evaluation: " + std::to_string(evaluate(pos)) + "\n");
    EXPECT_NE(report.find("Material"), std::string::npos);
    EXPECT_NE(report.find("Mobility"), std::string::npos);
}
