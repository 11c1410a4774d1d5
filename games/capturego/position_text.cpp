#include "capturego/position_text.h"

#include <charconv>
#include <vector>

#include "capturego/concat.h"
#include "capturego/notation.h"

namespace xq::capturego {

using detail::cat;
using detail::quoted;

namespace {

std::vector<std::string_view> splitFields(std::string_view text) {
    std::vector<std::string_view> fields;
    std::size_t i = 0;
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (i < text.size()) {
        while (i < text.size() && space(text[i])) ++i;
        std::size_t start = i;
        while (i < text.size() && !space(text[i])) ++i;
        if (i > start) fields.push_back(text.substr(start, i - start));
    }
    return fields;
}

// A canonical whole number (no sign, no leading zero) up to `max`; nullopt otherwise.
std::optional<int> canonicalNumber(std::string_view s, int max) {
    if (s.empty() || s.size() > 9 || (s.size() > 1 && s[0] == '0')) return std::nullopt;
    for (char c : s)
        if (c < '0' || c > '9') return std::nullopt;
    int value = 0;
    std::from_chars(s.data(), s.data() + s.size(), value);
    if (value > max) return std::nullopt;
    return value;
}

}  // namespace

std::string positionText(const Position& pos) {
    std::string text;
    int n = pos.size();
    for (int row = n - 1; row >= 0; --row) {
        int run = 0;
        for (int col = 0; col < n; ++col) {
            Cell c = pos.at({col, row});
            if (c == Cell::Empty) {
                ++run;
                continue;
            }
            if (run) text += std::to_string(run), run = 0;
            text += c == Cell::Black ? 'X' : 'O';
        }
        if (run) text += std::to_string(run);
        if (row) text += '/';
    }
    text += pos.toMove() == Color::Black ? " b " : " w ";
    text += cat(pos.captures(Color::Black), " ", pos.captures(Color::White), " ", pos.consecutivePasses(),
                " ", ruleSetText(pos.rules()), " ", formatPoints(pos.rules().komi));
    return text;
}

Position parsePositionText(std::string_view text) {
    std::vector<std::string_view> fields = splitFields(text);
    static const char* const kFieldNames[] = {
        "the board", "the side to move", "black's captures", "white's captures", "the consecutive passes",
        "the rules", "the komi"};
    if (fields.empty()) throw ParseError("empty position text");
    if (fields.size() < 7)
        throw ParseError(cat("position text ends before ", kFieldNames[fields.size()],
                             " (expected: board side black-captures white-captures passes rules komi)"));
    if (fields.size() > 7) throw ParseError(cat("unexpected text after the komi: ", quoted(fields[7])));

    // The board: first the rows, to learn the size.
    std::vector<std::string_view> rows;
    for (std::size_t start = 0;;) {
        std::size_t slash = fields[0].find('/', start);
        rows.push_back(fields[0].substr(
            start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
        if (slash == std::string_view::npos) break;
        start = slash + 1;
    }
    int n = static_cast<int>(rows.size());
    if (n < kMinBoardSize || n > kMaxBoardSize)
        throw ParseError(cat("the board has ", n, " rows; boards are 5x5 to 19x19"));
    std::string boardName = cat(n, "x", n);

    Rules rules;
    std::string_view rulesText = fields[5];
    if (rulesText == "go") {
        rules = Rules::go(0);
    } else if (rulesText.substr(0, 8) == "capture:") {
        std::optional<int> target = canonicalNumber(rulesText.substr(8), 1000000);
        if (!target || *target < 1)
            throw ParseError(
                cat("capture target ", quoted(rulesText.substr(8)), " must be a whole number 1 or more"));
        rules = Rules::capture(*target, 0);
    } else {
        throw ParseError(cat("unknown rules ", quoted(rulesText), " (capture:<target> or go)"));
    }
    double komi = 0;
    if (!parsePoints(std::string(fields[6]), &komi) || formatPoints(komi) != fields[6])
        throw ParseError(
            cat("komi ", quoted(fields[6]), " is not a multiple of 0.5 written like 0, 7.5 or -3"));
    rules.komi = komi;

    Position pos(n, rules);
    for (int r = 0; r < n; ++r) {
        std::string_view row = rows[r];
        std::string rowName = cat("row ", r + 1, " from the top");
        int col = 0;
        for (std::size_t i = 0; i < row.size();) {
            char c = row[i];
            if (c == 'X' || c == 'O') {
                if (col < n) pos.setStone({col, n - 1 - r}, c == 'X' ? Cell::Black : Cell::White);
                ++col, ++i;
            } else if (c >= '0' && c <= '9') {
                std::size_t j = i;
                while (j < row.size() && j < i + 2 && row[j] >= '0' && row[j] <= '9') ++j;
                std::optional<int> runLength = canonicalNumber(row.substr(i, j - i), kMaxBoardSize);
                if (!runLength || *runLength == 0)
                    throw ParseError(cat(rowName, ": ", quoted(row.substr(i, j - i)),
                                         " is not a run of 1 to 19 empty points"));
                col += *runLength;
                i = j;
                if (i < row.size() && row[i] >= '0' && row[i] <= '9')
                    throw ParseError(
                        cat(rowName, ": runs of empty points are one or two digits, then a stone"));
            } else {
                throw ParseError(cat(rowName, ": unknown character '", c,
                                     "' (X black, O white, digits for empty points)"));
            }
        }
        if (col != n) throw ParseError(cat(rowName, " has ", col, " points on a ", boardName, " board"));
    }

    if (fields[1] == "b")
        pos.setToMove(Color::Black);
    else if (fields[1] == "w")
        pos.setToMove(Color::White);
    else
        throw ParseError(cat("unknown side ", quoted(fields[1]), " (b or w)"));
    std::optional<int> blackCaptures = canonicalNumber(fields[2], 1000000);
    if (!blackCaptures)
        throw ParseError(cat("black's captures ", quoted(fields[2]), " are not a whole number 0 or more"));
    std::optional<int> whiteCaptures = canonicalNumber(fields[3], 1000000);
    if (!whiteCaptures)
        throw ParseError(cat("white's captures ", quoted(fields[3]), " are not a whole number 0 or more"));
    std::optional<int> passes = canonicalNumber(fields[4], 1000000);
    if (!passes)
        throw ParseError(cat("consecutive passes ", quoted(fields[4]), " are not a whole number 0 or more"));
    pos.setCaptures(Color::Black, *blackCaptures);
    pos.setCaptures(Color::White, *whiteCaptures);
    pos.setConsecutivePasses(*passes);

    if (std::string problem = pos.validate(); !problem.empty()) throw ParseError(problem);
    if (rules.ruleSet == RuleSet::Capture && *blackCaptures >= rules.target && *whiteCaptures >= rules.target)
        throw ParseError(cat("black (", *blackCaptures, ") and white (", *whiteCaptures,
                             ") have both reached the capture target ", rules.target));
    return pos;
}

Position emptyPosition(int size, Rules rules) {
    return Position(size, rules);
}

Position crosscutPosition(int size, Rules rules) {
    Position pos(size, rules);
    int m = (size - 2) / 2;
    pos.setStone({m, m}, Cell::Black);
    pos.setStone({m + 1, m + 1}, Cell::Black);
    pos.setStone({m, m + 1}, Cell::White);
    pos.setStone({m + 1, m}, Cell::White);
    return pos;
}

std::string diagram(const Position& pos) {
    int n = pos.size();
    std::string letters = "   ";
    for (int col = 0; col < n; ++col) letters += pointName({col, 0})[0], letters += ' ';
    std::string text = cat(letters, "\n");
    for (int row = n - 1; row >= 0; --row) {
        std::string number = std::to_string(row + 1);
        text += cat(std::string(2 - number.size(), ' '), number, ' ');
        for (int col = 0; col < n; ++col) {
            Cell c = pos.at({col, row});
            text += c == Cell::Black ? 'X' : c == Cell::White ? 'O' : '.';
            text += ' ';
        }
        text += cat(number, "\n");
    }
    text += cat(letters, "\n", colorName(pos.toMove()), " to move; captures: black ",
                pos.captures(Color::Black), ", white ", pos.captures(Color::White), "\n");
    return text;
}

}  // namespace xq::capturego
