// Games as PGN with the Xiangqi headers (Variant "xiangqi", FEN/SetUp, Format "ICCS"), moves in ICCS
// with per-move comments {score/depth time} and the way the game ended.
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

// The tag pairs of each game of a PGN text, in order (`[Name "value"]`, with \" and \\ escapes), for
// tools that need who played whom and the result (ratings). Move text is skipped. Throws
// std::invalid_argument naming the line of a malformed tag.
std::vector<std::map<std::string, std::string>> readPgnTags(const std::string& text);

// The PGN Termination tag for a game: "normal", "adjudication", "time forfeit", "rules infraction",
// "stalled connection", "emergency" (a crash) or "abandoned".
const char* terminationTag(const GameRecord& game);

}  // namespace xq::match
