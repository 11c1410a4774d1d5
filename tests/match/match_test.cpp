#include "match.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <regex>

#include "engine.h"
#include "oracle.h"
#include "test_util.h"

namespace match_test {

using namespace xq::match;
using namespace xq::match::test;

namespace {

MatchConfig mockMatch(int games, int concurrency) {
    MatchConfig c;
    c.engines[0] = mock("dev", {"--greedy", "--seed", "1"});
    c.engines[1] = mock("base", {"--greedy", "--seed", "2"});
    c.games = games;
    c.concurrency = concurrency;
    c.adjudication.maxPlies = 200;
    return c;
}

int countOf(const std::string& text, const std::string& what) {
    int n = 0;
    for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

bool fairyInstalled() {
    return std::filesystem::exists("/usr/games/fairy-stockfish");
}

}  // namespace

TEST(Match, PairsSwapColoursShareOpeningsAndAddUp) {
    MatchConfig c = mockMatch(8, 2);
    c.openings = parseOpenings("startpos moves h2e2\nstartpos moves b0c2\nstartpos moves c3c4\n", "test");
    c.firstPair = 2;
    TempFile pgn("match-pgn");
    c.pgnPath = pgn.path;
    MatchRunner runner(c);
    std::vector<PairResult> pairs;
    std::atomic<bool> stop{false};
    MatchTotals totals = runner.run([&](const PairResult& p) { pairs.push_back(p); }, stop);

    ASSERT_EQ(pairs.size(), 4u);
    EXPECT_EQ(totals.pairs, 4);
    EXPECT_EQ(totals.games(), 8);
    std::array<long, 5> penta{};
    std::array<long, 3> wdl{};
    std::vector<int> seen;
    for (const PairResult& p : pairs) {
        seen.push_back(p.pairIndex);
        EXPECT_EQ(p.games[0].redEngine, 0);
        EXPECT_EQ(p.games[1].redEngine, 1);
        const Opening& expected = c.openings[std::size_t(p.pairIndex) % 3];
        for (const GameRecord& g : p.games) {
            EXPECT_EQ(g.openingMoves, expected.moves);
            EXPECT_NE(g.result, xq::GameResult::NONE);
            double s = g.scoreOf(0);
            wdl[s == 1 ? 0 : s == 0.5 ? 1 : 2]++;
            EXPECT_DOUBLE_EQ(g.scoreOf(0) + g.scoreOf(1), 1.0);
        }
        double points = p.games[0].scoreOf(0) + p.games[1].scoreOf(0);
        EXPECT_EQ(p.pentaIndex, int(points * 2));
        penta[std::size_t(p.pentaIndex)]++;
    }
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(seen, (std::vector<int>{2, 3, 4, 5}));
    EXPECT_EQ(totals.penta, penta);
    EXPECT_EQ(totals.wdl, wdl);
    std::string text = pgn.read();
    EXPECT_EQ(countOf(text, "[Event "), 8);
    EXPECT_EQ(countOf(text, "[Red \"dev\"]"), 4);
    EXPECT_EQ(countOf(text, "[Red \"base\"]"), 4);
}

TEST(Match, RandomOrderFollowsTheSeed) {
    std::string book;
    for (const char* m : {"h2e2", "b0c2", "c3c4", "g3g4", "b2e2", "h0g2"})
        book += std::string("startpos moves ") + m + "\n";
    auto firstMoves = [&](std::uint64_t seed) {
        MatchConfig c = mockMatch(6, 1);
        c.adjudication.maxPlies = 1;
        c.openings = parseOpenings(book, "test");
        c.randomOrder = true;
        c.openingSeed = seed;
        MatchRunner runner(c);
        std::map<int, std::string> byPair;
        std::atomic<bool> stop{false};
        runner.run([&](const PairResult& p) { byPair[p.pairIndex] = p.games[0].openingMoves[0]; }, stop);
        std::string out;
        for (auto& [i, m] : byPair) out += m + " ";
        return out;
    };
    std::string a = firstMoves(11), b = firstMoves(11), c = firstMoves(12);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);  // 6 openings: two seeds agreeing on 3 picks would be a 1-in-120 accident
}

TEST(Match, FailuresAreCountedAndTheMatchGoesOn) {
    MatchConfig c = mockMatch(6, 2);
    c.engines[1] = mock("fragile", {"--crash-after", "3"});
    MatchRunner runner(c);
    std::atomic<bool> stop{false};
    MatchTotals t = runner.run(nullptr, stop);
    EXPECT_EQ(t.games(), 6);
    EXPECT_EQ(t.failures[1].crashes, 6);  // it crashes in every game, restarted each time
    EXPECT_EQ(t.wdl[0], 6);
    EXPECT_EQ(t.penta[4], 3);
    EXPECT_EQ(t.failures[0].crashes, 0);
}

TEST(Match, StopEndsSoonAndReportsOnlyFinishedPairs) {
    MatchConfig c = mockMatch(400, 2);
    c.engines[1] = mock("slowish", {"--delay", "5"});
    MatchRunner runner(c);
    std::atomic<bool> stop{false};
    int reported = 0;
    MatchTotals t = runner.run(
        [&](const PairResult&) {
            if (++reported == 2) stop = true;
        },
        stop);
    EXPECT_GE(t.pairs, 2);
    EXPECT_LT(t.pairs, 10);
    EXPECT_EQ(t.pairs, reported);
}

TEST(Match, BrokenEngineOrConfigIsAnError) {
    MatchConfig c = mockMatch(10, 1);
    c.engines[1] = mock("ghost", {"--exit-at-start"});
    MatchRunner runner(c);
    std::atomic<bool> stop{false};
    try {
        runner.run(nullptr, stop);
        FAIL() << "should throw";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("'ghost' did not start"), std::string::npos) << e.what();
    }
    MatchConfig bad = mockMatch(10, 1);
    bad.engines[0].cmd.clear();
    EXPECT_THROW(MatchRunner{bad}, std::invalid_argument);
    bad = mockMatch(1, 1);
    EXPECT_THROW(MatchRunner{bad}, std::invalid_argument);
    bad = mockMatch(10, 0);
    EXPECT_THROW(MatchRunner{bad}, std::invalid_argument);
    bad = mockMatch(10, 1);
    bad.engines[1].tc = TimeControl::parse("margin=10");
    EXPECT_THROW(MatchRunner{bad}, std::invalid_argument);
    bad = mockMatch(10, 1);
    bad.openings = {{xq::Position::StartFEN, {"a0a5"}}};  // the rook is blocked by its pawn
    EXPECT_THROW(MatchRunner{bad}, std::invalid_argument);
}

TEST(Match, OnlyTheOpeningsTheMatchPlaysAreCheckedAndABadOneIsNamedWithItsFen) {
    MatchConfig c = mockMatch(4, 1);
    // Two pairs play openings 1 and 2; the third is never reached, so a long book costs a short match
    // nothing (a book read by loadOpenings was checked whole already).
    c.openings = {{xq::Position::StartFEN, {"h2e2"}},
                  {xq::Position::StartFEN, {"b0c2"}},
                  {xq::Position::StartFEN, {"a0a5"}}};
    EXPECT_NO_THROW(MatchRunner{c});
    c.firstPair = 1;
    try {
        MatchRunner runner(c);
        FAIL() << "the third opening is played from pair 1 on";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(std::string("opening 3 ('") + xq::Position::StartFEN +
                                             "'): move 1 'a0a5'"),
                  std::string::npos)
            << e.what();
    }
}

TEST(Match, ABookReadDeferredIsCheckedAsFarAsTheMatchGoesAndABadLineNamedByFileAndLine) {
    MatchConfig c = mockMatch(4, 1);
    c.openings = parseOpenings("startpos moves h2e2\nstartpos moves b0c2\nstartpos moves a0a5\n", "book.epd",
                               xq::games::Game::Xiangqi, OpeningCheck::Deferred);
    EXPECT_NO_THROW(MatchRunner{c});  // two pairs: lines 1 and 2
    c.games = 6;
    try {
        MatchRunner runner(c);
        FAIL() << "the third pair plays line 3";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("book.epd:3: move 1 'a0a5'"), std::string::npos) << e.what();
    }
}

TEST(Match, EachSearchIsSentTheWholeGameAcrossGamesAndOpenings) {
    // The runner extends an engine's last position command by the moves since: the commands an engine
    // receives must still be exactly the games played, game after game, opening after opening.
    MatchConfig c = mockMatch(6, 1);
    TempFile log("position-log");
    c.engines[0].args.insert(c.engines[0].args.end(), {"--log", log.path});
    c.openings = parseOpenings("startpos moves h2e2\nstartpos moves h2e2 h9g7\nstartpos\n", "test");
    MatchRunner runner(c);
    std::vector<GameRecord> games;
    runner.setGameCallback([&](const GameRecord& g) { games.push_back(g); });
    std::atomic<bool> stop{false};
    MatchTotals totals = runner.run(nullptr, stop);
    ASSERT_EQ(games.size(), 6u);
    long plies = 0;
    std::vector<std::string> expected;
    for (const GameRecord& g : games) {
        plies += long(g.moves.size());
        std::vector<std::string> moves = g.openingMoves;
        const bool devIsFirst = g.redEngine == 0;
        for (std::size_t i = 0; i < g.moves.size(); ++i) {
            const bool firstToMove = (moves.size() % 2 == 0);
            if (firstToMove == devIsFirst) {
                std::string command = "position fen " + g.startFen;
                if (!moves.empty()) command += " moves";
                for (const std::string& m : moves) command += " " + m;
                expected.push_back(command);
            }
            moves.push_back(g.moves[i].move);
        }
    }
    std::vector<std::string> sent;
    for (const std::string& line : log.lines())
        if (line.rfind("position ", 0) == 0) sent.push_back(line);
    EXPECT_EQ(sent, expected);
    EXPECT_EQ(totals.plies, plies);
    EXPECT_GT(plies, 0);
}

// Fairy-Stockfish plays itself, once through its UCI dialect (variant option, ranks 1-10) and once
// through UCCI, which it also speaks: both protocols with a real engine.
TEST(Match, FairyStockfishThroughFairyAndUcci) {
    XQ_REQUIRE_ORACLE(fairyInstalled(), "/usr/games/fairy-stockfish not installed");
    MatchConfig c;
    c.engines[0].name = "fsf-fairy";
    c.engines[0].cmd = "/usr/games/fairy-stockfish";
    c.engines[0].protocol = Protocol::Fairy;
    c.engines[0].tc = TimeControl::parse("nodes=2000");
    c.engines[1] = c.engines[0];
    c.engines[1].name = "fsf-ucci";
    c.engines[1].protocol = Protocol::Ucci;
    c.games = 2;
    c.concurrency = 2;
    c.adjudication.maxPlies = 60;
    TempFile pgn("fsf-pgn");
    c.pgnPath = pgn.path;
    MatchRunner runner(c);
    std::atomic<bool> stop{false};
    std::vector<PairResult> pairs;
    MatchTotals t = runner.run([&](const PairResult& p) { pairs.push_back(p); }, stop);
    EXPECT_EQ(t.games(), 2);
    for (int e = 0; e < 2; ++e) {
        EXPECT_EQ(t.failures[e].crashes + t.failures[e].illegalMoves + t.failures[e].stalls +
                      t.failures[e].timeLosses,
                  0);
    }
    ASSERT_EQ(pairs.size(), 1u);
    for (const GameRecord& g : pairs[0].games) {
        EXPECT_NE(g.end, GameEnd::EngineFailure) << g.reason;
        EXPECT_GE(g.moves.size(), 10u);
        int scored = 0;
        for (const MoveRecord& m : g.moves) scored += m.score.kind != Score::None && m.depth > 0;
        EXPECT_GT(scored, int(g.moves.size()) / 2);  // info lines were read in both dialects
    }
}

namespace {

// A match of our engine against itself at `tc`, or nullopt when the engine is not built.
std::optional<MatchConfig> selfPlay(const std::string& tc, int games) {
    std::string engine = std::string(XQ_BIN_DIR) + "/xq-engine";
    if (!std::filesystem::exists(engine)) return std::nullopt;
    MatchConfig c;
    c.engines[0].name = "xq-a";
    c.engines[0].cmd = engine;
    c.engines[0].tc = TimeControl::parse(tc);
    c.engines[1] = c.engines[0];
    c.engines[1].name = "xq-b";
    c.games = games;
    c.concurrency = 2;
    c.startupTimeoutMs = 3000;
    return c;
}

MatchTotals runAll(const MatchConfig& c, std::vector<PairResult>& pairs) {
    MatchRunner runner(c);
    std::atomic<bool> stop{false};
    return runner.run([&](const PairResult& p) { pairs.push_back(p); }, stop);
}

}  // namespace

// Our own engine, once it plays: a short match at fixed nodes must finish without failures.
TEST(Match, XqEnginePlaysCleanly) {
    auto c = selfPlay("nodes=3000", 2);
    XQ_REQUIRE_ORACLE(c, "xq-engine not built");
    c->adjudication.maxPlies = 80;
    std::vector<PairResult> pairs;
    MatchTotals t = runAll(*c, pairs);
    ASSERT_EQ(pairs.size(), 1u);
    for (const EngineFailures& f : t.failures)
        EXPECT_EQ(f.crashes + f.illegalMoves + f.stalls + f.timeLosses, 0);
    for (const GameRecord& g : pairs[0].games) EXPECT_NE(g.end, GameEnd::EngineFailure) << g.reason;
}

TEST(Match, AnEngineWithARepetitionRuleOptionIsToldTheMatchRules) {
    StopCheck never = [] { return false; };
    for (bool userSetsIt : {false, true}) {
        TempFile log("rule-log");
        EngineConfig cfg = mock("m", {"--log", log.path}, "nodes=100");
        cfg.repetitionRule = "Chinese";
        if (userSetsIt) cfg.options = {{"repetition rule", "Asian"}};
        EngineClient client(cfg, 2000, 2000);
        client.start(never);
        client.shutdown();
        const std::string sent = log.read();
        EXPECT_EQ(sent.find("setoption name Repetition Rule value Chinese\n") != std::string::npos,
                  !userSetsIt)
            << sent;
        EXPECT_EQ(sent.find("setoption name repetition rule value Asian\n") != std::string::npos, userSetsIt)
            << sent;
    }
}

// `xq match --rules chinese` of the engine against itself: the games end under the Chinese rules, the engines
// score repetitions by them, and the PGN says which rules judged.
TEST(Match, AChineseRulesMatchOfTheEngineRunsToTheEnd) {
    auto c = selfPlay("nodes=2000", 4);
    XQ_REQUIRE_ORACLE(c, "xq-engine not built");
    c->adjudication.rules.ruleSet = xq::RuleSet::CHINESE;
    c->adjudication.rules.moveLimitPlies = xq::defaultMoveLimitPlies(xq::RuleSet::CHINESE);
    TempFile pgn("chinese-pgn");
    c->pgnPath = pgn.path;
    std::vector<PairResult> pairs;
    MatchTotals t = runAll(*c, pairs);
    EXPECT_EQ(t.games(), 4);
    for (const PairResult& p : pairs)
        for (const GameRecord& g : p.games) {
            EXPECT_NE(g.end, GameEnd::EngineFailure) << g.reason;
            EXPECT_NE(g.result, xq::GameResult::NONE);
        }
    const std::string text = pgn.read();
    std::size_t tags = 0;
    for (std::size_t at = 0; (at = text.find("[Rules \"chinese\"]", at)) != std::string::npos; ++at) ++tags;
    EXPECT_EQ(tags, 4u) << text.substr(0, 600);
}

// The Chinese rules' per-move clock with our engine: told the bank and the limit as an increment, it
// keeps within them.
TEST(Match, XqEngineKeepsWithinThePerMoveLimitAndItsBank) {
    auto c = selfPlay("tc=permove0.1+bank1", 2);
    XQ_REQUIRE_ORACLE(c, "xq-engine not built");
    c->adjudication.maxPlies = 60;
    std::vector<PairResult> pairs;
    MatchTotals t = runAll(*c, pairs);
    EXPECT_EQ(t.games(), 2);
    for (const EngineFailures& f : t.failures) EXPECT_EQ(f.timeLosses + f.crashes + f.stalls, 0);
    for (const PairResult& p : pairs)
        for (const GameRecord& g : p.games) EXPECT_NE(g.end, GameEnd::EngineFailure) << g.reason;
}

}  // namespace match_test
