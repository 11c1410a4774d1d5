// The board rules checked against GNU Go 3.8 over GTP: after every move of many random games on several
// board sizes, our legal stone moves for the side to move must be exactly GNU Go's `all_legal`, and the
// stones and capture counts must agree. Skipped when GNU Go is not installed.
//
// GNU Go is started with --positional-superko (and --forbid-suicide, its default). How its rules line up
// with ours, from its board.c (is_allowed_move, is_superko_violation, play_move):
//  - Positional superko compares the board after the move with the board before every move of its move
//    history (passes included) and with the current board, ignoring the side to move: the same set of
//    placements as our history (the start and the position after every move). So a move that repeats a
//    position with the other side to move is refused by both.
//  - It also applies its simple-ko check (board_ko_pos). That check never refuses a move positional
//    superko allows: the retake it forbids always recreates the position before the ko capture (the
//    capturing stone was alone and had the ko point as its only liberty, so the retake captures just it).
//  - GNU Go keeps at most 500 moves of history (MAX_MOVE_HISTORY); beyond that it folds the oldest moves
//    into its initial position and forgets their positions for superko. Games here stay under 400 moves.
//  - all_legal lists stone moves only; our pass (always legal) is left out of the comparison.
//  - Setting a position up (loadsgf with AB/AW, like our setStone) starts a new history in both.
// No difference remains, so the comparison is exact.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "capturego/game.h"
#include "capturego/position_text.h"
#include "capturego/sgf.h"
#include "gtp_process.h"
#include "oracle.h"
#include "test_helpers.h"

using namespace xq::capturego;
using xq::capturego::test::drawn;
using xq::capturego::test::findGnuGo;
using xq::capturego::test::GtpProcess;
using xq::capturego::test::randomMove;

namespace {

const std::vector<std::string> kGnuGoArgs = {"--mode",           "gtp",    "--positional-superko",
                                             "--forbid-suicide", "--komi", "0"};

const char* gtpColor(Color c) {
    return c == Color::Black ? "black" : "white";
}

std::set<std::string> words(const std::string& text) {
    std::set<std::string> out;
    std::istringstream in(text);
    for (std::string w; in >> w;) out.insert(w);
    return out;
}

std::set<std::string> ourLegalPoints(const Position& pos) {
    std::set<std::string> out;
    for (Move m : pos.legalMoves())
        if (!m.isPass()) out.insert(pointName(m.point()));
    return out;
}

std::set<std::string> ourStones(const Position& pos, Cell colour) {
    std::set<std::string> out;
    for (int r = 0; r < pos.size(); ++r)
        for (int c = 0; c < pos.size(); ++c)
            if (pos.at({c, r}) == colour) out.insert(pointName({c, r}));
    return out;
}

std::string difference(const std::set<std::string>& ours, const std::set<std::string>& theirs) {
    std::string text = "only ours:";
    for (const std::string& p : ours)
        if (!theirs.count(p)) text += " " + p;
    text += "; only GNU Go's:";
    for (const std::string& p : theirs)
        if (!ours.count(p)) text += " " + p;
    return text;
}

// Compares the legal moves of the side to move; returns false (with a test failure) on a difference.
bool sameLegalMoves(GtpProcess& gnugo, const Position& pos, const std::string& context) {
    std::set<std::string> theirs = words(gnugo.command(std::string("all_legal ") + gtpColor(pos.toMove())));
    std::set<std::string> ours = ourLegalPoints(pos);
    EXPECT_EQ(ours, theirs) << context << "\n" << difference(ours, theirs) << "\n" << diagram(pos);
    return ours == theirs;
}

bool sameBoard(GtpProcess& gnugo, const Position& pos, const std::string& context) {
    std::set<std::string> black = words(gnugo.command("list_stones black"));
    std::set<std::string> white = words(gnugo.command("list_stones white"));
    EXPECT_EQ(ourStones(pos, Cell::Black), black) << context << "\n" << diagram(pos);
    EXPECT_EQ(ourStones(pos, Cell::White), white) << context << "\n" << diagram(pos);
    // GTP "captures black" is the number of stones black has captured.
    EXPECT_EQ(std::to_string(pos.captures(Color::Black)), gnugo.command("captures black")) << context;
    EXPECT_EQ(std::to_string(pos.captures(Color::White)), gnugo.command("captures white")) << context;
    return ourStones(pos, Cell::Black) == black && ourStones(pos, Cell::White) == white;
}

// Loads `start` into GNU Go through our own SGF writer (AB/AW setup: a fresh history, as setStone makes).
void loadIntoGnuGo(GtpProcess& gnugo, const Position& start) {
    char path[] = "/tmp/capturego-gnugo-XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    {
        std::ofstream out(path);
        out << writeSgf(Game(start));
    }
    std::string answer = gnugo.command(std::string("loadsgf ") + path);
    std::remove(path);
    EXPECT_EQ(answer, gtpColor(start.toMove()));
}

std::string history(const std::vector<std::string>& moves) {
    std::string text = "moves:";
    for (const std::string& m : moves) text += " " + m;
    return text;
}

}  // namespace

TEST(CaptureGoGnuGo, LegalMovesAgreeWithGnuGoAfterEveryMoveOfRandomGames) {
    std::optional<std::string> path = findGnuGo();
    XQ_REQUIRE_ORACLE(path, "GNU Go is not installed (/usr/games/gnugo; or set GNUGO)");
    GtpProcess gnugo(*path, kGnuGoArgs);

    struct Plan {
        int size;
        int games;
        int plies;  // under GNU Go's 500-move history
        bool crosscut;
    };
    const Plan plans[] = {{5, 10, 150, false}, {6, 4, 150, true},   {7, 5, 200, false}, {9, 4, 250, false},
                          {9, 2, 250, true},   {13, 1, 300, false}, {19, 1, 380, false}};
    std::mt19937_64 rng(20240501);
    int compared = 0, captures = 0, superkoRefusals = 0, passes = 0;
    for (const Plan& plan : plans) {
        for (int game = 0; game < plan.games; ++game) {
            Position pos = plan.crosscut ? crosscutPosition(plan.size) : Position(plan.size);
            gnugo.command(std::string("boardsize ") + std::to_string(plan.size));
            gnugo.command("clear_board");
            if (plan.crosscut) loadIntoGnuGo(gnugo, pos);
            std::vector<std::string> moves;
            for (int ply = 0; ply < plan.plies; ++ply) {
                std::string context = std::to_string(plan.size) + "x" + std::to_string(plan.size) + " game " +
                                      std::to_string(game) + ", " + history(moves);
                ASSERT_TRUE(sameLegalMoves(gnugo, pos, context));
                ++compared;
                for (int r = 0; r < pos.size(); ++r)
                    for (int c = 0; c < pos.size(); ++c)
                        superkoRefusals += pos.check(Move::at(c, r)) == Legality::Superko;
                if (ply % 10 == 0) {
                    ASSERT_TRUE(sameBoard(gnugo, pos, context));
                }
                Move m = randomMove(pos, rng, 3);
                Color mover = pos.toMove();
                gnugo.command(std::string("play ") + gtpColor(mover) + " " + moveName(m));
                ASSERT_TRUE(pos.play(m));
                captures += static_cast<int>(pos.lastCaptured().size());
                passes += m.isPass();
                moves.push_back(moveName(m));
            }
            ASSERT_TRUE(sameBoard(gnugo, pos, std::string("end of game ") + std::to_string(game)));
        }
    }
    std::printf("[ GNU Go   ] %d positions compared; %d stones captured, %d passes, %d superko refusals\n",
                compared, captures, passes, superkoRefusals);
    EXPECT_GT(compared, 4000);
    EXPECT_GT(captures, 1000);
    EXPECT_GT(superkoRefusals, 50);
}

TEST(CaptureGoGnuGo, GnuGoAgreesOnTheTripleKoAndTheThreeMoveCycle) {
    std::optional<std::string> path = findGnuGo();
    XQ_REQUIRE_ORACLE(path, "GNU Go is not installed (/usr/games/gnugo; or set GNUGO)");
    GtpProcess gnugo(*path, kGnuGoArgs);
    struct Script {
        Position start;
        std::vector<const char*> moves;
        const char* refused;  // the move superko refuses at the end
    };
    std::vector<Script> scripts;
    scripts.push_back({drawn({".XO...XO.", "XO.O.X.XO", ".XO...XO.", ".........", ".........", ".........",
                              ".XO......", "XO.O.....", ".XO......"}),
                       {"C8", "G8", "C2", "B8", "H8"},
                       "B2"});
    scripts.push_back({drawn({".....", ".....", ".....", "OOX..", ".X.X."}), {"A1", "C1"}, "B1"});
    scripts.push_back({drawn({".....", ".XO..", "XO.O.", ".XO..", "....."}), {"C3", "pass", "pass"}, "B3"});
    for (Script& script : scripts) {
        Position pos = script.start;
        gnugo.command(std::string("boardsize ") + std::to_string(pos.size()));
        loadIntoGnuGo(gnugo, pos);
        ASSERT_TRUE(sameLegalMoves(gnugo, pos, "start"));
        for (const char* m : script.moves) {
            gnugo.command(std::string("play ") + gtpColor(pos.toMove()) + " " + m);
            ASSERT_TRUE(pos.play(parseMove(m, pos.size())));
            ASSERT_TRUE(sameLegalMoves(gnugo, pos, std::string("after ") + m));
        }
        EXPECT_EQ(pos.check(parseMove(script.refused, pos.size())), Legality::Superko);
        EXPECT_EQ(
            words(gnugo.command(std::string("all_legal ") + gtpColor(pos.toMove()))).count(script.refused),
            0u);
        ASSERT_TRUE(sameBoard(gnugo, pos, "end"));
    }
}

TEST(CaptureGoGnuGo, PositionsThatGnuGoWritesAsSgfAreReadBack) {
    std::optional<std::string> path = findGnuGo();
    XQ_REQUIRE_ORACLE(path, "GNU Go is not installed (/usr/games/gnugo; or set GNUGO)");
    GtpProcess gnugo(*path, kGnuGoArgs);
    std::mt19937_64 rng(7);
    for (int size : {5, 9, 19}) {
        Position pos(size);
        gnugo.command(std::string("boardsize ") + std::to_string(size));
        gnugo.command("clear_board");
        for (int ply = 0; ply < 3 * size; ++ply) {
            Move m = randomMove(pos, rng, 0);
            gnugo.command(std::string("play ") + gtpColor(pos.toMove()) + " " + moveName(m));
            ASSERT_TRUE(pos.play(m));
        }
        // printsgf writes the position as setup: AB, AW and PL, with GNU Go's own header.
        std::string sgf = gnugo.command("printsgf");
        Game game = readSgf(sgf);
        EXPECT_EQ(ourStones(game.start(), Cell::Black), ourStones(pos, Cell::Black)) << sgf;
        EXPECT_EQ(ourStones(game.start(), Cell::White), ourStones(pos, Cell::White)) << sgf;
        EXPECT_EQ(game.start().toMove(), pos.toMove()) << sgf;
        EXPECT_EQ(game.start().size(), size);
    }
}
