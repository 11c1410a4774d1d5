// Opening positions for matches: one per line, a FEN (or EPD: the first four fields) optionally
// followed by `moves m1 m2 ...` (ICCS for Xiangqi; UCI or SAN for chess; GTP points and pass for Capture
// Go), or `startpos [moves ...]`. A Capture Go line is a position text (capturego/position_text.h, seven
// fields: it carries the board size, the rule set and komi) or startpos (the empty 9x9 board, capture:1).
// Blank lines and lines starting with '#' are skipped.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "board.h"
#include "time_control.h"

namespace xq::match {

struct Opening {
    Opening() = default;
    Opening(std::string position, std::vector<std::string> played)
        : fen(std::move(position)), moves(std::move(played)) {}

    std::string fen;                 // normalised by the rules core (full six-field FEN) once checked
    std::vector<std::string> moves;  // engine notation (ICCS, UCI), legal from fen, played before the engines
    // A book read with OpeningCheck::Deferred keeps each line as written here, fen and moves empty, until
    // parseOpening or checkOpening reads it; empty otherwise.
    std::string line;
    // Where it was read ("book.epd:12"), for errors; empty for an opening made in code.
    std::string origin;
    // fen and moves are known legal and in the form above (checkOpening ran). A book read with
    // OpeningCheck::Deferred leaves this false: MatchRunner checks the openings its match plays.
    bool checked = false;

    bool operator==(const Opening& o) const { return fen == o.fen && moves == o.moves && line == o.line; }
};

// How much of a book is checked as it is read. Every: each line's position and moves, which a book that
// workers share needs. Deferred: only the shape of each line (FEN fields, `moves`), which is kept as written
// (Opening::line), so that a short local match does not pay for the lines it never plays; the match reads
// and checks the ones it plays before it starts.
enum class OpeningCheck { Every, Deferred };

// Reads `path`; throws std::runtime_error with `path:line: what` on the first bad line (as far as `check`
// looks), or when the file cannot be read or holds no opening.
std::vector<Opening> loadOpenings(const std::string& path, games::Game game = games::Game::Xiangqi,
                                  OpeningCheck check = OpeningCheck::Every);
// The same for text already in memory; `source` names it in errors.
std::vector<Opening> parseOpenings(std::string_view text, const std::string& source,
                                   games::Game game = games::Game::Xiangqi,
                                   OpeningCheck check = OpeningCheck::Every);
// Reads the line a Deferred read kept into fen and moves, as written (not checked); does nothing to an
// opening without one.
void parseOpening(Opening& opening, games::Game game);
// Checks an opening's position and moves (read from its line first, if it has one) and brings them to the
// form Opening describes; throws std::runtime_error with the reason. Does nothing to one already checked.
void checkOpening(Opening& opening, games::Game game);

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
