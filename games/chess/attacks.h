// Attack tables of chess: pawn, knight and king attacks by square, sliding attacks of bishops and rooks by
// magic bitboards, and
// the squares between and on the line through two squares (for pins and checks).
#pragma once

#include "types.h"

namespace xq::chess {

namespace detail {
struct Magic {
    Bitboard mask = 0;
    Bitboard magic = 0;
    const Bitboard* attacks = nullptr;
    unsigned shift = 0;
    unsigned index(Bitboard occupied) const { return unsigned(((occupied & mask) * magic) >> shift); }
};
extern Magic rookMagics[64];
extern Magic bishopMagics[64];
extern Bitboard pawnAttacks[2][64];
extern Bitboard knightAttacks[64];
extern Bitboard kingAttacks[64];
extern Bitboard between[64][64];  // the squares strictly between two aligned squares, else none
extern Bitboard line[64][64];     // the whole line through two aligned squares, else none
}  // namespace detail

// Fills the tables once; safe to call from any thread, any number of times.
void initAttacks();

inline Bitboard pawnAttacks(Color c, Square s) {
    return detail::pawnAttacks[c][s];
}
inline Bitboard knightAttacks(Square s) {
    return detail::knightAttacks[s];
}
inline Bitboard kingAttacks(Square s) {
    return detail::kingAttacks[s];
}
inline Bitboard bishopAttacks(Square s, Bitboard occupied) {
    const auto& m = detail::bishopMagics[s];
    return m.attacks[m.index(occupied)];
}
inline Bitboard rookAttacks(Square s, Bitboard occupied) {
    const auto& m = detail::rookMagics[s];
    return m.attacks[m.index(occupied)];
}
inline Bitboard queenAttacks(Square s, Bitboard occupied) {
    return bishopAttacks(s, occupied) | rookAttacks(s, occupied);
}
inline Bitboard between(Square a, Square b) {
    return detail::between[a][b];
}
inline Bitboard lineThrough(Square a, Square b) {
    return detail::line[a][b];
}

}  // namespace xq::chess
