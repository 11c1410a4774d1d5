// Ratings of many players at once from their games, by maximum likelihood, as BayesElo and Ordo fit
// them: each game's outcome follows a Bradley-Terry model with draws,
//   P(first wins)  = f(r1 + adv - r2 - drawElo),   P(second wins) = f(r2 - r1 - adv - drawElo),
//   P(draw) = the rest,   f(x) = 1 / (1 + 10^(-x / 400)),
// where `adv` is the first mover's (red's) advantage and drawElo sets how drawish the games are; both
// are fitted with the ratings. A weak Gaussian prior (sd `priorElo` around the players' mean) keeps a
// player who won or lost every game finite. Intervals come from the Hessian of the log-likelihood (the
// observed information) at the optimum. Pure functions; no I/O.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace xq::stats {

struct RatedGame {
    int first = 0, second = 0;  // player indices; `first` moved first (red)
    double score = 0.5;         // of `first`: 1, 0.5 or 0
    std::int64_t count = 1;     // how many such games (totals need not be spelled out game by game)
};

struct RatingOptions {
    int anchor = -1;  // player whose rating is anchorElo; -1: the players' mean is anchorElo
    double anchorElo = 0;
    double confidence = 0.95;
    double priorElo = 1000;    // sd of the prior around the mean; 0: none (an all-win player diverges)
    bool fitAdvantage = true;  // else adv = 0
};

struct PlayerRating {
    std::string name;
    std::int64_t games = 0;
    double score = 0;  // points: a win 1, a draw 1/2
    double elo = 0, low = 0, high = 0;
};

struct RatingFit {
    std::vector<PlayerRating> players;  // in the order of `names`
    double advantage = 0, drawElo = 0;
    double logLikelihood = 0;  // without the prior
    int iterations = 0;
};

// Players by name, in the order they first appear, and their games in order: what fitRatings takes.
struct RatingInput {
    std::vector<std::string> names;
    std::vector<RatedGame> games;
    bool coloursKnown = true;  // false once totals without colours were added

    int player(const std::string& name);
    int find(const std::string& name) const;  // -1: none
    void addGame(const std::string& first, const std::string& second, double score);
    // Games of a pair given as totals (wins, draws, losses of `first`), whose colours are unknown: half of
    // each result with either colour, as a few weighted records.
    void addTotals(const std::string& first, const std::string& second, std::array<std::int64_t, 3> wdl);
};

// Throws std::invalid_argument for an index outside `names`, a score other than 0, 1/2, 1, a count below
// 1, or a game of a player against itself.
RatingFit fitRatings(const std::vector<std::string>& names, const std::vector<RatedGame>& games,
                     const RatingOptions& options = {});

// The model's probabilities of (first wins, draw, second wins) for a rating difference (first minus
// second, advantage included) and drawElo.
void outcomeProbabilities(double diff, double drawElo, double& win, double& draw, double& loss);

}  // namespace xq::stats
