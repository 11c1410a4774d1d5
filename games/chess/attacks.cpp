// Attack tables of chess (attacks.h): computed once by walking rays, the sliders then indexed by magics.
#include "attacks.h"

#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

namespace xq::chess {

namespace detail {
Magic rookMagics[64];
Magic bishopMagics[64];
Bitboard pawnAttacks[2][64];
Bitboard knightAttacks[64];
Bitboard kingAttacks[64];
Bitboard between[64][64];
Bitboard line[64][64];
}  // namespace detail

namespace {

Bitboard rookTable[0x19000];   // 102,400 entries: the sum of 2^bits over the squares
Bitboard bishopTable[0x1480];  // 5,248

constexpr int ROOK_DIRS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int BISHOP_DIRS[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

bool onBoard(int f, int r) {
    return f >= 0 && f < 8 && r >= 0 && r < 8;
}

// The squares a slider on `s` attacks through `dirs`, stopping at the first occupied square.
Bitboard slidingAttacks(Square s, Bitboard occupied, const int (&dirs)[4][2]) {
    Bitboard out = 0;
    for (const auto& d : dirs) {
        for (int f = fileOf(s) + d[0], r = rankOf(s) + d[1]; onBoard(f, r); f += d[0], r += d[1]) {
            out |= bit(makeSquare(f, r));
            if (occupied & bit(makeSquare(f, r))) break;
        }
    }
    return out;
}

// The occupancy bits that can change a slider's attacks from `s`: its rays without their last square.
Bitboard relevantMask(Square s, const int (&dirs)[4][2]) {
    Bitboard out = 0;
    for (const auto& d : dirs) {
        for (int f = fileOf(s) + d[0], r = rankOf(s) + d[1]; onBoard(f + d[0], r + d[1]);
             f += d[0], r += d[1])
            out |= bit(makeSquare(f, r));
    }
    return out;
}

// Magic multipliers, one per square, found once by a seeded trial search of sparse random numbers (a
// candidate mapping two occupancies with different attacks to one slot was dropped). Filling the tables
// checks them again.
constexpr Bitboard ROOK_MAGICS[64] = {
    0x1080004008801020ULL, 0x0840092002c03000ULL, 0x1900200010400900ULL, 0x0880100008000480ULL,
    0x4200100420080200ULL, 0x8100020100080400ULL, 0x0200040110886200ULL, 0x0200008040220411ULL,
    0x0404800084400220ULL, 0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
    0x000a001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL, 0x0442000102105084ULL,
    0x9080010020804100ULL, 0x0040404000201009ULL, 0x0000808010002009ULL, 0x2200090021d00100ULL,
    0x0008008008040080ULL, 0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000a0001768104ULL,
    0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL, 0x1000100080080080ULL,
    0x0442000a00049020ULL, 0x2100040080020080ULL, 0x0800120400900148ULL, 0x0010040a00128541ULL,
    0x2800804000800030ULL, 0x1010002000400041ULL, 0x4000200011004100ULL, 0x0610008410800800ULL,
    0x0400802402800800ULL, 0xc100020080800400ULL, 0x0002000802000401ULL, 0x0182085882000401ULL,
    0x0220204000808000ULL, 0x2860100040024022ULL, 0x0001002004110040ULL, 0x99101042000a0020ULL,
    0x0004080004008080ULL, 0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
    0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040a00300ULL, 0x0801100280080480ULL,
    0x0242009008200600ULL, 0x1002000489500200ULL, 0x0040800200010080ULL, 0x0091800041000080ULL,
    0x0000209300488001ULL, 0x04c1002414824001ULL, 0x020020000b001041ULL, 0x7000100004200901ULL,
    0x8002002004100802ULL, 0x30010002084c0007ULL, 0x0888221800813004ULL, 0x4000002840840112ULL,
};
constexpr Bitboard BISHOP_MAGICS[64] = {
    0x10102002004a1420ULL, 0x8020040400584008ULL, 0x10510800811201c8ULL, 0x5204042080000088ULL,
    0x2204106880000002ULL, 0x1401042004000000ULL, 0x0400880410042004ULL, 0x0028208200a02020ULL,
    0x1500241990010e00ULL, 0x8001200182020a40ULL, 0x40004101030b0000ULL, 0x8002041042000100ULL,
    0x4010011041020038ULL, 0x0000010421044000ULL, 0x1500210808020a00ULL, 0x8000088400880520ULL,
    0x0405004010040100ULL, 0x1005823210040108ULL, 0x2708008102040011ULL, 0x4048200404009100ULL,
    0x0018104101400024ULL, 0x0003000601190101ULL, 0x8004803108491000ULL, 0x8014241200820800ULL,
    0x0006e080100c3040ULL, 0x0501044a11041800ULL, 0x9020300008004045ULL, 0x0894080000220040ULL,
    0x1001010083104000ULL, 0x5004030040900080ULL, 0x000400422c012400ULL, 0x0002128698404812ULL,
    0x1010108404900440ULL, 0x0928021182084100ULL, 0x2006080409020024ULL, 0x1010202020180080ULL,
    0xa010008200202200ULL, 0x2098015100019004ULL, 0x0002041440810811ULL, 0x802a02020000b098ULL,
    0x0009015090004060ULL, 0x4000821082081001ULL, 0x0100210040420800ULL, 0x0800004010488a00ULL,
    0x2000081104004040ULL, 0x4c8e029015000082ULL, 0x0420340322224842ULL, 0x1298260043400210ULL,
    0x0000822802400008ULL, 0x00008a0101600000ULL, 0x3040003412080021ULL, 0x3040290220884800ULL,
    0x4a1500401041004aULL, 0x8010200282020781ULL, 0x0020203142209091ULL, 0x0070300600902110ULL,
    0x0040808800b62048ULL, 0x0000810400c44420ULL, 0x00080400440c0441ULL, 0x8340080020840411ULL,
    0x0000000104208200ULL, 0x0000800810d00080ULL, 0x0400530411080200ULL, 0x4040702400932244ULL,
};

void initMagics(detail::Magic (&magics)[64], const Bitboard (&multipliers)[64], Bitboard* table,
                const int (&dirs)[4][2]) {
    Bitboard* next = table;
    for (Square s = 0; s < 64; ++s) {
        auto& m = magics[s];
        m.mask = relevantMask(s, dirs);
        m.magic = multipliers[s];
        m.shift = unsigned(64 - popcount(m.mask));
        m.attacks = next;
        std::size_t size = std::size_t(1) << popcount(m.mask);
        std::vector<bool> filled(size, false);
        Bitboard sub = 0;
        do {  // every subset of the mask (the carry-rippler trick)
            Bitboard attacks = slidingAttacks(s, sub, dirs);
            unsigned idx = m.index(sub);
            if (filled[idx] && next[idx] != attacks)
                throw std::logic_error("chess attacks: a magic collides");
            next[idx] = attacks;
            filled[idx] = true;
            sub = (sub - m.mask) & m.mask;
        } while (sub);
        next += size;
    }
}

void initAll() {
    for (Square s = 0; s < 64; ++s) {
        int f = fileOf(s), r = rankOf(s);
        auto add = [&](Bitboard& b, int df, int dr) {
            if (onBoard(f + df, r + dr)) b |= bit(makeSquare(f + df, r + dr));
        };
        for (int df : {-1, 1}) {
            add(detail::pawnAttacks[WHITE][s], df, 1);
            add(detail::pawnAttacks[BLACK][s], df, -1);
        }
        for (auto [df, dr] :
             {std::pair{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}})
            add(detail::knightAttacks[s], df, dr);
        for (int df = -1; df <= 1; ++df)
            for (int dr = -1; dr <= 1; ++dr)
                if (df || dr) add(detail::kingAttacks[s], df, dr);
    }
    initMagics(detail::rookMagics, ROOK_MAGICS, rookTable, ROOK_DIRS);
    initMagics(detail::bishopMagics, BISHOP_MAGICS, bishopTable, BISHOP_DIRS);
    for (Square a = 0; a < 64; ++a) {
        for (Square b = 0; b < 64; ++b) {
            if (a == b) continue;
            for (auto* dirs : {&ROOK_DIRS, &BISHOP_DIRS}) {
                Bitboard fromA = slidingAttacks(a, 0, *dirs);
                if (!(fromA & bit(b))) continue;
                detail::line[a][b] = (fromA & slidingAttacks(b, 0, *dirs)) | bit(a) | bit(b);
                detail::between[a][b] = slidingAttacks(a, bit(b), *dirs) & slidingAttacks(b, bit(a), *dirs);
            }
        }
    }
}

}  // namespace

void initAttacks() {
    static std::once_flag once;
    std::call_once(once, initAll);
}

}  // namespace xq::chess
