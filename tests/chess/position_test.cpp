// The chess position (Stockfish's `d` agrees with the FENs written here): FEN in and out, what a bad FEN is
// told, moves made and unmade, keys.
#include <gtest/gtest.h>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess_test_util.h"

using namespace xq::chess;
using namespace xq::chess::testing;

namespace {

std::string fenError(const std::string& fen) {
    Position pos;
    std::string error;
    EXPECT_FALSE(pos.setFen(fen, &error)) << fen;
    EXPECT_EQ(pos.fen(), START_FEN) << "a refused FEN changed the position";
    return error;
}

}  // namespace

TEST(ChessPosition, ReadsAndWritesTheStandardPositionsUnchanged) {
    for (const char* fen : {START_FEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"}) {
        Position pos;
        ASSERT_TRUE(pos.setFen(fen));
        EXPECT_EQ(pos.fen(), fen);
    }
}

TEST(ChessPosition, TakesAFenWithoutMoveCounters) {
    Position pos;
    ASSERT_TRUE(pos.setFen("4k3/8/8/8/8/8/8/4K3 b - -"));
    EXPECT_EQ(pos.fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
}

TEST(ChessPosition, NamesWhatIsWrongWithABadFen) {
    EXPECT_NE(fenError("").find("wants 4 to 6 fields"), std::string::npos);
    EXPECT_NE(fenError("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").find("rank 7"),
              std::string::npos);
    EXPECT_NE(fenError("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1").find("8 full ranks"),
              std::string::npos);
    EXPECT_NE(fenError("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQXBNR w KQkq - 0 1").find("'X'"),
              std::string::npos);
    EXPECT_NE(fenError("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").find("black has 0 kings"),
              std::string::npos);
    EXPECT_NE(fenError("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1").find("side to move"),
              std::string::npos);
    EXPECT_NE(fenError("4k3/8/8/8/8/8/8/4K3 w K - 0 1").find("castling right K without"), std::string::npos);
    EXPECT_NE(fenError("4k3/8/8/8/8/8/8/4K3 w - e3 0 1").find("no pawn can have just passed e3"),
              std::string::npos);
    EXPECT_NE(fenError("4k3/8/8/8/8/8/8/4K3 w - - x 1").find("halfmove clock"), std::string::npos);
    EXPECT_NE(fenError("4k3/8/8/8/8/8/8/4K3 w - - 0 0").find("move number"), std::string::npos);
    EXPECT_NE(fenError(std::string("4k3/8/8/8/8/8/8/4K2") + '\0' + " w - - 0 1").find("byte \\x00"),
              std::string::npos)
        << "a byte that is not a letter is named by its code (found by fuzzing: it read past the piece "
           "letters)";
    EXPECT_NE(fenError("4k3/8/8/8/8/8/8/4KP2 w - - 0 1").find("first or last rank"), std::string::npos);
    EXPECT_NE(fenError("4k2R/8/8/8/8/8/8/4K3 w - - 0 1").find("not to move is in check"), std::string::npos);
}

TEST(ChessPosition, KeepsTheEnPassantSquareOnlyWhenAPawnCanTake) {
    Position pos;
    play(pos, {"e2e4"});
    EXPECT_EQ(pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    play(pos, {"d7d5", "e4e5", "f7f5"});
    EXPECT_EQ(pos.fen(), "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    auto ep = parseUciMove(pos, "e5f6");
    ASSERT_TRUE(ep);
    EXPECT_EQ(ep->kind(), Move::EN_PASSANT);
    pos.doMove(*ep);
    EXPECT_EQ(pos.fen(), "rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
    pos.undoMove();
    EXPECT_EQ(pos.fen(), "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
}

TEST(ChessPosition, UpdatesTheKeyAsARecomputationFromTheFenWould) {
    Position pos;
    play(pos, {"e2e4", "d7d5", "e4d5", "g8f6", "f1b5", "c7c6", "d5c6", "d8d2", "b1d2", "a7a6", "c6b7", "a6b5",
               "b7a8q", "c8b7", "g1f3", "e8d7", "e1g1"});
    Position fresh;
    ASSERT_TRUE(fresh.setFen(pos.fen()));
    EXPECT_EQ(pos.key(), fresh.key()) << pos.fen();
    EXPECT_EQ(pos.fen(), "Qn3b1r/1b1kpppp/5n2/1p6/8/5N2/PPPN1PPP/R1BQ1RK1 b - - 4 9");
}

TEST(ChessPosition, LosesCastlingRightsWhenTheKingOrARookMovesOrARookIsTaken) {
    Position pos;
    ASSERT_TRUE(pos.setFen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
    play(pos, {"a1a8"});
    EXPECT_EQ(pos.fen(), "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
    play(pos, {"e8e7"});
    EXPECT_EQ(pos.castlingRights(), WHITE_OO);
}
