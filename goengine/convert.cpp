#include "goengine/convert.h"

#include <algorithm>
#include <stdexcept>

namespace xq::go {

Rules engineRules(const cg::Rules& rules) {
    if (rules.ruleSet == cg::RuleSet::Go) return Rules::go(rules.komi);
    return Rules::capture(rules.target, rules.komi);
}

cg::Rules referenceRules(const Rules& rules) {
    if (rules.ruleSet == RuleSet::Go) return cg::Rules::go(rules.komi);
    return cg::Rules::capture(rules.target, rules.komi);
}

Point enginePoint(const Board& b, cg::Move m) {
    return m.isPass() ? kPass : b.point(m.point().col, m.point().row);
}

cg::Move referenceMove(const Board& b, Point p) {
    return p == kPass ? cg::Move::pass() : cg::Move::at(b.col(p), b.row(p));
}

Board boardFromPosition(const cg::Position& pos) {
    Board b(pos.size(), engineRules(pos.rules()));
    std::vector<std::pair<Point, Color>> stones;
    for (int row = 0; row < pos.size(); ++row)
        for (int col = 0; col < pos.size(); ++col) {
            cg::Cell c = pos.at({col, row});
            if (c != cg::Cell::Empty)
                stones.emplace_back(b.point(col, row), c == cg::Cell::Black ? Black : White);
        }
    b.setPosition(stones, engineColor(pos.toMove()), pos.captures(cg::Color::Black),
                  pos.captures(cg::Color::White), pos.consecutivePasses());
    return b;
}

Board boardFromGame(const cg::Position& start, const std::vector<ColoredMove>& moves, bool* failed) {
    Board b = boardFromPosition(start);
    if (failed) *failed = false;
    for (const ColoredMove& m : moves) {
        if (b.play(enginePoint(b, m.move), engineColor(m.color)) != MoveError::None) {
            if (failed) *failed = true;
            break;
        }
    }
    return b;
}

SmallPos smallFromPosition(const SmallGeometry& g, const cg::Position& pos) {
    if (pos.size() != g.n) throw std::invalid_argument("the solver's board and the position differ in size");
    SmallPos s;
    for (int row = 0; row < g.n; ++row)
        for (int col = 0; col < g.n; ++col) {
            cg::Cell c = pos.at({col, row});
            if (c != cg::Cell::Empty) s.addStone(g, c == cg::Cell::Black ? 0 : 1, g.index(col, row));
        }
    s.toMove = pos.toMove() == cg::Color::Black ? 0 : 1;
    s.passed = pos.consecutivePasses() > 0;
    s.captures[0] = std::uint8_t(std::min(255, pos.captures(cg::Color::Black)));
    s.captures[1] = std::uint8_t(std::min(255, pos.captures(cg::Color::White)));
    return s;
}

cg::Position positionFromSmall(const SmallGeometry& g, const SmallPos& s, const cg::Rules& rules) {
    cg::Position pos(g.n, rules);
    for (int row = 0; row < g.n; ++row)
        for (int col = 0; col < g.n; ++col) {
            Bits b = bit(g.index(col, row));
            if (s.stones[0] & b) pos.setStone({col, row}, cg::Cell::Black);
            if (s.stones[1] & b) pos.setStone({col, row}, cg::Cell::White);
        }
    pos.setToMove(s.toMove ? cg::Color::White : cg::Color::Black);
    pos.setCaptures(cg::Color::Black, s.captures[0]);
    pos.setCaptures(cg::Color::White, s.captures[1]);
    pos.setConsecutivePasses(s.passed ? 1 : 0);
    return pos;
}

}  // namespace xq::go
