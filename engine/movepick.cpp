#include "movepick.h"

#include <algorithm>
#include <limits>

#include "xiangqi/attacks.h"
#include "xiangqi/movegen_impl.h"

namespace xq {

namespace {

// The board during an exchange: the position minus the pieces already traded off, as an occupancy that
// the sliders scan with bit operations (no walking over empty squares) and the mailbox for piece kinds.
struct ExchangeBoard {
    explicit ExchangeBoard(const Position& p) : pos(p), occupied(p.occupied()) {}
    const Position& pos;
    Bitboard occupied;
    int removedCount = 0;

    Piece at(Square s) const { return testBit(occupied, s) ? pos.pieceOn(s) : NO_PIECE; }
    void remove(Square s) {
        occupied ^= squareBB(s);
        ++removedCount;
    }
};

// The least valuable piece of side c attacking `to`, or SQ_NONE. Among rooks, the one found last in
// direction order is taken (which rook goes first can change the x-rays that follow).
Square leastValuableAttacker(const ExchangeBoard& b, Square to, Color c, PieceType& type) {
    const Geometry& g = geometry;
    const PieceSets& sets = b.pos.pieceSets();
    if (b.occupied & sets.of(c, PAWN) & g.pawnAttackerBB[c][to])
        for (int i = 0; i < g.pawnAttackerCount[c][to]; ++i) {
            Square s = g.pawnAttackers[c][to][i];
            if (b.at(s) == makePiece(c, PAWN)) return type = PAWN, s;
        }
    if (b.occupied & sets.of(c, ADVISOR) & g.advisorMoveBB[to])
        for (int i = 0; i < g.advisorMoveCount[to]; ++i) {
            Square s = g.advisorMoves[to][i];
            if (b.at(s) == makePiece(c, ADVISOR)) return type = ADVISOR, s;
        }
    if (b.occupied & sets.of(c, BISHOP) & g.bishopMoveBB[to])
        for (int i = 0; i < g.bishopMoveCount[to]; ++i) {
            Step st = g.bishopMoves[to][i];
            if (b.at(st.to) == makePiece(c, BISHOP) && b.at(st.via) == NO_PIECE) return type = BISHOP, st.to;
        }
    if (b.occupied & sets.of(c, KNIGHT) & g.horseAttackerBB[to])
        for (int i = 0; i < g.horseAttackerCount[to]; ++i) {
            Step st = g.horseAttackers[to][i];
            if (b.at(st.to) == makePiece(c, KNIGHT) && b.at(st.via) == NO_PIECE) return type = KNIGHT, st.to;
        }
    Square rook = SQ_NONE;
    const Bitboard sliders = b.occupied & (sets.of(c, ROOK) | sets.of(c, CANNON));
    for (int d = 0; d < 4; ++d) {
        if (!(sliders & g.rayBB[to][d])) continue;  // no rook or cannon of ours on this line
        Bitboard blockers = b.occupied & g.rayBB[to][d];
        const Square first = nearestOnRay(blockers, d);
        if (b.pos.pieceOn(first) == makePiece(c, ROOK)) rook = first;
        blockers ^= squareBB(first);
        if (!blockers) continue;
        const Square second = nearestOnRay(blockers, d);
        if (b.pos.pieceOn(second) == makePiece(c, CANNON)) return type = CANNON, second;
    }
    if (rook != SQ_NONE) return type = ROOK, rook;
    if (b.occupied & sets.of(c, KING) & g.kingMoveBB[to]) return type = KING, lsb(sets.of(c, KING));
    return SQ_NONE;
}

}  // namespace

int see(const Position& pos, Move m) {
    const Square from = fromSq(m), to = toSq(m);
    ExchangeBoard board(pos);
    board.remove(from);
    int gain[40];
    int d = 0;
    gain[0] = SeeValue[typeOf(pos.pieceOn(to))];
    int onSquare = SeeValue[typeOf(pos.pieceOn(from))];
    Color side = ~colorOf(pos.pieceOn(from));
    while (d < 38) {
        PieceType type = NO_PIECE_TYPE;
        Square attacker = leastValuableAttacker(board, to, side, type);
        if (attacker == SQ_NONE) break;
        ++d;
        gain[d] = onSquare - gain[d - 1];
        onSquare = SeeValue[type];
        board.remove(attacker);
        side = ~side;
    }
    while (d > 0) {
        gain[d - 1] = -std::max(-gain[d - 1], gain[d]);
        --d;
    }
    return gain[0];
}

bool seeAtLeast(const Position& pos, Move m, int threshold) {
    // The exchange of see(), each side stopping as soon as it is sure of the outcome: `balance` is what the
    // side that just captured stands to gain beyond the threshold if the piece it put on `to` is not taken;
    // `result` is whether the threshold is reached should the exchange stop now.
    const Square from = fromSq(m), to = toSq(m);
    int balance = SeeValue[typeOf(pos.pieceOn(to))] - threshold;
    if (balance < 0) return false;
    balance = SeeValue[typeOf(pos.pieceOn(from))] - balance;
    if (balance <= 0) return true;
    ExchangeBoard board(pos);
    board.remove(from);
    Color side = ~colorOf(pos.pieceOn(from));
    bool result = true;
    while (board.removedCount < 39) {
        PieceType type = NO_PIECE_TYPE;
        const Square attacker = leastValuableAttacker(board, to, side, type);
        if (attacker == SQ_NONE) break;
        board.remove(attacker);
        if (type == KING) {
            // The king may take only if nothing can take it back (see() gives it a value no exchange repays).
            PieceType unused;
            return leastValuableAttacker(board, to, ~side, unused) != SQ_NONE ? result : !result;
        }
        result = !result;
        balance = SeeValue[type] - balance;
        if (balance < int(result)) break;
        side = ~side;
    }
    return result;
}

bool givesCheckNearKing(const Position& pos, Move m) {
    // The opponent is not in check before our move (a legal position), so only what the move changes can
    // check: the mover itself, a line through `from` or `to`, or a horse leg at `from`.
    const Square from = fromSq(m), to = toSq(m);
    const Piece moved = pos.pieceOn(from);
    const Color us = colorOf(moved);
    const Square ksq = pos.kingSquare(~us);
    const Geometry& g = geometry;
    // The enemy king's rank and file after the move: the current ones with `from` emptied and `to` taken by
    // the mover, whose kind is read at `to`. Our king on their file counts as a rook there, which happens
    // only after an illegal move (kings facing) that the caller rejects anyway.
    const std::uint32_t fromBits = g.kingLineBits[ksq][from], toBits = g.kingLineBits[ksq][to];
    const std::uint32_t changed =
        fromBits | toBits;  // a line the move leaves untouched checks no more than before
    if (changed) {
        const std::uint32_t lines = (pos.linesThrough(ksq) & ~fromBits) | toBits;
        const std::uint32_t ourLines = (pos.linesThrough(us, ksq) & ~fromBits) | toBits;
        const auto kindAfter = [&](Square s) { return s == to ? typeOf(moved) : typeOf(pos.pieceOn(s)); };
        if (lineAttacked(kindAfter, ksq, changed, lines, ourLines)) return true;
    }
    if (typeOf(moved) == PAWN && testBit(g.pawnAttackerBB[us][ksq], to)) return true;
    // The leg of a horse on `to` is next to it, so neither `from` nor `to`: as empty as it is now.
    if (typeOf(moved) == KNIGHT &&
        horseOnAttacks(ksq, to, [&](Square leg) { return pos.pieceOn(leg) == NO_PIECE; }))
        return true;
    // Another horse of ours whose leg the mover leaves.
    return horseUncovered(ksq, from, pos.pieces(us, KNIGHT));
}

namespace {

// The squares on a king's rank (a file mask) or file (a rank mask) as a bitboard.
Bitboard rankSquares(int rank, unsigned files) {
    Bitboard b = 0;
    while (files) b |= squareBB(makeSquare(popLsb16(files), rank));
    return b;
}
Bitboard fileSquares(int file, unsigned ranks) {
    Bitboard b = 0;
    while (ranks) b |= squareBB(makeSquare(file, popLsb16(ranks)));
    return b;
}
// The bits strictly between bit a and bit b of a line mask.
unsigned between(int a, int b) {
    const int lo = std::min(a, b), hi = std::max(a, b);
    return ((1u << hi) - 1) & ~((1u << (lo + 1)) - 1);
}

// A generator sink that keeps the checking quiet moves. A piece that is on neither of the enemy king's
// lines nor on one of its horse legs cannot uncover anything, so its move checks exactly when its target is
// a checking square for its kind (computed once); the other pieces' moves take givesCheckFast.
struct QuietCheckSink {
    const Position& pos;
    MoveList& list;
    Square ksq;
    Bitboard checks[PIECE_TYPE_NB];  // for each kind of ours: the empty squares from which it would check
    bool uncovers = false;           // the current piece may uncover a check

    QuietCheckSink(const Position& p, MoveList& l) : pos(p), list(l), ksq(p.kingSquare(~p.sideToMove())) {
        const Color us = pos.sideToMove();
        const Geometry& g = geometry;
        const int kingRank = rankOf(ksq), kingFile = fileOf(ksq);
        const unsigned onRank = pos.rankOcc(kingRank), onFile = pos.fileOcc(kingFile);
        const LineAttacks& rank = rankAttacks(kingFile, onRank);
        const LineAttacks& file = fileAttacks(kingRank, onFile);
        // A piece landing between the king and a cannon of ours that is the first piece from it becomes
        // the cannon's screen.
        unsigned screenRank = 0, screenFile = 0;
        for (unsigned first = rank.reach & pos.rankOcc(us, kingRank); first;) {
            const int f = popLsb16(first);
            if (typeOf(pos.pieceOn(makeSquare(f, kingRank))) == CANNON)
                screenRank |= rank.reach & ~onRank & between(f, kingFile);
        }
        for (unsigned first = file.reach & pos.fileOcc(us, kingFile); first;) {
            const int r = popLsb16(first);
            if (typeOf(pos.pieceOn(makeSquare(kingFile, r))) == CANNON)
                screenFile |= file.reach & ~onFile & between(r, kingRank);
        }
        const Bitboard screens = rankSquares(kingRank, screenRank) | fileSquares(kingFile, screenFile);
        const Bitboard empty = ~pos.occupied();
        Bitboard horseChecks = 0;
        for (int i = 0; i < g.horseAttackerCount[ksq]; ++i)
            if (pos.pieceOn(g.horseAttackers[ksq][i].via) == NO_PIECE)
                horseChecks |= squareBB(g.horseAttackers[ksq][i].to);
        for (Bitboard& b : checks) b = screens;
        checks[ROOK] |=
            rankSquares(kingRank, rank.reach & ~onRank) | fileSquares(kingFile, file.reach & ~onFile);
        checks[CANNON] |=
            rankSquares(kingRank, rank.beyond & ~onRank) | fileSquares(kingFile, file.beyond & ~onFile);
        checks[KNIGHT] |= horseChecks & empty;
        checks[PAWN] |= g.pawnAttackerBB[us][ksq] & empty;
    }
    static bool mayUncover(Square ksq, Square from, PieceType pt) {
        return pt == KING || (geometry.kingRelation[ksq][from] & KING_LINE_OR_LEG);
    }
    // Most pieces uncover nothing and reach no checking square: their moves need not be generated.
    bool skip(Square from, PieceType pt, Bitboard targets) const {
        return !(targets & checks[pt]) && !mayUncover(ksq, from, pt);
    }
    void begin(Square from, PieceType pt) { uncovers = mayUncover(ksq, from, pt); }
    void quiet(Square from, Square to, PieceType pt) {
        const Move m = makeMove(from, to);
        if (uncovers ? givesCheckFast(pos, m) : testBit(checks[pt], to)) list.add(m);
    }
    void capture(Square, Square, PieceType, Piece) {}
};

}  // namespace

void generateQuietChecks(const Position& pos, MoveList& list) {
    QuietCheckSink sink(pos, list);
    // Rooks and cannons first, as generate<QUIETS> orders them. One that uncovers nothing can only check from
    // where its lines cross the king's: two squares, tested by table lookups instead of walking its rays.
    const Geometry& g = geometry;
    const int kingRank = rankOf(sink.ksq), kingFile = fileOf(sink.ksq);
    for (PieceType pt : {ROOK, CANNON})
        forEachSquare(pos.pieces(pos.sideToMove(), pt), [&](Square from) {
            sink.begin(from, pt);
            if (sink.uncovers) {
                for (int d = UP; d <= LEFT; ++d)
                    for (int i = 0; i < g.rayLen[from][d] && pos.pieceOn(g.ray[from][d][i]) == NO_PIECE; ++i)
                        sink.quiet(from, g.ray[from][d][i], pt);
                return;
            }
            // Up or down to the king's rank, then right or left to its file: the order of the ray walk.
            const int f = fileOf(from), r = rankOf(from);
            const unsigned alongFile = fileAttacks(r, pos.fileOcc(f)).reach & ~pos.fileOcc(f);
            const unsigned alongRank = rankAttacks(f, pos.rankOcc(r)).reach & ~pos.rankOcc(r);
            if (alongFile >> kingRank & 1) sink.quiet(from, makeSquare(f, kingRank), pt);
            if (alongRank >> kingFile & 1) sink.quiet(from, makeSquare(kingFile, r), pt);
        });
    movegen_detail::generatePseudo<QUIETS, true, false>(pos, sink);
}

MovePicker::MovePicker(const Position& pos, Move ttMove, const ButterflyHistory* history,
                       const PieceToHistory** contHist, const Move* killers)
    : pos_(pos), history_(history), contHist_(contHist), killers_(killers) {
    stage_ = pos.inCheck() ? EVASION_TT : MAIN_TT;
    ttMove_ = ttMove != MOVE_NONE && pos.isPseudoLegal(ttMove) ? ttMove : MOVE_NONE;
    if (ttMove_ == MOVE_NONE) ++stage_;
    cur_ = end_ = badCapturesEnd_ = moves_;
}

MovePicker::MovePicker(const Position& pos, Move ttMove, const ButterflyHistory* history,
                       const PieceToHistory** contHist)
    : pos_(pos), history_(history), contHist_(contHist) {
    if (pos.inCheck()) {
        stage_ = EVASION_TT;
        ttMove_ = ttMove != MOVE_NONE && pos.isPseudoLegal(ttMove) ? ttMove : MOVE_NONE;
    } else {
        stage_ = QSEARCH_TT;
        ttMove_ =
            ttMove != MOVE_NONE && pos.isCapture(ttMove) && pos.isPseudoLegal(ttMove) ? ttMove : MOVE_NONE;
    }
    if (ttMove_ == MOVE_NONE) ++stage_;
    cur_ = end_ = badCapturesEnd_ = moves_;
}

namespace {

// What a move must touch to answer the checks on the side to move's king: it moves the king, lands on
// `to` (captures a checker, blocks a line or a horse's leg, adds a second screen before a cannon) or leaves
// `from` (a cannon's screen of ours stepping away). Every legal evasion passes; most pseudo-legal moves do
// not, so they are neither scored nor handed to the searcher's legality test. Empty masks mean no checker
// was found, and the caller then keeps every move.
struct EvasionMask {
    Bitboard to = 0;
    Bitboard from = 0;
};

EvasionMask evasionMask(const Position& pos) {
    const Color us = pos.sideToMove(), them = ~us;
    const Square ksq = pos.kingSquare(us);
    const Geometry& g = geometry;
    const PieceSets& sets = pos.pieceSets();
    const Bitboard occ = pos.occupied();
    EvasionMask mask;
    const Bitboard sliders = sets.of(them, ROOK) | sets.of(them, CANNON);
    for (int d = 0; d < 4; ++d) {
        if (!(sliders & g.rayBB[ksq][d])) continue;
        Bitboard blockers = occ & g.rayBB[ksq][d];
        const Square first = nearestOnRay(blockers, d);
        if (pos.pieceOn(first) == makePiece(them, ROOK)) {
            mask.to |= g.rayBB[ksq][d] & ~g.rayBB[first][d];  // the line up to and including the rook
            continue;
        }
        blockers ^= squareBB(first);
        if (!blockers) continue;
        const Square second = nearestOnRay(blockers, d);
        if (pos.pieceOn(second) == makePiece(them, CANNON)) {
            mask.to |= g.rayBB[ksq][d] & ~g.rayBB[second][d];
            mask.from |= squareBB(first);
        }
    }
    if (sets.of(them, KNIGHT) & g.horseAttackerBB[ksq])
        for (int i = 0; i < g.horseAttackerCount[ksq]; ++i) {
            const Step st = g.horseAttackers[ksq][i];
            if (pos.pieceOn(st.to) == makePiece(them, KNIGHT) && pos.pieceOn(st.via) == NO_PIECE)
                mask.to |= squareBB(st.to) | squareBB(st.via);
        }
    mask.to |= sets.of(them, PAWN) & g.pawnAttackerBB[them][ksq];
    mask.from |= squareBB(ksq);
    return mask;
}

// Most valuable victim first, least valuable attacker breaking ties; above every quiet move.
int captureScore(Piece captured, PieceType moved) {
    return (1 << 28) + SeeValue[typeOf(captured)] * 64 - SeeValue[moved] / 8;
}

}  // namespace

// Quiet moves go straight into the picker's array, each scored by its history as it is generated (a
// MoveList in between cost a second pass and a copy).
struct MovePicker::QuietSink {
    ScoredMove* end;
    const HistoryEntry* history;
    // The continuation histories' rows from our colour's on, so that cont0[pt] is our pt's: a colour less to
    // keep in a register.
    const HistoryEntry (*cont0)[SQUARE_NB];
    const HistoryEntry (*cont1)[SQUARE_NB];
    // rank << 24 | index << 16 | the `from` of the piece being generated (makeMove(from, 0))
    std::int64_t tag;
    // The history entries of the moves of the piece being generated, by target square.
    const HistoryEntry *fromHistory = nullptr, *cont0Row = nullptr, *cont1Row = nullptr;
    // The largest key so far: the first pick then needs no scan (the first quiet move is always picked, and a
    // maximum kept while generating is cheaper than a scan).
    std::int64_t best = NoKey;

    void begin(Square from, PieceType pt) {
        fromHistory = history + from * SQUARE_NB;
        cont0Row = cont0[pt];
        cont1Row = cont1[pt];
        tag = (tag & ~std::int64_t(0xFFFF)) | makeMove(from, 0);
    }
    void quiet(Square, Square to, PieceType) {
        const int score = fromHistory[to] + cont0Row[to] + cont1Row[to];
        const std::int64_t key = std::int64_t(std::uint64_t(score) << 32) + tag + makeMove(0, to);
        *end++ = {key};
        best = std::max(best, key);
        tag -= 255 << 16;  // rank - 1, index + 1
    }
    void capture(Square, Square, PieceType, Piece) {}
};

template <>
void MovePicker::generateAndScore<QUIETS>() {
    static_assert(MAX_MOVES <= 256, "ranks and indices must fit in a byte");
    const Color us = pos_.sideToMove();
    const Piece noPiece = makePiece(us, NO_PIECE_TYPE);
    QuietSink sink{cur_, history_->table[us], contHist_[0]->table + noPiece, contHist_[1]->table + noPiece,
                   std::int64_t(255 << 8 | (cur_ - moves_)) << 16};
    const QuietSink done = movegen_detail::generatePseudo<QUIETS>(pos_, sink);
    end_ = done.end;
    firstQuietKey_ = done.best;
    // The TT move was tried already. Comparing each move with it as it is generated costs more than this
    // search, made only when it is quiet.
    if (ttMove_ != MOVE_NONE && pos_.pieceOn(toSq(ttMove_)) == NO_PIECE)
        for (ScoredMove* p = cur_; p < end_; ++p)
            if (p->move() == ttMove_) {
                // Unknown if it was the TT move, or the entry that takes its place (and so its index).
                if (p->key == firstQuietKey_ || cur_->key == firstQuietKey_) firstQuietKey_ = NoKey;
                takeQuiet(p);
                break;
            }
}

// Captures, like quiet moves, are scored as they are generated.
struct MovePicker::CaptureSink {
    ScoredMove* end;
    Move ttMove;

    void begin(Square, PieceType) {}
    void quiet(Square, Square, PieceType) {}
    void capture(Square from, Square to, PieceType pt, Piece captured) {
        const Move m = makeMove(from, to);
        *end = scored(m, captureScore(captured, pt));
        end += m != ttMove;  // the TT move was tried already: its entry is overwritten by the next
    }
};

template <>
void MovePicker::generateAndScore<CAPTURES>() {
    CaptureSink sink{cur_, ttMove_};
    end_ = movegen_detail::generatePseudo<CAPTURES>(pos_, sink).end;
}

// Removes the quiet entry p from those still to be picked: the one at cur_ takes its place (the keys order
// the entries, not their places).
void MovePicker::takeQuiet(ScoredMove* p) {
    constexpr std::int64_t IndexBits = 0xFF << 16;
    p->key = (cur_->key & ~IndexBits) | (p->key & IndexBits);
    ++cur_;
}

// Evasions, like quiet moves, are scored as they are generated; the moves that cannot answer the check
// (see EvasionMask) are dropped at once.
struct MovePicker::EvasionSink {
    ScoredMove* end;
    const HistoryEntry* history;
    const HistoryEntry (*cont0)[SQUARE_NB];  // as in QuietSink
    const HistoryEntry (*cont1)[SQUARE_NB];
    Move ttMove;
    Bitboard maskTo, maskFrom;
    const HistoryEntry *fromHistory = nullptr, *cont0Row = nullptr, *cont1Row = nullptr;  // as in QuietSink
    bool fromEvades = false;  // whether every move of the piece being generated may evade

    bool mayEvade(Square, Square to) const { return fromEvades || testBit(maskTo, to); }
    // A piece that neither leaves a square that matters nor reaches one has no evasion.
    bool skip(Square from, PieceType, Bitboard targets) const {
        return !(targets & maskTo) && !testBit(maskFrom, from);
    }
    void add(Move m, int score) {
        *end = scored(m, score);
        end += m != ttMove;  // the TT move was tried already: its entry is overwritten by the next
    }
    void begin(Square from, PieceType pt) {
        fromHistory = history + from * SQUARE_NB;
        cont0Row = cont0[pt];
        cont1Row = cont1[pt];
        fromEvades = testBit(maskFrom, from);
    }
    void quiet(Square from, Square to, PieceType) {
        if (mayEvade(from, to)) add(makeMove(from, to), fromHistory[to] + cont0Row[to] + cont1Row[to]);
    }
    void capture(Square from, Square to, PieceType pt, Piece captured) {
        if (mayEvade(from, to)) add(makeMove(from, to), captureScore(captured, pt));
    }
};

template <>
void MovePicker::generateAndScore<PSEUDO_LEGAL>() {
    const Color us = pos_.sideToMove();
    const EvasionMask evasion = evasionMask(pos_);
    // Without a checker found every move is kept.
    const Bitboard maskTo = evasion.to ? evasion.to : ~Bitboard(0);
    const Piece noPiece = makePiece(us, NO_PIECE_TYPE);
    EvasionSink sink{
        cur_,   history_->table[us], contHist_[0]->table + noPiece, contHist_[1]->table + noPiece, ttMove_,
        maskTo, evasion.from};
    end_ = movegen_detail::generatePseudo<PSEUDO_LEGAL>(pos_, sink).end;
}

namespace {

// The first entry with the highest score in [first, last), first < last: the largest of score * 256 +
// (255 - index), a plain maximum without a branch per entry (which entry is best so far is unpredictable,
// and the mispredictions cost more than the scan).
static_assert(MAX_MOVES <= 256, "move indices must fit in the key's low byte");
template <typename Entry>
Entry* firstBest(Entry* first, Entry* last) {
#ifdef __AVX2__
    std::int64_t best = std::numeric_limits<std::int64_t>::min();
    const int n = int(last - first);
    for (int i = 0; i < n; ++i) best = std::max(best, std::int64_t(first[i].score()) * 256 + (255 - i));
    return first + (255 - (best & 255));
#else
    // Without AVX2 the 64-bit maximum above is not a vector instruction; a scan with selects is cheaper.
    Entry* best = first;
    for (Entry* p = first + 1; p < last; ++p) best = p->score() > best->score() ? p : best;
    return best;
#endif
}

}  // namespace

Move MovePicker::pickBest(ScoredMove* end) {
    ScoredMove* best = firstBest(cur_, end);
    std::swap(*best, *cur_);
    return (cur_++)->move();
}

Move MovePicker::pickBestQuiet() {
    // The first of the highest scores: the order a stable sort would give, paid for only as far as the
    // moves are used (a cut-off usually comes after a few quiet moves).
    std::int64_t best = firstQuietKey_;
    if (best != NoKey)
        firstQuietKey_ = NoKey;
    else {
        best = cur_->key;
        for (const ScoredMove* p = cur_ + 1; p < end_; ++p) best = std::max(best, p->key);
    }
    takeQuiet(moves_ + ((best >> 16) & 0xFF));
    return Move(best & 0xFFFF);
}

Move MovePicker::next(bool skipQuiets) {
    for (;;) {
        switch (stage_) {
            case MAIN_TT:
            case EVASION_TT:
            case QSEARCH_TT:
                ++stage_;
                return ttMove_;

            case CAPTURE_INIT:
            case QCAPTURE_INIT:
                cur_ = badCapturesEnd_ = moves_;
                generateAndScore<CAPTURES>();
                ++stage_;
                break;

            case GOOD_CAPTURE:
                while (cur_ < end_) {
                    Move m = pickBest(end_);
                    if (seeGE(pos_, m, 0)) return m;
                    // Losing captures wait until after the quiet moves.
                    *badCapturesEnd_++ = cur_[-1];
                }
                ++stage_;
                break;

            case KILLER_0:
            case KILLER_1: {
                Move k = killers_[stage_ - KILLER_0];
                ++stage_;
                if (k != MOVE_NONE && k != ttMove_ && !pos_.isCapture(k) && pos_.isPseudoLegal(k)) return k;
                break;
            }

            case QUIET_INIT:
                if (!skipQuiets) {
                    cur_ = badCapturesEnd_;
                    generateAndScore<QUIETS>();
                } else {
                    cur_ = end_ = badCapturesEnd_;
                }
                ++stage_;
                break;

            case QUIET:
                while (!skipQuiets && cur_ < end_) {
                    Move m = pickBestQuiet();
                    if (!isKiller(m)) return m;
                }
                cur_ = moves_;
                end_ = badCapturesEnd_;
                ++stage_;
                break;

            case BAD_CAPTURE:
                if (cur_ < end_) return (cur_++)->move();
                stage_ = DONE;
                break;

            case EVASION_INIT:
                cur_ = moves_;
                generateAndScore<PSEUDO_LEGAL>();
                ++stage_;
                break;

            case EVASION:
                if (cur_ < end_) return pickBest(end_);
                stage_ = DONE;
                break;

            case QCAPTURE:
                if (cur_ < end_) return pickBest(end_);
                stage_ = DONE;
                break;

            default:
                return MOVE_NONE;
        }
    }
}

}  // namespace xq
