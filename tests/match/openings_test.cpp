#include "openings.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "util/text.h"
#include "xiangqi/position.h"
#include "xiangqi/rules.h"

namespace openings_test {

using namespace xq::match;

namespace {
std::string errorOf(const std::string& text) {
    try {
        parseOpenings(text, "book.epd");
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "no error";
}
}  // namespace

TEST(Openings, ReadsFenEpdAndMoves) {
    auto openings = parseOpenings(
        "# a comment\n"
        "\n"
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n"
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - id \"epd\";\r\n"
        "startpos moves h2e2 h9g7\n"
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b0c2\n",
        "book.epd");
    ASSERT_EQ(openings.size(), 4u);
    xq::Position start;
    EXPECT_EQ(openings[0].fen, start.fen());
    EXPECT_EQ(openings[1].fen, start.fen());
    EXPECT_EQ(openings[2].fen, start.fen());
    EXPECT_EQ(openings[2].moves, (std::vector<std::string>{"h2e2", "h9g7"}));
    EXPECT_EQ(openings[3].moves, (std::vector<std::string>{"b0c2"}));
}

TEST(Openings, LinesOfOnlyCarriageReturnsOrOtherWhiteSpaceAreBlank) {
    // Found by fuzzing: a line of "\r\r" (mixed line endings) read past the end of its empty token list.
    const auto openings = parseOpenings("\r\r\nstartpos\n\v\f \t\n\r\n", "book.epd");
    ASSERT_EQ(openings.size(), 1u);
    EXPECT_EQ(errorOf("\r\r"), "book.epd: no openings found");
}

TEST(Openings, ErrorsNameFileLineAndReason) {
    EXPECT_EQ(errorOf("startpos\nstartpos moves h2e2 h2e2\n").rfind("book.epd:2: move 2 'h2e2'", 0), 0u)
        << errorOf("startpos\nstartpos moves h2e2 h2e2\n");
    EXPECT_EQ(errorOf("# only\nxyz w\n").rfind("book.epd:2: bad Xiangqi FEN", 0), 0u)
        << errorOf("# only\nxyz w\n");
    EXPECT_EQ(errorOf("startpos extra\n").rfind("book.epd:1:", 0), 0u);
    EXPECT_NE(errorOf("# nothing\n").find("no openings"), std::string::npos);
    try {
        loadOpenings("/nonexistent/book.epd");
        FAIL();
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/book.epd"), std::string::npos);
    }
}

TEST(Openings, ABookFromAPipeIsReadToItsEndAndADirectoryIsNamedAsOne) {
    // file=<(zcat book.epd.gz) gives a pipe, which has no size to read by.
    const std::string dir = ::testing::TempDir() + "openings-pipe-" + std::to_string(::getpid());
    std::filesystem::create_directories(dir);
    const std::string fifo = dir + "/book.epd";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&fifo] {
        std::ofstream out(fifo);
        for (int i = 0; i < 3000; ++i)
            out << (i % 2 ? "startpos moves h2e2\n" : "startpos moves b0c2 h9g7\n");
    });
    const auto openings = loadOpenings(fifo);
    writer.join();
    ASSERT_EQ(openings.size(), 3000u);
    EXPECT_EQ(openings.back().moves, (std::vector<std::string>{"h2e2"}));
    EXPECT_EQ(openings.back().origin, fifo + ":3000");
    try {
        loadOpenings(dir);
        FAIL() << "a directory read as a book";
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), dir + ": a directory, not a file");
    }
    std::filesystem::remove_all(dir);
}

TEST(Openings, ShuffleIsDeterministicPermutation) {
    std::vector<Opening> a;
    for (int i = 0; i < 20; ++i) a.push_back({"fen" + std::to_string(i), {}});
    auto b = a, c = a, d = a;
    shuffleOpenings(b, 7);
    shuffleOpenings(c, 7);
    shuffleOpenings(d, 8);
    EXPECT_EQ(b, c);
    EXPECT_NE(b, a);
    EXPECT_NE(b, d);
    std::sort(b.begin(), b.end(), [](auto& x, auto& y) { return x.fen < y.fen; });
    std::sort(a.begin(), a.end(), [](auto& x, auto& y) { return x.fen < y.fen; });
    EXPECT_EQ(a, b);
}
TEST(Openings, ShippedSetLoadsWithDistinctPositions) {
    auto openings = loadOpenings(std::string(XQ_SOURCE_DIR) + "/data/openings/xq-balanced.epd");
    EXPECT_EQ(openings.size(), 4000u);
    std::set<std::uint64_t> keys;
    for (const Opening& o : openings) {
        xq::Position pos(o.fen);
        for (const std::string& m : o.moves) pos.doMove(*xq::parseMove(pos, m));
        EXPECT_FALSE(pos.inCheck());
        keys.insert(pos.key());
    }
    EXPECT_EQ(keys.size(), openings.size());
}

TEST(Openings, RepeatedPairsAreWarnedOfOnlyAtFixedWork) {
    const TimeControl nodes = TimeControl::parse("nodes=5000"), depth = TimeControl::parse("depth=8");
    const TimeControl clock = TimeControl::parse("tc=10+0.1"), moveTime = TimeControl::parse("st=0.1");
    // 200 openings hold 200 pairs: 400 games are fine, 402 replay one pair.
    EXPECT_EQ(repeatedPairsWarning(nodes, nodes, 200, 400), "");
    const std::string w = repeatedPairsWarning(nodes, depth, 200, 402);
    EXPECT_NE(w.find("402 games from 200 openings"), std::string::npos) << w;
    EXPECT_NE(w.find("after 400 games"), std::string::npos) << w;
    EXPECT_NE(repeatedPairsWarning(depth, depth, 0, 4).find("from 1 start position"), std::string::npos);
    EXPECT_EQ(repeatedPairsWarning(depth, depth, 0, 2), "");
    // Any clock or move time on either side varies the games.
    EXPECT_EQ(repeatedPairsWarning(nodes, clock, 200, 10000), "");
    EXPECT_EQ(repeatedPairsWarning(moveTime, nodes, 200, 10000), "");
    // So does a second search thread.
    EXPECT_EQ(repeatedPairsWarning(nodes, nodes, 200, 10000, true), "");
    EXPECT_TRUE(replaysIdentically(nodes, depth));
    EXPECT_FALSE(replaysIdentically(nodes, depth, true));
    EXPECT_TRUE(asksForThreads("Threads", "2"));
    EXPECT_TRUE(asksForThreads("threads", "8"));
    EXPECT_FALSE(asksForThreads("Threads", "1"));
    EXPECT_FALSE(asksForThreads("Threads", "many"));
    EXPECT_FALSE(asksForThreads("Hash", "64"));
}

TEST(Openings, ARunThatWrapsAroundTheBookIsWarnedOf) {
    const TimeControl nodes = TimeControl::parse("nodes=5000"), clock = TimeControl::parse("tc=10+0.1");
    // Pairs 3200-4399 of a 4000-opening book: the last 400 replay the first 400, which start=0 played.
    const std::string w = wrappedPairsWarning(nodes, nodes, 4000, 3200, 2400);
    EXPECT_NE(w.find("the last 400 of the 1200 pairs from start=3200"), std::string::npos) << w;
    EXPECT_NE(w.find("first 400 openings"), std::string::npos) << w;
    EXPECT_EQ(wrappedPairsWarning(nodes, nodes, 4000, 3200, 1600), "");  // ends at the book's last pair
    EXPECT_EQ(wrappedPairsWarning(nodes, nodes, 4000, 0, 8000), "");     // no earlier run to repeat
    EXPECT_EQ(wrappedPairsWarning(nodes, nodes, 4000, 3200, 9000), "");  // repeatedPairsWarning's case
    EXPECT_EQ(wrappedPairsWarning(nodes, clock, 4000, 3200, 2400), "");  // a clock varies the games
    EXPECT_EQ(wrappedPairsWarning(nodes, nodes, 4000, 3200, 2400, true), "");
    // start= past the book counts round it again: 7900 is pair 3900, and 200 pairs from there wrap by 100.
    EXPECT_NE(wrappedPairsWarning(nodes, nodes, 4000, 7900, 400).find("first 100 openings"),
              std::string::npos);
}

TEST(Openings, AByteOrderMarkIsSkippedAndAOneWordLineNamed) {
    auto openings = parseOpenings("\xEF\xBB\xBFstartpos moves h2e2\n", "book.epd");
    ASSERT_EQ(openings.size(), 1u);
    EXPECT_EQ(openings[0].moves, (std::vector<std::string>{"h2e2"}));
    const std::string error =
        errorOf("startpos\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR\n");
    EXPECT_NE(error.find("book.epd:2: expected a FEN (board and side to move), got 'rnbakabnr/"),
              std::string::npos)
        << error;
    EXPECT_EQ(error.find("before 'moves'"), std::string::npos) << error;
}

TEST(Openings, WordsSplitAtAnyWhiteSpaceAsAStreamWould) {
    EXPECT_EQ(xq::words("  a\tbb  c\r\n"), (std::vector<std::string>{"a", "bb", "c"}));
    EXPECT_EQ(xq::words("one"), (std::vector<std::string>{"one"}));
    EXPECT_TRUE(xq::words(" \t \r").empty());
    EXPECT_TRUE(xq::words("").empty());
    // Every separator `>>` skips, and nothing else: the same words as a stream reads.
    const std::string mixed = "\va\fb\x01c  d\te\r\nf\x7fg h\xa0i ";
    std::istringstream stream(mixed);
    std::vector<std::string> streamed;
    for (std::string w; stream >> w;) streamed.push_back(w);
    EXPECT_EQ(xq::words(mixed), streamed);
    std::vector<std::string_view> views{"left over"};
    xq::wordViews(mixed, views);
    EXPECT_EQ(std::vector<std::string>(views.begin(), views.end()), streamed);
}

TEST(Openings, LinesWithoutAFinalNewlineOrWithBlankLinesBetweenAreAllRead) {
    auto openings = parseOpenings("startpos moves h2e2\n\n\nstartpos moves b0c2", "test");
    ASSERT_EQ(openings.size(), 2u);
    EXPECT_EQ(openings[1].moves, (std::vector<std::string>{"b0c2"}));
}

TEST(Openings, ADeferredReadChecksOnlyTheShapeAndCheckOpeningTheRestNamingItsLine) {
    const std::string text =
        "startpos moves h2e2\n"
        "# the rook is blocked by its pawn; the next line's board has a piece Xiangqi does not know\n"
        "startpos moves a0a5\n"
        "rnbqkbnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n";
    EXPECT_THROW(parseOpenings(text, "book.epd"), std::runtime_error);
    auto openings = parseOpenings(text, "book.epd", xq::games::Game::Xiangqi, OpeningCheck::Deferred);
    ASSERT_EQ(openings.size(), 3u);
    EXPECT_EQ(openings[1].origin, "book.epd:3");
    EXPECT_FALSE(openings[0].checked);
    checkOpening(openings[0], xq::games::Game::Xiangqi);
    EXPECT_TRUE(openings[0].checked);
    EXPECT_EQ(openings[0].fen, xq::Position().fen());
    EXPECT_THROW(checkOpening(openings[1], xq::games::Game::Xiangqi), std::runtime_error);
    EXPECT_THROW(checkOpening(openings[2], xq::games::Game::Xiangqi), std::runtime_error);
    // What the shape alone shows is still an error at once.
    EXPECT_THROW(
        parseOpenings("startpos h2e2\n", "book.epd", xq::games::Game::Xiangqi, OpeningCheck::Deferred),
        std::runtime_error);
}

TEST(Openings, ADeferredChessReadGetsItsSanMovesInUciOnceChecked) {
    auto openings = parseOpenings("startpos moves e4 e5 Nf3\n", "book.epd", xq::games::Game::Chess,
                                  OpeningCheck::Deferred);
    ASSERT_EQ(openings.size(), 1u);
    EXPECT_EQ(openings[0].line, "startpos moves e4 e5 Nf3");
    EXPECT_TRUE(openings[0].moves.empty());
    Opening parsed = openings[0];
    parseOpening(parsed, xq::games::Game::Chess);
    EXPECT_EQ(parsed.moves, (std::vector<std::string>{"e4", "e5", "Nf3"}));
    EXPECT_TRUE(parsed.line.empty());
    checkOpening(openings[0], xq::games::Game::Chess);
    EXPECT_EQ(openings[0].moves, (std::vector<std::string>{"e2e4", "e7e5", "g1f3"}));
    EXPECT_EQ(openings[0], parseOpenings("startpos moves e4 e5 Nf3\n", "b", xq::games::Game::Chess)[0]);
}

}  // namespace openings_test
