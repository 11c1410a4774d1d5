#include "openings.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "board.h"
#include "text.h"
#include "util/text.h"

namespace xq::match {

namespace {

bool isNumber(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

// One line to an opening's position and moves as written (checkOpening looks at them), into `out`; with
// no `out`, only whether the line has an opening's shape. Throws std::runtime_error with the reason (the
// caller adds file:line). `tokens` is the caller's, kept between lines so that a book of thousands of lines
// splits them without allocating at each.
void parseLine(std::string_view line, games::Game game, std::vector<std::string_view>& tokens, Opening* out) {
    xq::wordViews(line, tokens);
    if (tokens.empty()) throw std::runtime_error("an empty line");  // the caller skips blank lines first

    const std::size_t movesAt =
        std::size_t(std::find(tokens.begin(), tokens.end(), std::string_view("moves")) - tokens.begin());
    if (tokens[0] == "startpos" && tokens.size() > 1 && movesAt != 1)
        throw std::runtime_error("after 'startpos' only 'moves ...' may follow");
    if (game != games::Game::CaptureGo && tokens[0] != "startpos" && movesAt < 2)
        throw std::runtime_error("expected a FEN (board and side to move)" +
                                 std::string(movesAt < tokens.size() ? " before 'moves'" : "") + ", got '" +
                                 std::string(line) + "'");
    if (!out) return;

    std::string fen;
    const auto field = [&fen](std::string_view f) {
        if (!fen.empty()) fen += ' ';
        fen += f;
    };
    if (game == games::Game::CaptureGo && tokens[0] != "startpos") {
        // The position text form: seven fields (capturego/position_text.h).
        for (std::size_t i = 0; i < movesAt; ++i) field(tokens[i]);
    } else if (tokens[0] == "startpos") {
        fen = games::startFen(game);
    } else {
        // FEN: board and side, then castling and en-passant fields (always '-' in Xiangqi), then the
        // two counters. EPD lines stop after four fields and carry operations we ignore (bm, c0, ...).
        const bool counters = movesAt > 4 && isNumber(tokens[4]);
        fen.reserve(tokens[0].size() + 20);
        field(tokens[0]);
        field(tokens[1]);
        field(movesAt > 2 ? tokens[2] : "-");
        field(movesAt > 3 ? tokens[3] : "-");
        field(counters ? tokens[4] : "0");
        field(counters && movesAt > 5 && isNumber(tokens[5]) ? tokens[5] : "1");
    }

    out->fen = std::move(fen);
    const std::size_t firstMove = std::min(movesAt + 1, tokens.size());
    out->moves.clear();
    out->moves.reserve(tokens.size() - firstMove);
    for (std::size_t i = firstMove; i < tokens.size(); ++i) out->moves.emplace_back(tokens[i]);
}

}  // namespace

void parseOpening(Opening& opening, games::Game game) {
    if (opening.line.empty()) return;
    std::vector<std::string_view> tokens;
    parseLine(opening.line, game, tokens, &opening);
    opening.line.clear();
    opening.line.shrink_to_fit();
}

void checkOpening(Opening& opening, games::Game game) {
    if (opening.checked) return;
    parseOpening(opening, game);
    std::unique_ptr<games::Board> board;
    try {
        board = games::makeBoard(game, opening.fen);
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(e.what());
    }
    opening.fen = board->fen();
    for (std::size_t i = 0; i < opening.moves.size(); ++i) {
        std::string why;
        // Xiangqi keeps the text as written (ICCS); chess keeps UCI, the engines' notation, for SAN too.
        // Capture Go keeps the canonical GTP text ("D4", "pass") whatever the case written.
        std::optional<std::string> move;
        if (game == games::Game::Xiangqi)
            move = opening.moves[i];
        else
            move = board->readMove(opening.moves[i], &why);
        if (!move || !board->play(*move, &why))
            throw std::runtime_error("move " + std::to_string(i + 1) + " '" + opening.moves[i] + "': " + why);
        opening.moves[i] = std::move(*move);
    }
    opening.checked = true;
}

std::vector<Opening> parseOpenings(std::string_view text, const std::string& source, games::Game game,
                                   OpeningCheck check) {
    std::vector<Opening> openings;
    int lineNo = 0;
    std::vector<std::string_view> tokens;
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        std::string_view line = text.substr(at, end - at);
        at = end + 1;
        // A byte-order mark, as some editors write, is not part of the first line's text.
        if (lineNo == 0 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        // Blank: any white space the line reader splits on (a lone '\r' of a mixed line ending too).
        std::size_t first = line.find_first_not_of(" \t\r\n\v\f");
        if (first == std::string_view::npos || line[first] == '#') continue;
        std::string origin = source + ":" + std::to_string(lineNo);
        try {
            Opening opening;
            if (check == OpeningCheck::Every) {
                parseLine(line, game, tokens, &opening);
                checkOpening(opening, game);
            } else {
                parseLine(line, game, tokens, nullptr);  // the shape only; the rest when it is played
                opening.line = line;
            }
            opening.origin = std::move(origin);
            openings.push_back(std::move(opening));
        } catch (const std::exception& e) {
            throw std::runtime_error(origin + ": " + e.what());
        }
    }
    if (openings.empty()) throw std::runtime_error(source + ": no openings found");
    return openings;
}

std::vector<Opening> loadOpenings(const std::string& path, games::Game game, OpeningCheck check) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw std::runtime_error(path + ": a directory, not a file");
    std::ifstream file(path, std::ios::binary);
    if (!file) throw std::runtime_error(path + ": cannot open the openings file");
    // A file is read at its size in one piece (through a string stream, a book of thousands of lines is
    // copied twice); a pipe (file=<(zcat book.epd.gz)) has no size and is read to its end.
    std::string text;
    const auto size = std::filesystem::is_regular_file(path, ec) ? std::filesystem::file_size(path, ec) : 0;
    if (size > 0 && !ec) {
        text.resize(std::size_t(size));
        file.read(text.data(), std::streamsize(size));
        text.resize(std::size_t(file.gcount()));
    } else {
        std::ostringstream all;
        all << file.rdbuf();
        text = std::move(all).str();
    }
    if (file.bad()) throw std::runtime_error(path + ": cannot read the openings file");
    return parseOpenings(text, path, game, check);
}

void shuffleOpenings(std::vector<Opening>& openings, std::uint64_t seed) {
    // splitmix64 and our own Fisher-Yates: std::shuffle's algorithm differs between libraries, and
    // workers on different machines must play the same opening for the same pair.
    std::uint64_t state = seed;
    auto next = [&state] {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    };
    for (std::size_t i = openings.size(); i > 1; --i) {
        std::size_t j = std::size_t(next() % i);
        std::swap(openings[i - 1], openings[j]);
    }
}

bool replaysIdentically(const TimeControl& a, const TimeControl& b, bool multiThreaded) {
    const auto fixedWork = [](const TimeControl& tc) {
        return !tc.hasClock() && tc.moveTimeMs == 0 && (tc.nodes > 0 || tc.depth > 0);
    };
    return fixedWork(a) && fixedWork(b) && !multiThreaded;
}

bool asksForThreads(std::string_view option, std::string_view value) {
    if (!equalsIgnoringCase(option, "Threads")) return false;
    int threads = 0;
    std::from_chars(value.data(), value.data() + value.size(), threads);
    return threads > 1;
}

std::string repeatedPairsWarning(const TimeControl& a, const TimeControl& b, std::size_t openings,
                                 std::int64_t maxGames, bool multiThreaded) {
    const std::int64_t distinctPairs = std::int64_t(std::max<std::size_t>(openings, 1));
    if (!replaysIdentically(a, b, multiThreaded) || maxGames / 2 <= distinctPairs) return {};
    return std::to_string(maxGames) + " games from " + std::to_string(distinctPairs) +
           (openings == 0 ? " start position" : " openings") +
           " at a node or depth limit: single-threaded engines play each pair again identically after " +
           std::to_string(2 * distinctPairs) +
           " games, so the repeats narrow the error bars without new information; use more openings or a "
           "time limit";
}

std::string wrappedPairsWarning(const TimeControl& a, const TimeControl& b, std::size_t openings,
                                int firstPair, std::int64_t maxGames, bool multiThreaded) {
    const std::int64_t distinctPairs = std::int64_t(std::max<std::size_t>(openings, 1));
    const std::int64_t pairs = (maxGames + 1) / 2, first = firstPair % distinctPairs;
    if (!replaysIdentically(a, b, multiThreaded) || first == 0 || pairs > distinctPairs ||
        first + pairs <= distinctPairs)
        return {};
    const std::string wrapped = std::to_string(first + pairs - distinctPairs);
    return "the last " + wrapped + " of the " + std::to_string(pairs) +
           " pairs from start=" + std::to_string(firstPair) + " wrap around to the book's first " + wrapped +
           " openings at a node or depth limit: a run that started lower with the same order and limits has "
           "played those pairs already, identically";
}

}  // namespace xq::match
