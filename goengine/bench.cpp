#include "goengine/bench.h"

#include <chrono>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "goengine/board.h"
#include "goengine/search.h"
#include "goengine/solve_command.h"
#include "goengine/solver.h"

namespace xq::go {

namespace {

struct BenchPosition {
    int size;
    Rules rules;
    StartPosition start;
    const char* moves;  // alternating from Black
};

const std::vector<BenchPosition>& positions() {
    static const std::vector<BenchPosition> list = {
        {9, Rules::capture(1), StartPosition::Empty, ""},
        {9, Rules::capture(1), StartPosition::Empty, "E5 E4 D4 F5 F4 D5 C5 E3"},
        {9, Rules::capture(1), StartPosition::Crosscut, "D3 F5 C4 E3 F4 G5"},
        {9, Rules::capture(1), StartPosition::Crosscut, "F4 D6 F5 E6 C5 C6 B5 G5 G6"},
        {7, Rules::capture(1), StartPosition::Crosscut, "C2 E4 E2 B4"},
        {6, Rules::capture(1), StartPosition::Crosscut, "C2 B3 E3 D2"},
        {9, Rules::capture(3), StartPosition::Empty, "C3 G7 C7 G3 E5 E4 D4 F5 F4 D5"},
        {13, Rules::capture(1), StartPosition::Crosscut, "F5 H8 E7 J7"},
        {9, Rules::go(7.5), StartPosition::Empty, "C3 G7 G3 C7 E5 E3 D3 F3 E2 F2"},
    };
    return list;
}

}  // namespace

BenchResult runBench(int depth, std::ostream* log) {
    const auto start = std::chrono::steady_clock::now();
    BenchResult total;
    int index = 0;
    for (const BenchPosition& bp : positions()) {
        Board b(bp.size, bp.rules, bp.start);
        std::istringstream moves(bp.moves);
        for (std::string m; moves >> m;) {
            Point p = b.parsePoint(m);
            if (b.play(p) != MoveError::None) throw std::logic_error("bench position: illegal move " + m);
        }
        AlphaBeta search(16);
        SearchLimits limits;
        limits.depth = depth;
        SearchResult r = search.search(b, limits);
        total.nodes += r.nodes;
        if (log)
            *log << "position " << ++index << " (" << bp.size << "x" << bp.size << "): best "
                 << b.pointName(r.move) << " score " << r.score << " nodes " << r.nodes << "\n";
    }
    // The solver: 4x4 from the empty board, and 5x5 after two moves.
    for (int size : {4, 5}) {
        SolverOptions o;
        o.hashMegabytes = 16;
        Solver solver(size, o);
        const SmallGeometry& g = solver.geometry();
        SmallPos root = smallStart(g, StartPosition::Empty);
        if (size == 5) {
            root.play(g, g.parse("C3"));
            root.play(g, g.parse("C2"));
        }
        SolveResult r = solver.solve(root);
        total.nodes += r.nodes;
        if (log)
            *log << "solver " << size << "x" << size << ": " << r.moveName << " nodes " << r.nodes << "\n";
    }
    total.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return total;
}

}  // namespace xq::go
