// An independent proof of small Atari Go positions for the solver's tests (solver_test.cpp and the slow
// solver_values_slow.cpp): plain minimax on the solver's board, without the solver's search, knowledge,
// symmetry or table.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>

#include "goengine/small_board.h"

namespace xq::go::test {

// An independent proof of Atari Go (target 1, komi 0): the value of `pos` for its side to move, 1 win,
// 0 draw, -1 loss. Plain minimax over every legal move, no Atari Go knowledge, no symmetry: a capture
// wins, two passes end the game on area, and with passes forbidden a side without a stone move is scored
// on area too (the solver's convention, solver.h). Memoised on the whole position (both colours' stones,
// the side to move, a pending pass), which is exact: under target 1 no position recurs, so nothing else
// matters; the solver's table instead keeps hashes, merges symmetric positions and drops entries.
class AtariGoBruteForce {
  public:
    AtariGoBruteForce(const SmallGeometry& g, bool passes) : g_(g), passes_(passes) {}
    int value(const SmallPos& pos) {
        const std::array<std::uint64_t, 3> key = {pos.stones[0], pos.stones[1],
                                                  std::uint64_t(pos.toMove) * 2 + pos.passed};
        if (auto it = memo_.find(key); it != memo_.end()) return it->second;
        int best = -2;
        bool moved = false;
        for (Bits e = g_.mask & ~pos.occupied(); e && best < 1; e &= e - 1) {
            SmallPos child = pos;
            int captured = 0;
            if (!child.play(g_, lowestBit(e), &captured)) continue;
            moved = true;
            best = std::max(best, captured ? 1 : -value(child));
        }
        if (best < 1 && passes_ && !pos.passed) {
            SmallPos child = pos;
            child.pass();
            best = std::max(best, -value(child));
        } else if (best < 1 && (passes_ || !moved)) {  // a pass after a pass, or no move: the game ends
            const int margin = pos.area(g_, pos.toMove) - pos.area(g_, pos.toMove ^ 1);
            best = std::max(best, margin > 0 ? 1 : margin < 0 ? -1 : 0);
        }
        memo_[key] = std::int8_t(best);
        return best;
    }
    Winner winner(const SmallPos& pos) {
        const int v = value(pos);
        return v == 0 ? Winner::Draw : (v > 0) == (pos.toMove == 0) ? Winner::Black : Winner::White;
    }
    std::size_t positions() const { return memo_.size(); }

  private:
    const SmallGeometry& g_;
    bool passes_;
    std::map<std::array<std::uint64_t, 3>, std::int8_t> memo_;
};

}  // namespace xq::go::test
