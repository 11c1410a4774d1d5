// The engine's boards against the project's rules library (capturego/position.h), the reference: random
// games of both rule sets on sizes 5 to 9, compared move after move — the legal moves (superko included),
// stones, captures, the end of the game and its result, area, and the board built from a position. The
// solver's 64-bit board (sizes 5 to 7) is compared on the legality of every empty point (it leaves superko
// to its caller) and on the stones and captures after each move.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "capturego/notation.h"
#include "capturego/position_text.h"
#include "capturego/result.h"
#include "goengine/convert.h"
#include "goengine/solve_command.h"

namespace crosscheck_test {

using namespace xq::go;

namespace {

std::set<std::string> referenceLegal(const cg::Position& pos) {
    std::set<std::string> s;
    for (cg::Move m : pos.legalMoves())
        if (!m.isPass()) s.insert(cg::moveName(m));
    return s;
}

std::set<std::string> engineLegal(const Board& b) {
    std::set<std::string> s;
    for (Point p : b.legalMoves()) s.insert(b.pointName(p));
    return s;
}

void expectSameStones(const Board& b, const cg::Position& pos) {
    for (int row = 0; row < pos.size(); ++row)
        for (int col = 0; col < pos.size(); ++col) {
            cg::Cell c = pos.at({col, row});
            Color want = c == cg::Cell::Black ? Black : c == cg::Cell::White ? White : Empty;
            ASSERT_EQ(b.at(b.point(col, row)), want) << cg::pointName({col, row}) << "\n" << cg::diagram(pos);
        }
}

void expectSameSmall(const SmallGeometry& g, const SmallPos& s, const cg::Position& pos) {
    SmallPos want = smallFromPosition(g, pos);
    ASSERT_EQ(s.stones[0], want.stones[0]) << cg::diagram(pos);
    ASSERT_EQ(s.stones[1], want.stones[1]) << cg::diagram(pos);
    ASSERT_EQ(s.captures[0], want.captures[0]);
    ASSERT_EQ(s.captures[1], want.captures[1]);
    ASSERT_EQ(s.hash[0], want.hash[0]);  // incremental hashes agree with hashes built from scratch
}

cg::Rules randomRules(std::mt19937_64& rng) {
    switch (rng() % 5) {
        case 0:
            return cg::Rules::capture(1);
        case 1:
            return cg::Rules::capture(2, 0.5);
        case 2:
            return cg::Rules::capture(5);
        case 3:
            return cg::Rules::go(7.5);
        default:
            return cg::Rules::go(0);
    }
}

}  // namespace

TEST(GoCrossCheck, EngineBoardsAgreeWithTheRulesLibraryInRandomGames) {
    std::mt19937_64 rng(20240544);
    int positions = 0, captures = 0, superko = 0, ends = 0;
    for (int size = 5; size <= 9; ++size) {
        for (int game = 0; game < 80; ++game) {
            const cg::Rules rules = randomRules(rng);
            cg::Position pos =
                rng() % 3 == 0 ? cg::crosscutPosition(size, rules) : cg::emptyPosition(size, rules);
            Board b = boardFromPosition(pos);
            const bool small = size <= kSmallMaxSize;
            const SmallGeometry* g = small ? &SmallGeometry::of(size) : nullptr;
            SmallPos s = small ? smallFromPosition(*g, pos) : SmallPos{};
            for (int ply = 0; ply < 3 * size * size; ++ply) {
                const cg::Result result = cg::judge(pos);
                ASSERT_EQ(b.gameOver(), result.isOver()) << cg::positionText(pos);
                if (result.isOver()) {
                    EXPECT_EQ(b.result().toString(), result.sgf()) << cg::positionText(pos);
                    ++ends;
                    break;
                }
                ++positions;
                ASSERT_EQ(engineLegal(b), referenceLegal(pos)) << cg::diagram(pos);
                ASSERT_EQ(b.toMove(), engineColor(pos.toMove()));
                const cg::AreaScore area = pos.areaScore();
                ASSERT_EQ(b.area(Black), area.black);
                ASSERT_EQ(b.area(White), area.white);
                if (small) {
                    ASSERT_EQ(s.area(*g, 0), area.black);
                    ASSERT_EQ(s.area(*g, 1), area.white);
                    for (int row = 0; row < size; ++row)
                        for (int col = 0; col < size; ++col) {
                            cg::Legality l = pos.check(cg::Move::at(col, row));
                            SmallPos t = s;
                            bool played = t.play(*g, g->index(col, row));
                            ASSERT_EQ(played, l == cg::Legality::Legal || l == cg::Legality::Superko)
                                << cg::pointName({col, row}) << "\n"
                                << cg::diagram(pos);
                            superko += l == cg::Legality::Superko;
                        }
                }
                // A random legal move; passes now and then.
                std::vector<cg::Move> legal = pos.legalMoves();
                cg::Move m = rng() % 25 == 0 ? cg::Move::pass() : legal[rng() % legal.size()];
                const Point p = enginePoint(b, m);
                if (!m.isPass()) {
                    Board::Probe probe = b.probe(p, b.toMove(), 64);
                    cg::Position after = pos;
                    ASSERT_TRUE(after.play(m));
                    ASSERT_EQ(probe.captured, int(after.lastCaptured().size())) << cg::moveName(m);
                    ASSERT_EQ(probe.libs, after.liberties(m.point())) << cg::moveName(m) << "\n"
                                                                      << cg::diagram(pos);
                }
                ASSERT_TRUE(pos.play(m));
                ASSERT_EQ(b.play(p), MoveError::None) << cg::moveName(m);
                captures += !pos.lastCaptured().empty();
                expectSameStones(b, pos);
                ASSERT_EQ(b.captures(Black), pos.captures(cg::Color::Black));
                ASSERT_EQ(b.captures(White), pos.captures(cg::Color::White));
                ASSERT_EQ(b.consecutivePasses(), pos.consecutivePasses());
                if (small) {
                    if (m.isPass())
                        s.pass();
                    else
                        ASSERT_TRUE(s.play(*g, g->index(m.point().col, m.point().row)));
                    expectSameSmall(*g, s, pos);
                }
                // Now and then: the board built from the position alone is the same position.
                if (rng() % 10 == 0) {
                    Board fresh = boardFromPosition(pos);
                    expectSameStones(fresh, pos);
                    ASSERT_EQ(fresh.key(), b.key());
                    ASSERT_EQ(fresh.gameOver(), cg::judge(pos).isOver());
                }
            }
        }
    }
    EXPECT_GT(positions, 3000);
    EXPECT_GT(captures, 100);
    EXPECT_GT(superko, 0);
    EXPECT_GT(ends, 40);
}

TEST(GoCrossCheck, TheCrosscutStartsAgree) {
    for (int size = cg::kMinBoardSize; size <= cg::kMaxBoardSize; ++size) {
        Board b(size, Rules::capture(), StartPosition::Crosscut);
        expectSameStones(b, cg::crosscutPosition(size));
        if (size <= kSmallMaxSize) {
            const SmallGeometry& g = SmallGeometry::of(size);
            expectSameSmall(g, smallStart(g, StartPosition::Crosscut), cg::crosscutPosition(size));
        }
    }
}

TEST(GoCrossCheck, PointNamesAreTheLibrarys) {
    Board b(19);
    for (int row = 0; row < 19; ++row)
        for (int col = 0; col < 19; ++col) {
            const std::string name = cg::pointName({col, row});
            EXPECT_EQ(b.pointName(b.point(col, row)), name);
            EXPECT_EQ(b.parsePoint(name), b.point(col, row));
        }
    EXPECT_EQ(b.parsePoint("pass"), kPass);
    EXPECT_EQ(b.parsePoint("I5"), kNoPoint);
    EXPECT_EQ(b.parsePoint("resign"), kNoPoint);
    const SmallGeometry& g = SmallGeometry::of(7);
    EXPECT_EQ(g.name(g.parse("G7")), "G7");
    EXPECT_EQ(g.parse("H1"), -1);
}

}  // namespace crosscheck_test
