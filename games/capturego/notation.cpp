#include "capturego/notation.h"

#include "capturego/concat.h"

namespace xq::capturego {

using detail::cat;
using detail::quoted;

namespace {

constexpr char kColumns[] = "ABCDEFGHJKLMNOPQRST";  // 19 letters, I skipped

std::string_view trim(std::string_view s) {
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    return s;
}

char upper(char c) {
    return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (upper(a[i]) != upper(b[i])) return false;
    return true;
}

}  // namespace

std::string pointName(Point p) {
    if (p.col < 0 || p.row < 0 || p.col >= kMaxBoardSize || p.row >= kMaxBoardSize)
        return cat("(", p.col, ",", p.row, ")");
    return cat(kColumns[p.col], p.row + 1);
}

std::string moveName(Move m) {
    return m.isPass() ? "pass" : pointName(m.point());
}

Point parsePoint(std::string_view rawText, int boardSize) {
    std::string_view text = trim(rawText);
    if (text.empty()) throw ParseError("empty point: expected a column letter and a row number, like D4");
    char letter = upper(text[0]);
    if (letter == 'I') throw ParseError(cat(quoted(text), ": GTP columns skip I (... H, J ...)"));
    int col = -1;
    for (int c = 0; c < kMaxBoardSize; ++c)
        if (kColumns[c] == letter) col = c;
    if (col < 0) {
        if (letter >= 'A' && letter <= 'Z')
            throw ParseError(
                cat(quoted(text), ": column ", text[0], " is beyond T (columns are A to T, I skipped)"));
        throw ParseError(cat(quoted(text), ": expected a column letter A to T first"));
    }
    std::size_t i = 1;
    if (i == text.size()) throw ParseError(cat(quoted(text), ": the row number is missing"));
    if (text[i] < '0' || text[i] > '9')
        throw ParseError(
            cat(quoted(text), ": expected a row number after the column, found '", text[i], "'"));
    if (text[i] == '0')
        throw ParseError(cat(quoted(text), ": rows count from 1 (no row 0, no leading zero)"));
    int row = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
        if (row > 1000) throw ParseError(cat(quoted(text), ": the row number is far too large"));
        row = row * 10 + (text[i++] - '0');
    }
    if (i != text.size())
        throw ParseError(cat(quoted(text), ": unexpected '", text[i], "' after the row number"));
    if (col >= boardSize || row > boardSize)
        throw ParseError(cat(kColumns[col], row, " is off the ", boardSize, "x", boardSize, " board"));
    return Point{col, row - 1};
}

Move parseMove(std::string_view rawText, int boardSize) {
    std::string_view text = trim(rawText);
    if (equalsIgnoringCase(text, "pass")) return Move::pass();
    if (equalsIgnoringCase(text, "resign"))
        throw ParseError("'resign' is not a board move (resigning ends the game)");
    if (text.empty()) throw ParseError("empty move: expected a point like D4, or pass");
    return Move::at(parsePoint(text, boardSize));
}

}  // namespace xq::capturego
