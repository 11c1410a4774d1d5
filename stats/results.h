// Game and game-pair counts, always from the tested engine's side (the first engine of a match).
//
// A trinomial result counts single games: wins, draws, losses. A pentanomial result counts game pairs
// (one opening played once with each colour) by the pair's total score, in fishtest's order of
// ascending score: [LL, LD, DD+WL, WD, WW] = 0, 1/2, 1, 3/2, 2 points. Pairs are the better unit: the
// two games of a pair share an opening, so their results are correlated, and counting them separately
// would understate the variance.
#pragma once

#include <array>
#include <cstdint>

namespace xq::stats {

enum class Outcome { Loss, Draw, Win };

struct Wdl {
    std::int64_t wins = 0;
    std::int64_t draws = 0;
    std::int64_t losses = 0;

    void add(Outcome o) { (o == Outcome::Win ? wins : o == Outcome::Draw ? draws : losses)++; }
    std::int64_t games() const { return wins + draws + losses; }
    // fishtest's order, ascending score: L, D, W.
    std::array<std::int64_t, 3> ascending() const { return {losses, draws, wins}; }
    Wdl& operator+=(const Wdl& o) {
        wins += o.wins, draws += o.draws, losses += o.losses;
        return *this;
    }
    bool operator==(const Wdl&) const = default;
};

struct Penta {
    // Indexed by the pair's score in half points: 0 = LL, 1 = LD, 2 = DD or WL, 3 = WD, 4 = WW.
    std::array<std::int64_t, 5> pairs{};

    enum Cell { LL = 0, LD = 1, DD = 2 /* or WL */, WD = 3, WW = 4 };

    static int halfPoints(Outcome o) { return o == Outcome::Win ? 2 : o == Outcome::Draw ? 1 : 0; }
    void addPair(Outcome first, Outcome second) { pairs[halfPoints(first) + halfPoints(second)]++; }
    std::int64_t pairCount() const { return pairs[0] + pairs[1] + pairs[2] + pairs[3] + pairs[4]; }
    std::int64_t games() const { return 2 * pairCount(); }
    Penta& operator+=(const Penta& o) {
        for (int i = 0; i < 5; ++i) pairs[i] += o.pairs[i];
        return *this;
    }
    bool operator==(const Penta&) const = default;
};

// Throws std::invalid_argument naming the bad count if any count is negative.
void validate(const Wdl& wdl);
void validate(const Penta& penta);

}  // namespace xq::stats
