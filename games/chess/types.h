// The vocabulary of International chess as the framework's chess rules (chess/) use it: colours, pieces,
// squares (a1 = 0 ... h8 = 63), bitboards and the 16-bit move. Kept apart from Xiangqi's xiangqi/types.h:
// the two games share no board.
#pragma once

#include <bit>
#include <cstdint>

namespace xq::chess {

using Bitboard = std::uint64_t;

enum Color : std::uint8_t { WHITE, BLACK };
constexpr Color operator~(Color c) {
    return Color(c ^ 1);
}

enum PieceType : std::uint8_t { NO_TYPE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING };

// A piece is its type with the colour in bit 3: W_PAWN = 1 ... W_KING = 6, B_PAWN = 9 ... B_KING = 14.
enum Piece : std::uint8_t { NO_PIECE = 0 };
constexpr Piece makePiece(Color c, PieceType t) {
    return Piece((c << 3) | t);
}
constexpr PieceType typeOf(Piece p) {
    return PieceType(p & 7);
}
constexpr Color colorOf(Piece p) {
    return Color(p >> 3);
}

using Square = int;  // 0..63, or NO_SQUARE
constexpr Square NO_SQUARE = 64;
constexpr int fileOf(Square s) {
    return s & 7;
}
constexpr int rankOf(Square s) {
    return s >> 3;
}
constexpr Square makeSquare(int file, int rank) {
    return rank * 8 + file;
}
// The square seen from `c`'s side: rank 1 of white is rank 8 of black.
constexpr Square relative(Color c, Square s) {
    return c == WHITE ? s : s ^ 56;
}

constexpr Bitboard bit(Square s) {
    return Bitboard(1) << s;
}
constexpr Bitboard FILE_A = 0x0101010101010101ULL;
constexpr Bitboard RANK_1 = 0xFFULL;
constexpr Bitboard fileBB(int f) {
    return FILE_A << f;
}
constexpr Bitboard rankBB(int r) {
    return RANK_1 << (8 * r);
}
constexpr Bitboard DARK_SQUARES = 0xAA55AA55AA55AA55ULL;

inline Square lsb(Bitboard b) {
    return std::countr_zero(b);
}
inline Square popLsb(Bitboard& b) {
    Square s = lsb(b);
    b &= b - 1;
    return s;
}
inline int popcount(Bitboard b) {
    return std::popcount(b);
}
constexpr bool moreThanOne(Bitboard b) {
    return (b & (b - 1)) != 0;
}

// Castling rights, one bit each.
enum CastlingRight : std::uint8_t {
    WHITE_OO = 1,
    WHITE_OOO = 2,
    BLACK_OO = 4,
    BLACK_OOO = 8,
};

// A move: from (bits 0-5), to (6-11), the promotion piece (12-13: knight, bishop, rook, queen) and its
// kind (14-15). A castling move goes from the king's square to the king's destination (g1, c1 ...).
class Move {
  public:
    enum Kind : std::uint16_t { NORMAL = 0, PROMOTION = 1, EN_PASSANT = 2, CASTLING = 3 };

    constexpr Move() = default;
    constexpr Move(Square from, Square to, Kind kind = NORMAL, PieceType promotion = KNIGHT)
        : data_(std::uint16_t(from | (to << 6) | ((promotion - KNIGHT) << 12) | (kind << 14))) {}

    constexpr Square from() const { return data_ & 63; }
    constexpr Square to() const { return (data_ >> 6) & 63; }
    constexpr Kind kind() const { return Kind(data_ >> 14); }
    constexpr PieceType promotion() const { return PieceType(((data_ >> 12) & 3) + KNIGHT); }
    constexpr bool isNone() const { return data_ == 0; }
    constexpr std::uint16_t raw() const { return data_; }
    constexpr bool operator==(const Move&) const = default;

  private:
    std::uint16_t data_ = 0;
};

}  // namespace xq::chess
