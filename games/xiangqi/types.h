// Basic Xiangqi types shared by the rules core, the searcher, the match runner and the tuner.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace xq {

// 90 squares fit in 128 bits; bit i is square i.
using Bitboard = unsigned __int128;

enum Color : int { RED = 0, BLACK = 1, COLOR_NB = 2 };
constexpr Color operator~(Color c) {
    return Color(c ^ 1);
}

enum PieceType : int {
    NO_PIECE_TYPE = 0,
    KING = 1,
    ADVISOR = 2,
    BISHOP = 3,  // the elephant
    KNIGHT = 4,  // the horse
    ROOK = 5,    // the chariot
    CANNON = 6,
    PAWN = 7,
    PIECE_TYPE_NB = 8
};

// Piece = color * 8 + type, so the colour is bit 3.
enum Piece : int {
    NO_PIECE = 0,
    R_KING = 1,
    R_ADVISOR,
    R_BISHOP,
    R_KNIGHT,
    R_ROOK,
    R_CANNON,
    R_PAWN,
    B_KING = 9,
    B_ADVISOR,
    B_BISHOP,
    B_KNIGHT,
    B_ROOK,
    B_CANNON,
    B_PAWN,
    PIECE_NB = 16
};

constexpr Piece makePiece(Color c, PieceType pt) {
    return Piece(c * 8 + pt);
}
constexpr PieceType typeOf(Piece p) {
    return PieceType(p & 7);
}
constexpr Color colorOf(Piece p) {
    return Color(p >> 3);
}

// Square = rank * 9 + file; file 0-8 is a-i, rank 0 is Red's back rank, rank 9 Black's.
using Square = int;
constexpr int FILE_NB = 9;
constexpr int RANK_NB = 10;
constexpr int SQUARE_NB = 90;
constexpr Square SQ_NONE = -1;

constexpr Square makeSquare(int file, int rank) {
    return rank * FILE_NB + file;
}
// Tables rather than division by 9: these run in every move generator, make/unmake and evaluation.
struct SquareCoordinates {
    std::uint8_t file[SQUARE_NB], rank[SQUARE_NB];
};
inline constexpr SquareCoordinates Coordinates = [] {
    SquareCoordinates c{};
    for (int s = 0; s < SQUARE_NB; ++s)
        c.file[s] = std::uint8_t(s % FILE_NB), c.rank[s] = std::uint8_t(s / FILE_NB);
    return c;
}();
constexpr int fileOf(Square s) {
    return Coordinates.file[s];
}
constexpr int rankOf(Square s) {
    return Coordinates.rank[s];
}
constexpr bool isOnBoard(int file, int rank) {
    return file >= 0 && file < FILE_NB && rank >= 0 && rank < RANK_NB;
}

// A pawn has crossed the river once it stands on the opponent's half.
constexpr bool hasCrossedRiver(Color c, Square s) {
    return c == RED ? rankOf(s) >= 5 : rankOf(s) <= 4;
}
constexpr bool inPalace(Color c, Square s) {
    int f = fileOf(s), r = rankOf(s);
    return f >= 3 && f <= 5 && (c == RED ? r <= 2 : r >= 7);
}
constexpr bool onOwnSide(Color c, Square s) {
    return !hasCrossedRiver(c, s);
}

// A move is from | to << 7; both are squares 0-89, so MOVE_NONE (0) and MOVE_NULL (from == to) are never
// real moves.
enum Move : std::uint16_t { MOVE_NONE = 0, MOVE_NULL = 1 | (1 << 7) };
constexpr Move makeMove(Square from, Square to) {
    return Move(from | (to << 7));
}
constexpr Square fromSq(Move m) {
    return m & 0x7F;
}
constexpr Square toSq(Move m) {
    return (m >> 7) & 0x7F;
}
constexpr bool isOk(Move m) {
    return m != MOVE_NONE && fromSq(m) != toSq(m);
}

// What a move generator produces (see movegen.h).
enum GenType {
    CAPTURES,      // pseudo-legal captures
    QUIETS,        // pseudo-legal non-captures
    PSEUDO_LEGAL,  // both
    LEGAL,         // only moves that leave the king safe
};

// A 128-bit shift by a variable count takes several instructions and a branch; a table load takes one.
inline constexpr auto SquareBBs = [] {
    std::array<Bitboard, 128> table{};
    for (int s = 0; s < 128; ++s) table[s] = Bitboard(1) << s;
    return table;
}();
inline Bitboard squareBB(Square s) {
    return SquareBBs[s];
}
inline bool testBit(Bitboard b, Square s) {
    return (b & SquareBBs[s]) != 0;
}
inline int popcount(Bitboard b) {
    return __builtin_popcountll(std::uint64_t(b)) + __builtin_popcountll(std::uint64_t(b >> 64));
}
inline Square lsb(Bitboard b) {
    std::uint64_t lo = std::uint64_t(b);
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(std::uint64_t(b >> 64));
}
// Calls f(square) for each square of b, lowest first: a loop over each 64-bit half is cheaper than popLsb.
template <typename F>
inline void forEachSquare(Bitboard b, F&& f) {
    for (std::uint64_t w = std::uint64_t(b); w; w &= w - 1) f(Square(__builtin_ctzll(w)));
    for (std::uint64_t w = std::uint64_t(b >> 64); w; w &= w - 1) f(Square(64 + __builtin_ctzll(w)));
}
inline Square popLsb(Bitboard& b) {
    Square s = lsb(b);
    b &= b - 1;
    return s;
}

// ICCS square names: "e0".
std::string squareName(Square s);
// ICCS move text: "h2e2"; "0000" for the null move.
std::string moveToString(Move m);
char pieceChar(Piece p);  // FEN letter: K A B N R C P upper case for Red, lower for Black

}  // namespace xq
