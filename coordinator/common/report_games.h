// The games a worker sends with a report: gzip-compressed game records, with the limits and the check both
// sides apply (the worker before it sends, the coordinator before it stores).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace xq::coord {

constexpr std::size_t MaxReportPgnBytes = 1 << 20;       // compressed, per report
constexpr std::size_t MaxReportPgnTextBytes = 16 << 20;  // inflated: guards against gzip bombs

// The record format of a test's games: PGN (Xiangqi, chess) or SGF (Capture Go, one game tree a game).
enum class GameRecords { Pgn, Sgf };

// Checks a report's gzip PGN (or SGF): it inflates within the limits and holds exactly `games` games
// (counted by their [Event tags, or by countSgfGameTrees). Throws std::invalid_argument saying what is wrong.
void checkReportPgn(std::string_view pgnGz, std::int64_t games, GameRecords format = GameRecords::Pgn);

// The game trees of an SGF collection: the '(' at the top level, outside property values ("[...]", with
// "\]" escaped). -1 when the text is not a collection of game trees (a stray ')' or text outside them,
// an unclosed tree or value).
std::int64_t countSgfGameTrees(std::string_view sgf);

}  // namespace xq::coord
