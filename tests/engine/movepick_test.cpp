#include "movepick.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "test_positions.h"

using namespace xq;

namespace {

// In check the picker hands out every legal move, once, plus the table move, and only pseudo-legal moves;
// returns how many pseudo-legal moves it left out.
int expectEvasions(const Position& pos, Move tt, const std::vector<Move>& seen) {
    MoveList pseudo, legal;
    generate<PSEUDO_LEGAL>(pos, pseudo);
    generate<LEGAL>(pos, legal);
    std::vector<Move> sorted = seen;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << pos.fen() << " a move twice";
    for (Move m : seen) EXPECT_TRUE(pseudo.contains(m)) << pos.fen() << " " << moveToString(m);
    for (Move m : legal)
        EXPECT_TRUE(std::find(seen.begin(), seen.end(), m) != seen.end())
            << pos.fen() << " legal evasion left out: " << moveToString(m);
    (void)tt;
    return pseudo.size - int(seen.size());
}

// Positions where the side to move is in check, from random playouts.
std::vector<std::string> positionsInCheck(unsigned seed, int count) {
    std::mt19937 rng(seed);
    std::vector<std::string> fens;
    while (int(fens.size()) < count) {
        Position pos;
        for (int ply = 0; ply < 200 && int(fens.size()) < count; ++ply) {
            MoveList moves = legalMoves(pos);
            if (moves.size == 0) break;
            pos.doMove(moves.moves[rng() % unsigned(moves.size)]);
            if (pos.inCheck() && legalMoves(pos).size > 0) fens.push_back(pos.fen());
        }
    }
    return fens;
}

}  // namespace

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

// The quiet checks are the quiet moves givesCheckFast accepts, in generation order (the quiescence search
// depends on the order), and among legal moves exactly those the rules core says check.
TEST(QuietChecks, AreTheCheckingQuietMovesInGenerationOrder) {
    // A horse or a pawn stepping between the black king and a red cannon becomes its screen.
    const std::string screens = "4k4/9/9/3P5/2N6/9/9/4C4/9/4K4 w - - 0 1";
    std::vector<std::string> fens = xq::test::randomPositions(17, 1500, 160);
    fens.push_back(screens);
    fens.push_back(xq::test::flipColors(screens));
    int checks = 0;
    for (const auto& fen : fens) {
        Position pos(fen);
        if (pos.inCheck()) continue;
        MoveList quiets, expected, found;
        generate<QUIETS>(pos, quiets);
        for (Move m : quiets)
            if (givesCheckFast(pos, m)) expected.add(m);
        generateQuietChecks(pos, found);
        ASSERT_EQ(std::vector<Move>(found.begin(), found.end()),
                  std::vector<Move>(expected.begin(), expected.end()))
            << fen;
        for (Move m : quiets) {
            if (pos.isLegal(m)) {
                EXPECT_EQ(found.contains(m), pos.givesCheck(m)) << fen << " " << moveToString(m);
            }
        }
        checks += found.size;
    }
    EXPECT_GT(checks, 500);
    Position pos(screens);
    MoveList found;
    generateQuietChecks(pos, found);
    const Square c5 = makeSquare(2, 5), e6 = makeSquare(4, 6), e4 = makeSquare(4, 4), d6 = makeSquare(3, 6);
    EXPECT_TRUE(found.contains(makeMove(c5, e6)) && found.contains(makeMove(c5, e4)) &&
                found.contains(makeMove(d6, e6)));
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
        if (pos.inCheck())
            expectEvasions(pos, tt, seen);
        else {
            std::sort(seen.begin(), seen.end());
            std::sort(expected.begin(), expected.end());
            EXPECT_EQ(seen, expected) << fen;
        }
    }
}

TEST(MovePicker, QuiescenceGivesCapturesOrAllEvasions) {
    ButterflyHistory history{};
    static ContinuationHistory cont{};
    const PieceToHistory* contHist[] = {&cont.table[NO_PIECE][0], &cont.table[NO_PIECE][0]};
    for (const auto& fen : xq::test::randomPositions(8, 200, 160)) {
        Position pos(fen);
        MoveList expectedList;
        generate<CAPTURES>(pos, expectedList);
        MovePicker picker(pos, MOVE_NONE, &history, contHist);
        std::vector<Move> seen;
        for (Move m; (m = picker.next()) != MOVE_NONE;) seen.push_back(m);
        if (pos.inCheck()) {
            expectEvasions(pos, MOVE_NONE, seen);
            continue;
        }
        std::vector<Move> expected(expectedList.begin(), expectedList.end());
        std::sort(seen.begin(), seen.end());
        std::sort(expected.begin(), expected.end());
        EXPECT_EQ(seen, expected) << fen;
    }
}

TEST(MovePicker, EvasionsAreEveryLegalMoveAndFewOthers) {
    // In check the picker hands out only moves that may answer the checks (king moves, captures of a
    // checker, blocks, a cannon's screen stepping away): every legal move, few illegal ones.
    ButterflyHistory history{};
    static ContinuationHistory cont{};
    const PieceToHistory* contHist[] = {&cont.table[NO_PIECE][0], &cont.table[NO_PIECE][0]};
    const Move killers[2] = {MOVE_NONE, MOVE_NONE};
    int leftOut = 0, handedOut = 0, legalCount = 0;
    for (const auto& fen : positionsInCheck(11, 400)) {
        Position pos(fen);
        for (int qsearch = 0; qsearch < 2; ++qsearch) {
            std::vector<Move> seen;
            if (qsearch) {
                MovePicker picker(pos, MOVE_NONE, &history, contHist);
                for (Move m; (m = picker.next()) != MOVE_NONE;) seen.push_back(m);
            } else {
                MovePicker picker(pos, MOVE_NONE, &history, contHist, killers);
                for (Move m; (m = picker.next()) != MOVE_NONE;) seen.push_back(m);
            }
            leftOut += expectEvasions(pos, MOVE_NONE, seen);
            handedOut += int(seen.size());
            legalCount += legalMoves(pos).size;
        }
    }
    EXPECT_GT(leftOut, 4 * handedOut);         // most pseudo-legal moves never reach the searcher
    EXPECT_LT(handedOut, legalCount * 3 / 2);  // and few of those that do are illegal
}
