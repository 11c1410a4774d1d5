// Opening positions for matches: one per line, a FEN (or EPD: the first four fields) optionally
// followed by `moves m1 m2 ...` (ICCS for Xiangqi; UCI or SAN for chess; GTP points and pass for Capture
// Go), or `startpos [moves ...]`. A Capture Go line is a position text (capturego/position_text.h, seven
// fields: it carries the board size, the rule set and komi) or startpos (the empty 9x9 board, capture:1).
// Blank lines and lines starting with '#' are skipped.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "board.h"
#include "time_control.h"

namespace xq::match {

struct Opening {
    std::string fen;                 // normalised by the rules core (full six-field FEN)
    std::vector<std::string> moves;  // engine notation (ICCS, UCI), legal from fen, played before the engines

    bool operator==(const Opening&) const = default;
};

// Reads and checks every line (FEN validity, move legality); throws std::runtime_error with
// `path:line: what` on the first bad line, or when the file cannot be read or holds no opening.
std::vector<Opening> loadOpenings(const std::string& path, games::Game game = games::Game::Xiangqi);
// The same for text already in memory; `source` names it in errors.
std::vector<Opening> parseOpenings(std::string_view text, const std::string& source,
                                   games::Game game = games::Game::Xiangqi);

// Reorders the openings the same way for the same seed on every machine (workers must agree).
void shuffleOpenings(std::vector<Opening>& openings, std::uint64_t seed);

// Whether two engines bounded this way replay the same game from the same opening and colours: each is
// limited by nodes or depth alone (no clock, no move time) and neither searches with more than one thread.
// Past one pair per opening such a match adds copies, not information, while its error bars keep shrinking.
bool replaysIdentically(const TimeControl& a, const TimeControl& b, bool multiThreaded = false);
// Whether an engine option setting asks for more than one search thread ("Threads", any case).
bool asksForThreads(std::string_view option, std::string_view value);

// The warning for a match of at most maxGames games over `openings` openings (0: the start position only)
// whose pairs replay identically (replaysIdentically) past the book; empty when they cannot.
std::string repeatedPairsWarning(const TimeControl& a, const TimeControl& b, std::size_t openings,
                                 std::int64_t maxGames, bool multiThreaded = false);
// The warning for such a match started at pair firstPair (--openings start=) whose pairs run past the end of
// the book and wrap around to its first openings: a match started lower with the same order has played those
// pairs already, so chaining runs by start= repeats games without a sign. Empty when nothing wraps or the
// games vary; a run that wraps onto itself gets repeatedPairsWarning instead.
std::string wrappedPairsWarning(const TimeControl& a, const TimeControl& b, std::size_t openings,
                                int firstPair, std::int64_t maxGames, bool multiThreaded = false);

}  // namespace xq::match
