// The chess position (position.h): FEN, making and unmaking moves, keys and repetitions.
#include "position.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>

namespace xq::chess {

namespace {

struct Keys {
    std::uint64_t piece[16][64];
    std::uint64_t castling[16];
    std::uint64_t ep[8];
    std::uint64_t side;
    Keys() {
        std::uint64_t s = 0x2545F4914F6CDD1DULL;
        auto next = [&] {  // splitmix64: fixed keys, the same in every run
            std::uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
            return z ^ (z >> 31);
        };
        for (auto& p : piece)
            for (auto& k : p) k = next();
        for (auto& c : castling) c = next();
        for (auto& e : ep) e = next();
        side = next();
    }
};
const Keys& keys() {
    static const Keys k;
    return k;
}

// The castling rights that survive a move from or to each square.
constexpr std::array<std::uint8_t, 64> CASTLING_KEPT = [] {
    std::array<std::uint8_t, 64> a{};
    for (auto& x : a) x = 15;
    a[0] = 15 & ~WHITE_OOO;  // a1
    a[4] = 15 & ~(WHITE_OO | WHITE_OOO);
    a[7] = 15 & ~WHITE_OO;
    a[56] = 15 & ~BLACK_OOO;
    a[60] = 15 & ~(BLACK_OO | BLACK_OOO);
    a[63] = 15 & ~BLACK_OO;
    return a;
}();

constexpr const char* PIECE_CHARS = " PNBRQK  pnbrqk";

// A character of a FEN for a message: itself in quotes when printable, else its code (\x00).
std::string charText(char c) {
    if (c > ' ' && c < 127) return std::string("'") + c + "'";
    const char* hex = "0123456789abcdef";
    return std::string("byte \\x") + hex[(c >> 4) & 15] + hex[c & 15];
}

std::string squareName(Square s) {
    return {char('a' + fileOf(s)), char('1' + rankOf(s))};
}

}  // namespace

namespace zobrist {
std::uint64_t piece(Piece p, Square s) {
    return keys().piece[p][s];
}
std::uint64_t castling(int rights) {
    return keys().castling[rights & 15];
}
std::uint64_t ep(int file) {
    return keys().ep[file];
}
std::uint64_t side() {
    return keys().side;
}
}  // namespace zobrist

Position::Position() : Position(Empty{}) {
    setFen(START_FEN);
}

Position::Position(Empty) {
    initAttacks();
    clear();
}

void Position::clear() {
    std::memset(board_, 0, sizeof board_);
    std::memset(byType_, 0, sizeof byType_);
    std::memset(byColor_, 0, sizeof byColor_);
    stm_ = WHITE;
    history_.assign(1, State{});
    startMove_ = 1;
    startBlack_ = false;
}

void Position::put(Piece p, Square s) {
    board_[s] = p;
    byType_[typeOf(p)] |= bit(s);
    byColor_[colorOf(p)] |= bit(s);
}

void Position::remove(Square s) {
    Piece p = board_[s];
    byType_[typeOf(p)] &= ~bit(s);
    byColor_[colorOf(p)] &= ~bit(s);
    board_[s] = NO_PIECE;
}

void Position::move(Square from, Square to) {
    Piece p = board_[from];
    Bitboard both = bit(from) | bit(to);
    byType_[typeOf(p)] ^= both;
    byColor_[colorOf(p)] ^= both;
    board_[from] = NO_PIECE;
    board_[to] = p;
}

Bitboard Position::attackersTo(Square s, Bitboard occupied) const {
    return (pawnAttacks(BLACK, s) & pieces(WHITE, PAWN)) | (pawnAttacks(WHITE, s) & pieces(BLACK, PAWN)) |
           (knightAttacks(s) & pieces(KNIGHT)) | (kingAttacks(s) & pieces(KING)) |
           (bishopAttacks(s, occupied) & (pieces(BISHOP) | pieces(QUEEN))) |
           (rookAttacks(s, occupied) & (pieces(ROOK) | pieces(QUEEN)));
}

Bitboard Position::pinned(Color c) const {
    Square k = kingSquare(c);
    Bitboard snipers = ((rookAttacks(k, 0) & (pieces(ROOK) | pieces(QUEEN))) |
                        (bishopAttacks(k, 0) & (pieces(BISHOP) | pieces(QUEEN)))) &
                       pieces(~c);
    Bitboard out = 0;
    while (snipers) {
        Bitboard b = between(k, popLsb(snipers)) & pieces();
        if (b && !moreThanOne(b)) out |= b & pieces(c);
    }
    return out;
}

Square Position::epAfterDoubleStep(Color mover, Square to) const {
    Square behind = mover == WHITE ? to - 8 : to + 8;
    return (pawnAttacks(mover, behind) & pieces(~mover, PAWN)) ? behind : NO_SQUARE;
}

bool Position::setFen(std::string_view fen, std::string* error) {
    auto fail = [&](const std::string& why) {
        if (error) *error = "bad FEN '" + std::string(fen) + "': " + why;
        return false;
    };
    std::vector<std::string_view> fields;
    for (std::size_t i = 0; i < fen.size();) {
        while (i < fen.size() && fen[i] == ' ') ++i;
        std::size_t j = i;
        while (j < fen.size() && fen[j] != ' ') ++j;
        if (j > i) fields.push_back(fen.substr(i, j - i));
        i = j;
    }
    if (fields.size() < 4 || fields.size() > 6)
        return fail("wants 4 to 6 fields (board, side, castling, en passant, and the two move counters)");
    Position p{Empty{}};
    int rank = 7, file = 0;
    for (char c : fields[0]) {
        if (c == '/') {
            if (file != 8) return fail("rank " + std::to_string(rank + 1) + " does not have 8 squares");
            if (--rank < 0) return fail("more than 8 ranks");
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8) return fail("rank " + std::to_string(rank + 1) + " has more than 8 squares");
        } else {
            const char* at = std::strchr(PIECE_CHARS, c);
            if (!at || c == ' ' || c == '\0') return fail("no piece is called " + charText(c));
            if (file > 7) return fail("rank " + std::to_string(rank + 1) + " has more than 8 squares");
            p.put(Piece(at - PIECE_CHARS), makeSquare(file++, rank));
        }
    }
    if (rank != 0 || file != 8) return fail("the board does not have 8 full ranks");
    for (Color c : {WHITE, BLACK})
        if (popcount(p.pieces(c, KING)) != 1)
            return fail(std::string(c == WHITE ? "white" : "black") + " has " +
                        std::to_string(popcount(p.pieces(c, KING))) + " kings, not one");
    if (p.pieces(PAWN) & (rankBB(0) | rankBB(7))) return fail("a pawn stands on the first or last rank");
    if (fields[1] == "w") {
        p.stm_ = WHITE;
    } else if (fields[1] == "b") {
        p.stm_ = BLACK;
    } else {
        return fail("the side to move is '" + std::string(fields[1]) + "', not w or b");
    }
    State& s = p.history_.back();
    if (fields[2] != "-") {
        for (char c : fields[2]) {
            int right = c == 'K'   ? WHITE_OO
                        : c == 'Q' ? WHITE_OOO
                        : c == 'k' ? BLACK_OO
                        : c == 'q' ? BLACK_OOO
                                   : 0;
            if (!right) return fail(std::string("castling rights are K, Q, k, q or -, not '") + c + "'");
            Color c2 = right <= WHITE_OOO ? WHITE : BLACK;
            Square king = relative(c2, 4), rook = relative(c2, (right & (WHITE_OO | BLACK_OO)) ? 7 : 0);
            if (p.board_[king] != makePiece(c2, KING) || p.board_[rook] != makePiece(c2, ROOK))
                return fail(std::string("castling right ") + c + " without the king on " + squareName(king) +
                            " and a rook on " + squareName(rook));
            s.castling |= std::uint8_t(right);
        }
    }
    if (fields[3] != "-") {
        auto f = fields[3];
        Square want = NO_SQUARE;
        if (f.size() == 2 && f[0] >= 'a' && f[0] <= 'h' && f[1] >= '1' && f[1] <= '8')
            want = makeSquare(f[0] - 'a', f[1] - '1');
        if (want == NO_SQUARE) return fail("the en-passant square '" + std::string(f) + "' is not a square");
        Color mover = ~p.stm_;  // who made the double step
        Square pawn = mover == WHITE ? want + 8 : want - 8;
        if (rankOf(want) != (mover == WHITE ? 2 : 5) || p.board_[pawn] != makePiece(mover, PAWN) ||
            p.board_[want] != NO_PIECE)
            return fail("no pawn can have just passed " + std::string(f));
        s.ep = p.epAfterDoubleStep(mover, pawn);
    }
    auto number = [&](std::size_t i, int fallback, int minimum, const char* what, int& out) {
        out = fallback;
        if (fields.size() <= i) return true;
        auto t = fields[i];
        auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
        if (ec != std::errc() || end != t.data() + t.size() || out < minimum)
            return fail(std::string(what) + " is '" + std::string(t) + "', not a whole number of at least " +
                        std::to_string(minimum));
        return true;
    };
    int rule50 = 0, fullmove = 1;
    if (!number(4, 0, 0, "the halfmove clock", rule50) || !number(5, 1, 1, "the move number", fullmove))
        return false;
    s.rule50 = rule50;
    p.startMove_ = fullmove;
    p.startBlack_ = p.stm_ == BLACK;
    if (p.attackersTo(p.kingSquare(~p.stm_), p.pieces()) & p.pieces(p.stm_))
        return fail("the side not to move is in check");
    s.checkers = p.attackersTo(p.kingSquare(p.stm_), p.pieces()) & p.pieces(~p.stm_);
    std::uint64_t key = p.stm_ == BLACK ? zobrist::side() : 0;
    for (Bitboard b = p.pieces(); b;) {
        Square sq = popLsb(b);
        key ^= zobrist::piece(p.board_[sq], sq);
    }
    key ^= zobrist::castling(s.castling);
    if (s.ep != NO_SQUARE) key ^= zobrist::ep(fileOf(s.ep));
    s.key = key;
    *this = std::move(p);
    return true;
}

std::string Position::fen() const {
    std::string out;
    for (int r = 7; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < 8; ++f) {
            Piece p = board_[makeSquare(f, r)];
            if (p == NO_PIECE) {
                ++empty;
                continue;
            }
            if (empty) out += char('0' + empty);
            empty = 0;
            out += PIECE_CHARS[p];
        }
        if (empty) out += char('0' + empty);
        if (r) out += '/';
    }
    out += stm_ == WHITE ? " w " : " b ";
    int c = st().castling;
    if (!c) out += '-';
    if (c & WHITE_OO) out += 'K';
    if (c & WHITE_OOO) out += 'Q';
    if (c & BLACK_OO) out += 'k';
    if (c & BLACK_OOO) out += 'q';
    out += ' ';
    out += st().ep == NO_SQUARE ? "-" : squareName(st().ep);
    out += ' ' + std::to_string(st().rule50) + ' ' + std::to_string(fullmoveNumber());
    return out;
}

void Position::doMove(Move m) {
    const State& prev = history_.back();
    State next;
    next.move = m;
    next.rule50 = prev.rule50 + 1;
    std::uint64_t key = prev.key ^ zobrist::side() ^ zobrist::castling(prev.castling);
    if (prev.ep != NO_SQUARE) key ^= zobrist::ep(fileOf(prev.ep));
    Square from = m.from(), to = m.to();
    Piece p = board_[from];
    Color us = stm_;
    if (m.kind() == Move::CASTLING) {
        bool kingSide = to > from;
        Square rookFrom = relative(us, kingSide ? 7 : 0), rookTo = relative(us, kingSide ? 5 : 3);
        Piece rook = board_[rookFrom];
        move(from, to);
        move(rookFrom, rookTo);
        key ^= zobrist::piece(p, from) ^ zobrist::piece(p, to) ^ zobrist::piece(rook, rookFrom) ^
               zobrist::piece(rook, rookTo);
    } else {
        Square capSq = m.kind() == Move::EN_PASSANT ? (us == WHITE ? to - 8 : to + 8) : to;
        Piece captured = board_[capSq];
        if (captured != NO_PIECE) {
            key ^= zobrist::piece(captured, capSq);
            remove(capSq);
            next.captured = captured;
            next.rule50 = 0;
        }
        move(from, to);
        key ^= zobrist::piece(p, from) ^ zobrist::piece(p, to);
        if (typeOf(p) == PAWN) {
            next.rule50 = 0;
            if (m.kind() == Move::PROMOTION) {
                Piece promoted = makePiece(us, m.promotion());
                remove(to);
                put(promoted, to);
                key ^= zobrist::piece(p, to) ^ zobrist::piece(promoted, to);
            } else if ((from ^ to) == 16) {
                next.ep = epAfterDoubleStep(us, to);
            }
        }
    }
    next.castling = prev.castling & CASTLING_KEPT[from] & CASTLING_KEPT[to];
    key ^= zobrist::castling(next.castling);
    if (next.ep != NO_SQUARE) key ^= zobrist::ep(fileOf(next.ep));
    next.key = key;
    stm_ = ~us;
    next.checkers = attackersTo(kingSquare(stm_), pieces()) & pieces(us);
    history_.push_back(next);
}

void Position::undoMove() {
    State s = history_.back();
    history_.pop_back();
    stm_ = ~stm_;
    Color us = stm_;
    Move m = s.move;
    Square from = m.from(), to = m.to();
    if (m.kind() == Move::CASTLING) {
        bool kingSide = to > from;
        move(to, from);
        move(relative(us, kingSide ? 5 : 3), relative(us, kingSide ? 7 : 0));
        return;
    }
    if (m.kind() == Move::PROMOTION) {
        remove(to);
        put(makePiece(us, PAWN), to);
    }
    move(to, from);
    if (s.captured != NO_PIECE)
        put(s.captured, m.kind() == Move::EN_PASSANT ? (us == WHITE ? to - 8 : to + 8) : to);
}

int Position::repetitions() const {
    int n = 0;
    int last = int(history_.size()) - 1;
    int window = std::min(history_[last].rule50, last);
    for (int back = 4; back <= window; back += 2)
        if (history_[last - back].key == history_[last].key) ++n;
    return n;
}

}  // namespace xq::chess
