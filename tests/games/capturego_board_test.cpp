// Capture Go behind the game seam (capturego_board.cpp): GTP move text in any case, the capture target and
// the area score as endings, the start position text that carries the board size and rules.
#include <gtest/gtest.h>

#include <stdexcept>

#include "board.h"

TEST(CaptureGoBoard, PlaysGtpMovesInAnyCaseToTheCaptureTarget) {
    auto board = xq::games::makeBoard(xq::games::Game::CaptureGo);
    EXPECT_EQ(board->fen(), "9/9/9/9/9/9/9/9/9 b 0 0 0 capture:1 0");
    EXPECT_EQ(board->legalMoveCount(), 82);  // 81 points and the pass
    EXPECT_TRUE(board->firstPlayerToMove());
    EXPECT_EQ(board->pgnMove("d4"), "D4");
    ASSERT_TRUE(board->play("b1"));
    ASSERT_TRUE(board->play("A1"));
    const std::uint64_t before = board->key();
    auto copy = board->clone();
    std::string why;
    EXPECT_FALSE(board->play("B1", &why));
    EXPECT_NE(why.find("occupied"), std::string::npos) << why;
    EXPECT_FALSE(board->readMove("I5", &why));
    EXPECT_NE(why.find("skip I"), std::string::npos) << why;
    EXPECT_FALSE(board->ending({}).isOver());
    ASSERT_TRUE(board->play("a2"));  // takes White's A1 stone: Black reaches the target
    EXPECT_NE(board->key(), before);
    EXPECT_EQ(copy->key(), before);
    xq::games::Ending e = board->ending({});
    ASSERT_TRUE(e.isOver());
    EXPECT_EQ(e.result, xq::GameResult::RED_WINS);  // Black moves first: the seam's first player
    EXPECT_NE(e.reason.find("captured"), std::string::npos) << e.reason;
    EXPECT_STREQ(xq::games::sideName(xq::games::Game::CaptureGo, true), "black");
    EXPECT_STREQ(xq::games::sideName(xq::games::Game::CaptureGo, false), "white");
    EXPECT_EQ(xq::games::parseGame("capturego"), xq::games::Game::CaptureGo);
    EXPECT_THROW(xq::games::makeBoard(xq::games::Game::CaptureGo, "9/9 b"), std::invalid_argument);
}

TEST(CaptureGoBoard, GoRulesEndAfterTwoPassesByAreaScore) {
    auto go = xq::games::makeBoard(xq::games::Game::CaptureGo, xq::games::captureGoStartText(7, "go"));
    EXPECT_EQ(go->fen(), "7/7/7/7/7/7/7 b 0 0 0 go 7.5");
    ASSERT_TRUE(go->play("D4"));
    ASSERT_TRUE(go->play("pass"));
    EXPECT_FALSE(go->ending({}).isOver());
    ASSERT_TRUE(go->play("pass"));
    xq::games::Ending e = go->ending({});
    ASSERT_TRUE(e.isOver());
    EXPECT_EQ(e.result, xq::GameResult::RED_WINS);  // Black's 49 points against White's 7.5
    EXPECT_THROW(xq::games::captureGoStartText(4, "capture"), std::invalid_argument);
    EXPECT_THROW(xq::games::captureGoStartText(9, "chinese"), std::invalid_argument);
    EXPECT_THROW(xq::games::captureGoStartText(9, "go", 2), std::invalid_argument);
    EXPECT_EQ(xq::games::captureGoStartText(5, "capture", 3, 0.5), "5/5/5/5/5 b 0 0 0 capture:3 0.5");
}
