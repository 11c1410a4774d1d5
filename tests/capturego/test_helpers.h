// Helpers shared by the Capture Go tests: positions drawn as rows of text, moves in GTP notation, random
// games, and a plain reference implementation of the board rules to check the fast one against.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "capturego/notation.h"
#include "capturego/position.h"
#include "capturego/position_text.h"

namespace xq::capturego::test {

// A position drawn row by row from the top: 'X' black, 'O' white, '.' empty. The board is square.
inline Position drawn(std::initializer_list<std::string_view> rows, Color toMove = Color::Black,
                      Rules rules = Rules{}) {
    int n = static_cast<int>(rows.size());
    Position pos(n, rules);
    int row = n - 1;
    for (std::string_view text : rows) {
        EXPECT_EQ(static_cast<int>(text.size()), n) << "row " << row + 1 << " of the drawing";
        for (int col = 0; col < n && col < static_cast<int>(text.size()); ++col)
            if (text[col] != '.') pos.setStone({col, row}, text[col] == 'X' ? Cell::Black : Cell::White);
        --row;
    }
    pos.setToMove(toMove);
    EXPECT_EQ(pos.validate(), "");
    return pos;
}

inline Move mv(const Position& pos, std::string_view gtp) {
    return parseMove(gtp, pos.size());
}
inline Point pt(const Position& pos, std::string_view gtp) {
    return parsePoint(gtp, pos.size());
}

// Plays GTP moves that must all be legal.
inline void playAll(Position& pos, std::initializer_list<std::string_view> moves) {
    for (std::string_view m : moves) {
        std::string why;
        ASSERT_TRUE(pos.play(mv(pos, m), &why)) << m << ": " << why << "\n" << diagram(pos);
    }
}

// A random legal move: a pass with probability passPercent/100 (or when nothing else is legal).
inline Move randomMove(const Position& pos, std::mt19937_64& rng, int passPercent) {
    std::vector<Move> moves = pos.legalMoves();
    if (moves.size() == 1 || static_cast<int>(rng() % 100) < passPercent) return Move::pass();
    return moves[rng() % (moves.size() - 1)];  // the last one is the pass
}

// ---- A plain reference implementation of the board rules: slow, obvious, separate from Position ----
class ReferenceBoard {
  public:
    explicit ReferenceBoard(const Position& pos) : n_(pos.size()), toMove_(pos.toMove()), cells_(n_ * n_) {
        for (int r = 0; r < n_; ++r)
            for (int c = 0; c < n_; ++c) cells_[r * n_ + c] = static_cast<int>(pos.at({c, r}));
        seen_.insert(cells_);
    }

    // The placement after `m` for the side to move, or empty when the move is illegal.
    std::vector<int> after(Point p) const {
        std::vector<int> b = cells_;
        int i = p.row * n_ + p.col;
        if (b[i] != 0) return {};
        int own = toMove_ == Color::Black ? 1 : 2, opp = 3 - own;
        b[i] = own;
        for (int j : neighbours(i))
            if (b[j] == opp && liberties(b, j) == 0) removeGroup(b, j);
        if (liberties(b, i) == 0) return {};  // suicide
        if (seen_.count(b)) return {};        // positional superko
        return b;
    }
    std::vector<Point> legalPoints() const {
        std::vector<Point> points;
        for (int r = 0; r < n_; ++r)
            for (int c = 0; c < n_; ++c)
                if (!after({c, r}).empty()) points.push_back({c, r});
        return points;
    }
    void play(Move m) {
        if (!m.isPass()) cells_ = after(m.point());
        seen_.insert(cells_);
        toMove_ = opponent(toMove_);
    }
    int libertiesAt(Point p) const { return liberties(cells_, p.row * n_ + p.col); }

  private:
    std::vector<int> neighbours(int i) const {
        std::vector<int> out;
        int r = i / n_, c = i % n_;
        if (c > 0) out.push_back(i - 1);
        if (c + 1 < n_) out.push_back(i + 1);
        if (r > 0) out.push_back(i - n_);
        if (r + 1 < n_) out.push_back(i + n_);
        return out;
    }
    std::vector<int> groupOf(const std::vector<int>& b, int i) const {
        std::vector<int> group{i}, stack{i};
        std::vector<bool> in(b.size());
        in[i] = true;
        while (!stack.empty()) {
            int s = stack.back();
            stack.pop_back();
            for (int j : neighbours(s))
                if (!in[j] && b[j] == b[i]) in[j] = true, group.push_back(j), stack.push_back(j);
        }
        return group;
    }
    int liberties(const std::vector<int>& b, int i) const {
        std::set<int> libs;
        for (int s : groupOf(b, i))
            for (int j : neighbours(s))
                if (b[j] == 0) libs.insert(j);
        return static_cast<int>(libs.size());
    }
    void removeGroup(std::vector<int>& b, int i) const {
        for (int s : groupOf(b, i)) b[s] = 0;
    }

    int n_;
    Color toMove_;
    std::vector<int> cells_;
    std::set<std::vector<int>> seen_;
};

}  // namespace xq::capturego::test
