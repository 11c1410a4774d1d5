// Chess move text (notation.h).
#include "notation.h"

#include <cstring>

#include "movegen.h"

namespace xq::chess {

namespace {

constexpr const char* PROMOTION_CHARS = "nbrq";  // KNIGHT..QUEEN, in UCI text
constexpr const char* SAN_PIECES = "  NBRQK";    // by PieceType

Square parseSquare(std::string_view t) {
    if (t.size() != 2 || t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8') return NO_SQUARE;
    return makeSquare(t[0] - 'a', t[1] - '1');
}

PieceType sanPiece(char c) {
    switch (c) {
        case 'N':
            return KNIGHT;
        case 'B':
            return BISHOP;
        case 'R':
            return ROOK;
        case 'Q':
            return QUEEN;
        case 'K':
            return KING;
        default:
            return NO_TYPE;
    }
}

bool set(std::string* error, std::string text) {
    if (error) *error = std::move(text);
    return false;
}

}  // namespace

std::string squareText(Square s) {
    return {char('a' + fileOf(s)), char('1' + rankOf(s))};
}

std::string uciMove(Move m) {
    if (m.isNone()) return "0000";
    std::string out = squareText(m.from()) + squareText(m.to());
    if (m.kind() == Move::PROMOTION) out += PROMOTION_CHARS[m.promotion() - KNIGHT];
    return out;
}

std::optional<Move> parseUciMove(const Position& pos, std::string_view text, std::string* error) {
    std::string t(text);
    if (t.size() < 4 || t.size() > 5 || parseSquare(t.substr(0, 2)) == NO_SQUARE ||
        parseSquare(t.substr(2, 2)) == NO_SQUARE) {
        set(error, "'" + t + "' is not a move in UCI notation (like e2e4 or e7e8q)");
        return std::nullopt;
    }
    Square from = parseSquare(t.substr(0, 2)), to = parseSquare(t.substr(2, 2));
    PieceType promo = NO_TYPE;
    if (t.size() == 5) {
        for (PieceType p = KNIGHT; p <= QUEEN; p = PieceType(p + 1))
            if (PROMOTION_CHARS[p - KNIGHT] == t[4]) promo = p;
        if (promo == NO_TYPE) {
            set(error, "'" + t + "': a pawn promotes to n, b, r or q, not '" + t[4] + "'");
            return std::nullopt;
        }
    }
    for (Move m : legalMoves(pos)) {
        if (m.from() != from) continue;
        bool sameTo = m.to() == to;
        if (m.kind() == Move::CASTLING && !sameTo)  // the king-takes-rook form
            sameTo = to == relative(pos.sideToMove(), m.to() > m.from() ? 7 : 0);
        if (!sameTo) continue;
        if ((m.kind() == Move::PROMOTION) != (promo != NO_TYPE)) continue;
        if (promo != NO_TYPE && m.promotion() != promo) continue;
        return m;
    }
    set(error, "'" + t + "' is not a legal move in " + pos.fen());
    return std::nullopt;
}

std::string san(const Position& pos, Move m) {
    std::string out;
    if (m.kind() == Move::CASTLING) {
        out = m.to() > m.from() ? "O-O" : "O-O-O";
    } else {
        PieceType type = typeOf(pos.pieceOn(m.from()));
        bool capture = pos.pieceOn(m.to()) != NO_PIECE || m.kind() == Move::EN_PASSANT;
        if (type == PAWN) {
            if (capture) out += char('a' + fileOf(m.from()));
        } else {
            out += SAN_PIECES[type];
            // Disambiguation: by file if that is enough, else by rank, else by both.
            bool other = false, sameFile = false, sameRank = false;
            for (Move x : legalMoves(pos)) {
                if (x.to() != m.to() || x.from() == m.from() || typeOf(pos.pieceOn(x.from())) != type)
                    continue;
                other = true;
                sameFile |= fileOf(x.from()) == fileOf(m.from());
                sameRank |= rankOf(x.from()) == rankOf(m.from());
            }
            if (other) {
                if (!sameFile) {
                    out += char('a' + fileOf(m.from()));
                } else if (!sameRank) {
                    out += char('1' + rankOf(m.from()));
                } else {
                    out += squareText(m.from());
                }
            }
        }
        if (capture) out += 'x';
        out += squareText(m.to());
        if (m.kind() == Move::PROMOTION) out += std::string("=") + SAN_PIECES[m.promotion()];
    }
    Position after = pos;
    after.doMove(m);
    if (after.inCheck()) out += legalMoves(after).size == 0 ? '#' : '+';
    return out;
}

std::optional<Move> parseSan(const Position& pos, std::string_view text, std::string* error) {
    std::string t(text);
    auto trim = [&] {
        while (!t.empty() && std::strchr(" +#!?", t.back())) t.pop_back();
        while (!t.empty() && t.front() == ' ') t.erase(0, 1);
    };
    trim();
    if (t.size() > 4 && t.compare(t.size() - 4, 4, "e.p.") == 0) t.resize(t.size() - 4);
    trim();
    auto fail = [&](const std::string& why) {
        set(error, "'" + std::string(text) + "' " + why + " in " + pos.fen());
        return std::nullopt;
    };
    MoveList legal = legalMoves(pos);
    if (t == "O-O" || t == "0-0" || t == "O-O-O" || t == "0-0-0") {
        bool kingSide = t.size() == 3;
        for (Move m : legal)
            if (m.kind() == Move::CASTLING && (m.to() > m.from()) == kingSide) return m;
        return fail("is not a legal castling");
    }
    std::string s;
    for (char c : t)
        if (c != 'x' && c != ':' && c != '-') s += c;
    PieceType promo = NO_TYPE;
    if (!s.empty() && sanPiece(s.back()) != NO_TYPE && s.back() != 'K' && s.size() >= 3) {
        promo = sanPiece(s.back());
        s.pop_back();
        if (!s.empty() && s.back() == '=') s.pop_back();
    }
    PieceType type = PAWN;
    if (!s.empty() && sanPiece(s[0]) != NO_TYPE) {
        type = sanPiece(s[0]);
        s.erase(0, 1);
    }
    if (s.size() < 2 || parseSquare(s.substr(s.size() - 2)) == NO_SQUARE)
        return fail("is not a move in SAN (like e4, Nf3, exd5, O-O or e8=Q)");
    Square to = parseSquare(s.substr(s.size() - 2));
    std::string from = s.substr(0, s.size() - 2);
    int fromFile = -1, fromRank = -1;
    for (char c : from) {
        if (c >= 'a' && c <= 'h' && fromFile < 0) {
            fromFile = c - 'a';
        } else if (c >= '1' && c <= '8' && fromRank < 0) {
            fromRank = c - '1';
        } else {
            return fail("is not a move in SAN (like e4, Nf3, exd5, O-O or e8=Q)");
        }
    }
    std::optional<Move> found;
    for (Move m : legal) {
        if (m.kind() == Move::CASTLING || m.to() != to || typeOf(pos.pieceOn(m.from())) != type) continue;
        if (fromFile >= 0 && fileOf(m.from()) != fromFile) continue;
        if (fromRank >= 0 && rankOf(m.from()) != fromRank) continue;
        if ((m.kind() == Move::PROMOTION) != (promo != NO_TYPE)) continue;
        if (promo != NO_TYPE && m.promotion() != promo) continue;
        if (found) return fail("is ambiguous");
        found = m;
    }
    if (!found) return fail("is not a legal move");
    return found;
}

}  // namespace xq::chess
