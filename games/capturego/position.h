// The board of Capture Go and Go: stones, groups and their liberties, captures, legality with its reason
// (occupied, suicide, positional superko, off the board), the history that superko needs, undo, and the
// Tromp-Taylor area score. A Position also carries the Rules it is played under (legality is the same
// under both rule sets; the rules matter to judge() in result.h and to the text form).
//
// The rules of the board:
//  - a move puts one stone of the side to move on an empty point; stones never move;
//  - after the stone is placed, every opponent group left without liberties is removed; the mover's own
//    groups are never removed (when both sides are without liberties only the opponent's groups go);
//  - suicide, a move that leaves its own group without liberties and captures nothing, is illegal;
//  - positional superko: a move may not recreate a stone placement (side to move ignored) that occurred
//    earlier in the game; the position the game started from counts;
//  - a pass is always legal and never violates superko (it recreates nothing new).
//
// Implementation: a padded 21x21 array whatever the size; every group keeps its stones in a circular list,
// a root point, and its exact number of liberties, updated incrementally by play() (groups that merge or
// lose a neighbour are re-flooded). Copying a Position is a few kilobytes plus the history vectors.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "capturego/types.h"

namespace xq::capturego {

enum class Cell : std::uint8_t { Empty = 0, Black = 1, White = 2 };
constexpr Cell stoneOf(Color c) {
    return c == Color::Black ? Cell::Black : Cell::White;
}

enum class Legality : std::uint8_t { Legal, OffBoard, Occupied, Suicide, Superko };

// Tromp-Taylor area, komi not included: a player's stones plus the empty points of the regions whose
// borders hold only that player's stones.
struct AreaScore {
    int black = 0;
    int white = 0;
};

class Position {
  public:
    // The empty board, Black to move. Throws std::invalid_argument for a size outside 5..19 or rules that
    // rulesProblem() rejects.
    explicit Position(int size = kDefaultBoardSize, Rules rules = Rules{});

    int size() const { return size_; }
    const Rules& rules() const { return rules_; }
    void setRules(const Rules& rules);  // throws std::invalid_argument as the constructor does
    Color toMove() const { return toMove_; }
    bool onBoard(Point p) const { return p.col >= 0 && p.row >= 0 && p.col < size_ && p.row < size_; }
    Cell at(Point p) const;  // Cell::Empty off the board
    int stoneCount(Color c) const;
    // Stones of the opponent that `player` has removed from the board.
    int captures(Color player) const { return captures_[index(player)]; }
    // Passes at the end of the game so far (0 after a stone move; 2 ends a game).
    int consecutivePasses() const { return passes_; }

    // ---- Moves ----
    Legality check(Move m) const;  // for the side to move
    bool isLegal(Move m) const { return check(m) == Legality::Legal; }
    // "" when legal, else "D4 is occupied", "D4 is suicide", "D4 repeats an earlier position (superko)",
    // "K10 is off the 9x9 board".
    std::string whyIllegal(Move m) const;
    // The legal stone moves, row 1 first and A to T within a row, then the pass (always legal).
    std::vector<Move> legalMoves() const;
    // Plays a move for the side to move: false and the reason (see whyIllegal) when it is illegal.
    bool play(Move m, std::string* why = nullptr);
    // Takes back the last move played (not one before the position was set up); false when there is none.
    bool undo();
    int plies() const { return static_cast<int>(undo_.size()); }  // moves undo() can take back
    std::optional<Move> lastMove() const;                         // nullopt at the start
    std::vector<Point> lastCaptured() const;                      // the stones the last move removed

    // ---- Groups ----
    int liberties(Point p) const;  // of the group at p; 0 for an empty point
    int groupSize(Point p) const;  // stones of the group at p; 0 for an empty point
    std::vector<Point> group(Point p) const;
    std::vector<Point> libertyPoints(Point p) const;
    // Whether a group of either colour has one liberty left (is in atari): a position whose next move can
    // capture, which opening books and training data leave out.
    bool anyGroupInAtari() const;

    // ---- Repetition ----
    // Zobrist key of the stone placement (and the board size); the side to move is not part of it.
    std::uint64_t hash() const { return hash_; }
    // The keys of every position since the start (the start first, the current one last): one per move,
    // passes included.
    const std::vector<std::uint64_t>& history() const { return history_; }
    bool occurred(std::uint64_t key) const;  // the placement `key` is in the history

    AreaScore areaScore() const;

    // ---- Setup (text forms, SGF AB/AW/AE) ----
    // Each of these makes the result the start of a new game: the history becomes this position alone and
    // undo() has nothing to take back. setStone puts or removes a stone with no capture; validate() tells
    // whether the placement is playable.
    void setStone(Point p, Cell c);
    void setToMove(Color c);
    void setCaptures(Color player, int n);
    void setConsecutivePasses(int n);
    // "" when every group has a liberty, else "the black group at D4 has no liberties".
    std::string validate() const;

  private:
    static constexpr int kStride = kMaxBoardSize + 2;
    static constexpr int kCells = kStride * kStride;
    static constexpr std::uint8_t kOff = 3;
    using Marks = std::array<std::uint64_t, (kCells + 63) / 64>;

    struct UndoEntry {
        Move move;
        Color mover;
        int passesBefore;
        std::uint32_t capturedFrom;  // start of this move's stones in capturedLog_
    };

    static int indexOf(Point p) { return (p.row + 1) * kStride + p.col + 1; }
    static Point pointOf(int i) { return Point{i % kStride - 1, i / kStride - 1}; }
    static std::uint64_t stoneKey(std::uint8_t cell, int i);

    std::uint64_t hashAfter(int p, Color c, const int* captureRoots, int captureCount) const;
    Legality checkAt(int p) const;
    void rebuildGroup(int seed, Marks& done);
    void removeGroup(int root);
    void addToHistory(std::uint64_t key);
    void rebuildFilter();
    void resetHistory();

    int size_;
    Rules rules_;
    Color toMove_ = Color::Black;
    int passes_ = 0;
    std::array<int, 2> captures_{};
    std::uint64_t hash_ = 0;

    std::array<std::uint8_t, kCells> cell_;    // Cell values, kOff outside the board
    std::array<std::uint16_t, kCells> root_;   // a stone's group: the group's root point
    std::array<std::uint16_t, kCells> next_;   // the next stone of the group (a circular list)
    std::array<std::uint16_t, kCells> libs_;   // at a root: the group's liberties
    std::array<std::uint16_t, kCells> count_;  // at a root: the group's stones

    std::vector<std::uint64_t> history_;
    std::array<std::uint64_t, 32> filter_{};  // one bit per (key mod 2048) of the history: a quick "no"
    std::vector<UndoEntry> undo_;
    std::vector<std::uint16_t> capturedLog_;
};

}  // namespace xq::capturego
