#include "openings_capturego.h"

#include <algorithm>
#include <random>
#include <set>
#include <stdexcept>

#include "capturego/position_text.h"
#include "capturego/result.h"

namespace xq::cli {

namespace {

namespace cg = xq::capturego;

// The placement seen the same way up to the board's symmetries: the least of its eight images' texts.
std::string canonical(const cg::Position& pos) {
    const int n = pos.size();
    std::string best;
    for (int t = 0; t < 8; ++t) {
        cg::Position image(n, pos.rules());
        for (int row = 0; row < n; ++row)
            for (int col = 0; col < n; ++col) {
                cg::Cell c = pos.at({col, row});
                if (c == cg::Cell::Empty) continue;
                int x = col, y = row;
                if (t & 1) x = n - 1 - x;
                if (t & 2) y = n - 1 - y;
                if (t & 4) std::swap(x, y);
                image.setStone({x, y}, c);
            }
        std::string text = cg::positionText(image);
        if (t == 0 || text < best) best = text;
    }
    return best;
}

}  // namespace

std::vector<std::string> captureGoOpenings(const CaptureGoOpeningsOptions& o, std::string* header) {
    if (o.size < cg::kMinBoardSize || o.size > cg::kMaxBoardSize)
        throw std::invalid_argument("--size " + std::to_string(o.size) + ": boards are 5x5 to 19x19");
    const int area = o.area > 0 ? o.area : o.size >= 9 ? o.size - 4 : o.size - 2;
    if (area > o.size)
        throw std::invalid_argument("--area " + std::to_string(area) + ": larger than the " +
                                    std::to_string(o.size) + "x" + std::to_string(o.size) + " board");
    if (o.stones < 1) throw std::invalid_argument("--stones must be 1 or more (stones of each colour)");
    if (2 * o.stones > area * area)
        throw std::invalid_argument("--stones " + std::to_string(o.stones) + ": " +
                                    std::to_string(2 * o.stones) + " stones do not fit on the " +
                                    std::to_string(area) + "x" + std::to_string(area) +
                                    " centre (raise --area)");
    cg::Rules rules;
    if (o.rules == "capture") {
        if (o.target < 1) throw std::invalid_argument("--target must be 1 or more");
        rules = cg::Rules::capture(o.target);
    } else if (o.rules == "go") {
        rules = cg::Rules::go();
    } else {
        throw std::invalid_argument("--rules '" + o.rules + "': capture or go");
    }
    if (!o.komi.empty() && !cg::parsePoints(o.komi, &rules.komi))
        throw std::invalid_argument("--komi '" + o.komi + "': a multiple of 0.5, e.g. 0, 6.5 or -3");

    const int low = (o.size - area) / 2;
    std::vector<cg::Point> points;
    for (int row = low; row < low + area; ++row)
        for (int col = low; col < low + area; ++col) points.push_back({col, row});

    std::mt19937_64 rng(o.seed);
    std::set<std::string> seen;
    std::vector<std::string> kept;
    // Drawing stops when 50,000 draws in a row found nothing new: the area holds too few positions.
    const int maxMisses = 50000;
    int misses = 0;
    while (int(kept.size()) < o.count) {
        if (++misses > maxMisses)
            throw std::invalid_argument("only " + std::to_string(kept.size()) +
                                        " distinct undecided positions of " + std::to_string(o.stones) + "+" +
                                        std::to_string(o.stones) + " stones in the " + std::to_string(area) +
                                        "x" + std::to_string(area) + " centre (none new in " +
                                        std::to_string(maxMisses) + " draws), " + std::to_string(o.count) +
                                        " asked for (raise --area or --stones, or lower --count)");
        // The first 2 * stones points of a partial shuffle: black on the even draws, white on the odd.
        cg::Position pos(o.size, rules);
        for (int i = 0; i < 2 * o.stones; ++i) {
            std::size_t j = std::size_t(i) + std::size_t(rng() % (points.size() - std::size_t(i)));
            std::swap(points[std::size_t(i)], points[j]);
            pos.setStone(points[std::size_t(i)], i % 2 == 0 ? cg::Cell::Black : cg::Cell::White);
        }
        pos.setToMove(cg::Color::Black);
        if (!pos.validate().empty() || cg::judge(pos).isOver() || pos.anyGroupInAtari()) continue;
        if (!seen.insert(canonical(pos)).second) continue;
        kept.push_back(cg::positionText(pos));
        misses = 0;
    }
    if (header)
        *header = "# xq openings --game capturego --size " + std::to_string(o.size) + " --stones " +
                  std::to_string(o.stones) + " --area " + std::to_string(area) + " --rules " + o.rules +
                  (o.rules == "capture" ? " --target " + std::to_string(o.target) : std::string()) +
                  " --komi " + cg::formatPoints(rules.komi) + " --count " + std::to_string(o.count) +
                  " --seed " + std::to_string(o.seed) + ": " + std::to_string(o.count) + " positions, " +
                  std::to_string(o.stones) + " black and " + std::to_string(o.stones) +
                  " white stones in the centre " + std::to_string(area) + "x" + std::to_string(area) +
                  ", black to move";
    return kept;
}

}  // namespace xq::cli
