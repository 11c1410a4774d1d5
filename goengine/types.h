// Basic vocabulary of the Capture Go engine: colours, rule sets, rules, results. Shared by the general
// board (board.h), the solver's 64-bit board (small_board.h) and the searches; the GTP front end and the
// solve command speak the rules library's types (games/capturego), converted by convert.h.
#pragma once

#include <cstdint>
#include <string>

namespace xq::go {

enum Color : std::uint8_t { Empty = 0, Black = 1, White = 2, Border = 3 };

constexpr Color opponent(Color c) {
    return Color(3 - c);
}
// 0 for Black, 1 for White: the index of per-colour arrays.
constexpr int colorIndex(Color c) {
    return c - 1;
}
const char* colorName(Color c);

// Which game is played. Capture: the first to capture `target` stones wins (target 1 is Atari Go); two
// passes in a row end the game, decided by captures, then area with komi, else a draw. Go: Tromp-Taylor
// area scoring with komi.
enum class RuleSet : std::uint8_t { Capture, Go };

struct Rules {
    RuleSet ruleSet = RuleSet::Capture;
    int target = 1;     // capture rule set only
    double komi = 0.0;  // added to White's area
    static Rules capture(int target = 1, double komi = 0.0) { return {RuleSet::Capture, target, komi}; }
    static Rules go(double komi = 7.5) { return {RuleSet::Go, 1, komi}; }
    bool atariGo() const { return ruleSet == RuleSet::Capture && target == 1; }
};

// How the starting position is set up before Black's first move.
enum class StartPosition : std::uint8_t { Empty, Crosscut };

// Crosscut: the 2x2 block with lower-left corner at column and row (size-2)/2 (0-based), i.e. the four
// central points on even sizes and the block just below-left of the centre point on odd ones (whose
// upper-right stone is the centre). Black holds the lower-left and upper-right corners of the block,
// White the other two: on 6x6 black C3 D4, white C4 D3.
constexpr int crosscutLow(int size) {
    return (size - 2) / 2;
}

enum class Winner : std::uint8_t { None, Black, White, Draw };

// Why a game ended.
enum class EndReason : std::uint8_t { None, Capture, Passes, Resignation };

struct GameResult {
    Winner winner = Winner::None;
    EndReason reason = EndReason::None;
    double margin = 0.0;    // area difference (Black - White - komi) when decided by area
    int captureMargin = 0;  // capture difference when two passes ended a capture game with unequal counts
    bool over() const { return winner != Winner::None; }
    // SGF RE spelling, as the reference rules (games/capturego/result.h) write it: "B+C" (capture target, or
    // more captures after two passes), "B+R" (resignation), "W+3.5" (area), "0" (draw).
    std::string toString() const;
};

}  // namespace xq::go
