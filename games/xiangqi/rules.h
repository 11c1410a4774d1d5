// Game-ending rules: checkmate, stalemate, repetition verdicts under the Asian (AXF) or the Chinese
// competition rules, the move limit and insufficient material; and ICCS move parsing with reasons.
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
    PERPETUAL_MATE_THREAT,  // Chinese rules: a threat to mate on every move
    PERPETUAL_THREATS,      // Chinese rules: a threat on every move, of more than one kind
    REPETITION,
    MOVE_LIMIT,
    INSUFFICIENT_MATERIAL,
};

struct Verdict {
    GameResult result = GameResult::NONE;
    EndReason reason = EndReason::NONE;
    Color violator = RED;  // for perpetual check/chase: the side that lost by it
    // For PERPETUAL_THREATS: the kinds of threat the violator mixed (ThreatKind bits).
    unsigned kinds = 0;

    bool isOver() const { return result != GameResult::NONE; }
};

// The kinds of threat a repetition verdict names.
enum ThreatKind : unsigned {
    THREAT_CHECK = 1,
    THREAT_CHASE = 2,
    THREAT_MATE = 4,
    THREAT_DISCOVERED_WIN = 8,  // a threat to win material by a discovered check
};

// Which rules judge repetitions (and the default move limit): the Asian Xiangqi Federation's, or the
// Chinese Xiangqi Association's competition rules.
enum class RuleSet { ASIAN, CHINESE };
const char* ruleSetName(RuleSet r);  // "asian", "chinese"
// Parses "asian" or "chinese" (any case); nullopt for anything else.
std::optional<RuleSet> parseRuleSet(std::string_view text);
// The move limit in plies without a capture: 60 moves by each side under the Asian rules, 40 under the
// Chinese.
int defaultMoveLimitPlies(RuleSet r);

const char* resultString(GameResult r);  // "1-0", "0-1", "1/2-1/2", "*"
// "checkmate", "perpetual check by red", ... (the reason as xq judge prints it)
std::string reasonString(const Verdict& v);

struct RuleConfig {
    RuleSet ruleSet = RuleSet::ASIAN;
    // Plies without a capture after which the game is drawn: 120 is 60 moves by each side. The
    // Chinese Xiangqi Association's 40-round rule is 80.
    int moveLimitPlies = 120;
    // A repetition is judged when a position occurs for this many times.
    int repetitionCount = 3;
};

// How a repetition in a move sequence is judged, from the view of the side to move now.
enum class RepetitionOutcome { NONE, DRAW, WIN, LOSS };

// Judges the cycle between the current position and its occurrence `plies` plies ago (same side to
// move). A move that answers a check threatens nothing but the check it may give. Requires plies even,
// >= 4 and within the history.
// - Asian rules: a side all of whose moves were checks loses; otherwise a side all of whose moves chased
//   one same piece loses; both or neither: draw.
// - Chinese rules: a side all of whose moves were checks loses, unless the other side checked too (check
//   answered by check); otherwise a side all of whose moves threatened (check, chase of any piece, mate
//   threat, threat to win material by a discovered check, in any mixture) loses, unless the other side
//   threatened too (two attacks answered by one or two); otherwise a draw.
RepetitionOutcome judgeCycle(Position& pos, int plies, RuleSet rules, Verdict* verdict = nullptr);

// For the searcher: if the current position repeats one earlier in the history (since the last capture
// or null move), the verdict of that cycle; NONE otherwise. Two occurrences are enough inside a search.
RepetitionOutcome searchRepetition(Position& pos, RuleSet rules = RuleSet::ASIAN);

// Everything that ends the game in the current position (mate, stalemate, repetition at the configured
// count, move limit, insufficient material), or a verdict with result NONE.
Verdict adjudicate(Position& pos, const RuleConfig& config = {});

// Parses ICCS text ("h2e2") and checks legality in pos; on failure returns nullopt with the reason.
std::optional<Move> parseMove(const Position& pos, std::string_view text, std::string* why = nullptr);

}  // namespace xq
