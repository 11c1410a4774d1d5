// SGF: the written form, round trips of random games, the main line of files with variations, escapes,
// errors with their place, and a game record written by GNU Go.
#include "capturego/sgf.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "capturego/position_text.h"
#include "test_helpers.h"

using namespace xq::capturego;
using xq::capturego::test::randomMove;

namespace {

std::string sgfError(std::string_view text) {
    try {
        readSgf(text);
    } catch (const ParseError& e) {
        return e.what();
    }
    return "(no error)";
}

std::vector<std::string> moveNames(const Game& game) {
    std::vector<std::string> names;
    for (Move m : game.moves()) names.push_back(moveName(m));
    return names;
}

// A game GNU Go 3.8 wrote (gnugo --score finish -l <40 random moves>.sgf -o out.sgf --chinese-rules):
// captures on both sides, passes written B[] and W[], a comment holding a line break, no RU, KM[7.5] and
// its own result W+30.5.
const char* kGnuGoGame =
    "(;GM[1]FF[4]\nSZ[9]\nDT[2026-12-05]\nKM[7.5]AP[GNU Go:3.8]RE[W+30.5]\n"
    ";B[fc];W[cd];B[bh];W[bg];B[ha];W[bc];B[ag];W[ga];B[fd];W[da];B[ec]\n"
    ";W[ah];B[ab];W[cb];B[gd];W[ch];B[bi];W[di];B[eg];W[ei];B[bd];W[hg]\n"
    ";B[db];W[ia];B[ib];W[ae];B[cc];W[dc];B[ig];W[ff];B[ci];W[bf];B[ca]\n"
    ";W[be];B[ai];W[hi];B[he];W[ge];B[ee];W[hf];B[ea];W[ef];B[ie];W[ba]\n"
    ";B[da];W[if];B[bb];W[cc];B[aa];W[hd];B[hc];W[id];B[de];W[dg];B[ac]\n"
    ";W[ic];B[gb];W[ce];B[df];W[fe];B[cf];W[cg];B[ed];W[ad];B[ba];W[dd]\n"
    ";B[];W[]C[White wins by 30.5 points\n])\n";

}  // namespace

TEST(CaptureGoSgf, AGameIsWrittenWithItsRulesPlayersResultAndMoves) {
    Game game(Position(5));
    game.info.black = "Alice";
    game.info.white = "Bob";
    game.info.date = "2024-05-01";
    for (const char* m : {"A2", "A1", "B1"}) ASSERT_TRUE(game.play(parseMove(m, 5)));
    EXPECT_EQ(writeSgf(game),
              "(;FF[4]GM[1]CA[UTF-8]AP[xq-capturego:1]SZ[5]KM[0]RU[capture:1]XT[1]"
              "GC[Capture Go: the first player to capture 1 stone wins]\n"
              "PB[Alice]PW[Bob]DT[2024-05-01]RE[B+C]\n"
              ";B[ad];W[ae];B[be])\n");
}

TEST(CaptureGoSgf, GoGamesSaySoAndPassesAreEmptyMoves) {
    Game game(Position(9, Rules::go(6.5)));
    for (const char* m : {"E5", "pass", "pass"}) ASSERT_TRUE(game.play(parseMove(m, 9)));
    std::string sgf = writeSgf(game);
    EXPECT_NE(sgf.find("KM[6.5]RU[Tromp-Taylor]\n"), std::string::npos) << sgf;
    EXPECT_EQ(sgf.find("XT["), std::string::npos);
    EXPECT_NE(sgf.find("RE[B+74.5]"), std::string::npos) << sgf;
    EXPECT_NE(sgf.find(";B[ee];W[];B[])"), std::string::npos) << sgf;
}

TEST(CaptureGoSgf, ASetUpStartIsWrittenAsSetupProperties) {
    Position start = parsePositionText("5/5/1XO2/1OX2/5 w 2 1 1 capture:3 -2");
    Game game(start);
    std::string sgf = writeSgf(game);
    EXPECT_NE(sgf.find("KM[-2]RU[capture:3]XT[3]"), std::string::npos) << sgf;
    EXPECT_NE(sgf.find("AB[bc][cd]AW[cc][bd]PL[W]XB[2]XW[1]XP[1]\n"), std::string::npos) << sgf;
    EXPECT_EQ(positionText(readSgf(sgf).start()), positionText(start));
}

TEST(CaptureGoSgf, RandomGamesRoundTrip) {
    std::mt19937_64 rng(99);
    std::vector<Position> starts = {Position(5),
                                    Position(9, Rules::capture(3)),
                                    crosscutPosition(6),
                                    crosscutPosition(19, Rules::capture(4, 0.5)),
                                    Position(7, Rules::go()),
                                    Position(13, Rules::go(-3)),
                                    parsePositionText("5/5/1XO2/1OX2/5 w 2 1 1 capture:5 0")};
    int games = 0;
    for (const Position& start : starts)
        for (int round = 0; round < 6; ++round) {
            Game game(start);
            game.info.black = "Black ] player \\ one";
            game.info.white = "white";
            game.info.event = round % 2 ? "" : "ladder [7]";
            int plies = static_cast<int>(rng() % 120);
            for (int i = 0; i < plies && !game.isOver(); ++i) game.play(randomMove(game.position(), rng, 6));
            if (!game.isOver() && round == 4) game.resign(game.toMove());
            if (!game.isOver() && round == 5) game.loseOnTime(game.toMove());
            std::string sgf = writeSgf(game);
            Game back = readSgf(sgf);
            ASSERT_EQ(writeSgf(back), sgf);
            ASSERT_EQ(positionText(back.start()), positionText(game.start()));
            ASSERT_EQ(positionText(back.position()), positionText(game.position()));
            ASSERT_EQ(back.moves(), game.moves());
            ASSERT_EQ(back.rules(), game.rules());
            ASSERT_EQ(back.result().sgf(), game.result().sgf());
            ASSERT_EQ(back.result().reason, game.result().reason);
            ASSERT_EQ(back.info, game.info);
            ++games;
        }
    EXPECT_EQ(games, 42);
}

TEST(CaptureGoSgf, CoordinatesCountRowsFromTheTop) {
    Game game(Position(19, Rules::go()));
    for (const char* m : {"T19", "A1", "D4"}) ASSERT_TRUE(game.play(parseMove(m, 19)));
    EXPECT_NE(writeSgf(game).find(";B[sa];W[as];B[dp])"), std::string::npos);
    Game back = readSgf("(;SZ[19];B[sa];W[as];B[dp];W[tt])");
    EXPECT_EQ(moveNames(back), (std::vector<std::string>{"T19", "A1", "D4", "pass"}));
}

TEST(CaptureGoSgf, EscapesAndSoftLineBreaksInValuesAreRead) {
    Game game = readSgf(
        "(;GM[1]SZ[5]PB[A \\] B\\\\ C]PW[line\\\nbreak]\n"
        "C[a comment with \\] and ;B[aa\\] (parens) in it]\n"
        ";B[cc]C[another\nline])");
    EXPECT_EQ(game.info.black, "A ] B\\ C");
    EXPECT_EQ(game.info.white, "linebreak");
    EXPECT_EQ(moveNames(game), std::vector<std::string>{"C3"});
    std::vector<SgfNode> nodes = parseSgfMainLine("(;C[x\\]y\\\r\nz];FoO[1][2] [3])");
    ASSERT_EQ(nodes.size(), 2u);
    EXPECT_EQ(nodes[0].find("C")->values, std::vector<std::string>{"x]yz"});
    EXPECT_EQ(nodes[1].find("FO")->values, (std::vector<std::string>{"1", "2", "3"}));  // lowercase ignored
}

TEST(CaptureGoSgf, OnlyTheMainLineIsReadVariationsAndFurtherTreesAreIgnored) {
    Game game = readSgf("(;GM[1]SZ[5];B[cc](;W[bb];B[dd](;W[ee])(;W[aa]))(;W[dd]))(;SZ[9];B[aa])");
    EXPECT_EQ(moveNames(game), (std::vector<std::string>{"C3", "B4", "D2", "E1"}));
    // A deeply nested side variation needs no deep recursion.
    std::string deep = "(;SZ[5];B[cc](;W[dd])";
    for (int i = 0; i < 50000; ++i) deep += "(;W[aa]";
    deep += std::string(50000, ')') + ")";
    EXPECT_EQ(moveNames(readSgf(deep)), (std::vector<std::string>{"C3", "D2"}));
}

TEST(CaptureGoSgf, ACollectionIsReadTreeByTreeEachWithItsMainLineAndLine) {
    Game first(Position(5, Rules::capture(1)));
    first.info.black = "a";
    ASSERT_TRUE(first.play(Move::at(2, 2)));
    Game second(Position(7, Rules::go()));
    ASSERT_TRUE(second.play(Move::pass()));
    // As xq match appends them: one written game after another, here with a variation in the middle one.
    const std::string text = "junk before the first tree is ignored\n" + writeSgf(first) +
                             "(;GM[1]SZ[5];B[cc](;W[bb])(;W[dd]))\n\n" + writeSgf(second);
    auto lineOf = [&](std::size_t k) {  // the line of the k-th '(' that starts a game tree
        std::size_t at = 0;
        for (std::size_t seen = 0; seen <= k; ++at)
            if (text[at] == '(' && (at == 0 || text[at - 1] == '\n')) ++seen;
        return 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(at - 1), '\n'));
    };
    std::vector<SgfGameTree> trees = parseSgfCollection(text);
    ASSERT_EQ(trees.size(), 3u);
    EXPECT_EQ(trees[0].line, 2);
    EXPECT_EQ(trees[1].line, lineOf(1));
    EXPECT_EQ(trees[2].line, lineOf(2));
    EXPECT_GT(trees[2].line, trees[1].line + 1);
    std::vector<Game> games = readSgfCollection(text);
    ASSERT_EQ(games.size(), 3u);
    EXPECT_EQ(writeSgf(games[0]), writeSgf(first));
    EXPECT_EQ(moveNames(games[1]), (std::vector<std::string>{"C3", "B4"}));
    EXPECT_EQ(writeSgf(games[2]), writeSgf(second));
    // readSgf still reads the first tree alone.
    EXPECT_EQ(writeSgf(readSgf(text)), writeSgf(first));
}

TEST(CaptureGoSgf, ACollectionsErrorsNameTheGameTheLineAndTheMove) {
    EXPECT_THROW(parseSgfCollection("no tree"), ParseError);
    try {
        parseSgfCollection("(;SZ[5])\n(;SZ[5]) trailing");
        ADD_FAILURE() << "no error";
    } catch (const ParseError& e) {
        EXPECT_STREQ(e.what(),
                     "SGF line 2, column 10: unexpected 't' after game tree 2 (only game trees, '(' "
                     "... ')', may follow one another)");
    }
    try {
        readSgfCollection("(;SZ[5];B[cc])\n\n(;SZ[5];B[cc];W[dd];B[dd])");
        ADD_FAILURE() << "no error";
    } catch (const SgfMoveError& e) {
        EXPECT_STREQ(e.what(), "SGF game 2 (line 3): SGF move 3 (black D2): D2 is occupied");
        EXPECT_EQ(e.moveNumber, 3);
        EXPECT_EQ(e.move, "black D2");
        EXPECT_EQ(e.why, "D2 is occupied");
    }
    try {
        readSgfCollection("(;SZ[5];B[cc])(;SZ[5];B[zz])");
        ADD_FAILURE() << "no error";
    } catch (const SgfMoveError&) {
        ADD_FAILURE() << "a point off the board is no move error";
    } catch (const ParseError& e) {
        EXPECT_STREQ(e.what(), "SGF game 2 (line 1): SGF node 2: B[zz] is off the 5x5 board");
    }
}

TEST(CaptureGoSgf, SetupPlayerToMoveAndCompressedPointListsAreRead) {
    Game game = readSgf("(;GM[1]SZ[5]AB[aa:bb]AW[dd]PL[W];W[ee])");
    EXPECT_EQ(positionText(game.start()), "XX3/XX3/5/3O1/5 w 0 0 0 go 7.5");
    EXPECT_EQ(moveNames(game), std::vector<std::string>{"E1"});
    // Without PL the first move says who starts (a handicap game: White first).
    Game handicap = readSgf("(;SZ[9]HA[2]AB[cc][gg];W[ee];B[dd])");
    EXPECT_EQ(handicap.start().toMove(), Color::White);
    EXPECT_EQ(handicap.moves().size(), 2u);
}

TEST(CaptureGoSgf, RulesAreReadFromRuXtAndKm) {
    EXPECT_EQ(readSgf("(;SZ[9]RU[capture:3])").rules(), Rules::capture(3, 0));
    EXPECT_EQ(readSgf("(;SZ[9]XT[2]KM[0.5])").rules(), Rules::capture(2, 0.5));
    EXPECT_EQ(readSgf("(;SZ[9]RU[Capture:4]XT[4])").rules(), Rules::capture(4, 0));
    EXPECT_EQ(readSgf("(;SZ[9]RU[Tromp-Taylor]KM[6.5])").rules(), Rules::go(6.5));
    EXPECT_EQ(readSgf("(;SZ[9]RU[Japanese]KM[0.0])").rules(), Rules::go(0));
    EXPECT_EQ(readSgf("(;SZ[9])").rules(), Rules::go(7.5));
    EXPECT_EQ(readSgf("(;GM[1])").start().size(), 19);
}

TEST(CaptureGoSgf, RecordedResignationsAreAppliedAndOtherResultsComeFromTheMoves) {
    Game resigned = readSgf("(;SZ[5]RU[capture:1]RE[W+R];B[cc])");
    EXPECT_EQ(resigned.result().sgf(), "W+R");
    EXPECT_EQ(resigned.result().reason, "black resigned");
    Game unfinished = readSgf("(;SZ[5]RU[capture:1]RE[B+12.5];B[cc])");
    EXPECT_FALSE(unfinished.isOver());
    Game finished = readSgf("(;SZ[5]RU[capture:1]RE[W+R];B[ad];W[ae];B[be])");
    EXPECT_EQ(finished.result().sgf(), "B+C");  // the moves ended it before any resignation
}

TEST(CaptureGoSgf, ErrorsNameWhatIsWrongAndWhere) {
    EXPECT_EQ(sgfError(""), "SGF: no game tree (no '(' in the text)");
    EXPECT_EQ(sgfError("()"), "SGF line 1, column 2: an empty game tree");
    EXPECT_EQ(sgfError("(;SZ[5];B[cc]"),
              "SGF line 1, column 14: the SGF ends inside a game tree (a ')' is missing)");
    EXPECT_EQ(sgfError("(;SZ[5]\n;B[cc"),
              "SGF line 2, column 3: unterminated value of property B (no closing ']')");
    EXPECT_EQ(sgfError("(;SZ[5];B[cc]%)"),
              "SGF line 1, column 14: unexpected '%' (expected ';', '(', ')' or a property)");
    EXPECT_EQ(sgfError("(;SZ[5];B)"), "SGF line 1, column 10: property B has no value ('[' expected)");
    EXPECT_EQ(sgfError("(;SZ[5];B[cc](;W[dd]);B[ee])"),
              "SGF line 1, column 22: a node after a variation (nodes come before variations)");
    EXPECT_EQ(sgfError("(;SZ[5];B[cc];B[dd])"),
              "SGF move 2 (black D2): it is white's turn (moves must alternate)");
    EXPECT_EQ(sgfError("(;SZ[5];B[cc];W[cc])"), "SGF move 2 (white C3): C3 is occupied");
    EXPECT_EQ(sgfError("(;SZ[5]RU[capture:1];B[ad];W[ae];B[be];W[cc])"),
              "SGF move 4 (white C3): the game is over: black captured 1 stone (target 1)");
    EXPECT_EQ(sgfError("(;SZ[5];B[zz])"), "SGF node 2: B[zz] is off the 5x5 board");
    EXPECT_EQ(sgfError("(;SZ[5];B[c])"), "SGF node 2: B[c] is not a point (two letters a..s)");
    EXPECT_EQ(sgfError("(;SZ[5];B[cc]W[dd])"), "SGF node 2: a black and a white move in one node");
    EXPECT_EQ(sgfError("(;SZ[5];B[cc];AB[dd])"),
              "SGF node 3: setup (AB, AW, AE, PL) after the first move is not supported");
    EXPECT_EQ(sgfError("(;SZ[5]AB[aa]AW[ab][ba])"), "SGF setup: the black group at A5 has no liberties");
    EXPECT_EQ(sgfError("(;SZ[25])"), "SGF SZ[25]: boards are 5x5 to 19x19");
    EXPECT_EQ(sgfError("(;SZ[9:13])"), "SGF SZ[9:13]: only square boards are played");
    EXPECT_EQ(sgfError("(;GM[2])"), "SGF GM[2]: not a game of Go (GM[1])");
    EXPECT_EQ(sgfError("(;SZ[9]RU[capture:2]XT[3])"), "SGF RU[capture:2] and XT[3] disagree");
    EXPECT_EQ(sgfError("(;SZ[9]RU[Japanese]XT[3])"),
              "SGF RU[Japanese] is not the capture rule set, but XT[3] gives a capture target");
    EXPECT_EQ(sgfError("(;SZ[9]KM[6.25])"), "SGF KM[6.25]: komi must be a multiple of 0.5");
    EXPECT_EQ(sgfError("(;SZ[9]PL[X])"), "SGF node 1: PL[X] is neither B nor W");
}

TEST(CaptureGoSgf, AGameWrittenByGnuGoIsRead) {
    Game game = readSgf(kGnuGoGame);
    EXPECT_EQ(game.rules(), Rules::go(7.5));  // no RU: the go rule set, with GNU Go's komi
    EXPECT_EQ(game.info.date, "2026-12-05");
    ASSERT_EQ(game.moves().size(), 68u);
    EXPECT_TRUE(game.moves()[66].isPass());
    EXPECT_TRUE(game.moves()[67].isPass());
    // The final position as GNU Go itself reports it (loadsgf, list_stones, captures).
    const Position& pos = game.position();
    for (const char* p :
         {"A9", "B9", "C9", "D9", "E9", "H9", "A8", "B8", "D8", "G8", "J8", "A7", "E7", "F7", "H7",
          "E6", "F6", "G6", "D5", "E5", "C4", "D4", "A3", "E3", "J3", "B2", "A1", "B1", "C1"})
        EXPECT_EQ(pos.at(parsePoint(p, 9)), Cell::Black) << p;
    for (const char* p :
         {"G9", "C8", "B7", "C7", "D7", "J7", "A6", "C6", "D6", "H6", "J6", "A5", "B5", "C5", "F5",
          "G5", "B4", "E4", "F4", "H4", "J4", "B3", "C3", "D3", "H3", "C2", "D1", "E1", "H1"})
        EXPECT_EQ(pos.at(parsePoint(p, 9)), Cell::White) << p;
    EXPECT_EQ(pos.stoneCount(Color::Black), 29);
    EXPECT_EQ(pos.stoneCount(Color::White), 29);
    EXPECT_EQ(pos.captures(Color::Black), 4);
    EXPECT_EQ(pos.captures(Color::White), 4);
    // Two passes end it; we score by Tromp-Taylor area (dead stones stay), not by GNU Go's W+30.5.
    ASSERT_TRUE(game.isOver());
    EXPECT_EQ(game.result().ending, Ending::Score);
    AreaScore area = pos.areaScore();
    EXPECT_EQ(game.result().margin, std::abs(area.black - (area.white + 7.5)));
}
