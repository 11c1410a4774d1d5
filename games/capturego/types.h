// Capture Go (and ordinary Go): the small value types every other unit of the rules library uses —
// colours, points, moves, the two rule sets and their parameters, and the error type of the parsers.
//
// Rule sets (see result.h for how a game ends under each):
//   capture  the game's own rules: the first player to have captured `target` stones of the opponent wins
//            (target 1 is Atari Go); komi (default 0) only matters if the game ends by two passes.
//   go       ordinary Go: Tromp-Taylor area scoring with komi (default 7.5), no capture target.
// Both forbid suicide and apply positional superko; neither has any other rule difference on the board.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace xq::capturego {

// A malformed text (move, position text form, SGF, a game record with an illegal move); what() names what
// is wrong and, where it helps, where.
struct ParseError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class Color : std::uint8_t { Black = 0, White = 1 };

constexpr Color opponent(Color c) {
    return c == Color::Black ? Color::White : Color::Black;
}
constexpr int index(Color c) {
    return static_cast<int>(c);
}
const char* colorName(Color c);  // "black", "white"

constexpr int kMinBoardSize = 5;
constexpr int kMaxBoardSize = 19;
constexpr int kDefaultBoardSize = 9;

// A point of the board as GTP numbers it: col 0 is column A (the left edge), row 0 is row 1 (the bottom).
struct Point {
    int col = 0;
    int row = 0;
    friend constexpr bool operator==(Point, Point) = default;
};

// A board move: a stone on a point, or a pass. Resigning is a game event (Game::resign), not a board move.
// A default-constructed Move is a pass.
class Move {
  public:
    constexpr Move() = default;
    static constexpr Move pass() { return Move(); }
    static constexpr Move at(Point p) {
        Move m;
        m.pass_ = false;
        m.point_ = p;
        return m;
    }
    static constexpr Move at(int col, int row) { return at(Point{col, row}); }

    constexpr bool isPass() const { return pass_; }
    constexpr Point point() const { return point_; }  // {0, 0} for a pass

    friend constexpr bool operator==(const Move&, const Move&) = default;

  private:
    bool pass_ = true;
    Point point_{};
};

enum class RuleSet : std::uint8_t { Capture, Go };

struct Rules {
    RuleSet ruleSet = RuleSet::Capture;
    int target = 1;   // Capture: stones a player must capture to win, 1 or more; 0 under Go
    double komi = 0;  // points added to White's area score; a multiple of 0.5

    static Rules capture(int target = 1, double komi = 0) { return Rules{RuleSet::Capture, target, komi}; }
    static Rules go(double komi = 7.5) { return Rules{RuleSet::Go, 0, komi}; }

    friend bool operator==(const Rules&, const Rules&) = default;
};

// "capture:3" or "go": the rule set as the position text form and SGF's RU write it.
std::string ruleSetText(const Rules& rules);
// Empty when the rules are usable, else what is wrong ("the capture target must be 1 or more, not 0").
std::string rulesProblem(const Rules& rules);

// A number of points that is a multiple of 0.5, as the text form, SGF and results write it: "7.5", "0",
// "-3", "41".
std::string formatPoints(double points);
// Reads a komi or score written like formatPoints does, or with a ".0" (as GNU Go writes "KM[0.0]") or
// a leading '+'; false for anything else, or a value that is not a multiple of 0.5 or beyond +-10000.
bool parsePoints(const std::string& text, double* points);

}  // namespace xq::capturego
