// Chess through the match runner: the protocol's move text, EPD openings with SAN moves, PGN in SAN, and
// real matches of Debian's Stockfish (installed by scripts/install-deps.sh) at two settings.
#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>

#include "chess/notation.h"
#include "chess/position.h"
#include "chess/rules.h"
#include "match.h"
#include "pgn.h"
#include "protocol.h"
#include "test_util.h"

namespace chess_match_test {

using namespace xq::match;
using namespace xq::match::test;
using xq::games::Game;

namespace {

std::string stockfish() {
    for (const char* path : {"/usr/games/stockfish", "/usr/bin/stockfish"})
        if (std::filesystem::exists(path)) return path;
    return {};
}

EngineConfig stockfishAt(const std::string& name, const char* tc,
                         std::vector<std::pair<std::string, std::string>> options = {}) {
    EngineConfig e;
    e.name = name;
    e.cmd = stockfish();
    e.tc = TimeControl::parse(tc);
    e.options = std::move(options);
    e.options.emplace_back("Hash", "8");
    return e;
}

// Replays a PGN game's SAN with our own parser and returns the result the rules give at its end.
xq::chess::Verdict replaySan(const PgnGame& game, std::string* error) {
    xq::chess::Position pos;
    auto fen = game.tags.find("FEN");
    if (fen != game.tags.end() && !pos.setFen(fen->second, error)) return {};
    for (const std::string& text : game.moves) {
        auto m = xq::chess::parseSan(pos, text, error);
        if (!m) {
            *error = "'" + text + "': " + *error;
            return {};
        }
        pos.doMove(*m);
    }
    return xq::chess::judge(pos);
}

}  // namespace

TEST(ChessProtocol, ReadsUciMovesWithPromotionsAndRefusesOthers) {
    auto uci = makeProtocolAdapter(Protocol::Uci, Game::Chess);
    EXPECT_EQ(uci->fromEngine("e2e4"), "e2e4");
    EXPECT_EQ(uci->fromEngine("e7e8q"), "e7e8q");
    EXPECT_EQ(uci->fromEngine("a2a1n"), "a2a1n");
    EXPECT_EQ(uci->fromEngine("e7e8k"), "");
    EXPECT_EQ(uci->fromEngine("i2e2"), "");  // a Xiangqi file
    EXPECT_EQ(uci->fromEngine("e0e1"), "");  // a Xiangqi rank
    EXPECT_EQ(uci->fromEngine("e2e"), "");
    EXPECT_EQ(uci->toEngine("e1g1"), "e1g1");
    EXPECT_EQ(uci->positionCommand(xq::chess::START_FEN, {"e2e4", "e7e5"}),
              std::string("position fen ") + xq::chess::START_FEN + " moves e2e4 e7e5");
}

TEST(ChessProtocol, FairyPlaysTheChessVariantWithoutShiftingRanks) {
    auto fairy = makeProtocolAdapter(Protocol::Fairy, Game::Chess);
    auto setup = fairy->setupCommands({{"Hash", "16"}});
    ASSERT_EQ(setup.size(), 2u);
    EXPECT_EQ(setup[0], "setoption name UCI_Variant value chess");
    EXPECT_EQ(fairy->fromEngine("h7h8r"), "h7h8r");
    EXPECT_EQ(fairy->toEngine("e2e4"), "e2e4");
}

TEST(ChessProtocol, UcciIsRefusedForChess) {
    EXPECT_THROW(makeProtocolAdapter(Protocol::Ucci, Game::Chess), std::invalid_argument);
    MatchConfig c;
    c.game = Game::Chess;
    c.engines[0] = stockfishAt("a", "nodes=100");
    c.engines[1] = stockfishAt("b", "nodes=100");
    c.engines[1].protocol = Protocol::Ucci;
    try {
        MatchRunner runner(c);
        FAIL() << "a UCCI engine was accepted for chess";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("UCCI is a Xiangqi protocol"), std::string::npos) << e.what();
    }
}

TEST(ChessOpenings, EpdKeepsCastlingAndEnPassantAndSanMovesBecomeUci) {
    auto openings = parseOpenings(
        "# chess\n"
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; c0 \"Ruy\";\n"
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2 moves f7f5\n"
        "startpos moves e4 e5 Nf3 Nc6 Bb5 a6 O-O\n",
        "chess.epd", Game::Chess);
    ASSERT_EQ(openings.size(), 3u);
    EXPECT_EQ(openings[0].fen, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1");
    EXPECT_EQ(openings[1].moves, std::vector<std::string>{"f7f5"});
    EXPECT_EQ(openings[2].fen, xq::chess::START_FEN);
    EXPECT_EQ(openings[2].moves,
              (std::vector<std::string>{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1"}));
}

TEST(ChessOpenings, AnIllegalMoveOrAXiangqiLineIsRefusedWithItsLine) {
    try {
        parseOpenings("startpos moves e4 e5 Ke3\n", "bad.epd", Game::Chess);
        FAIL();
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("bad.epd:1: move 3 'Ke3'"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parseOpenings("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n",
                               "xq.epd", Game::Chess),
                 std::runtime_error);
}

TEST(ChessPgn, WritesStandardTagsAndSanThatReadsBack) {
    MatchConfig c;
    c.game = Game::Chess;
    c.engines[0] = stockfishAt("dev", "nodes=100");
    c.engines[1] = stockfishAt("base", "nodes=100");
    GameRecord g;
    g.redEngine = 1;
    g.startFen = xq::chess::START_FEN;
    g.openingMoves = {"f2f3"};
    g.moves = {
        {"e7e5", {Score::Cp, 30}, 10, 100, 5}, {"g2g4", {}, 0, 0, 3}, {"d8h4", {Score::Mate, 1}, 5, 9, 2}};
    g.result = xq::GameResult::BLACK_WINS;
    g.end = GameEnd::Rules;
    g.reason = "checkmate";
    std::string pgn = formatPgn(g, c, 1);
    EXPECT_NE(pgn.find("[White \"base\"]\n[Black \"dev\"]\n[Result \"0-1\"]\n"), std::string::npos) << pgn;
    EXPECT_EQ(pgn.find("[Variant"), std::string::npos) << pgn;
    EXPECT_EQ(pgn.find("[FEN"), std::string::npos) << "the start position needs no FEN tag: " << pgn;
    EXPECT_NE(pgn.find("1. f3 {book} e5 {+0.30/10 0.005s} 2. g4 {0.003s} Qh4# {+M1/5 0.002s}"),
              std::string::npos)
        << pgn;
    auto games = readPgnGames(pgn);
    ASSERT_EQ(games.size(), 1u);
    std::string error;
    xq::chess::Verdict v = replaySan(games[0], &error);
    EXPECT_TRUE(error.empty()) << error;
    EXPECT_EQ(v.reason, xq::chess::EndReason::CHECKMATE);

    g.startFen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    g.openingMoves.clear();
    g.moves = {{"e2e4", {}, 0, 0, 1}};
    pgn = formatPgn(g, c, 2);
    EXPECT_NE(pgn.find("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n"), std::string::npos)
        << pgn;
    EXPECT_NE(pgn.find("1. e4 "), std::string::npos) << pgn;
}

class StockfishMatch : public ::testing::Test {
  protected:
    void SetUp() override {
        // scripts/install-deps.sh installs Debian's stockfish: its absence is a broken setup, not a skip.
        ASSERT_FALSE(stockfish().empty()) << "stockfish is not installed (scripts/install-deps.sh)";
    }
};

TEST_F(StockfishMatch, TwoNodeSettingsPlayWholeGamesWhosePgnOurSanParserReplays) {
    MatchConfig c;
    c.game = Game::Chess;
    c.engines[0] = stockfishAt("sf-2000", "nodes=2000");
    c.engines[1] = stockfishAt("sf-200", "nodes=200");
    c.games = 4;
    c.concurrency = 2;
    c.openings = parseOpenings("startpos moves e4 c5\nstartpos moves d4 d5 c4\n", "test.epd", Game::Chess);
    TempFile pgn("chess-pgn");
    c.pgnPath = pgn.path;
    MatchRunner runner(c);
    std::atomic<bool> stop{false};
    std::vector<GameRecord> records;
    runner.setGameCallback([&](const GameRecord& g) { records.push_back(g); });
    MatchTotals totals = runner.run(nullptr, stop);
    EXPECT_EQ(totals.games(), 4);
    EXPECT_EQ(totals.failures[0].crashes + totals.failures[0].illegalMoves + totals.failures[1].crashes +
                  totals.failures[1].illegalMoves,
              0);
    for (const GameRecord& g : records) {
        EXPECT_EQ(g.end, GameEnd::Rules) << g.reason;  // no adjudication set: the rules end every game
        EXPECT_GT(g.moves.size(), 4u);
    }
    auto games = readPgnGames(pgn.read());
    ASSERT_EQ(games.size(), 4u);
    for (const PgnGame& game : games) {
        std::string error;
        xq::chess::Verdict v = replaySan(game, &error);
        ASSERT_TRUE(error.empty()) << error;
        // The replayed game ends where and how the PGN says it did.
        EXPECT_TRUE(v.isOver());
        EXPECT_EQ(xq::chess::resultText(v.result), game.tags.at("Result"));
        EXPECT_EQ(game.tags.at("Termination"), "normal");
    }
}

TEST_F(StockfishMatch, ResignAdjudicationEndsALostGameForTheLoser) {
    // Queen odds: White starts without the queen, so both engines come to agree that White is lost.
    MatchConfig c;
    c.game = Game::Chess;
    c.engines[0] = stockfishAt("a", "nodes=4000");
    c.engines[1] = stockfishAt("b", "nodes=4000");
    c.games = 2;
    c.openings =
        parseOpenings("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq -\n", "odds.epd", Game::Chess);
    c.adjudication.resignScore = 700;
    c.adjudication.resignMoves = 3;
    MatchRunner runner(c);
    std::atomic<bool> stop{false};
    std::vector<GameRecord> records;
    runner.setGameCallback([&](const GameRecord& g) { records.push_back(g); });
    MatchTotals totals = runner.run(nullptr, stop);
    ASSERT_EQ(records.size(), 2u);
    for (const GameRecord& g : records) {
        EXPECT_EQ(g.end, GameEnd::ResignAdjudication) << g.reason;
        EXPECT_EQ(g.reason, "white resigns (adjudication)");
        EXPECT_EQ(g.result, xq::GameResult::BLACK_WINS);
    }
    // Each engine had White once: one win each.
    EXPECT_EQ(totals.wdl[0], 1);
    EXPECT_EQ(totals.wdl[2], 1);
}

TEST_F(StockfishMatch, DrawAdjudicationEndsAnEvenEnding) {
    // Rook against rook: both engines score it near zero from the first move on.
    MatchConfig c;
    c.game = Game::Chess;
    c.engines[0] = stockfishAt("a", "nodes=3000");
    c.engines[1] = stockfishAt("b", "nodes=3000");
    c.games = 2;
    c.openings = parseOpenings("4k3/7r/8/8/8/8/R7/4K3 w - -\n", "rooks.epd", Game::Chess);
    c.adjudication.drawScore = 30;
    c.adjudication.drawMoves = 4;
    MatchRunner runner(c);
    std::atomic<bool> stop{false};
    std::vector<GameRecord> records;
    runner.setGameCallback([&](const GameRecord& g) { records.push_back(g); });
    MatchTotals totals = runner.run(nullptr, stop);
    ASSERT_EQ(records.size(), 2u);
    for (const GameRecord& g : records) {
        EXPECT_EQ(g.end, GameEnd::DrawAdjudication) << g.reason;
        EXPECT_EQ(g.result, xq::GameResult::DRAW);
        EXPECT_EQ(g.moves.size(), 8u) << "four moves each within 30 cp";
    }
    EXPECT_EQ(totals.wdl[1], 2);
}

}  // namespace chess_match_test
