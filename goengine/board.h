// The engine's general board for every size from 2 to 19: a padded mailbox with incremental groups (each
// stone knows its group's head, groups are circular stone lists, the head keeps the exact liberty count
// and the stone count), Zobrist hashing, positional superko, capture counts, the end of the game under
// both rule sets, and make/undo (undo restores a snapshot of the used cells: the state is small and this
// keeps undo exact). The GTP front end, the alpha-beta engine and the MCTS engines play on it; the
// solver uses the 64-bit SmallBoard (small_board.h), and the tests cross-check the two.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "goengine/types.h"

namespace xq::go {

constexpr int kMinSize = 2;
constexpr int kMaxSize = 19;
constexpr int kMaxCells = (kMaxSize + 2) * (kMaxSize + 2);

// A point is an index into the padded board: (row + 1) * (size + 2) + (col + 1), row 0 at the bottom.
using Point = int;
constexpr Point kPass = 0;  // index 0 is a border cell: never a playable point
constexpr Point kNoPoint = -1;

enum class MoveError : std::uint8_t { None, OffBoard, Occupied, Suicide, Superko, GameOver };
const char* moveErrorText(MoveError e);

class Board {
  public:
    explicit Board(int size = 9, Rules rules = {}, StartPosition start = StartPosition::Empty);

    // Geometry.
    int size() const { return n_; }
    int stride() const { return w_; }
    Point point(int col, int row) const { return (row + 1) * w_ + col + 1; }
    int col(Point p) const { return p % w_ - 1; }
    int row(Point p) const { return p / w_ - 1; }
    bool onBoard(Point p) const { return p > 0 && p < w_ * w_ && cells_[p].color != Border; }
    std::array<Point, 4> neighbours(Point p) const { return {p - w_, p - 1, p + 1, p + w_}; }
    // All points of the board, bottom row first.
    const std::vector<Point>& points() const { return points_; }

    // State.
    const Rules& rules() const { return rules_; }
    Color at(Point p) const { return Color(cells_[p].color); }
    Color toMove() const { return toMove_; }
    void setToMove(Color c);  // GTP lets either colour play; the hash follows
    int captures(Color by) const { return captures_[colorIndex(by)]; }
    int consecutivePasses() const { return passes_; }
    int moveCount() const { return int(undo_.size()); }
    Point lastMove() const { return lastMove_; }
    // Hash of the stones alone (what positional superko compares).
    std::uint64_t stoneHash() const { return stoneHash_; }
    // Hash of everything the value of the position depends on (stones, side to move, a pending pass,
    // capture counts) but the superko history.
    std::uint64_t key() const;
    const GameResult& result() const { return result_; }
    bool gameOver() const { return result_.over(); }

    // Groups: the head of the group of a stone, its liberty and stone counts, its stones.
    Point head(Point p) const { return cells_[p].head; }
    int liberties(Point p) const { return cells_[cells_[p].head].libs; }
    int groupSize(Point p) const { return cells_[cells_[p].head].size; }
    template <class F>
    void forEachStone(Point p, F f) const {
        Point q = p;
        do {
            f(q);
            q = cells_[q].next;
        } while (q != p);
    }
    // The liberties of the group of p (at most `max` of them, in no particular order).
    int libertyPoints(Point p, Point* out, int max) const;

    // Moves. check() tells whether `c` may play p now (kPass is always legal while the game is on).
    MoveError check(Point p, Color c) const;
    bool legal(Point p, Color c) const { return check(p, c) == MoveError::None; }
    // Plays p for c (which becomes the side that moved), or returns why not and changes nothing.
    MoveError play(Point p, Color c);
    MoveError play(Point p) { return play(p, toMove_); }
    // Faster play for playouts and searches that check legality themselves: no superko bookkeeping.
    // The caller guarantees the point is empty and the move is not suicide. Cannot be undone.
    void playUnchecked(Point p, Color c);
    void resign(Color c);
    // Sets up a position as the start of a new game (no history: superko looks back to it, undo has
    // nothing to take back): these stones, the side to move, each side's captures and the consecutive
    // passes; the result follows from the rules (capture target, two passes).
    void setPosition(const std::vector<std::pair<Point, Color>>& stones, Color toMove, int blackCaptures,
                     int whiteCaptures, int passes);
    // Becomes a copy of o's position without its history (no undo, no superko): for playouts.
    void copyPositionFrom(const Board& o);
    bool undo();
    // Legal moves of the side to move (never pass), empty if the game is over.
    std::vector<Point> legalMoves() const;
    std::vector<Point> legalMoves(Color c) const;

    // What a stone of c at the empty point p would do, without playing it: how many opponent stones it
    // captures and the liberties of its own group afterwards (capped at `cap`).
    struct Probe {
        int captured = 0;
        int libs = 0;
    };
    Probe probe(Point p, Color c, int cap = 4) const;
    // Whether p is a one-point eye of c: every neighbour is c or the edge (diagonals are not checked).
    bool isOwnEye(Point p, Color c) const;

    // Tromp-Taylor area: stones plus empty regions reaching only that colour.
    int area(Color c) const;
    // Black's area minus White's area minus komi.
    double areaMargin() const;
    // The result if the game ended now by two passes.
    GameResult scoreByPasses() const;

    // Text. Points are named and read with the rules library's GTP notation (capturego/notation.h).
    std::string toString() const;                  // rows top to bottom, X black, O white, . empty
    std::string pointName(Point p) const;          // "C3", "pass"
    Point parsePoint(const std::string& s) const;  // kNoPoint if not a point of this board ("pass" → kPass)

  private:
    struct Cell {
        std::uint8_t color = Border;
        std::uint8_t unused = 0;
        std::int16_t head = 0, next = 0, libs = 0, size = 0;
    };
    struct Snapshot {
        Color toMove;
        std::uint8_t passes;
        std::int16_t captures[2];
        Point lastMove;
        std::uint64_t stoneHash;
        GameResult result;
        int cellOffset;  // where the cells of this snapshot start in undoCells_
        bool addedHistory;
    };

    void place(Point p, Color c);
    int removeGroup(Point p);
    void recountLiberties(Point head);
    void afterMove(Color mover, int captured);
    void pushSnapshot();

    int n_, w_;
    Rules rules_;
    std::array<Cell, kMaxCells> cells_{};
    std::vector<Point> points_;
    Color toMove_ = Black;
    int passes_ = 0;
    int captures_[2] = {0, 0};
    Point lastMove_ = kNoPoint;
    std::uint64_t stoneHash_ = 0;
    GameResult result_;
    std::vector<Snapshot> undo_;
    std::vector<Cell> undoCells_;
    // How often each stone placement occurred in this game (positional superko).
    std::unordered_map<std::uint64_t, int> seen_;
    mutable std::array<std::uint32_t, kMaxCells> mark_{};
    mutable std::uint32_t markStamp_ = 0;
};

}  // namespace xq::go
