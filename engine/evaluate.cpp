#include "evaluate.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "xiangqi/attacks.h"

namespace xq::eval {

namespace {

Weights ActiveWeights = defaultWeights();

// The evaluation's own tables and the packed weights in one object: position-independent code needs a
// register for the address of each global it indexes, and the piece loops run short of registers.
struct Masks {
    // The search's sum: each weight packed into one 64-bit integer, middlegame in the low half and endgame
    // in the high half, so a term costs one multiply-add (see PackedTerms). Set by buildPsqTable.
    std::int64_t packedWeights[WEIGHT_NB]{};
    Bitboard file[FILE_NB]{};
    // The palaceBit bits of a palace's rank offsets: bit k to bit 3k.
    unsigned spread3[8] = {0, 1, 8, 9, 64, 65, 72, 73};
    // For each colour, the square's bit within that colour's palace (0 outside it), and the palace squares.
    std::uint16_t palaceBit[COLOR_NB][SQUARE_NB]{};
    Bitboard palace[COLOR_NB]{};
    // A horse on s: the squares it reaches for each pattern of occupied legs (bits 0-3 the legs to the left,
    // below, to the right and above, the order in which the line masks yield them cheaply, see
    // evaluateSide; legs off the board count as free, and lead nowhere); and the palaceBit bits of colour
    // c's palace squares among them.
    Bitboard horseReach[SQUARE_NB][16]{};
    std::uint16_t horsePalaceHits[COLOR_NB][SQUARE_NB][16]{};
    // The piece-square table slot of a square for each owner: folded left-right, seen from the owner's side.
    std::uint8_t pstSquare[COLOR_NB][SQUARE_NB]{};
    Masks() {
        for (Square s = 0; s < SQUARE_NB; ++s)
            for (Color c : {RED, BLACK}) {
                int f = fileOf(s), r = c == RED ? rankOf(s) : RANK_NB - 1 - rankOf(s);
                pstSquare[c][s] = std::uint8_t(r * PST_FILES + std::min(f, FILE_NB - 1 - f));
            }
        for (Square s = 0; s < SQUARE_NB; ++s) file[fileOf(s)] |= squareBB(s);
        // By Direction: UP, DOWN, RIGHT, LEFT.
        constexpr int StepFile[4] = {0, 0, 1, -1}, StepRank[4] = {1, -1, 0, 0}, LegBit[4] = {3, 1, 2, 0};
        for (Square s = 0; s < SQUARE_NB; ++s)
            for (int d = 0; d < 4; ++d) {
                const int lf = fileOf(s) + StepFile[d], lr = rankOf(s) + StepRank[d];
                if (!isOnBoard(lf, lr)) continue;
                Bitboard overLeg = 0;
                for (int side : {-1, 1}) {
                    // One more step the same way, then one square to either side.
                    const int tf = lf + StepFile[d] + side * StepRank[d],
                              tr = lr + StepRank[d] + side * StepFile[d];
                    if (isOnBoard(tf, tr)) overLeg |= squareBB(makeSquare(tf, tr));
                }
                for (int legs = 0; legs < 16; ++legs)
                    if (!(legs >> LegBit[d] & 1)) horseReach[s][legs] |= overLeg;
            }
        for (Color c : {RED, BLACK}) {
            int n = 0;
            for (Square s = 0; s < SQUARE_NB; ++s)
                if (inPalace(c, s)) {
                    palaceBit[c][s] = std::uint16_t(1 << n++);
                    palace[c] |= squareBB(s);
                }
        }
        for (Color c : {RED, BLACK})
            for (Square s = 0; s < SQUARE_NB; ++s)
                for (int legs = 0; legs < 16; ++legs)
                    forEachSquare(horseReach[s][legs] & palace[c],
                                  [&](Square t) { horsePalaceHits[c][s][legs] |= palaceBit[c][t]; });
    }
};
Masks M;  // not const: buildPsqTable sets the weights

// The pawn terms look only at pawns past the river: five ranks of nine squares, Red's squares 45-89 and
// Black's 0-44, which fit one 64-bit word (bit i is square CrossedBase + i).
constexpr int CrossedBase[COLOR_NB] = {45, 0};
constexpr std::uint64_t CrossedWord = (std::uint64_t(1) << 45) - 1;
constexpr std::uint64_t NotLastFileWord = [] {  // the word's squares off the last file (i)
    std::uint64_t m = 0;
    for (int i = 0; i < 45; ++i)
        if (i % FILE_NB != FILE_NB - 1) m |= std::uint64_t(1) << i;
    return m;
}();
// The word's squares from which a pawn of colour c steps into the enemy palace.
constexpr std::array<std::uint64_t, COLOR_NB> PawnPalaceOrigins = [] {
    std::array<std::uint64_t, COLOR_NB> origins{};
    for (Color c : {RED, BLACK})
        for (int i = 0; i < 45; ++i) {
            const Square s = CrossedBase[c] + i;
            const int f = fileOf(s), r = rankOf(s), forward = c == RED ? 1 : -1;
            bool reaches = isOnBoard(f, r + forward) && inPalace(~c, makeSquare(f, r + forward));
            for (int side : {-1, 1})
                reaches |= isOnBoard(f + side, r) && inPalace(~c, makeSquare(f + side, r));
            if (reaches) origins[c] |= std::uint64_t(1) << i;
        }
    return origins;
}();

// forEachSquare for the horses, rooks and cannons, of which no side has more than two (setFen checks):
// unrolled for two, as a loop's setup (its invariants hoisted and spilled) costs more than a body that runs
// once or twice. The loop after them never runs in a game.
template <typename F>
inline void forEachPiece(Bitboard b, F&& f) {
    std::uint64_t low = std::uint64_t(b), high = std::uint64_t(b >> 64);
    auto next = [&] {
        Square s;
        if (low)
            s = __builtin_ctzll(low), low &= low - 1;
        else
            s = 64 + __builtin_ctzll(high), high &= high - 1;
        return s;
    };
    if (!(low | high)) return;
    f(next());
    if (!(low | high)) return;
    f(next());
    while (low | high) f(next());
}

// Either sums weights (evaluation) or records coefficients (trace); the code path is the same, which is
// what makes the trace exact.
template <bool Tracing>
struct Terms {
    const Weights* w;
    Trace* t;
    int mg = 0, eg = 0;
    void add(int index, int coef) {
        if constexpr (Tracing)
            t->coef[index] += coef;
        else {
            mg += coef * (*w)[index].mg;
            eg += coef * (*w)[index].eg;
        }
    }
};

// The search's sum of M.packedWeights. Exact: both sums stay far inside 32 bits.
struct PackedTerms {
    std::int64_t sum = 0;
    void add(int index, int coef) { sum += coef * M.packedWeights[unsigned(index)]; }  // no sign extension
    int mg() const { return std::int32_t(std::uint32_t(std::uint64_t(sum))); }
    int eg() const { return int((sum - mg()) >> 32); }
};

using PieceCounts = std::array<std::int8_t, PIECE_NB>;

PieceCounts countPieces(const Position& pos) {
    PieceCounts n{};
    for (Color c : {RED, BLACK})
        for (int pt = KING; pt <= PAWN; ++pt)
            n[makePiece(c, PieceType(pt))] = std::int8_t(pos.count(c, PieceType(pt)));
    return n;
}

// The weight of a piece of type pt attacking the enemy palace (the table's order: rook, horse, cannon, pawn);
// added piece by piece, which costs less than counting the attackers of each type and adding the counts.
constexpr int palaceAttacker(PieceType pt) {
    return W_PALACE_ATTACKER + (pt == ROOK ? 0 : pt == KNIGHT ? 1 : pt == CANNON ? 2 : 3);
}

// Reads each piece's reach from the rank and file line tables and the horse-leg table rather than building
// attack bitboards: this runs at most nodes and is the largest single part of the search's time. Without Psq,
// material and piece squares are left out (the searcher keeps them incrementally, see Accumulator). The
// colour is a template parameter so that each side's masks, palace halves and sign are constants.
template <bool Psq, Color us, typename TermSink>
void evaluateSide(const Position& pos, const PieceCounts& count, TermSink& sink) {
    const Geometry& g = geometry;
    constexpr int sign = us == RED ? 1 : -1;
    constexpr Color them = ~us;
    // Summed in a local copy: the sink's sum could alias the weights table for all the compiler knows, which
    // would store it back after every term.
    TermSink terms = sink;
    const std::uint16_t* palaceBit = M.palaceBit[them];
    const std::uint8_t* pstSquare = M.pstSquare[us];
    unsigned palaceHits = 0;  // enemy palace squares we attack
    // One loop per piece type (rather than a switch inside one loop) so each is compiled for its type.
    auto material = [&](PieceType pt) {
        if (Psq && pt != KING) terms.add(W_MATERIAL + int(pt) - ADVISOR, sign * count[makePiece(us, pt)]);
    };
    auto pst = [&](PieceType pt, Square s) {
        if (Psq) terms.add(W_PST + (int(pt) - KING) * PST_SIZE + pstSquare[s], sign);
    };

    if (Psq)
        // King, advisors and elephants stay home: only their squares count.
        for (PieceType pt : {KING, ADVISOR, BISHOP}) {
            material(pt);
            forEachSquare(pos.pieces(us, pt), [&](Square s) { pst(pt, s); });
        }

    const Bitboard own = pos.pieces(us);
    int blockedLegs = 0;
    material(KNIGHT);
    forEachPiece(pos.pieces(us, KNIGHT), [&](Square s) {
        pst(KNIGHT, s);
        // The occupied legs from the line masks: the file's bits 1 and 3 after the shift are the squares
        // below and above s, the rank's bits 0 and 2 those to its left and right.
        const int f = fileOf(s), r = rankOf(s);
        const unsigned legs = (pos.fileOcc(f) << 2 >> r & 0b1010) | (pos.rankOcc(r) << 1 >> f & 0b0101);
        const Bitboard reach = M.horseReach[s][legs];
        terms.add(W_MOBILITY_KNIGHT + popcount(reach & ~own), sign);
        blockedLegs += __builtin_popcount(legs);
        // Only from past the river can a horse reach the enemy palace, two ranks away at most.
        if (us == RED ? s >= CrossedBase[RED] : s < CrossedBase[RED]) {
            const unsigned hits = M.horsePalaceHits[them][s][legs];
            if (hits) terms.add(palaceAttacker(KNIGHT), sign);
            palaceHits |= hits;
        }
    });
    if (blockedLegs) terms.add(W_KNIGHT_LEG_BLOCKED, sign * blockedLegs);

    // Sliders by line-table lookups (attacks.h): a rank and a file mask per piece instead of ray scans. Their
    // mobility needs no clamping: it counts distinct squares of the slider's rank and file.
    static_assert(MOBILITY_SLIDER_NB - 1 >= (FILE_NB - 1) + (RANK_NB - 1));
    constexpr int palaceBase = them == RED ? 0 : RANK_NB - 3;  // the enemy palace's lowest rank
    // The palaceBit bits (rank offset * 3 + file offset) of the enemy palace squares among the rank mask
    // `onRank` of rank r and the file mask `onFile` of file f.
    auto palaceHitsOf = [](int f, int r, unsigned onRank, unsigned onFile) {
        unsigned hits = 0;
        if (unsigned(r - palaceBase) < 3) hits |= ((onRank >> 3) & 7) << (3 * (r - palaceBase));
        if (unsigned(f - 3) < 3) hits |= M.spread3[(onFile >> palaceBase) & 7] << (f - 3);
        return hits;
    };
    material(ROOK);
    forEachPiece(pos.pieces(us, ROOK), [&](Square s) {
        pst(ROOK, s);
        const int f = fileOf(s), r = rankOf(s);
        const unsigned onRank = rankAttacks(f, pos.rankOcc(r)).reach,
                       onFile = fileAttacks(r, pos.fileOcc(f)).reach;
        const int mobility = __builtin_popcount(onRank & ~pos.rankOcc(us, r)) +
                             __builtin_popcount(onFile & ~pos.fileOcc(us, f));
        terms.add(W_MOBILITY_ROOK + mobility, sign);
        Bitboard filePawns = pos.pieces(PAWN) & M.file[f];
        if (!filePawns)
            terms.add(W_ROOK_OPEN_FILE, sign);
        else if (!(filePawns & pos.pieces(us)))
            terms.add(W_ROOK_SEMI_OPEN_FILE, sign);
        const unsigned hits = palaceHitsOf(f, r, onRank, onFile);
        if (hits) terms.add(palaceAttacker(ROOK), sign);
        palaceHits |= hits;
    });

    material(CANNON);
    const Square theirKingSq = pos.kingSquare(them);
    const int theirKingFile = fileOf(theirKingSq);
    forEachPiece(pos.pieces(us, CANNON), [&](Square s) {
        pst(CANNON, s);
        const int f = fileOf(s), r = rankOf(s);
        const unsigned rankOccupied = pos.rankOcc(r), fileOccupied = pos.fileOcc(f);
        const LineAttacks& onRank = rankAttacks(f, rankOccupied);
        const LineAttacks& onFile = fileAttacks(r, fileOccupied);
        // Along the file, the enemy king as the first piece (nothing between) or as the piece hit.
        if (theirKingFile == f) {
            const unsigned king = 1u << rankOf(theirKingSq);
            if (onFile.reach & king) terms.add(W_CANNON_HOLLOW, sign);
            if (onFile.hit & king) terms.add(W_CANNON_SCREEN, sign);
        }
        // The squares hit hold pieces: the enemy's are captures (cheaper than masking out our own).
        const int captures = __builtin_popcount(onRank.hit & pos.rankOcc(them, r)) +
                             __builtin_popcount(onFile.hit & pos.fileOcc(them, f));
        const int mobility = onRank.quiet + onFile.quiet + captures;
        terms.add(W_MOBILITY_CANNON + mobility, sign);
        const unsigned hits = palaceHitsOf(f, r, onRank.beyond, onFile.beyond);
        if (hits) terms.add(palaceAttacker(CANNON), sign);
        palaceHits |= hits;
    });

    material(PAWN);
    const Bitboard ourPawns = pos.pieces(us, PAWN);
    if (Psq) forEachSquare(ourPawns, [&](Square s) { pst(PAWN, s); });
    const std::uint64_t crossedPawns =
        us == RED ? std::uint64_t(ourPawns >> CrossedBase[RED]) : std::uint64_t(ourPawns) & CrossedWord;
    // Only a pawn one step from the enemy palace can reach it.
    for (std::uint64_t w = crossedPawns & PawnPalaceOrigins[us]; w; w &= w - 1) {
        const Square s = CrossedBase[us] + __builtin_ctzll(w);
        unsigned hits = 0;
        for (int i = 0; i < g.pawnMoveCount[us][s]; ++i) hits |= palaceBit[g.pawnMoves[us][s][i]];
        if (hits) terms.add(palaceAttacker(PAWN), sign);
        palaceHits |= hits;
    }
    // Crossed pawns with a friendly pawn beside them on the next file.
    if (const int connected = __builtin_popcountll(crossedPawns & NotLastFileWord & (crossedPawns >> 1)))
        terms.add(W_PAWN_CONNECTED, sign * connected);

    if (palaceHits) terms.add(W_PALACE_SQUARE_ATTACKED, sign * __builtin_popcount(palaceHits));
    // Most positions still have both advisors and both elephants: one test of the two counts (adjacent
    // bytes) first.
    static_assert(BISHOP == ADVISOR + 1);
    std::uint16_t advisorsAndBishops;
    std::memcpy(&advisorsAndBishops, &count[makePiece(us, ADVISOR)], 2);
    if (advisorsAndBishops != 0x0202) {
        if (const int missingAdvisors = 2 - count[makePiece(us, ADVISOR)]; missingAdvisors > 0)
            if (const int n = missingAdvisors * count[makePiece(them, ROOK)])
                terms.add(W_ADVISOR_MISSING, sign * n);
        if (const int missingBishops = 2 - count[makePiece(us, BISHOP)]; missingBishops > 0)
            if (const int n = missingBishops * count[makePiece(them, CANNON)])
                terms.add(W_BISHOP_MISSING, sign * n);
    }
    sink = terms;
}

// Both colours' counts of each piece type at once: byte pt of the result is the number of pieces of type pt
// (Red's eight counts plus Black's, as two words; no byte carries, as no count exceeds 10).
std::uint64_t bothColours(const PieceCounts& n) {
    static_assert(std::endian::native == std::endian::little && sizeof(PieceCounts) == 16);
    std::uint64_t red, black;
    std::memcpy(&red, n.data(), 8);
    std::memcpy(&black, n.data() + 8, 8);
    return red + black;
}

int phaseOf(const PieceCounts& n) {
    // 2 * horses + 4 * rooks + 2 * cannons: the three bytes from KNIGHT on, times 2 + 4 * 256 + 2 * 65536,
    // sum into the product's byte 2 (the products in bytes 0 and 1 stay below 256).
    static_assert(ROOK == KNIGHT + 1 && CANNON == KNIGHT + 2);
    const std::uint64_t horsesRooksCannons = bothColours(n) >> (8 * KNIGHT) & 0xFFFFFF;
    const int phase = int((horsesRooksCannons * 0x020402) >> 16 & 0xFF);
    return std::min(phase, PHASE_MAX);
}

int scaleOf(const PieceCounts& n) {
    static_assert(PAWN == PIECE_TYPE_NB - 1);
    const bool attacking = bothColours(n) >> (8 * KNIGHT);  // horses, rooks, cannons or pawns
    return attacking ? SCALE_NORMAL : 0;                    // neither side can cross the river: a dead draw
}

inline int taper(int mg, int eg, int phase, int scale) {
    int v = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    // The same value without the multiplication and division in the usual case (scaleOf's only other
    // value is 0).
    return scale == SCALE_NORMAL ? v : v * scale / SCALE_NORMAL;
}

template <bool Psq, typename TermSink>
void collect(const Position& pos, const PieceCounts& count, TermSink& terms) {
    evaluateSide<Psq, RED>(pos, count, terms);
    evaluateSide<Psq, BLACK>(pos, count, terms);
    terms.add(W_TEMPO, pos.sideToMove() == RED ? 1 : -1);
}

void buildPsqTable(const Weights& w) {
    for (Color c : {RED, BLACK})
        for (int pt = KING; pt <= PAWN; ++pt)
            for (Square s = 0; s < SQUARE_NB; ++s) {
                const int sign = c == RED ? 1 : -1;
                const Weight pst = w[W_PST + (pt - KING) * PST_SIZE + M.pstSquare[c][s]];
                const Weight material = pt == KING ? Weight{} : w[W_MATERIAL + pt - ADVISOR];
                detail::psqTable[makePiece(c, PieceType(pt))][s] = {sign * (pst.mg + material.mg),
                                                                    sign * (pst.eg + material.eg)};
            }
    for (int i = 0; i < WEIGHT_NB; ++i)
        M.packedWeights[i] = w[i].mg + std::int64_t(w[i].eg) * (std::int64_t(1) << 32);
}
const bool PsqTableReady = (buildPsqTable(ActiveWeights), true);

}  // namespace

namespace detail {
Weight psqTable[PIECE_NB][SQUARE_NB];
}  // namespace detail

const Weights& activeWeights() {
    return ActiveWeights;
}
void setActiveWeights(const Weights& weights) {
    ActiveWeights = weights;
    buildPsqTable(ActiveWeights);
}

int evaluate(const Position& pos, const Weights& weights) {
    Terms<false> terms{&weights, nullptr};
    const PieceCounts count = countPieces(pos);
    collect<true>(pos, count, terms);
    return taper(terms.mg, terms.eg, phaseOf(count), scaleOf(count));
}

Accumulator accumulate(const Position& pos) {
    Accumulator acc;
    acc.count = countPieces(pos);
    for (Square s = 0; s < SQUARE_NB; ++s)
        if (Piece p = pos.pieceOn(s); p != NO_PIECE) {
            acc.mg += detail::psqTable[p][s].mg;
            acc.eg += detail::psqTable[p][s].eg;
        }
    return acc;
}

int evaluate(const Position& pos, const Accumulator& acc) {
    PackedTerms terms;
    collect<false>(pos, acc.count, terms);
    return taper(terms.mg() + acc.mg, terms.eg() + acc.eg, phaseOf(acc.count), scaleOf(acc.count));
}

Trace trace(const Position& pos) {
    Trace t;
    Terms<true> terms{&defaultWeights(), &t};
    const PieceCounts count = countPieces(pos);
    collect<true>(pos, count, terms);
    t.phase = phaseOf(count);
    t.scale = scaleOf(count);
    return t;
}

int evaluateTrace(const Trace& t, const Weights& weights) {
    int mg = 0, eg = 0;
    for (int i = 0; i < WEIGHT_NB; ++i) {
        mg += t.coef[i] * weights[i].mg;
        eg += t.coef[i] * weights[i].eg;
    }
    return taper(mg, eg, t.phase, t.scale);
}

std::string evalReport(const Position& pos) {
    struct Group {
        const char* name;
        int first, last;  // [first, last)
    };
    const Group groups[] = {
        {"Material", W_MATERIAL, W_PST},
        {"Piece squares", W_PST, W_MOBILITY_KNIGHT},
        {"Mobility", W_MOBILITY_KNIGHT, W_PALACE_ATTACKER},
        {"King safety", W_PALACE_ATTACKER, W_CANNON_HOLLOW},
        {"Cannons", W_CANNON_HOLLOW, W_ROOK_OPEN_FILE},
        {"Rooks", W_ROOK_OPEN_FILE, W_KNIGHT_LEG_BLOCKED},
        {"Horses", W_KNIGHT_LEG_BLOCKED, W_PAWN_CONNECTED},
        {"Pawns", W_PAWN_CONNECTED, W_PALACE_SQUARE_ATTACKED},
        {"Palace pressure", W_PALACE_SQUARE_ATTACKED, W_TEMPO},
        {"Tempo", W_TEMPO, WEIGHT_NB},
    };
    const Weights& w = activeWeights();
    Trace t = trace(pos);
    std::ostringstream out;
    char line[128];
    std::snprintf(line, sizeof line, "%-16s %8s %8s %8s\n", "Term (Red view)", "MG", "EG", "Tapered");
    out << line << "---------------------------------------------\n";
    for (const Group& g : groups) {
        int mg = 0, eg = 0;
        for (int i = g.first; i < g.last; ++i) {
            mg += t.coef[i] * w[i].mg;
            eg += t.coef[i] * w[i].eg;
        }
        std::snprintf(line, sizeof line, "%-16s %8d %8d %8d\n", g.name, mg, eg,
                      taper(mg, eg, t.phase, SCALE_NORMAL));
        out << line;
    }
    out << "---------------------------------------------\n";
    out << "Phase: " << t.phase << "/" << PHASE_MAX << "  Scale: " << t.scale << "/" << SCALE_NORMAL << "\n";
    out << "Final evaluation: " << evaluate(pos, w) << "\n";
    return out.str();
}

}  // namespace xq::eval
