#include "attacks.h"

#include <cstdlib>

namespace xq {

namespace {

constexpr int DirFile[4] = {0, 0, 1, -1};
constexpr int DirRank[4] = {1, -1, 0, 0};

bool inEitherPalace(int f, int r) {
    return f >= 3 && f <= 5 && (r <= 2 || r >= 7);
}
bool sameHalf(int r1, int r2) {
    return (r1 <= 4) == (r2 <= 4);
}

Geometry buildGeometry() {
    Geometry g{};
    for (Square s = 0; s < SQUARE_NB; ++s) {
        const int f = fileOf(s), r = rankOf(s);
        for (int d = 0; d < 4; ++d) {
            int n = 0;
            for (int ff = f + DirFile[d], rr = r + DirRank[d]; isOnBoard(ff, rr);
                 ff += DirFile[d], rr += DirRank[d]) {
                g.ray[s][d][n++] = std::int8_t(makeSquare(ff, rr));
                g.rayBB[s][d] |= squareBB(makeSquare(ff, rr));
            }
            g.rayLen[s][d] = std::uint8_t(n);
        }
        // Horse: two steps one way, one the other; the leg is the first orthogonal step.
        static constexpr int HorseDf[8] = {1, -1, 1, -1, 2, 2, -2, -2};
        static constexpr int HorseDr[8] = {2, 2, -2, -2, 1, -1, 1, -1};
        for (int i = 0; i < 8; ++i) {
            int tf = f + HorseDf[i], tr = r + HorseDr[i];
            if (!isOnBoard(tf, tr)) continue;
            int lf = f + (HorseDf[i] == 2 || HorseDf[i] == -2 ? HorseDf[i] / 2 : 0);
            int lr = r + (HorseDr[i] == 2 || HorseDr[i] == -2 ? HorseDr[i] / 2 : 0);
            g.horseMoves[s][g.horseMoveCount[s]++] = {std::int8_t(makeSquare(tf, tr)),
                                                      std::int8_t(makeSquare(lf, lr))};
            // Seen from the target: a horse on s attacks (tf,tr) through the same leg.
            Square t = makeSquare(tf, tr);
            g.horseAttackers[t][g.horseAttackerCount[t]++] = {std::int8_t(s),
                                                              std::int8_t(makeSquare(lf, lr))};
            g.horseAttackerBB[t] |= squareBB(s);
            g.horseMoveBB[s] |= squareBB(t);
        }
        for (int df : {-1, 1})
            for (int dr : {-1, 1}) {
                int tf = f + 2 * df, tr = r + 2 * dr;
                if (isOnBoard(tf, tr) && sameHalf(r, tr)) {
                    g.bishopMoves[s][g.bishopMoveCount[s]++] = {std::int8_t(makeSquare(tf, tr)),
                                                                std::int8_t(makeSquare(f + df, r + dr))};
                    g.bishopMoveBB[s] |= squareBB(makeSquare(tf, tr));
                }
                tf = f + df, tr = r + dr;
                if (inEitherPalace(f, r) && isOnBoard(tf, tr) && inEitherPalace(tf, tr) && sameHalf(r, tr)) {
                    g.advisorMoves[s][g.advisorMoveCount[s]++] = std::int8_t(makeSquare(tf, tr));
                    g.advisorMoveBB[s] |= squareBB(makeSquare(tf, tr));
                }
                g.diagonalBB[s] |= isOnBoard(f + df, r + dr) ? squareBB(makeSquare(f + df, r + dr)) : 0;
            }
        for (int d = 0; d < 4; ++d) {
            int tf = f + DirFile[d], tr = r + DirRank[d];
            if (inEitherPalace(f, r) && isOnBoard(tf, tr) && inEitherPalace(tf, tr) && sameHalf(r, tr)) {
                g.kingMoves[s][g.kingMoveCount[s]++] = std::int8_t(makeSquare(tf, tr));
                g.kingMoveBB[s] |= squareBB(makeSquare(tf, tr));
            }
        }
        for (Color c : {RED, BLACK}) {
            int forward = c == RED ? 1 : -1;
            auto addPawn = [&](int tf, int tr) {
                if (!isOnBoard(tf, tr)) return;
                Square t = makeSquare(tf, tr);
                g.pawnMoves[c][s][g.pawnMoveCount[c][s]++] = std::int8_t(t);
                g.pawnMoveBB[c][s] |= squareBB(t);
                g.pawnAttackers[c][t][g.pawnAttackerCount[c][t]++] = std::int8_t(s);
                g.pawnAttackerBB[c][t] |= squareBB(s);
            };
            addPawn(f, r + forward);
            if (hasCrossedRiver(c, s)) {
                addPawn(f - 1, r);
                addPawn(f + 1, r);
            }
        }
    }
    for (int f = 0; f < FILE_NB; ++f)
        for (int r = 0; r < RANK_NB; ++r) g.fileBB[f] |= squareBB(makeSquare(f, r));
    for (Square k = 0; k < SQUARE_NB; ++k)
        for (Square s = 0; s < SQUARE_NB; ++s) {
            const int df = std::abs(fileOf(s) - fileOf(k)), dr = std::abs(rankOf(s) - rankOf(k));
            const bool line = df == 0 || dr == 0;
            g.kingRelation[k][s] =
                std::uint8_t((line || (df <= 2 && dr <= 2) ? KING_LINE_OR_HORSE : 0) |
                             (line || (df == 1 && dr == 1) ? KING_LINE_OR_LEG : 0) | (line ? KING_LINE : 0));
            g.kingLineBits[k][s] = packLines(rankOf(s) == rankOf(k) ? 1u << fileOf(s) : 0,
                                             fileOf(s) == fileOf(k) ? 1u << rankOf(s) : 0);
        }
    return g;
}

// For a slider at index i of a line of n squares with occupancy occ (bit i itself ignored).
LineAttacks lineAttacks(int n, int i, unsigned occ) {
    LineAttacks a{};
    for (int step : {-1, 1}) {
        int j = i + step;
        for (; j >= 0 && j < n && !(occ >> j & 1); j += step) a.reach |= std::uint16_t(1 << j);
        if (j < 0 || j >= n) continue;
        a.reach |= std::uint16_t(1 << j);  // the first piece: a rook's target, a cannon's screen
        for (j += step; j >= 0 && j < n; j += step) {
            a.beyond |= std::uint16_t(1 << j);
            if (occ >> j & 1) {
                a.hit |= std::uint16_t(1 << j);
                break;
            }
        }
    }
    a.quiet = std::uint16_t(__builtin_popcount(a.reach & ~occ));
    return a;
}

LineTables lineTableData;  // static storage: the reference below is valid before any initializer runs
const bool lineTablesReady = [] {
    for (int i = 0; i < FILE_NB; ++i)
        for (unsigned occ = 0; occ < (1u << FILE_NB); ++occ)
            lineTableData.rank[i][occ] = lineAttacks(FILE_NB, i, occ);
    for (int i = 0; i < RANK_NB; ++i)
        for (unsigned occ = 0; occ < (1u << RANK_NB); ++occ)
            lineTableData.file[i][occ] = lineAttacks(RANK_NB, i, occ);
    return true;
}();

const Geometry geometryTable = buildGeometry();

}  // namespace

const Geometry& geometry = geometryTable;
const LineTables& lineTables = lineTableData;

Bitboard attackersTo(const PieceSets& ps, Square s, Color by, Bitboard occ) {
    const Geometry& g = geometryTable;
    Bitboard result = 0;
    const Bitboard rooks = ps.of(by, ROOK), cannons = ps.of(by, CANNON);
    for (int d = 0; d < 4; ++d) {
        const std::int8_t* ray = g.ray[s][d];
        int n = g.rayLen[s][d], i = 0;
        while (i < n && !testBit(occ, ray[i])) ++i;
        if (i == n) continue;
        if (testBit(rooks, ray[i])) result |= squareBB(ray[i]);
        for (++i; i < n; ++i)
            if (testBit(occ, ray[i])) {
                if (testBit(cannons, ray[i])) result |= squareBB(ray[i]);
                break;
            }
    }
    const Bitboard horses = ps.of(by, KNIGHT);
    for (int i = 0; i < g.horseAttackerCount[s]; ++i) {
        const Step st = g.horseAttackers[s][i];
        if (testBit(horses, st.to) && !testBit(occ, st.via)) result |= squareBB(st.to);
    }
    const Bitboard pawns = ps.of(by, PAWN);
    for (int i = 0; i < g.pawnAttackerCount[by][s]; ++i)
        if (testBit(pawns, g.pawnAttackers[by][s][i])) result |= squareBB(g.pawnAttackers[by][s][i]);
    // Advisors, elephants and the king move symmetrically, so their attackers are their own steps.
    const Bitboard bishops = ps.of(by, BISHOP);
    for (int i = 0; i < g.bishopMoveCount[s]; ++i) {
        const Step st = g.bishopMoves[s][i];
        if (testBit(bishops, st.to) && !testBit(occ, st.via)) result |= squareBB(st.to);
    }
    const Bitboard advisors = ps.of(by, ADVISOR), king = ps.of(by, KING);
    for (int i = 0; i < g.advisorMoveCount[s]; ++i)
        if (testBit(advisors, g.advisorMoves[s][i])) result |= squareBB(g.advisorMoves[s][i]);
    for (int i = 0; i < g.kingMoveCount[s]; ++i)
        if (testBit(king, g.kingMoves[s][i])) result |= squareBB(g.kingMoves[s][i]);
    return result;
}

Bitboard attacksFrom(PieceType pt, Color c, Square s, Bitboard occ) {
    const Geometry& g = geometryTable;
    Bitboard result = 0;
    switch (pt) {
        case ROOK:
        case CANNON:
            for (int d = 0; d < 4; ++d) {
                const std::int8_t* ray = g.ray[s][d];
                int n = g.rayLen[s][d], i = 0;
                while (i < n && !testBit(occ, ray[i])) {
                    if (pt == ROOK) result |= squareBB(ray[i]);
                    ++i;
                }
                if (i == n) continue;
                if (pt == ROOK) {
                    result |= squareBB(ray[i]);
                    continue;
                }
                for (++i; i < n; ++i)
                    if (testBit(occ, ray[i])) {
                        result |= squareBB(ray[i]);
                        break;
                    }
            }
            break;
        case KNIGHT:
            for (int i = 0; i < g.horseMoveCount[s]; ++i)
                if (!testBit(occ, g.horseMoves[s][i].via)) result |= squareBB(g.horseMoves[s][i].to);
            break;
        case BISHOP:
            for (int i = 0; i < g.bishopMoveCount[s]; ++i)
                if (!testBit(occ, g.bishopMoves[s][i].via)) result |= squareBB(g.bishopMoves[s][i].to);
            break;
        case ADVISOR:
            for (int i = 0; i < g.advisorMoveCount[s]; ++i) result |= squareBB(g.advisorMoves[s][i]);
            break;
        case KING:
            for (int i = 0; i < g.kingMoveCount[s]; ++i) result |= squareBB(g.kingMoves[s][i]);
            break;
        case PAWN:
            for (int i = 0; i < g.pawnMoveCount[c][s]; ++i) result |= squareBB(g.pawnMoves[c][s][i]);
            break;
        default:
            break;
    }
    return result;
}

bool kingInDanger(const PieceSets& ps, Color us, Square ksq, Bitboard occ, Bitboard ignore) {
    const Geometry& g = geometryTable;
    const Color them = ~us;
    const Bitboard rooks = ps.of(them, ROOK) & ~ignore, cannons = ps.of(them, CANNON) & ~ignore;
    const Bitboard theirKing = ps.of(them, KING);
    for (int d = 0; d < 4; ++d) {
        const std::int8_t* ray = g.ray[ksq][d];
        int n = g.rayLen[ksq][d], i = 0;
        while (i < n && !testBit(occ, ray[i])) ++i;
        if (i == n) continue;
        // The kings may never face each other on an open file.
        if (testBit(rooks, ray[i]) || (d <= DOWN && testBit(theirKing, ray[i]))) return true;
        if (!cannons) continue;
        for (++i; i < n; ++i)
            if (testBit(occ, ray[i])) {
                if (testBit(cannons, ray[i])) return true;
                break;
            }
    }
    const Bitboard horses = ps.of(them, KNIGHT) & ~ignore;
    if (horses)
        for (int i = 0; i < g.horseAttackerCount[ksq]; ++i) {
            const Step st = g.horseAttackers[ksq][i];
            if (testBit(horses, st.to) && !testBit(occ, st.via)) return true;
        }
    const Bitboard pawns = ps.of(them, PAWN) & ~ignore;
    for (int i = 0; i < g.pawnAttackerCount[them][ksq]; ++i)
        if (testBit(pawns, g.pawnAttackers[them][ksq][i])) return true;
    return false;
}

}  // namespace xq
