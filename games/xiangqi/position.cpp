#include "position.h"

#include <algorithm>
#include <cctype>

namespace xq {

namespace {

// "1 rank", "3 ranks" (the rules core links nothing, so not util/text.h's counted()).
std::string counted(long long n, const char* noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

constexpr int MaxCount[PIECE_TYPE_NB] = {0, 1, 2, 2, 2, 2, 2, 5};
constexpr const char* TypeNames[PIECE_TYPE_NB] = {"",      "king", "advisor", "elephant",
                                                  "horse", "rook", "cannon",  "pawn"};

Piece pieceFromChar(char c) {
    switch (c) {
        case 'K':
            return R_KING;
        case 'A':
            return R_ADVISOR;
        case 'B':
        case 'E':
            return R_BISHOP;
        case 'N':
        case 'H':
            return R_KNIGHT;
        case 'R':
            return R_ROOK;
        case 'C':
            return R_CANNON;
        case 'P':
            return R_PAWN;
        case 'k':
            return B_KING;
        case 'a':
            return B_ADVISOR;
        case 'b':
        case 'e':
            return B_BISHOP;
        case 'n':
        case 'h':
            return B_KNIGHT;
        case 'r':
            return B_ROOK;
        case 'c':
            return B_CANNON;
        case 'p':
            return B_PAWN;
        default:
            return NO_PIECE;
    }
}

// Squares a piece can legally stand on, whatever happened before.
bool canStandOn(Piece p, Square s) {
    const Color c = colorOf(p);
    const int f = fileOf(s), r = rankOf(s), rr = c == RED ? r : 9 - r;  // rank from its own side
    switch (typeOf(p)) {
        case KING:
            return inPalace(c, s);
        case ADVISOR:
            return inPalace(c, s) && (f + rr) % 2 == 1;
        case BISHOP:
            return onOwnSide(c, s) && rr % 2 == 0 && f % 2 == 0 && (f / 2 + rr / 2) % 2 == 1;
        case PAWN:
            return rr >= 3 && (rr >= 5 || f % 2 == 0);
        default:
            return true;
    }
}

std::string colorName(Color c) {
    return c == RED ? "red" : "black";
}

}  // namespace

std::string squareName(Square s) {
    return std::string(1, char('a' + fileOf(s))) + char('0' + rankOf(s));
}

std::string moveToString(Move m) {
    if (m == MOVE_NULL || m == MOVE_NONE) return "0000";
    return squareName(fromSq(m)) + squareName(toSq(m));
}

char pieceChar(Piece p) {
    return " KABNRCP kabnrcp"[p];
}

Position::Position() {
    setFen(StartFEN);
}

void Position::setFen(std::string_view fenText) {
    // Fields split by hand: the tuner parses millions of FENs and a stream costs more than the rest.
    std::string_view fields[7];
    int fieldCount = 0;
    for (std::size_t i = 0; i < fenText.size();) {
        if (fenText[i] == ' ' || fenText[i] == '\t' || fenText[i] == '\r' || fenText[i] == '\n') {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < fenText.size() && fenText[j] != ' ' && fenText[j] != '\t' && fenText[j] != '\r' &&
               fenText[j] != '\n')
            ++j;
        if (fieldCount == 6)
            throw FenError("unexpected text after the FEN: '" + std::string(fenText.substr(i, j - i)) + "'");
        fields[fieldCount++] = fenText.substr(i, j - i);
        i = j;
    }
    const std::string_view boardText = fields[0];
    const std::string sideText(fields[1]), halfText(fields[4]), fullText(fields[5]);
    if (boardText.empty()) throw FenError("empty FEN");

    const auto ranks = std::count(boardText.begin(), boardText.end(), '/') + 1;
    if (ranks != RANK_NB) throw FenError("the board has " + counted(ranks, "rank") + ", expected 10");

    Position p{EmptyTag{}};
    p.board_.fill(NO_PIECE);
    p.sets_ = {};
    for (Color c : {RED, BLACK}) {
        std::fill(std::begin(p.rankBits_[c]), std::end(p.rankBits_[c]), 0);
        std::fill(std::begin(p.fileBits_[c]), std::end(p.fileBits_[c]), 0);
    }
    p.kingSq_[RED] = p.kingSq_[BLACK] = SQ_NONE;
    int rankIndex = 0, file = 0;  // the FEN starts from rank 9
    for (std::size_t i = 0; i < boardText.size(); ++i) {
        const char ch = boardText[i];
        const auto where = [&] {
            return " (rank " + std::to_string(9 - rankIndex) + ", character " + std::to_string(i + 1) + ")";
        };
        if (ch == '/') {
            if (file != FILE_NB)
                throw FenError("rank " + std::to_string(9 - rankIndex) + " has " + counted(file, "file") +
                               ", expected 9");
            if (++rankIndex >= RANK_NB) throw FenError("too many ranks: more than 10");
            file = 0;
        } else if (ch >= '1' && ch <= '9') {
            file += ch - '0';
            if (file > FILE_NB)
                throw FenError("rank " + std::to_string(9 - rankIndex) + " has more than 9 files" + where());
        } else {
            Piece pc = pieceFromChar(ch);
            if (pc == NO_PIECE) throw FenError(std::string("bad piece letter '") + ch + "'" + where());
            if (file >= FILE_NB)
                throw FenError("rank " + std::to_string(9 - rankIndex) + " has more than 9 files" + where());
            Square s = makeSquare(file, 9 - rankIndex);
            if (!canStandOn(pc, s)) {
                std::string what =
                    colorName(colorOf(pc)) + " " + TypeNames[typeOf(pc)] + " on " + squareName(s);
                throw FenError(what + (typeOf(pc) == KING ? " is outside the palace"
                                                          : " is on a square it can never reach"));
            }
            p.putPiece(pc, s);
            ++file;
        }
    }
    if (rankIndex != RANK_NB - 1)
        throw FenError("the board has " + counted(rankIndex + 1, "rank") + ", expected 10");
    if (file != FILE_NB) throw FenError("rank 0 has " + counted(file, "file") + ", expected 9");

    for (Color c : {RED, BLACK})
        for (int pt = KING; pt <= PAWN; ++pt) {
            int n = p.count(c, PieceType(pt));
            if (n > MaxCount[pt])
                throw FenError("too many " + colorName(c) + " " + TypeNames[pt] + "s: " + std::to_string(n) +
                               " (at most " + std::to_string(MaxCount[pt]) + ")");
        }
    if (p.kingSq_[RED] == SQ_NONE) throw FenError("red has no king");
    if (p.kingSq_[BLACK] == SQ_NONE) throw FenError("black has no king");

    if (sideText.empty()) throw FenError("missing side to move");
    if (sideText == "w" || sideText == "r" || sideText == "W" || sideText == "R")
        p.side_ = RED;
    else if (sideText == "b" || sideText == "B")
        p.side_ = BLACK;
    else
        throw FenError("bad side to move '" + sideText + "' (expected w, r or b)");

    int halfmove = 0, fullmove = 1;
    auto number = [](const std::string& t, const char* what) {
        if (t.empty() || t.size() > 6 || t.find_first_not_of("0123456789") != std::string::npos)
            throw FenError(std::string("bad ") + what + " '" + t + "'");
        return std::stoi(t);
    };
    if (!halfText.empty()) halfmove = number(halfText, "halfmove clock");
    if (!fullText.empty()) fullmove = std::max(1, number(fullText, "fullmove number"));

    if (kingInDanger(p.sets_, ~p.side_, p.kingSq_[~p.side_], p.occupied(), 0))
        throw FenError(colorName(~p.side_) +
                       " is not to move but its king is attacked (or the kings face each other)");

    p.gamePly_ = 2 * (fullmove - 1) + (p.side_ == BLACK);
    p.history_.clear();
    p.history_.reserve(256);
    p.history_.push_back(StateInfo{});
    p.history_.back().rule60 = halfmove;
    p.computeKeyAndCheck();
    *this = std::move(p);
}

void Position::computeKeyAndCheck() {
    std::uint64_t k = side_ == BLACK ? zobrist::side() : 0;
    for (Square s = 0; s < SQUARE_NB; ++s)
        if (board_[s] != NO_PIECE) k ^= zobrist::pieceSquare(board_[s], s);
    history_.back().key = k;
    history_.back().checkGiven = kingInDanger(sets_, side_, kingSq_[side_], occupied(), 0);
}

std::string Position::fen() const {
    std::string out;
    for (int r = RANK_NB - 1; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < FILE_NB; ++f) {
            Piece pc = board_[makeSquare(f, r)];
            if (pc == NO_PIECE) {
                ++empty;
                continue;
            }
            if (empty) out += char('0' + empty);
            empty = 0;
            out += pieceChar(pc);
        }
        if (empty) out += char('0' + empty);
        if (r > 0) out += '/';
    }
    out += side_ == RED ? " w - - " : " b - - ";
    out += std::to_string(rule60()) + " " + std::to_string(fullmoveNumber());
    return out;
}

std::string Position::pretty() const {
    std::string out;
    for (int r = RANK_NB - 1; r >= 0; --r) {
        out += char('0' + r);
        out += ' ';
        for (int f = 0; f < FILE_NB; ++f) {
            Piece pc = board_[makeSquare(f, r)];
            out += pc == NO_PIECE ? '.' : pieceChar(pc);
            out += ' ';
        }
        out += '\n';
        if (r == 5) out += "  ~~~~~~~~~~~~~~~~~\n";
    }
    out += "  a b c d e f g h i\n";
    return out;
}

void Position::putPiece(Piece p, Square s) {
    board_[s] = p;
    sets_.byColor[colorOf(p)] |= squareBB(s);
    sets_.byType[typeOf(p)] |= squareBB(s);
    rankBits_[colorOf(p)][rankOf(s)] |= std::uint16_t(1 << fileOf(s));
    fileBits_[colorOf(p)][fileOf(s)] |= std::uint16_t(1 << rankOf(s));
    if (typeOf(p) == KING) kingSq_[colorOf(p)] = s;
}

void Position::removePiece(Square s) {
    Piece p = board_[s];
    sets_.byColor[colorOf(p)] ^= squareBB(s);
    sets_.byType[typeOf(p)] ^= squareBB(s);
    rankBits_[colorOf(p)][rankOf(s)] ^= std::uint16_t(1 << fileOf(s));
    fileBits_[colorOf(p)][fileOf(s)] ^= std::uint16_t(1 << rankOf(s));
    board_[s] = NO_PIECE;
}

void Position::movePiece(Square from, Square to) {
    Piece p = board_[from];
    Bitboard fromTo = squareBB(from) | squareBB(to);
    sets_.byColor[colorOf(p)] ^= fromTo;
    sets_.byType[typeOf(p)] ^= fromTo;
    const Color c = colorOf(p);
    rankBits_[c][rankOf(from)] ^= std::uint16_t(1 << fileOf(from));
    fileBits_[c][fileOf(from)] ^= std::uint16_t(1 << rankOf(from));
    rankBits_[c][rankOf(to)] ^= std::uint16_t(1 << fileOf(to));
    fileBits_[c][fileOf(to)] ^= std::uint16_t(1 << rankOf(to));
    board_[from] = NO_PIECE;
    board_[to] = p;
    if (typeOf(p) == KING) kingSq_[colorOf(p)] = to;
}

namespace {

// Piece kinds and empty legs read off the mailbox as it stands, for the shared king tests of attacks.h.
struct KindOn {
    const std::array<Piece, SQUARE_NB>& board;
    PieceType operator()(Square s) const { return typeOf(board[s]); }
};
struct EmptyOn {
    const std::array<Piece, SQUARE_NB>& board;
    bool operator()(Square s) const { return board[s] == NO_PIECE; }
};

// Whether a king on ksq is attacked by `theirs` (the opponent's pieces still on the board, colour them),
// or faces their king, with occupancy occ; `lines` and `theirLines` are occ and theirs on the king's rank
// and file (packLines). Rooks and cannons come from one line-table lookup per line, not ray scans; the kind
// of each of their pieces is read off the mailbox.
// Inlined so that the callers' rank and file of the king and their packed lines stay in registers.
[[gnu::always_inline]] inline bool kingAttacked(const std::array<Piece, SQUARE_NB>& board,
                                                const PieceSets& sets, Bitboard occ, Bitboard theirs,
                                                Color them, Square ksq, std::uint32_t lines,
                                                std::uint32_t theirLines) {
    const Geometry& g = geometry;
    if (lineAttacked(KindOn{board}, ksq, ~0u, lines, theirLines)) return true;  // both lines
    const Bitboard horses = theirs & sets.byType[KNIGHT];
    if (horses & g.horseAttackerBB[ksq])
        for (int i = 0; i < g.horseAttackerCount[ksq]; ++i) {
            const Step st = g.horseAttackers[ksq][i];
            if (testBit(horses, st.to) && !testBit(occ, st.via)) return true;
        }
    return theirs & sets.byType[PAWN] & g.pawnAttackerBB[them][ksq];
}

}  // namespace

void Position::doMove(Move m) {
    doMove(m, false);
    // The king now to move was safe before this move (the position was legal), so only what the move changed
    // can check it: a line through from or to, a horse leg at from, or the mover itself.
    const Square from = fromSq(m), to = toSq(m);
    const Square ksq = kingSq_[side_];
    if (!mayCheck(ksq, from, to)) return;
    const Color them = ~side_;
    const Geometry& g = geometry;
    const std::uint32_t changed = g.kingLineBits[ksq][from] | g.kingLineBits[ksq][to];
    const PieceType moved = typeOf(board_[to]);
    history_.back().checkGiven =
        (changed && lineAttacked(KindOn{board_}, ksq, changed, linesThrough(ksq), linesThrough(them, ksq))) ||
        horseUncovered(ksq, from, pieces(them, KNIGHT)) ||
        (moved == PAWN && testBit(g.pawnAttackerBB[them][ksq], to)) ||
        (moved == KNIGHT && horseOnAttacks(ksq, to, EmptyOn{board_}));
}

void Position::doMove(Move m, bool givesCheck) {
    const Square from = fromSq(m), to = toSq(m);
    const Piece pc = board_[from], captured = board_[to];
    const StateInfo& prev = history_.back();
    StateInfo next;
    next.key = prev.key ^ zobrist::side() ^ zobrist::pieceSquare(pc, from) ^ zobrist::pieceSquare(pc, to);
    next.move = m;
    next.captured = captured;
    next.rule60 = prev.rule60 + 1;
    next.pliesFromNull = prev.pliesFromNull + 1;
    if (captured != NO_PIECE) {
        next.key ^= zobrist::pieceSquare(captured, to);
        next.rule60 = 0;
        removePiece(to);
    }
    movePiece(from, to);
    side_ = ~side_;
    ++gamePly_;
    next.checkGiven = givesCheck;
    history_.push_back(next);
}

void Position::undoMove() {
    const StateInfo& st = history_.back();
    const Square from = fromSq(st.move), to = toSq(st.move);
    movePiece(to, from);
    if (st.captured != NO_PIECE) putPiece(st.captured, to);
    side_ = ~side_;
    --gamePly_;
    history_.pop_back();
}

void Position::doNullMove() {
    const StateInfo& prev = history_.back();
    StateInfo next;
    next.key = prev.key ^ zobrist::side();
    next.move = MOVE_NULL;
    next.rule60 = prev.rule60 + 1;
    next.pliesFromNull = 0;
    side_ = ~side_;
    ++gamePly_;
    next.checkGiven = false;  // a null move is never made in check
    history_.push_back(next);
}

void Position::undoNullMove() {
    side_ = ~side_;
    --gamePly_;
    history_.pop_back();
}

bool Position::isPseudoLegal(Move m) const {
    if (!isOk(m)) return false;
    const Square from = fromSq(m), to = toSq(m);
    if (from >= SQUARE_NB || to >= SQUARE_NB) return false;
    const Piece pc = board_[from];
    if (pc == NO_PIECE || colorOf(pc) != side_) return false;
    if (board_[to] != NO_PIECE && colorOf(board_[to]) == side_) return false;
    // Read off the mailbox and the geometry tables: cheaper than building the piece's attack set.
    const Geometry& g = geometry;
    switch (typeOf(pc)) {
        case ROOK:
        case CANNON: {
            const bool sameFile = fileOf(from) == fileOf(to);
            if (!sameFile && rankOf(from) != rankOf(to)) return false;
            const int d = sameFile ? (to > from ? UP : DOWN) : (to > from ? RIGHT : LEFT);
            const Bitboard between = occupied() & (g.rayBB[from][d] ^ g.rayBB[to][d] ^ squareBB(to));
            if (typeOf(pc) == ROOK || board_[to] == NO_PIECE) return !between;
            return between && !(between & (between - 1));  // a cannon captures over exactly one piece
        }
        case KNIGHT:
            for (int i = 0; i < g.horseMoveCount[from]; ++i)
                if (g.horseMoves[from][i].to == to) return board_[g.horseMoves[from][i].via] == NO_PIECE;
            return false;
        case BISHOP:
            for (int i = 0; i < g.bishopMoveCount[from]; ++i)
                if (g.bishopMoves[from][i].to == to) return board_[g.bishopMoves[from][i].via] == NO_PIECE;
            return false;
        case ADVISOR:
            for (int i = 0; i < g.advisorMoveCount[from]; ++i)
                if (g.advisorMoves[from][i] == to) return true;
            return false;
        case KING:
            for (int i = 0; i < g.kingMoveCount[from]; ++i)
                if (g.kingMoves[from][i] == to) return true;
            return false;
        case PAWN:
            for (int i = 0; i < g.pawnMoveCount[side_][from]; ++i)
                if (g.pawnMoves[side_][from][i] == to) return true;
            return false;
        default:
            return false;
    }
}

void Position::computeKingSafety() const {
    // Along each line from the king: the first piece shields it from a rook (or the other king) behind it,
    // the first two shield it from a cannon behind them, and the empty run before an enemy cannon would
    // make its screen. Line-table lookups cut a line: the pieces first and second from the king on each
    // side (reach, hit), then, if needed, with the first lifted the third (hit).
    const StateInfo& s = st();
    const Square ksq = kingSq_[side_];
    const int kingRank = rankOf(ksq), kingFile = fileOf(ksq);
    const Color them = ~side_;
    // Their king never stands on our king's rank, so it counts as a rook on both lines.
    constexpr unsigned RookOrKing = 1u << ROOK | 1u << KING;
    const auto cut = [&](unsigned occ, unsigned theirs, int kingIndex, const LineAttacks& near,
                         auto farAttacks, auto squareAt, Bitboard& blockers, Bitboard& screens) {
        const unsigned first = near.reach & occ, second = near.hit;
        // The third pieces need a second lookup, wasted unless a piece of theirs stands beyond the second.
        const unsigned third = theirs & ~(near.reach | near.beyond) ? farAttacks(occ ^ first).hit : 0;
        unsigned rooks = 0, cannons = 0;
        for (unsigned m = second & theirs; m;) {
            const int i = popLsb16(m);
            if (RookOrKing >> typeOf(board_[squareAt(i)]) & 1) rooks |= 1u << i;
        }
        for (unsigned m = (first | third) & theirs; m;) {
            const int i = popLsb16(m);
            if (typeOf(board_[squareAt(i)]) == CANNON) cannons |= 1u << i;
        }
        if (!(rooks | cannons)) return;
        const unsigned below = (1u << kingIndex) - 1, above = ~below << 1;
        unsigned lineBlockers = 0, lineScreens = 0;
        for (const unsigned side : {below, above}) {
            if (rooks & side) lineBlockers |= first & side;
            if (cannons & third & side) lineBlockers |= (first | second) & side;
            if (cannons & first & side) lineScreens |= near.reach & ~occ & side;
        }
        while (lineBlockers) blockers |= squareBB(squareAt(popLsb16(lineBlockers)));
        while (lineScreens) screens |= squareBB(squareAt(popLsb16(lineScreens)));
    };
    // Horse legs are the squares diagonally next to the king.
    Bitboard blockers = geometry.diagonalBB[ksq], screens = 0;
    const unsigned onRank = rankOcc(kingRank), onFile = fileOcc(kingFile);
    const LineAttacks &nearOnRank = rankAttacks(kingFile, onRank),
                      &nearOnFile = fileAttacks(kingRank, onFile);
    cut(
        onRank, rankOcc(them, kingRank), kingFile, nearOnRank,
        [&](unsigned occ) -> const LineAttacks& { return rankAttacks(kingFile, occ); },
        [&](int file) { return makeSquare(file, kingRank); }, blockers, screens);
    cut(
        onFile, fileOcc(them, kingFile), kingRank, nearOnFile,
        [&](unsigned occ) -> const LineAttacks& { return fileAttacks(kingRank, occ); },
        [&](int rank) { return makeSquare(kingFile, rank); }, blockers, screens);
    s.kingBlockers = blockers & pieces(side_);
    s.screenSquares = screens;
    s.safetyKnown = true;
}

// Flattened: both tests it ends in are calls otherwise, paid on most moves near the king.
[[gnu::flatten]] bool Position::isLegalNearKing(Move m) const {
    const Square from = fromSq(m), to = toSq(m);
    if (from != kingSq_[side_]) {
        if (inCheck())
            // A move that touches none of the squares the king's safety depends on leaves it in check.
            return mayCheck(kingSq_[side_], from, to) && isSafeAfter(m);
        // Out of check only the moves that passed isLegal's filter come here. A node tests few of them, so
        // testing each on the one line it touches costs less than computeKingSafety's blockers and screens
        // (which the legal move generator, testing every move, still uses).
        return isSafeAfterOutOfCheck(m);
    }
    return isSafeAfter(m);
}

bool Position::isSafeAfterOutOfCheck(Move m) const {
    const Square from = fromSq(m), to = toSq(m);
    const Square ksq = kingSq_[side_];
    const Color them = ~side_;
    const Geometry& g = geometry;
    const std::uint32_t fromBits = g.kingLineBits[ksq][from], toBits = g.kingLineBits[ksq][to];
    // The lines after the move; a piece captured on `to` attacks no more.
    return !((fromBits | toBits) &&
             lineAttacked(KindOn{board_}, ksq, fromBits | toBits, (linesThrough(ksq) & ~fromBits) | toBits,
                          linesThrough(them, ksq) & ~toBits)) &&
           !horseUncovered(ksq, from, pieces(them, KNIGHT) & ~squareBB(to));
}

bool Position::isSafeAfter(Move m) const {
    const Square from = fromSq(m), to = toSq(m);
    const Square ksq = from == kingSq_[side_] ? to : kingSq_[side_];
    const Color them = ~side_;
    const Bitboard occ = (occupied() ^ squareBB(from)) | squareBB(to);
    const Bitboard theirs = pieces(them) & ~squareBB(to);  // a captured piece attacks no more
    // The king's lines after the move: the current ones with `from` emptied and `to` taken by our piece.
    const std::uint32_t fromBits = geometry.kingLineBits[ksq][from], toBits = geometry.kingLineBits[ksq][to];
    const std::uint32_t lines = (linesThrough(ksq) & ~fromBits) | toBits;
    const std::uint32_t theirLines = linesThrough(them, ksq) & ~toBits;
    return !kingAttacked(board_, sets_, occ, theirs, them, ksq, lines, theirLines);
}

bool Position::captureIsLegal(Square from, Square to) const {
    const Piece pc = board_[from];
    const Color us = colorOf(pc);
    PieceSets after = sets_;
    const Bitboard fromTo = squareBB(from) | squareBB(to);
    if (board_[to] != NO_PIECE) {
        after.byColor[colorOf(board_[to])] ^= squareBB(to);
        after.byType[typeOf(board_[to])] ^= squareBB(to);
    }
    after.byColor[us] ^= fromTo;
    after.byType[typeOf(pc)] ^= fromTo;
    const Square ksq = typeOf(pc) == KING ? to : kingSq_[us];
    return !kingInDanger(after, us, ksq, after.occupied(), 0);
}

bool Position::isPinned(Square s) const {
    const Piece pc = board_[s];
    const Color us = colorOf(pc);
    if (typeOf(pc) == KING) return false;
    PieceSets lifted = sets_;
    lifted.byColor[us] ^= squareBB(s);
    lifted.byType[typeOf(pc)] ^= squareBB(s);
    return kingInDanger(lifted, us, kingSq_[us], lifted.occupied(), 0);
}

bool Position::givesCheck(Move m) const {
    const Square from = fromSq(m), to = toSq(m);
    PieceSets after = sets_;
    const Bitboard fromTo = squareBB(from) | squareBB(to);
    after.byColor[side_] ^= fromTo;
    after.byType[typeOf(board_[from])] ^= fromTo;
    if (board_[to] != NO_PIECE) {
        after.byColor[~side_] ^= squareBB(to);
        after.byType[typeOf(board_[to])] ^= squareBB(to);
    }
    return kingInDanger(after, ~side_, kingSq_[~side_], after.occupied(), 0);
}

bool Position::hasAttackingMaterial(Color c) const {
    // Advisors and elephants never cross the river; the king never leaves its palace.
    return pieces(c, ROOK) | pieces(c, KNIGHT) | pieces(c, CANNON) | pieces(c, PAWN);
}

}  // namespace xq
