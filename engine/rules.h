// Game-ending rules: checkmate, stalemate, Asian (AXF) repetition verdicts, the move limit and
// insufficient material; and ICCS move parsing with reasons.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "position.h"

namespace xq {

enum class GameResult { NONE, RED_WINS, BLACK_WINS, DRAW };

enum class EndReason {
    NONE,
    CHECKMATE,
    STALEMATE,
    PERPETUAL_CHECK,
    PERPETUAL_CHASE,
    REPETITION,
    MOVE_LIMIT,
    INSUFFICIENT_MATERIAL,
};

struct Verdict {
    GameResult result = GameResult::NONE;
    EndReason reason = EndReason::NONE;
    Color violator = RED;  // for perpetual check/chase: the side that lost by it

    bool isOver() const { return result != GameResult::NONE; }
};

const char* resultString(GameResult r);  // "1-0", "0-1", "1/2-1/2", "*"
// "checkmate", "perpetual check by red", ... (the reason as xq judge prints it)
std::string reasonString(const Verdict& v);

struct RuleConfig {
    // Plies without a capture after which the game is drawn: 120 is 60 moves by each side. The
    // Chinese Xiangqi Association's 40-round rule is 80.
    int moveLimitPlies = 120;
    // A repetition is judged when a position occurs for this many times.
    int repetitionCount = 3;
};

// How a repetition in a move sequence is judged, from the view of the side to move now.
enum class RepetitionOutcome { NONE, DRAW, WIN, LOSS };

// Judges the cycle between the current position and its occurrence `plies` plies ago (same side to
// move): a side all of whose moves were checks loses; otherwise a side all of whose moves chased one
// same piece loses (a move that answers a check chases nothing); both or neither: draw. Requires plies
// even, >= 4 and within the history.
RepetitionOutcome judgeCycle(Position& pos, int plies, Verdict* verdict = nullptr);

// For the searcher: if the current position repeats one earlier in the history (since the last capture
// or null move), the verdict of that cycle; NONE otherwise. Two occurrences are enough inside a search.
RepetitionOutcome searchRepetition(Position& pos);

// Everything that ends the game in the current position (mate, stalemate, repetition at the configured
// count, move limit, insufficient material), or a verdict with result NONE.
Verdict adjudicate(Position& pos, const RuleConfig& config = {});

// The pieces side `chaser` chases with the move that led to the current position: enemy pieces newly
// attacked and capturable to advantage (unprotected, or a rook attacked by a horse or cannon), never
// the king, never an uncrossed pawn, never by the king or a pawn. Squares of the chased pieces.
Bitboard chasedBy(Position& pos);

// Parses ICCS text ("h2e2") and checks legality in pos; on failure returns nullopt with the reason.
std::optional<Move> parseMove(const Position& pos, std::string_view text, std::string* why = nullptr);

}  // namespace xq
