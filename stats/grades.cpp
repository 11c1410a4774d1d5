#include "grades.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace xq::stats {

double gradePointsExchanged(double first, double second, double score) {
    const double d = std::abs(first - second);
    const bool firstLower = first < second;
    if (score == 0.5) {
        double amount = d < 10 ? 0 : d < 100 ? (10 + d / 10) / 2 : d / 4;
        return firstLower ? amount : -amount;  // the lower gains
    }
    if (score != 1 && score != 0) throw std::invalid_argument("grade points: a score must be 0, 1/2 or 1");
    const bool firstWon = score == 1;
    const bool winnerLower = firstWon ? firstLower : !firstLower && first != second;
    double amount;
    if (d < 10)
        amount = 10;
    else if (winnerLower)
        amount = d < 100 ? 10 + d / 10 : d / 2;
    else
        amount = d < 100 ? 10 - d / 12.5 : d < 200 ? 2 : 0;
    return firstWon ? amount : -amount;
}

int gradeOf(double points) {
    return std::clamp(30 - int(std::floor(points / 100)), 1, 30);
}

std::vector<GradedPlayer> gradePlayers(int players,
                                       const std::vector<std::pair<std::pair<int, int>, double>>& games) {
    std::vector<GradedPlayer> out(std::size_t(std::max(players, 0)));
    for (const auto& [pair, score] : games) {
        auto [a, b] = pair;
        if (a < 0 || b < 0 || a >= players || b >= players || a == b)
            throw std::invalid_argument("grade points: a game names an unknown player");
        double moved = gradePointsExchanged(out[std::size_t(a)].points, out[std::size_t(b)].points, score);
        out[std::size_t(a)].points += moved;
        out[std::size_t(b)].points -= moved;
    }
    for (auto& p : out) p.grade = gradeOf(p.points);
    return out;
}

}  // namespace xq::stats
