// The seeds' grade points for players (seed 003, "Scoring method"): 30 grades, from grade 30 (the
// lowest, where every player starts with 0 points) to grade 1, 100 points a grade. After each game the
// loser gives the winner points (a draw: the higher gives the lower), by the difference d between their
// points before the game:
//   draw:              d < 10: 0;   10 <= d < 100: (10 + d/10) / 2;   d >= 100: d / 4
//   the lower wins:    d < 10: 10;  10 <= d < 100: 10 + d/10;         d >= 100: d / 2
//   the higher wins:   d < 10: 10;  10 <= d < 100: 10 - d/12.5;       100 <= d < 200: 2;   d >= 200: 0
// Where the seed's text is unclear we chose: "within 10" is d < 10, "10-99" is 10 <= d < 100, "greater
// than 100" includes 100, "more than 200" includes 200; points are not rounded (shown with one decimal);
// points may fall below 0, and the grade then stays 30; grade 1 is the highest however many points.
#pragma once

#include <string>
#include <vector>

namespace xq::stats {

// Points that pass from one player to the other in a game between players with `first` and `second`
// points, where `score` is the first's (1, 1/2, 0): positive when the first gains.
double gradePointsExchanged(double first, double second, double score);
// 30 - floor(points / 100), kept within 1..30.
int gradeOf(double points);

struct GradedPlayer {
    double points = 0;
    int grade = 30;
};

// Runs the scheme over games in order (first, second, score of first) for `players` players.
std::vector<GradedPlayer> gradePlayers(int players,
                                       const std::vector<std::pair<std::pair<int, int>, double>>& games);

}  // namespace xq::stats
