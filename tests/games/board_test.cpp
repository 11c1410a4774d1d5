// The game seam: Xiangqi and chess boards behind one interface, as the runner, the openings and PGN use it.
#include "board.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

using namespace xq;
using namespace xq::games;

TEST(GameNames, ReadAndWriteBothGamesAndRefuseOthers) {
    EXPECT_EQ(parseGame("xiangqi"), Game::Xiangqi);
    EXPECT_EQ(parseGame("chess"), Game::Chess);
    EXPECT_FALSE(parseGame("shogi"));
    EXPECT_FALSE(parseGame("Chess"));
    EXPECT_STREQ(gameName(Game::Chess), "chess");
    EXPECT_STREQ(gameName(Game::Xiangqi), "xiangqi");
    EXPECT_STREQ(sideName(Game::Chess, true), "white");
    EXPECT_STREQ(sideName(Game::Xiangqi, true), "red");
    EXPECT_STREQ(sideName(Game::Chess, false), "black");
}

TEST(Board, StartsFromEachGamesStartPosition) {
    EXPECT_EQ(makeBoard(Game::Chess)->fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    EXPECT_EQ(makeBoard(Game::Xiangqi)->fen(), startFen(Game::Xiangqi));
    EXPECT_EQ(makeBoard(Game::Chess)->legalMoveCount(), 20);
    EXPECT_EQ(makeBoard(Game::Xiangqi)->legalMoveCount(), 44);
    EXPECT_TRUE(makeBoard(Game::Chess)->firstPlayerToMove());
}

TEST(Board, RefusesABadFenNamingTheGame) {
    try {
        makeBoard(Game::Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1");
        FAIL() << "a short rank was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("bad chess FEN"), std::string::npos) << e.what();
    }
    // A chess FEN is no Xiangqi position.
    EXPECT_THROW(makeBoard(Game::Xiangqi, startFen(Game::Chess)), std::invalid_argument);
    EXPECT_THROW(makeBoard(Game::Chess, startFen(Game::Xiangqi)), std::invalid_argument);
}

TEST(Board, ChessPlaysUciAndWritesSan) {
    auto board = makeBoard(Game::Chess);
    EXPECT_EQ(board->pgnMove("g1f3"), "Nf3");
    ASSERT_TRUE(board->play("g1f3"));
    EXPECT_FALSE(board->firstPlayerToMove());
    std::string why;
    EXPECT_FALSE(board->play("e2e4", &why));  // white's pawn, black to move
    EXPECT_FALSE(why.empty());
    EXPECT_EQ(board->readMove("Nc6"), "b8c6");
    EXPECT_EQ(board->readMove("b8c6"), "b8c6");
    EXPECT_FALSE(board->readMove("Nf9"));
    EXPECT_FALSE(board->readMove("Qd5"));  // no queen reaches d5
    EXPECT_FALSE(board->readMove("Ke2", &why));
}

TEST(Board, XiangqiMovesAreIccsInBothNotations) {
    auto board = makeBoard(Game::Xiangqi);
    EXPECT_EQ(board->pgnMove("h2e2"), "h2e2");
    EXPECT_EQ(board->readMove("h2e2"), "h2e2");
    ASSERT_TRUE(board->play("h2e2"));
    std::string why;
    EXPECT_FALSE(board->play("h2e2", &why));
    EXPECT_FALSE(why.empty());
}

TEST(Board, ChessEndsByMateWithTheFirstPlayerAsRed) {
    auto board = makeBoard(Game::Chess);
    for (const char* m : {"f2f3", "e7e5", "g2g4"}) ASSERT_TRUE(board->play(m)) << m;
    EXPECT_FALSE(board->ending({}).isOver());
    EXPECT_EQ(board->pgnMove("d8h4"), "Qh4#");
    ASSERT_TRUE(board->play("d8h4"));
    Ending end = board->ending({});
    EXPECT_EQ(end.result, GameResult::BLACK_WINS);
    EXPECT_EQ(end.reason, "checkmate");
    EXPECT_TRUE(board->inCheck());
    EXPECT_EQ(board->legalMoveCount(), 0);
}

TEST(Board, ChessStalemateAndBareKingsAreDraws) {
    auto stalemate = makeBoard(Game::Chess, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    EXPECT_EQ(stalemate->ending({}).result, GameResult::DRAW);
    EXPECT_EQ(stalemate->ending({}).reason, "stalemate");
    auto bare = makeBoard(Game::Chess, "8/8/4k3/8/8/3K4/8/8 w - - 0 1");
    EXPECT_EQ(bare->ending({}).result, GameResult::DRAW);
}

TEST(Board, ChessFiftyMovesCountPawnMovesAsProgress) {
    auto board = makeBoard(Game::Chess, "4k3/8/8/8/8/8/4P3/4K2R w K - 99 80");
    EXPECT_EQ(board->pliesWithoutProgress(), 99);
    auto pushed = board->clone();
    ASSERT_TRUE(pushed->play("e2e3"));
    EXPECT_EQ(pushed->pliesWithoutProgress(), 0);
    EXPECT_FALSE(pushed->ending({}).isOver());
    ASSERT_TRUE(board->play("h1h2"));
    EXPECT_EQ(board->ending({}).result, GameResult::DRAW);
    EXPECT_NE(board->noMoveContext({}).find("100 plies without a capture or pawn move"), std::string::npos);
}

TEST(Board, XiangqiEndingFollowsTheRuleConfig) {
    // Red's rook and king against a bare king: with the move limit reached the game is drawn.
    auto board = makeBoard(Game::Xiangqi, "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 119 80");
    EXPECT_FALSE(board->ending({}).isOver());
    ASSERT_TRUE(board->play("a0a1"));
    Ending end = board->ending({});
    EXPECT_EQ(end.result, GameResult::DRAW) << end.reason;
}

TEST(Board, LegalMovesAreEngineNotationAndKeysTellPositionsApart) {
    auto chess = makeBoard(Game::Chess);
    auto moves = chess->legalMoves();
    EXPECT_EQ(moves.size(), 20u);
    EXPECT_NE(std::find(moves.begin(), moves.end(), "e2e4"), moves.end());
    auto a = makeBoard(Game::Chess), b = makeBoard(Game::Chess);
    for (const char* m : {"g1f3", "g8f6", "f3g1", "f6g8"}) ASSERT_TRUE(a->play(m));
    EXPECT_EQ(a->key(), b->key());
    ASSERT_TRUE(b->play("e2e4"));
    EXPECT_NE(a->key(), b->key());
    auto xiangqi = makeBoard(Game::Xiangqi)->legalMoves();
    EXPECT_NE(std::find(xiangqi.begin(), xiangqi.end(), "h2e2"), xiangqi.end());
}
