#include "movepick.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "test_positions.h"

using namespace xq;

TEST(See, ExchangesAreCounted) {
    // Red rook takes a pawn defended by a horse: loses the rook for a pawn.
    Position pos("3k5/9/9/9/1n7/3p5/9/9/9/3RK4 w - - 0 1");
    Move rxp = makeMove(makeSquare(3, 0), makeSquare(3, 4));
    EXPECT_EQ(see(pos, rxp), SeeValue[PAWN] - SeeValue[ROOK]);
    EXPECT_FALSE(seeGE(pos, rxp, 0));
    // An undefended pawn is simply won.
    Position free("3k5/9/9/9/9/3p5/9/9/9/3RK4 w - - 0 1");
    EXPECT_EQ(see(free, rxp), SeeValue[PAWN]);
}

TEST(See, EarlyExitAgreesWithTheFullExchange) {
    // seeAtLeast stops the exchange once the answer is known; it must answer exactly as the full see().
    int checked = 0, differentAnswers = 0;
    for (const auto& fen : xq::test::randomPositions(8, 300, 160)) {
        Position pos(fen);
        MoveList list;
        generate<PSEUDO_LEGAL>(pos, list);
        for (Move m : list) {
            const int value = see(pos, m);
            for (int threshold = -1000; threshold <= 1000; threshold += 50) {
                const bool expected = value >= threshold;
                ASSERT_EQ(seeAtLeast(pos, m, threshold), expected)
                    << fen << " " << moveToString(m) << " threshold " << threshold << " see " << value;
                ASSERT_EQ(seeGE(pos, m, threshold), expected) << fen << " " << moveToString(m);
                ++checked;
                differentAnswers += expected != (threshold <= 0);
            }
        }
    }
    EXPECT_GT(checked, 100000);
    EXPECT_GT(differentAnswers, 1000);  // exchanges that win or lose material were exercised
}

TEST(PseudoLegal, AgreesWithTheGeneratorForEveryFromTo) {
    // The searcher asks isPseudoLegal of table moves and killers, which may be anything; it must accept
    // exactly the generator's pseudo-legal moves.
    int accepted = 0;
    for (const auto& fen : xq::test::randomPositions(9, 200, 160)) {
        Position pos(fen);
        MoveList list;
        generate<PSEUDO_LEGAL>(pos, list);
        bool generated[SQUARE_NB][SQUARE_NB] = {};
        for (Move m : list) generated[fromSq(m)][toSq(m)] = true;
        for (Square from = 0; from < SQUARE_NB; ++from)
            for (Square to = 0; to < SQUARE_NB; ++to) {
                if (from == to) continue;
                const Move m = makeMove(from, to);
                ASSERT_EQ(pos.isPseudoLegal(m), generated[from][to]) << fen << " " << moveToString(m);
                accepted += generated[from][to];
            }
    }
    EXPECT_GT(accepted, 5000);
}

TEST(GivesCheck, MailboxAnswerAgreesWithTheRulesCore) {
    int checks = 0;
    for (const auto& fen : xq::test::randomPositions(5, 300, 160)) {
        Position pos(fen);
        MoveList list;
        generate<PSEUDO_LEGAL>(pos, list);
        for (Move m : list) {
            if (!pos.isLegal(m)) continue;
            ASSERT_EQ(givesCheckFast(pos, m), pos.givesCheck(m)) << fen << " " << moveToString(m);
            checks += pos.givesCheck(m);
        }
    }
    EXPECT_GT(checks, 100);  // the sample holds plenty of checks, so both answers were exercised
}

TEST(MovePicker, YieldsEveryMoveExactlyOnce) {
    ButterflyHistory history{};
    static ContinuationHistory cont{};
    const PieceToHistory* contHist[] = {&cont.table[NO_PIECE][0], &cont.table[NO_PIECE][0]};
    for (const auto& fen : xq::test::randomPositions(6, 200, 160)) {
        Position pos(fen);
        MoveList all;
        generate<PSEUDO_LEGAL>(pos, all);
        // A table move and killers taken from the list (one of them possibly a capture), as the search has.
        Move tt = all.size ? all.moves[all.size / 2] : MOVE_NONE;
        Move killers[2] = {all.size > 1 ? all.moves[1] : MOVE_NONE,
                           all.size > 2 ? all.moves[all.size - 1] : MOVE_NONE};
        MovePicker picker(pos, tt, &history, contHist, killers);
        std::vector<Move> seen;
        for (Move m; (m = picker.next()) != MOVE_NONE;) seen.push_back(m);
        std::vector<Move> expected(all.begin(), all.end());
        std::sort(seen.begin(), seen.end());
        std::sort(expected.begin(), expected.end());
        EXPECT_EQ(seen, expected) << fen;
    }
}

TEST(MovePicker, QuiescenceGivesCapturesOrAllEvasions) {
    ButterflyHistory history{};
    static ContinuationHistory cont{};
    const PieceToHistory* contHist[] = {&cont.table[NO_PIECE][0], &cont.table[NO_PIECE][0]};
    for (const auto& fen : xq::test::randomPositions(8, 200, 160)) {
        Position pos(fen);
        MoveList expectedList;
        if (pos.inCheck())
            generate<PSEUDO_LEGAL>(pos, expectedList);
        else
            generate<CAPTURES>(pos, expectedList);
        MovePicker picker(pos, MOVE_NONE, &history, contHist);
        std::vector<Move> seen;
        for (Move m; (m = picker.next()) != MOVE_NONE;) seen.push_back(m);
        std::vector<Move> expected(expectedList.begin(), expectedList.end());
        std::sort(seen.begin(), seen.end());
        std::sort(expected.begin(), expected.end());
        EXPECT_EQ(seen, expected) << fen;
    }
}
