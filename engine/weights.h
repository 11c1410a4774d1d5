// Every evaluation weight in one table, and the versioned text file (EvalFile) that holds them.
//
// A weight is a pair of integers: its middlegame and its endgame value, in centipawns. The evaluation is a
// sum of (coefficient x weight) over this table, tapered between the two parts by the game phase (see
// evaluate.h), so a tuner can fit the table directly.
//
// Weights file format (text, one weight per line, `#` starts a comment):
//     xq-weights 1
//     Material.Rook 900 950
//     Pst.Pawn.c5 40 60
//     ...
// The first non-comment line names the format version. Every weight of the table must appear exactly once;
// an unknown name, a repeated name, a missing weight or a bad number is an error naming the line.
#pragma once

#include <array>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>

namespace xq::eval {

struct Weight {
    int mg = 0;
    int eg = 0;
    bool operator==(const Weight&) const = default;
};

// Piece-square tables are stored from the owner's side with the board folded left-right (Xiangqi is
// symmetric): files a-e by ranks 0-9, 50 squares per piece type.
constexpr int PST_FILES = 5;
constexpr int PST_SIZE = PST_FILES * 10;
constexpr int MOBILITY_KNIGHT_NB = 9;   // 0-8 reachable squares
constexpr int MOBILITY_SLIDER_NB = 18;  // 0-17 (larger counts are clamped)

// The layout of the table. Blocks are indexed by an offset from their first entry.
enum WeightIndex : int {
    // Material by piece type, ADVISOR .. PAWN (index = type - ADVISOR).
    W_MATERIAL = 0,
    // Piece-square tables by piece type, KING .. PAWN (index = (type - KING) * PST_SIZE + square).
    W_PST = W_MATERIAL + 6,
    // Mobility tables: the weight for having exactly N moves.
    W_MOBILITY_KNIGHT = W_PST + 7 * PST_SIZE,
    W_MOBILITY_ROOK = W_MOBILITY_KNIGHT + MOBILITY_KNIGHT_NB,
    W_MOBILITY_CANNON = W_MOBILITY_ROOK + MOBILITY_SLIDER_NB,
    // Pieces attacking the enemy palace, by attacker type ROOK, KNIGHT, CANNON, PAWN (in that order).
    W_PALACE_ATTACKER = W_MOBILITY_CANNON + MOBILITY_SLIDER_NB,
    // Per missing advisor, multiplied by the number of enemy rooks; per missing elephant, by enemy cannons.
    W_ADVISOR_MISSING = W_PALACE_ATTACKER + 4,
    W_BISHOP_MISSING,
    // A cannon facing the enemy king on its file with nothing between ("hollow cannon").
    W_CANNON_HOLLOW,
    // A cannon facing the enemy king with exactly one piece between (a check or a pin waiting to happen).
    W_CANNON_SCREEN,
    // A rook on a file with no pawns, or with no own pawn.
    W_ROOK_OPEN_FILE,
    W_ROOK_SEMI_OPEN_FILE,
    // Per blocked leg of a horse (the square a horse must step over is occupied).
    W_KNIGHT_LEG_BLOCKED,
    // A crossed pawn with a friendly pawn beside it on the same rank.
    W_PAWN_CONNECTED,
    // Per enemy palace square attacked (any attacker), a measure of pressure on the king.
    W_PALACE_SQUARE_ATTACKED,
    // The side to move.
    W_TEMPO,
    WEIGHT_NB
};

struct Weights {
    std::array<Weight, WEIGHT_NB> w{};
    Weight& operator[](int i) { return w[i]; }
    const Weight& operator[](int i) const { return w[i]; }
    bool operator==(const Weights&) const = default;
};

constexpr int WEIGHTS_FILE_VERSION = 1;

struct WeightsError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The compiled-in defaults (weights_default.cpp), identical to engine/weights/default.xqw.
const Weights& defaultWeights();

// "Material.Rook", "Pst.Knight.c4", "Mobility.Rook.7", ... Stable: the weights file relies on them.
std::string weightName(int index);
int weightIndex(std::string_view name);  // -1 if unknown

void writeWeights(std::ostream& out, const Weights& weights);
Weights readWeights(std::istream& in);             // throws WeightsError with the line number
Weights loadWeightsFile(const std::string& path);  // throws WeightsError naming the file
void saveWeightsFile(const std::string& path, const Weights& weights);
// C++ source for weights_default.cpp, so tuned weights can become the compiled-in defaults.
void writeWeightsSource(std::ostream& out, const Weights& weights);

}  // namespace xq::eval
