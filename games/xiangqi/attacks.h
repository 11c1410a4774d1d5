// Precomputed move geometry for every square (rays, horse steps with their legs, elephant steps with their
// eyes, palace steps, pawn steps) and attack tests over a set of piece bitboards, so that hypothetical
// boards (after a capture that is not made) can be examined without touching a Position.
#pragma once

#include <cstdint>

#include "types.h"

namespace xq {

// A step to `to` that needs `via` empty: the horse's leg or the elephant's eye.
struct Step {
    std::int8_t to, via;
};

enum Direction { UP, DOWN, RIGHT, LEFT };  // UP is towards rank 9

struct Geometry {
    std::int8_t ray[SQUARE_NB][4][10];
    std::uint8_t rayLen[SQUARE_NB][4];
    Step horseMoves[SQUARE_NB][8];
    std::uint8_t horseMoveCount[SQUARE_NB];
    Step horseAttackers[SQUARE_NB][8];  // a horse on .to attacks this square when .via is empty
    std::uint8_t horseAttackerCount[SQUARE_NB];
    Step bishopMoves[SQUARE_NB][4];
    std::uint8_t bishopMoveCount[SQUARE_NB];
    std::int8_t advisorMoves[SQUARE_NB][4];
    std::uint8_t advisorMoveCount[SQUARE_NB];
    std::int8_t kingMoves[SQUARE_NB][4];
    std::uint8_t kingMoveCount[SQUARE_NB];
    std::int8_t pawnMoves[COLOR_NB][SQUARE_NB][3];
    std::uint8_t pawnMoveCount[COLOR_NB][SQUARE_NB];
    std::int8_t pawnAttackers[COLOR_NB][SQUARE_NB][3];  // where a pawn of colour c attacks this square from
    std::uint8_t pawnAttackerCount[COLOR_NB][SQUARE_NB];
    // The squares diagonally next to s: the legs of every horse that could attack s.
    Bitboard diagonalBB[SQUARE_NB];
    Bitboard fileBB[FILE_NB];
    // The squares of ray[s][d] as a bitboard. UP and RIGHT run towards higher squares (their nearest piece
    // is the lowest bit), DOWN and LEFT towards lower ones (the highest bit).
    Bitboard rayBB[SQUARE_NB][4];
    // The squares of horseMoves[s], horseAttackers[s] and pawnAttackers[c][s] as bitboards.
    Bitboard horseMoveBB[SQUARE_NB];
    Bitboard horseAttackerBB[SQUARE_NB];
    Bitboard pawnAttackerBB[COLOR_NB][SQUARE_NB];
    // The targets of advisorMoves, bishopMoves (eyes ignored), kingMoves and pawnMoves as bitboards; these
    // steps are symmetric except the pawn's, so the first three are also where such a piece attacks from.
    Bitboard advisorMoveBB[SQUARE_NB];
    Bitboard bishopMoveBB[SQUARE_NB];
    Bitboard kingMoveBB[SQUARE_NB];
    Bitboard pawnMoveBB[COLOR_NB][SQUARE_NB];
    // How square s relates to a king on k, for cheap "can this move check?" filters: KING_LINE_OR_HORSE if s
    // shares a file or rank with k or a horse or pawn on s could attack k (within two files and ranks);
    // KING_LINE_OR_LEG if s shares a file or rank with k or is one of k's horse-leg squares (diagonally
    // next to it); KING_LINE if s shares a file or rank with k. A move can only start attacking k if its
    // target has the first or its origin the second.
    std::uint8_t kingRelation[SQUARE_NB][SQUARE_NB];
    // Square s as bits of the line masks (rankOcc / fileOcc) through k: the low half on k's rank, the high
    // half on k's file, zero where s is off that line. A move's from and to squares flip these bits of the
    // king's lines, so the lines after the move need no division into ranks and files.
    std::uint32_t kingLineBits[SQUARE_NB][SQUARE_NB];
};

// A rank mask and a file mask packed as kingLineBits packs them.
constexpr std::uint32_t packLines(unsigned rankMask, unsigned fileMask) {
    return rankMask | fileMask << 16;
}
constexpr unsigned rankPart(std::uint32_t lines) {
    return lines & 0xFFFF;
}
constexpr unsigned filePart(std::uint32_t lines) {
    return lines >> 16;
}

constexpr std::uint8_t KING_LINE_OR_HORSE = 1;
constexpr std::uint8_t KING_LINE_OR_LEG = 2;
constexpr std::uint8_t KING_LINE = 4;

extern const Geometry& geometry;

inline Square msb(Bitboard b) {
    const std::uint64_t hi = std::uint64_t(b >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(std::uint64_t(b));
}
// The square of b nearest to the origin of a ray in direction d (b holds squares of that one ray).
inline Square nearestOnRay(Bitboard b, int d) {
    return d == UP || d == RIGHT ? lsb(b) : msb(b);
}

// Whether moving a piece from `from` to `to` can start an attack on a king on ksq (directly, as a new cannon
// screen, or by uncovering a line or a horse leg). False means it certainly cannot; true means test it.
inline bool mayCheck(Square ksq, Square from, Square to) {
    return (geometry.kingRelation[ksq][to] & KING_LINE_OR_HORSE) |
           (geometry.kingRelation[ksq][from] & KING_LINE_OR_LEG);
}

// Whether moving a piece other than the king from `from` to `to` can expose its own king on ksq (which is
// not in check): only by leaving one of the king's lines or horse legs, or by landing on one of its lines
// as a cannon's new screen; a piece landing off the lines can only block.
inline bool mayExpose(Square ksq, Square from, Square to) {
    return (geometry.kingRelation[ksq][to] & KING_LINE) |
           (geometry.kingRelation[ksq][from] & KING_LINE_OR_LEG);
}

// Rooks and cannons along one line by table lookup on the line's occupancy: a rank is 9 squares indexed by
// file, a file 10 squares indexed by rank, and a set of squares on it is a bit mask over those indices.
// One lookup replaces four ray scans of the 128-bit occupancy (ElephantEye's design).
struct LineAttacks {
    std::uint16_t reach;  // the empty squares up to and including the first piece each way (a rook's attacks)
    std::uint16_t hit;    // the first piece beyond the first one (the screen) each way: a cannon's captures
    std::uint16_t beyond;  // the squares after each screen up to and including that piece, or to the end
    // How many squares of reach are empty: a slider's quiet moves. It also makes an entry 8 bytes, so that a
    // lookup's index is a shift rather than a multiply by 6.
    std::uint16_t quiet;
};
struct LineTables {
    LineAttacks rank[FILE_NB][1 << FILE_NB];
    LineAttacks file[RANK_NB][1 << RANK_NB];
};
extern const LineTables& lineTables;
// A slider on `file` of a rank whose occupancy is rankOcc; a slider on `rank` of a file whose occupancy is
// fileOcc.
inline const LineAttacks& rankAttacks(int file, unsigned rankOcc) {
    return lineTables.rank[file][rankOcc];
}
inline const LineAttacks& fileAttacks(int rank, unsigned fileOcc) {
    return lineTables.file[rank][fileOcc];
}
inline int popLsb16(unsigned& mask) {
    const int i = __builtin_ctz(mask);
    mask &= mask - 1;
    return i;
}

// The king tests the make, legality and gives-check paths share. Each reads piece kinds through kindAt(s)
// and leg squares through legEmpty(s), so a caller can ask about the board as it is or as it will be after
// a move without building it.

// Whether, along those of ksq's lines that `changed` marks (packLines bits, ~0u for both), a rook or king
// among `attackers` (their squares on the king's lines, packLines) is the first piece from ksq, or a cannon
// among them the second; `lines` is the occupancy of the king's lines. A king on the king's file counts
// as a rook (facing kings); none ever stands on its rank.
template <typename KindAt>
[[gnu::always_inline]] inline bool lineAttacked(KindAt kindAt, Square ksq, std::uint32_t changed,
                                                std::uint32_t lines, std::uint32_t attackers) {
    const int kingRank = rankOf(ksq), kingFile = fileOf(ksq);
    constexpr unsigned RookOrKing = 1u << ROOK | 1u << KING;
    if (rankPart(changed)) {
        const LineAttacks& onRank = rankAttacks(kingFile, rankPart(lines));
        for (unsigned first = onRank.reach & rankPart(attackers); first;)
            if (RookOrKing >> kindAt(makeSquare(popLsb16(first), kingRank)) & 1) return true;
        for (unsigned second = onRank.hit & rankPart(attackers); second;)
            if (kindAt(makeSquare(popLsb16(second), kingRank)) == CANNON) return true;
    }
    if (filePart(changed)) {
        const LineAttacks& onFile = fileAttacks(kingRank, filePart(lines));
        for (unsigned first = onFile.reach & filePart(attackers); first;)
            if (RookOrKing >> kindAt(makeSquare(kingFile, popLsb16(first))) & 1) return true;
        for (unsigned second = onFile.hit & filePart(attackers); second;)
            if (kindAt(makeSquare(kingFile, popLsb16(second))) == CANNON) return true;
    }
    return false;
}

// Whether a horse on s attacks ksq: s is one of ksq's horse squares and its leg is empty.
template <typename LegEmpty>
[[gnu::always_inline]] inline bool horseOnAttacks(Square ksq, Square s, LegEmpty legEmpty) {
    const Geometry& g = geometry;
    if (!testBit(g.horseAttackerBB[ksq], s)) return false;
    for (int i = 0; i < g.horseAttackerCount[ksq]; ++i)
        if (g.horseAttackers[ksq][i].to == s) return legEmpty(g.horseAttackers[ksq][i].via);
    return false;
}

// Whether a horse of `horses` attacks ksq through the leg `leg` (a square a move just emptied).
[[gnu::always_inline]] inline bool horseUncovered(Square ksq, Square leg, Bitboard horses) {
    const Geometry& g = geometry;
    if (!testBit(g.diagonalBB[ksq], leg)) return false;
    for (int i = 0; i < g.horseAttackerCount[ksq]; ++i) {
        const Step st = g.horseAttackers[ksq][i];
        if (st.via == leg && testBit(horses, st.to)) return true;
    }
    return false;
}

// The pieces of a board as bitboards; enough to answer every attack question.
struct PieceSets {
    Bitboard byColor[COLOR_NB];
    Bitboard byType[PIECE_TYPE_NB];

    Bitboard of(Color c, PieceType pt) const { return byColor[c] & byType[pt]; }
    Bitboard occupied() const { return byColor[RED] | byColor[BLACK]; }
    PieceType typeOn(Square s) const {
        for (int pt = KING; pt <= PAWN; ++pt)
            if (testBit(byType[pt], s)) return PieceType(pt);
        return NO_PIECE_TYPE;
    }
};

// Every piece of `by` attacking s with occupancy occ (the king only within its palace; facing kings are
// a separate test).
Bitboard attackersTo(const PieceSets& ps, Square s, Color by, Bitboard occ);
// The squares a piece of type pt and colour c on s attacks with occupancy occ.
Bitboard attacksFrom(PieceType pt, Color c, Square s, Bitboard occ);
// Whether the king of `us` on ksq would be attacked, or face the other king, with occupancy occ; pieces of
// the opponent in `ignore` (a piece just captured) do not attack.
bool kingInDanger(const PieceSets& ps, Color us, Square ksq, Bitboard occ, Bitboard ignore);

}  // namespace xq
