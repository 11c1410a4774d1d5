#include "pgn.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.h"

namespace pgn_test {

using namespace xq::match;
using namespace xq::match::test;

namespace {
MatchConfig config() {
    MatchConfig c;
    c.engines[0] = mock("dev", {}, "tc=10+0.1");
    c.engines[1] = mock("base", {}, "tc=10+0.1");
    c.event = "unit \"test\"";
    return c;
}
}  // namespace

TEST(Pgn, HeadersMovesCommentsAndResult) {
    GameRecord g;
    g.redEngine = 1;
    g.startFen = xq::Position::StartFEN;
    g.openingMoves = {"h2e2"};
    g.moves = {{"h9g7", {Score::Cp, 25}, 12, 1000, 153},
               {"h0g2", {Score::Mate, 3}, 20, 5000, 2000},
               {"i9h9", {}, 0, 0, 5}};
    g.result = xq::GameResult::BLACK_WINS;
    g.end = GameEnd::EngineFailure;
    g.failure = Failure::TimeLoss;
    g.failedEngine = 1;
    g.reason = "base (red) time loss: took 11000 ms";
    g.date = "2026.11.30";
    std::string pgn = formatPgn(g, config(), 7);
    EXPECT_NE(pgn.find("[Event \"unit \\\"test\\\"\"]\n"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("[Round \"7\"]\n"), std::string::npos);
    EXPECT_NE(pgn.find("[Red \"base\"]\n[Black \"dev\"]\n[Result \"0-1\"]\n"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("[Variant \"xiangqi\"]\n"), std::string::npos);
    EXPECT_NE(pgn.find("[SetUp \"1\"]\n[FEN \"" + std::string(xq::Position::StartFEN) + "\"]\n"),
              std::string::npos);
    EXPECT_NE(pgn.find("[TimeControl \"tc=10+0.1\"]\n"), std::string::npos);
    EXPECT_NE(pgn.find("[PlyCount \"4\"]\n"), std::string::npos);
    EXPECT_NE(pgn.find("[Termination \"time forfeit\"]\n"), std::string::npos);
    EXPECT_NE(pgn.find("1. h2e2 {book} h9g7 {+0.25/12 0.153s} 2. h0g2 {+M3/20 2.000s} i9h9 {0.005s}\n"
                       "{base (red) time loss: took 11000 ms} 0-1\n"),
              std::string::npos)
        << pgn;
}

TEST(Pgn, BlackToMoveStartsWithEllipsisAndLinesWrap) {
    GameRecord g;
    g.startFen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 12";
    for (int i = 0; i < 40; ++i) g.moves.push_back({i % 2 ? "b2e2" : "h7e7", {Score::Cp, -5}, 3, 10, 12});
    g.result = xq::GameResult::DRAW;
    g.end = GameEnd::MaxLength;
    g.reason = "draw by the game length limit";
    std::string pgn = formatPgn(g, config(), 1);
    EXPECT_NE(pgn.find("\n12... h7e7 {-0.05/3 0.012s} 13. b2e2"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("[Termination \"adjudication\"]"), std::string::npos);
    std::size_t body = pgn.find("\n\n");
    std::size_t start = body + 2;
    while (start < pgn.size()) {
        std::size_t end = pgn.find('\n', start);
        EXPECT_LE(end - start, 80u);
        start = end + 1;
    }
}

TEST(Pgn, AppendsGames) {
    TempFile file("pgn");
    appendPgn(file.path, "first\n");
    appendPgn(file.path, "second\n");
    EXPECT_EQ(file.read(), "first\nsecond\n");
    EXPECT_THROW(appendPgn("/nonexistent-dir/x.pgn", "x"), std::runtime_error);
}

TEST(Pgn, ReadsBackTheGamesItWritesWithTheirMoves) {
    GameRecord g;
    g.startFen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 12";
    for (int i = 0; i < 40; ++i) g.moves.push_back({i % 2 ? "b2e2" : "h7e7", {Score::Cp, -5}, 3, 10, 12});
    g.result = xq::GameResult::DRAW;
    g.reason = "repetition";
    std::string text = formatPgn(g, config(), 1) + "\n" + formatPgn(g, config(), 2);
    auto games = readPgnGames(text);
    ASSERT_EQ(games.size(), 2u);
    EXPECT_EQ(games[1].tags["Round"], "2");
    EXPECT_EQ(games[0].tags["FEN"], g.startFen);
    ASSERT_EQ(games[0].moves.size(), 40u);
    EXPECT_EQ(games[0].moves[0], "h7e7");
    EXPECT_EQ(games[0].moves[39], "b2e2");
    EXPECT_EQ(games[1].line, 1 + std::count(text.begin(), text.begin() + long(text.find("[Event", 1)), '\n'));
}

TEST(Pgn, MoveTextFromOtherWritersLosesItsNumbersCommentsAndVariations) {
    auto games = readPgnGames(
        "[Event \"e\"]\n\n1.h2e2 $1 h9g7 {a comment\nover two lines} 2. h0g2 (2. b2e2 (2. c3c4) b9c7) ; "
        "rest\n"
        "i9h9 1/2-1/2\n");
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(games[0].moves, (std::vector<std::string>{"h2e2", "h9g7", "h0g2", "i9h9"}));
    EXPECT_THROW(readPgnGames("[Event \"e\"]\n\n1. h2e2 {never closed\n"), std::invalid_argument);
    EXPECT_THROW(readPgnGames("[Event \"e\"]\n\n1. h2e2 (2. b2e2\n"), std::invalid_argument);
    EXPECT_THROW(readPgnGames("[Event e]\n"), std::invalid_argument);
}

}  // namespace pgn_test
