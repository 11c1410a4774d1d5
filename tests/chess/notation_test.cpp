// Chess move text: UCI in and out, SAN in and out, and what a wrong move is told.
#include "chess/notation.h"

#include <gtest/gtest.h>

#include "chess/movegen.h"
#include "chess_test_util.h"

using namespace xq::chess;
using namespace xq::chess::testing;

namespace {

std::string sanOf(const Position& pos, const char* uci) {
    std::string error;
    auto m = parseUciMove(pos, uci, &error);
    EXPECT_TRUE(m) << error;
    return m ? san(pos, *m) : "";
}

}  // namespace

TEST(ChessNotation, ReadsCastlingAsTheKingsStepOrAsKingTakesRook) {
    Position pos = at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    auto a = parseUciMove(pos, "e1g1"), b = parseUciMove(pos, "e1h1");
    ASSERT_TRUE(a && b);
    EXPECT_EQ(*a, *b);
    EXPECT_EQ(a->kind(), Move::CASTLING);
    EXPECT_EQ(uciMove(*a), "e1g1");
    EXPECT_EQ(san(pos, *a), "O-O");
    EXPECT_EQ(sanOf(pos, "e1c1"), "O-O-O");
}

TEST(ChessNotation, WritesSanWithDisambiguationCapturesPromotionsAndChecks) {
    Position pos = at("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    EXPECT_EQ(sanOf(pos, "e5f7"), "Nxf7");
    EXPECT_EQ(sanOf(pos, "d5e6"), "dxe6");
    EXPECT_EQ(sanOf(pos, "c3b1"), "Nb1");
    EXPECT_EQ(sanOf(pos, "e2d1"), "Bd1");
    EXPECT_EQ(sanOf(pos, "a1d1"), "Rd1") << "the king stands between the other rook and d1";
    Position files = at("7k/8/8/8/8/8/8/R4RK1 w - - 0 1");
    EXPECT_EQ(sanOf(files, "a1d1"), "Rad1");
    Position ranks = at("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    EXPECT_EQ(sanOf(ranks, "a1a3"), "R1a3");
    Position both = at("k7/8/8/8/8/2Q1Q3/8/2Q3K1 w - - 0 1");
    EXPECT_EQ(sanOf(both, "c3d2"), "Qc3d2");
    Position promo = at("3r2k1/2P5/8/8/8/8/8/4K3 w - - 0 1");
    EXPECT_EQ(sanOf(promo, "c7d8q"), "cxd8=Q+");
    EXPECT_EQ(sanOf(promo, "c7c8n"), "c8=N");
    Position mate = at("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1");
    EXPECT_EQ(sanOf(mate, "a1a8"), "Ra8#");
    Position ep = at("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    EXPECT_EQ(sanOf(ep, "e5d6"), "exd6");
}

TEST(ChessNotation, ReadsWhatItWritesForEveryLegalMove) {
    for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                            "k7/8/8/8/8/2Q1Q3/8/2Q3K1 w - - 0 1"}) {
        Position pos = at(fen);
        for (Move m : legalMoves(pos)) {
            std::string error;
            auto back = parseSan(pos, san(pos, m), &error);
            ASSERT_TRUE(back) << san(pos, m) << ": " << error;
            EXPECT_EQ(*back, m) << san(pos, m);
            EXPECT_EQ(parseUciMove(pos, uciMove(m)), m) << uciMove(m);
        }
    }
}

TEST(ChessNotation, ReadsTheLooseSanThatPgnFilesContain) {
    Position pos = at("3r2k1/2P5/8/8/8/8/8/4K3 w - - 0 1");
    auto a = parseSan(pos, "cxd8Q"), b = parseSan(pos, "cd8=Q+!"), c = parseSan(pos, "c7xd8=Q");
    ASSERT_TRUE(a && b && c);
    EXPECT_EQ(*a, *b);
    EXPECT_EQ(*a, *c);
    Position castle = at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    EXPECT_EQ(parseSan(castle, "0-0-0"), parseSan(castle, "O-O-O"));
    Position ep = at("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    std::string error;
    ASSERT_TRUE(parseSan(ep, "exd6 e.p.", &error)) << error;
}

TEST(ChessNotation, SaysWhyAMoveIsRefused) {
    Position pos;
    std::string error;
    EXPECT_FALSE(parseUciMove(pos, "e2e5", &error));
    EXPECT_NE(error.find("'e2e5' is not a legal move"), std::string::npos) << error;
    EXPECT_FALSE(parseUciMove(pos, "e7e8k", &error));
    EXPECT_NE(error.find("promotes to n, b, r or q"), std::string::npos) << error;
    EXPECT_FALSE(parseUciMove(pos, "castle", &error));
    EXPECT_NE(error.find("not a move in UCI notation"), std::string::npos) << error;
    EXPECT_FALSE(parseSan(pos, "Ke2", &error));
    EXPECT_NE(error.find("is not a legal move"), std::string::npos) << error;
    EXPECT_FALSE(parseSan(pos, "O-O", &error));
    EXPECT_NE(error.find("not a legal castling"), std::string::npos) << error;
    EXPECT_FALSE(parseSan(pos, "Zz9", &error));
    EXPECT_NE(error.find("not a move in SAN"), std::string::npos) << error;
    Position two = at("4k3/8/8/8/8/2N1N3/8/4K3 w - - 0 1");
    EXPECT_FALSE(parseSan(two, "Nd5", &error));
    EXPECT_NE(error.find("ambiguous"), std::string::npos) << error;
}
