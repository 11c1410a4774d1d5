// A chess position with its history: pieces by square and by bitboard, side to move, castling rights, the
// en-passant square, the fifty-move counter, a Zobrist key, and a stack of what each move changed, so that
// moves are undone exactly and repetitions are found. FEN in and out (X-FEN's castling letters KQkq only;
// the en-passant square is kept only when a pawn could take there, so equal positions have equal keys).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "attacks.h"
#include "types.h"

namespace xq::chess {

inline constexpr const char* START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

class Position {
  public:
    Position();  // the start position

    // Reads a FEN (the move counters may be left out); on an error returns false and says what was wrong,
    // leaving the position as it was.
    bool setFen(std::string_view fen, std::string* error = nullptr);
    std::string fen() const;

    Color sideToMove() const { return stm_; }
    Piece pieceOn(Square s) const { return board_[s]; }
    Bitboard pieces() const { return byColor_[WHITE] | byColor_[BLACK]; }
    Bitboard pieces(Color c) const { return byColor_[c]; }
    Bitboard pieces(PieceType t) const { return byType_[t]; }
    Bitboard pieces(Color c, PieceType t) const { return byColor_[c] & byType_[t]; }
    Square kingSquare(Color c) const { return lsb(pieces(c, KING)); }
    int castlingRights() const { return st().castling; }
    Square epSquare() const { return st().ep; }
    int rule50() const { return st().rule50; }  // plies since the last capture or pawn move
    int fullmoveNumber() const { return startMove_ + (plies() + (startBlack_ ? 1 : 0)) / 2; }
    std::uint64_t key() const { return st().key; }
    Bitboard checkers() const { return st().checkers; }
    bool inCheck() const { return st().checkers != 0; }

    // The pieces of either colour that attack `s` with `occupied` as the board's occupancy.
    Bitboard attackersTo(Square s, Bitboard occupied) const;
    // The pieces of `c` that are the only piece between `c`'s king and an enemy slider.
    Bitboard pinned(Color c) const;

    // Plays a legal move (movegen.h makes them); undoMove takes the last one back.
    void doMove(Move m);
    void undoMove();
    int plies() const { return int(history_.size()) - 1; }  // moves played since setFen
    Move lastMove() const { return st().move; }
    Piece lastCaptured() const { return st().captured; }
    // How many earlier positions, within the fifty-move window, equal this one (0: none).
    int repetitions() const;

  private:
    struct Empty {};
    explicit Position(Empty);  // an empty board (setFen fills it)
    struct State {
        std::uint64_t key = 0;
        Bitboard checkers = 0;
        Square ep = NO_SQUARE;
        int rule50 = 0;
        std::uint8_t castling = 0;
        Piece captured = NO_PIECE;
        Move move;
    };
    const State& st() const { return history_.back(); }
    void put(Piece p, Square s);
    void remove(Square s);
    void move(Square from, Square to);
    void clear();
    // The en-passant square after a double step to `to` by `mover`, or NO_SQUARE if no pawn can take.
    Square epAfterDoubleStep(Color mover, Square to) const;

    Piece board_[64];
    Bitboard byType_[7];
    Bitboard byColor_[2];
    Color stm_ = WHITE;
    std::vector<State> history_;
    int startMove_ = 1;
    bool startBlack_ = false;
};

// The Zobrist keys (shared by all positions).
namespace zobrist {
std::uint64_t piece(Piece p, Square s);
std::uint64_t castling(int rights);
std::uint64_t ep(int file);
std::uint64_t side();
}  // namespace zobrist

}  // namespace xq::chess
