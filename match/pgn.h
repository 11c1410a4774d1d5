// Games as PGN with the Xiangqi headers (Variant "xiangqi", FEN/SetUp, Format "ICCS"), moves in ICCS
// with per-move comments {score/depth time} and the way the game ended.
#pragma once

#include <string>

#include "match.h"

namespace xq::match {

// `round` is the game's number in the match (1-based).
std::string formatPgn(const GameRecord& game, const MatchConfig& config, int round);
// Appends one game (text from formatPgn) to the file; throws std::runtime_error when it cannot.
void appendPgn(const std::string& path, const std::string& text);

// The PGN Termination tag for a game: "normal", "adjudication", "time forfeit", "rules infraction",
// "stalled connection", "emergency" (a crash) or "abandoned".
const char* terminationTag(const GameRecord& game);

}  // namespace xq::match
