#include "openings.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "board.h"
#include "text.h"
#include "util/text.h"

namespace xq::match {

namespace {

bool isNumber(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

// One line to an opening, its position and moves as written (checkOpening looks at them); throws
// std::runtime_error with the reason (the caller adds file:line).
Opening parseLine(const std::string& line, games::Game game) {
    const std::vector<std::string> tokens = xq::words(line);
    if (tokens.empty()) throw std::runtime_error("an empty line");  // the caller skips blank lines first

    std::size_t movesAt = tokens.size();
    for (std::size_t i = 0; i < tokens.size(); ++i)
        if (tokens[i] == "moves") {
            movesAt = i;
            break;
        }

    std::string fen;
    if (game == games::Game::CaptureGo && tokens[0] != "startpos") {
        // The position text form: seven fields (capturego/position_text.h).
        for (std::size_t i = 0; i < movesAt; ++i) fen += (i ? " " : "") + tokens[i];
    } else if (tokens[0] == "startpos") {
        if (tokens.size() > 1 && movesAt != 1)
            throw std::runtime_error("after 'startpos' only 'moves ...' may follow");
        fen = games::startFen(game);
    } else {
        // FEN: board and side, then castling and en-passant fields (always '-' in Xiangqi), then the
        // two counters. EPD lines stop after four fields and carry operations we ignore (bm, c0, ...).
        if (movesAt < 2)
            throw std::runtime_error("expected a FEN (board and side to move)" +
                                     std::string(movesAt < tokens.size() ? " before 'moves'" : "") +
                                     ", got '" + line + "'");
        std::string castling = movesAt > 2 ? tokens[2] : "-";
        std::string ep = movesAt > 3 ? tokens[3] : "-";
        std::string half = movesAt > 4 && isNumber(tokens[4]) ? tokens[4] : "0";
        std::string full = movesAt > 5 && isNumber(tokens[4]) && isNumber(tokens[5]) ? tokens[5] : "1";
        fen = tokens[0] + " " + tokens[1] + " " + castling + " " + ep + " " + half + " " + full;
    }

    Opening opening;
    opening.fen = std::move(fen);
    opening.moves.assign(tokens.begin() + std::ptrdiff_t(std::min(movesAt + 1, tokens.size())), tokens.end());
    return opening;
}

}  // namespace

void checkOpening(Opening& opening, games::Game game) {
    if (opening.checked) return;
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
    std::string line;
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        line.assign(text.substr(at, end - at));
        at = end + 1;
        // A byte-order mark, as some editors write, is not part of the first line's text.
        if (lineNo == 0 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        // Blank: any white space the line reader splits on (a lone '\r' of a mixed line ending too).
        std::size_t first = line.find_first_not_of(" \t\r\n\v\f");
        if (first == std::string::npos || line[first] == '#') continue;
        std::string origin = source + ":" + std::to_string(lineNo);
        try {
            Opening opening = parseLine(line, game);
            if (check == OpeningCheck::Every) checkOpening(opening, game);
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
    std::ifstream file(path, std::ios::binary);
    if (!file) throw std::runtime_error(path + ": cannot open the openings file");
    std::ostringstream text;
    text << file.rdbuf();
    return parseOpenings(text.str(), path, game, check);
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
