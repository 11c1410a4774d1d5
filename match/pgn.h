// Games as PGN: Xiangqi with its headers (Variant "xiangqi", FEN/SetUp, Format "ICCS") and moves in ICCS;
// chess as the PGN standard has it (White/Black, SAN); per-move comments {score/depth time} and the way
// the game ended.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "match.h"

namespace xq::match {

// `round` is the game's number in the match (1-based).
std::string formatPgn(const GameRecord& game, const MatchConfig& config, int round);
// Appends one game (text from formatPgn) to the file; throws std::runtime_error when it cannot.
void appendPgn(const std::string& path, const std::string& text);

// One game of a PGN text: its tag pairs (`[Name "value"]`, with \" and \\ escapes) and its moves as
// written (ICCS for our files), without move numbers, comments ({...} and ; to the line's end),
// variations, NAGs or the result.
struct PgnGame {
    std::map<std::string, std::string> tags;
    std::vector<std::string> moves;
    std::size_t line = 0;  // of its first tag
};

// Every game of a PGN text, in order. Throws std::invalid_argument naming the line of a malformed tag or
// an unterminated comment or variation.
std::vector<PgnGame> readPgnGames(const std::string& text);
// The tag pairs of each game, for tools that need only who played whom and the result (ratings).
std::vector<std::map<std::string, std::string>> readPgnTags(const std::string& text);

// The PGN Termination tag for a game: "normal", "adjudication", "time forfeit", "rules infraction",
// "stalled connection", "emergency" (a crash) or "abandoned".
const char* terminationTag(const GameRecord& game);

}  // namespace xq::match
