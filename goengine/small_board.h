// The solver's board: a whole position of up to 7x7 in two 64-bit words (one per colour). A point is the
// bit row * (size + 1) + col; the spare column keeps shifts from wrapping between rows, so neighbours,
// groups (flood fill) and liberties are a handful of shifts and masks. Positions are small values that
// the search copies instead of undoing. Also here: the eight symmetries of the square and one Zobrist
// key per symmetry, so that the search can key its table on the least of the eight hashes.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>

#include "goengine/types.h"

namespace xq::go {

using Bits = std::uint64_t;
constexpr int kSmallMaxSize = 7;

inline int popcount(Bits b) {
    return std::popcount(b);
}
inline int lowestBit(Bits b) {
    return std::countr_zero(b);
}
constexpr Bits bit(int i) {
    return Bits(1) << i;
}

// The board's shape, its symmetries and Zobrist keys; one per size, built once.
struct SmallGeometry {
    int n = 0;                                             // board size
    int s = 0;                                             // stride: n + 1
    Bits mask = 0;                                         // the points of the board
    int points = 0;                                        // n * n
    std::array<std::array<std::uint8_t, 64>, 8> sym{};     // sym[t][i]: point i under symmetry t
    std::array<std::array<std::uint8_t, 64>, 8> symInv{};  // its inverse
    // key[t][colour][i] = base key of sym[t][i], so that hash[t] is the hash of the transformed board.
    std::array<std::array<std::array<std::uint64_t, 64>, 2>, 8> key{};
    std::uint64_t whiteToMove = 0, passPending = 0;

    static const SmallGeometry& of(int n);

    Bits neighbours(Bits b) const { return ((b << 1) | (b >> 1) | (b << s) | (b >> s)) & mask; }
    // The group of `seed` within the stones `set`.
    Bits group(Bits seed, Bits set) const {
        Bits g = seed;
        for (;;) {
            Bits next = (g | neighbours(g)) & set;
            if (next == g) return g;
            g = next;
        }
    }
    int index(int col, int row) const { return row * s + col; }
    int col(int i) const { return i % s; }
    int row(int i) const { return i / s; }
    std::string name(int i) const;             // "C3"; i < 0 is "pass"
    int parse(const std::string& text) const;  // -1 if not a point
};

// A position: stones of each colour (index 0 black, 1 white), side to move, whether the last move was a
// pass, capture counts, and the hash of the stones under each symmetry.
struct SmallPos {
    Bits stones[2] = {0, 0};
    std::uint64_t hash[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    std::uint8_t toMove = 0;  // 0 black, 1 white
    std::uint8_t passed = 0;  // the previous move was a pass
    std::uint8_t captures[2] = {0, 0};

    Bits occupied() const { return stones[0] | stones[1]; }

    void addStone(const SmallGeometry& g, int colour, int i) {
        stones[colour] |= bit(i);
        for (int t = 0; t < 8; ++t) hash[t] ^= g.key[t][colour][i];
    }
    void removeStones(const SmallGeometry& g, int colour, Bits b) {
        stones[colour] &= ~b;
        while (b) {
            int i = lowestBit(b);
            b &= b - 1;
            for (int t = 0; t < 8; ++t) hash[t] ^= g.key[t][colour][i];
        }
    }
    // Plays point i for the side to move with full capture rules. Returns false (and leaves the position
    // unchanged) if the point is occupied or the move is suicide; superko is the caller's business.
    bool play(const SmallGeometry& g, int i, int* capturedCount = nullptr);
    void pass() {
        toMove ^= 1;
        passed = 1;
    }
    // The search key: the stones' hash under `symmetry`, plus side to move, pending pass and captures.
    std::uint64_t key(const SmallGeometry& g, int symmetry) const;
    // The least key over the eight symmetries (or symmetry 0 alone), and which symmetry gave it.
    std::uint64_t canonicalKey(const SmallGeometry& g, bool useSymmetry, int* symmetry) const;
    // Tromp-Taylor area of colour (0 black, 1 white).
    int area(const SmallGeometry& g, int colour) const;
    std::string toString(const SmallGeometry& g) const;
};

}  // namespace xq::go
