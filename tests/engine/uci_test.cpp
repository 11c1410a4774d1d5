// The engine as a GUI meets it: a real xq-engine process over pipes.
#include "uci.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "engine_process.h"
#include "evaluate.h"
#include "search.h"
#include "weights.h"
#include "xiangqi/rules.h"

using namespace xq;
using xq::test::EngineProcess;
using Clock = std::chrono::steady_clock;

namespace {

long long msSince(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

// The move of a "bestmove X [ponder Y]" line.
std::string bestmoveOf(const std::vector<std::string>& lines) {
    std::string last = lines.back();
    auto space = last.find(' ', 9);
    return last.substr(9, space == std::string::npos ? std::string::npos : space - 9);
}

bool isLegalIn(const Position& pos, const std::string& move) {
    return parseMove(pos, move).has_value();
}

void handshake(EngineProcess& e) {
    ASSERT_TRUE(e.send("uci"));
    ASSERT_TRUE(e.readUntil("uciok", 10000));
}

}  // namespace

TEST(Uci, HandshakeListsTheOptions) {
    EngineProcess e;
    e.send("uci");
    auto lines = e.readUntil("uciok", 10000);
    ASSERT_TRUE(lines);
    std::string all;
    for (auto& l : *lines) all += l + "\n";
    EXPECT_NE(all.find("id name "), std::string::npos);
    for (const char* opt : {"Hash", "Threads", "MultiPV", "Move Overhead", "EvalFile", "Skill Level",
                            "Clear Hash", "Repetition Rule"})
        EXPECT_NE(all.find(std::string("option name ") + opt + " type"), std::string::npos) << opt;
    e.send("isready");
    EXPECT_TRUE(e.readUntil("readyok", 5000));
}

TEST(Uci, GoDepthReportsInfoAndALegalMove) {
    EngineProcess e;
    handshake(e);
    e.send("position startpos moves h2e2 h9g7");
    e.send("go depth 6");
    auto lines = e.readUntil("bestmove", 30000);
    ASSERT_TRUE(lines);
    Position pos;
    for (const char* m : {"h2e2", "h9g7"}) pos.doMove(*parseMove(pos, m));
    EXPECT_TRUE(isLegalIn(pos, bestmoveOf(*lines))) << lines->back();
    const std::string& info = (*lines)[lines->size() - 2];
    for (const char* field :
         {"info depth 6 ", " seldepth ", " score ", " nodes ", " nps ", " hashfull ", " time ", " pv "})
        EXPECT_NE(info.find(field), std::string::npos) << field << " in " << info;
}

TEST(Uci, StopEndsAnInfiniteSearch) {
    EngineProcess e;
    handshake(e);
    e.send("position startpos");
    e.send("go infinite");
    // No answer before stop, however long it searches.
    auto early = e.readUntil("bestmove", 700);
    EXPECT_FALSE(early);
    auto t = Clock::now();
    e.send("stop");
    auto lines = e.readUntil("bestmove", 5000);
    ASSERT_TRUE(lines);
    EXPECT_LT(msSince(t), 2000);
    EXPECT_TRUE(isLegalIn(Position(), bestmoveOf(*lines)));
}

TEST(Uci, MovetimeIsRespected) {
    EngineProcess e;
    handshake(e);
    e.send("position startpos");
    auto t = Clock::now();
    e.send("go movetime 400");
    auto lines = e.readUntil("bestmove", 10000);
    ASSERT_TRUE(lines);
    // Generous: the machine may be busy; the point is that it answers near the budget, not at leisure.
    EXPECT_LT(msSince(t), 400 + 1500);
}

TEST(Uci, ClockIsNeverOverstepped) {
    EngineProcess e;
    handshake(e);
    e.send("setoption name Move Overhead value 50");
    struct Case {
        const char* go;
        long long clockMs;
    } cases[] = {{"go wtime 1500 btime 1500", 1500},
                 {"go wtime 800 btime 800 winc 100 binc 100", 800},
                 {"go wtime 700 btime 700 movestogo 1", 700},
                 {"go wtime 4000 btime 4000 movestogo 20", 4000}};
    for (const Case& c : cases) {
        e.send("position startpos moves b2e2");
        auto t = Clock::now();
        e.send(c.go);
        auto lines = e.readUntil("bestmove", 20000);
        ASSERT_TRUE(lines) << c.go;
        long long used = msSince(t);
        // Losing on time is the one thing a clock forbids: the answer must come before the flag falls.
        EXPECT_LT(used, c.clockMs) << c.go;
        Position pos;
        pos.doMove(*parseMove(pos, "b2e2"));
        EXPECT_TRUE(isLegalIn(pos, bestmoveOf(*lines))) << c.go;
    }
}

TEST(Uci, SurvivesABurstOfMalformedCommands) {
    EngineProcess e;
    handshake(e);
    const char* garbage[] = {"",
                             "   ",
                             "foo",
                             "go wtime abc btime",
                             "go depth -5",
                             "go nodes 99999999999999999999999",
                             "position",
                             "position fen",
                             "position fen rnbakabnr/9/9 w",
                             "position fen xxxxxxxxx/9/9/9/9/9/9/9/9/9 w - - 0 1",
                             "position startpos moves z9z9",
                             "position startpos moves h2e2 h2e2 e2e9",
                             "position startpos garbage h2e2",
                             "setoption",
                             "setoption name",
                             "setoption name Hash value -5",
                             "setoption name Hash value lots",
                             "setoption name Threads value 100000",
                             "setoption name NoSuchOption value 1",
                             "setoption name EvalFile value /nonexistent/file.xqw",
                             "setoption name MultiPV value 0",
                             "ponderhit",
                             "\x01\x02\x03\xff\xfe",
                             "stop",
                             "stop",
                             "ucinewgame",
                             "eval",
                             "d"};
    for (int round = 0; round < 5; ++round)
        for (const char* g : garbage) ASSERT_TRUE(e.send(g)) << g;
    e.send(std::string(100000, 'x'));
    e.send("isready");
    auto lines = e.readUntil("readyok", 20000);
    ASSERT_TRUE(lines);
    int errors = 0;
    for (auto& l : *lines) errors += l.rfind("info string error: ", 0) == 0;
    EXPECT_GT(errors, 50);
    ASSERT_TRUE(e.alive());
    // And it still plays.
    e.send("position startpos moves h2e2");
    e.send("go depth 3");
    auto best = e.readUntil("bestmove", 10000);
    ASSERT_TRUE(best);
    Position pos;
    pos.doMove(*parseMove(pos, "h2e2"));
    EXPECT_TRUE(isLegalIn(pos, bestmoveOf(*best)));
}

TEST(Uci, BackToBackGamesGetOneLegalAnswerEach) {
    // The next command arrives the moment bestmove is read, as in a match; each go gets exactly one answer,
    // for the position just set.
    EngineProcess e;
    handshake(e);
    Position pos;
    std::string moves;
    for (int ply = 0; ply < 30; ++ply) {
        e.send("position startpos moves" + moves);
        e.send("go depth 3");
        auto lines = e.readUntil("bestmove", 10000);
        ASSERT_TRUE(lines) << ply;
        std::string m = bestmoveOf(*lines);
        if (m == "(none)") break;
        auto parsed = parseMove(pos, m);
        ASSERT_TRUE(parsed) << "ply " << ply << ": " << m << " in " << pos.fen();
        pos.doMove(*parsed);
        moves += " " + m;
    }
    e.send("isready");
    auto tail = e.readUntil("readyok", 5000);
    ASSERT_TRUE(tail);
    for (auto& l : *tail) EXPECT_EQ(l.rfind("bestmove", 0), std::string::npos) << "a second answer: " << l;
}

TEST(Uci, IllegalMoveInPositionIsReportedAndThePrefixKept) {
    EngineProcess e;
    handshake(e);
    e.send("position startpos moves h2e2 h2e2 h9g7");
    e.send("d");
    e.send("isready");
    auto lines = e.readUntil("readyok", 5000);
    ASSERT_TRUE(lines);
    Position after;
    after.doMove(*parseMove(after, "h2e2"));
    bool reported = false, fenSeen = false;
    for (auto& l : *lines) {
        if (l.rfind("info string error: position: move 2 'h2e2'", 0) == 0) reported = true;
        if (l == "Fen: " + after.fen()) fenSeen = true;
    }
    EXPECT_TRUE(reported);
    EXPECT_TRUE(fenSeen);
}

TEST(Uci, EvalPrintsTermsAndTheFinalEvaluation) {
    const char* fen = "r1bakab1r/9/2n1c1n2/p1p1p3p/6p2/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 0 1";
    EngineProcess e;
    handshake(e);
    e.send("setoption name Use NNUE value false");  // the hand-written terms, also in a build with a network
    e.send(std::string("position fen ") + fen);
    e.send("eval");
    auto lines = e.readUntil("Final evaluation: ", 5000);
    ASSERT_TRUE(lines);
    EXPECT_EQ(lines->back(), "Final evaluation: " + std::to_string(eval::evaluate(Position(fen))));
}

TEST(Uci, EvalFileLoadsWeightsAndRejectsBadFiles) {
    std::string path = ::testing::TempDir() + "xq_uci_weights.xqw";
    eval::Weights w = eval::defaultWeights();
    w[eval::weightIndex("Material.Rook")] = {2000, 2000};
    eval::saveWeightsFile(path, w);
    const char* fen =
        "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";  // Red a rook up
    EngineProcess e;
    handshake(e);
    e.send(std::string("position fen ") + fen);
    e.send("setoption name EvalFile value " + path);
    e.send("eval");
    auto lines = e.readUntil("Final evaluation: ", 5000);
    ASSERT_TRUE(lines);
    EXPECT_EQ(lines->back(), "Final evaluation: " + std::to_string(eval::evaluate(Position(fen), w)));
    EXPECT_NE(eval::evaluate(Position(fen), w), eval::evaluate(Position(fen), eval::defaultWeights()));

    std::string bad = ::testing::TempDir() + "xq_uci_bad.xqw";
    std::ofstream(bad) << "xq-weights 1\nMaterial.Rook 1 x\n";
    e.send("setoption name EvalFile value " + bad);
    e.send("isready");
    auto errors = e.readUntil("readyok", 5000);
    ASSERT_TRUE(errors);
    EXPECT_NE((*errors)[0].find("info string error: EvalFile:"), std::string::npos) << (*errors)[0];
    // The loaded weights stay in force after a bad file; <default> restores the built-in ones (and the
    // embedded network in a build that has one: Use NNUE off to see the weights).
    e.send("eval");
    lines = e.readUntil("Final evaluation: ", 5000);
    EXPECT_EQ(lines->back(), "Final evaluation: " + std::to_string(eval::evaluate(Position(fen), w)));
    e.send("setoption name EvalFile value <default>");
    e.send("setoption name Use NNUE value false");
    e.send("eval");
    lines = e.readUntil("Final evaluation: ", 5000);
    EXPECT_EQ(lines->back(),
              "Final evaluation: " + std::to_string(eval::evaluate(Position(fen), eval::defaultWeights())));
    std::remove(path.c_str());
    std::remove(bad.c_str());
}

TEST(Uci, MatedSideAnswersNone) {
    EngineProcess e;
    handshake(e);
    // Black to move and checkmated (a mate-in-one case after its mating move).
    e.send("position fen 9/1R7/1N1k5/P8/9/9/9/9/4K4/9 w - - 0 1 moves b8d8");
    e.send("go depth 5");
    auto lines = e.readUntil("bestmove", 5000);
    ASSERT_TRUE(lines);
    EXPECT_EQ(lines->back(), "bestmove (none)");
    // go infinite waits for stop even here, where there is nothing to search.
    e.send("go infinite");
    EXPECT_FALSE(e.readUntil("bestmove", 700));
    e.send("stop");
    lines = e.readUntil("bestmove", 5000);
    ASSERT_TRUE(lines);
    EXPECT_EQ(lines->back(), "bestmove (none)");
}

TEST(Uci, ATinyBudgetStillSearchesEveryRootMove) {
    // A mate in one: the rook from b0 to b9. Before depth 1 has looked at every move, neither the node
    // limit nor the clock may stop the search, or the answer is just the first move generated.
    EngineProcess e;
    handshake(e);
    for (const char* go : {"go nodes 1", "go wtime 1", "go movetime 1"}) {
        e.send("position fen 3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1");
        e.send(go);
        auto lines = e.readUntil("bestmove", 5000);
        ASSERT_TRUE(lines) << go;
        EXPECT_EQ(bestmoveOf(*lines), "b0b9") << go;
        EXPECT_NE((*lines)[lines->size() - 2].find("score mate 1"), std::string::npos) << go;
    }
}

TEST(Uci, AGoWithAnUnreadableLimitDoesNotSearch) {
    EngineProcess e;
    handshake(e);
    e.send("position startpos");
    for (const char* go : {"go movetime abc", "go depth", "go depth wtime 1000", "go nodes -"}) {
        e.send(go);
        e.send("isready");
        auto lines = e.readUntil("readyok", 5000);
        ASSERT_TRUE(lines) << go;
        ASSERT_GE(lines->size(), 3u) << go;
        EXPECT_NE((*lines)[0].find("info string error: go: '"), std::string::npos) << (*lines)[0];
        EXPECT_EQ((*lines)[lines->size() - 2], "info string error: go: not searching (see the errors above)");
        // Neither an endless search nor another one than asked for: no answer comes.
        EXPECT_FALSE(e.readUntil("bestmove", 300)) << go;
    }
    e.send("go depth 2");
    auto lines = e.readUntil("bestmove", 5000);
    ASSERT_TRUE(lines);
    EXPECT_TRUE(isLegalIn(Position(), bestmoveOf(*lines)));
}

TEST(Uci, HugeWeightsDoNotWrapTheScore) {
    // Weights up to 30000 load; their sum must not wrap past the 16 bits the table keeps, nor reach mate
    // scores.
    std::string path = ::testing::TempDir() + "xq_uci_huge.xqw";
    eval::Weights w = eval::defaultWeights();
    w[eval::weightIndex("Material.Rook")] = {30000, 30000};
    eval::saveWeightsFile(path, w);
    EngineProcess e;
    handshake(e);
    e.send("setoption name EvalFile value " + path);
    e.send("position fen 1nbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    e.send("go depth 3");
    auto lines = e.readUntil("bestmove", 10000);
    ASSERT_TRUE(lines);
    const std::string& info = (*lines)[lines->size() - 2];
    auto at = info.find(" score cp ");
    ASSERT_NE(at, std::string::npos) << info;
    const int score = std::stoi(info.substr(at + 10));
    EXPECT_GT(score, 0) << info;
    EXPECT_LE(score, eval::EVAL_LIMIT) << info;
    std::remove(path.c_str());
}

TEST(Uci, SkillLevelAndThreadsStillPlayLegally) {
    EngineProcess e;
    handshake(e);
    e.send("setoption name Skill Level value 0");
    e.send("setoption name Threads value 2");
    e.send("setoption name Hash value 8");
    e.send("position startpos");
    e.send("go depth 6");
    auto lines = e.readUntil("bestmove", 20000);
    ASSERT_TRUE(lines);
    EXPECT_TRUE(isLegalIn(Position(), bestmoveOf(*lines)));
}

TEST(Uci, QuitDuringSearchAndEndOfInputBothExit) {
    {
        EngineProcess e;
        handshake(e);
        e.send("go infinite");
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        e.send("quit");
        ASSERT_TRUE(e.waitExit(5000));
        EXPECT_TRUE(WIFEXITED(e.exitStatus) && WEXITSTATUS(e.exitStatus) == 0);
    }
    {
        EngineProcess e;
        handshake(e);
        e.send("go infinite");
        e.closeInput();
        ASSERT_TRUE(e.waitExit(5000));
        EXPECT_TRUE(WIFEXITED(e.exitStatus) && WEXITSTATUS(e.exitStatus) == 0);
    }
}

TEST(Uci, ScoresAreFormattedAsPikafishDoes) {
    EXPECT_EQ(uci::formatScore(35), "cp 35");
    EXPECT_EQ(uci::formatScore(-120), "cp -120");
    EXPECT_EQ(uci::formatScore(search::mateIn(1)), "mate 1");
    EXPECT_EQ(uci::formatScore(search::mateIn(5)), "mate 3");
    EXPECT_EQ(uci::formatScore(search::matedIn(0)), "mate 0");
    EXPECT_EQ(uci::formatScore(search::matedIn(1)), "mate -1");
    EXPECT_EQ(uci::formatScore(search::matedIn(4)), "mate -2");
}

TEST(Uci, RepetitionRuleTakesAsianOrChineseAndNamesABadValue) {
    EngineProcess e;
    auto lines = [&] {
        e.send("uci");
        return e.readUntil("uciok", 10000);
    }();
    ASSERT_TRUE(lines);
    bool declared = false;
    for (const auto& l : *lines)
        declared |= l == "option name Repetition Rule type combo default Asian var Asian var Chinese";
    EXPECT_TRUE(declared);
    e.send("setoption name Repetition Rule value Chinese");
    e.send("setoption name repetition rule value asian");
    e.send("isready");
    auto quiet = e.readUntil("readyok", 5000);
    ASSERT_TRUE(quiet);
    EXPECT_EQ(quiet->size(), 1u) << (*quiet)[0];
    e.send("setoption name Repetition Rule value AXF");
    e.send("isready");
    auto errors = e.readUntil("readyok", 5000);
    ASSERT_TRUE(errors);
    EXPECT_NE((*errors)[0].find("Repetition Rule: value 'AXF' is not Asian or Chinese"), std::string::npos)
        << (*errors)[0];
}

// The search's constants are spin options (search_params.h): declared with their ranges, checked, loaded
// from an options file, and they change the search.
TEST(Uci, SearchParametersAreSpinOptionsThatChangeTheSearch) {
    EngineProcess e;
    e.send("uci");
    auto lines = e.readUntil("uciok", 10000);
    ASSERT_TRUE(lines);
    bool declared = false;
    for (const auto& l : *lines) declared |= l == "option name LmrBase type spin default 223 min 100 max 300";
    EXPECT_TRUE(declared);
    auto nodesOf = [&] {
        e.send("ucinewgame");
        e.send("position startpos moves h2e2 h9g7");
        e.send("go depth 9");
        auto out = e.readUntil("bestmove", 60000);
        EXPECT_TRUE(out);
        std::string last;
        for (const auto& l : *out)
            if (l.find(" nodes ") != std::string::npos) last = l;
        auto at = last.find(" nodes ") + 7;
        return last.substr(at, last.find(' ', at) - at);
    };
    std::string defaults = nodesOf();
    e.send("setoption name LmrBase value 280");
    std::string changed = nodesOf();
    EXPECT_NE(changed, defaults);
    e.send("setoption name lmrbase value 223");  // names are case-insensitive, as UCI's are
    EXPECT_EQ(nodesOf(), defaults);

    e.send("setoption name LmrBase value 999");
    e.send("isready");
    auto errors = e.readUntil("readyok", 5000);
    ASSERT_TRUE(errors);
    EXPECT_NE((*errors)[0].find("info string error: setoption LmrBase: value 999 is outside 100..300"),
              std::string::npos)
        << (*errors)[0];
    std::string path = ::testing::TempDir() + "xq_uci_params.txt";
    std::ofstream(path) << "LmrBase,280,100,300,10,0.002\n";
    e.send("setoption name ParamsFile value " + path);
    EXPECT_TRUE(e.readUntil("info string ParamsFile: loaded", 5000));
    EXPECT_EQ(nodesOf(), changed);
    e.send("setoption name ParamsFile value <empty>");  // back to the compiled-in values
    EXPECT_EQ(nodesOf(), defaults);
    std::remove(path.c_str());
}
