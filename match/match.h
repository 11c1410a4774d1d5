// The match runner's public contract: what `xq match` and the gRPC worker call. A match plays game
// pairs (each opening twice, colours swapped) between two engine processes, `concurrency` games at
// once, and reports each finished pair as a pentanomial outcome from engines[0]'s side.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "board.h"
#include "openings.h"
#include "time_control.h"
#include "xiangqi/rules.h"

namespace xq::match {

// uci: as Pikafish speaks it. ucci: as ElephantEye speaks it (ucci/ucciok, go time/increment in ms,
// bestmove/nobestmove). fairy: UCI with UCI_Variant xiangqi and ranks 1-10 in move text, as
// Fairy-Stockfish speaks it. gtp: the Go Text Protocol (version 2) of Go engines such as GNU Go and xq-go,
// for Capture Go and Go (see gtp_session.h).
enum class Protocol { Uci, Ucci, Fairy, Gtp };

const char* protocolName(Protocol p);                          // "uci", "ucci", "fairy", "gtp"
std::optional<Protocol> parseProtocol(std::string_view name);  // nullopt for an unknown name

struct EngineConfig {
    std::string name;               // shown in PGN and reports
    std::string cmd;                // executable (PATH is searched)
    std::vector<std::string> args;  // command-line arguments
    Protocol protocol = Protocol::Uci;
    std::vector<std::pair<std::string, std::string>> options;  // setoption, in this order
    TimeControl tc;
    // The match's rule set as the value of a "Repetition Rule" option ("Asian", "Chinese"), set by the
    // match: sent when the engine declares that option and `options` does not set it, so that an engine
    // that can score repetitions as the referee will does so. Empty: not sent.
    std::string repetitionRule;
    // The game the engine plays, set by the match: it picks the move text the protocol reads and writes.
    games::Game game = games::Game::Xiangqi;
};

struct AdjudicationConfig {
    // Resign: both engines agree that one side leads by at least resignScore centipawns for
    // resignMoves consecutive moves each. resignMoves 0: off.
    int resignScore = 0;
    int resignMoves = 0;
    // Draw: from move number drawAfterMove on, both engines score within +-drawScore for drawMoves
    // consecutive moves each. drawMoves 0: off.
    int drawScore = 0;
    int drawMoves = 0;
    int drawAfterMove = 0;
    // A draw once the engines have played this many plies (opening moves not counted). 0: no limit.
    int maxPlies = 0;
    // What the rules core judges (move limit, repetition count).
    xq::RuleConfig rules;
};

struct MatchConfig {
    games::Game game = games::Game::Xiangqi;
    EngineConfig engines[2];
    int games = 2;  // total games; games/2 pairs are played (round an odd count up before)
    int concurrency = 1;
    std::vector<Opening> openings;  // of `game`; empty: every pair starts from the start position
    // The start position when there are no openings; empty: the game's (startFen). Capture Go's board size,
    // rule set and komi come this way (games::captureGoStartText).
    std::string startPosition;
    bool randomOrder = false;  // shuffle the openings with openingSeed before use
    std::uint64_t openingSeed = 0;
    // Pair i of this run is pair number firstPair + i of the whole test and plays
    // openings[(firstPair + i) % openings.size()] (after shuffling if randomOrder).
    int firstPair = 0;
    AdjudicationConfig adjudication;
    std::string pgnPath;  // games are appended here as they finish (Capture Go: as SGF); empty: none
    std::string event = "xq match";
    // How long an engine may take to start (uci...uciok, isready...readyok), and how long past its
    // deadline (or, with only nodes/depth limits, in all) it may think before it counts as stalled.
    int startupTimeoutMs = 10000;
    int stallTimeoutMs = 10000;
    // Give each game slot (its thread and both engines) CPUs of its own when there are enough for
    // all slots, each as wide as the engines' largest Threads option (see affinity.h). Off by
    // default: two runners on one machine would both pin to the first CPUs.
    bool pinSlots = false;
};

// How a game ended.
enum class GameEnd {
    Rules,               // the rules core: mate, stalemate, repetition verdicts, move limit, material
    ResignAdjudication,  // resign adjudication
    Resignation,         // an engine resigned (GTP's genmove answered "resign")
    DrawAdjudication,    // draw adjudication
    MaxLength,           // maxPlies reached
    EngineFailure,       // an engine crashed, stalled, lost on time or sent an illegal move/garbage
    Abandoned,           // the match was stopped while this game was in flight
};

enum class Failure { None, Crash, TimeLoss, IllegalMove, Stall };
const char* failureName(Failure f);  // "crash", "time loss", "illegal move", "stall"

struct Score {
    enum Kind { None, Cp, Mate } kind = None;
    int value = 0;  // centipawns, or moves to mate (negative: getting mated), from the mover's view

    // Centipawns for adjudication; mates count as +-100000.
    int centipawns() const { return kind == Mate ? (value > 0 ? 100000 : -100000) : value; }
};

struct MoveRecord {
    std::string move;  // engine notation: ICCS (h2e2) for Xiangqi, UCI (e2e4) for chess, D4/pass for Go
    Score score;       // the engine's last reported score before the move
    int depth = 0;
    std::int64_t nodes = 0;
    std::int64_t timeMs = 0;  // wall time from `go` to `bestmove`
    bool searched = true;     // false: a move a person made (xq play), written without a comment
};

struct GameRecord {
    int pairIndex = 0;   // firstPair-based number of the pair
    int gameInPair = 0;  // 0: engines[0] plays red; 1: colours swapped
    int redEngine = 0;   // index into MatchConfig::engines of the engine playing red
    std::string startFen;
    std::vector<std::string> openingMoves;  // book moves played before the engines
    std::vector<MoveRecord> moves;          // moves the engines chose
    xq::GameResult result = xq::GameResult::NONE;
    GameEnd end = GameEnd::Abandoned;
    std::string reason;     // for humans: "checkmate", "dev lost on time", "base crashed", ...
    int failedEngine = -1;  // engine index that failed (end == EngineFailure), else -1
    Failure failure = Failure::None;
    std::string date;  // UTC start, YYYY.MM.DD
    std::int64_t durationMs = 0;

    // 1, 0.5 or 0 for engine index e (0 or 1); only meaningful for a finished game.
    double scoreOf(int engine) const;
};

struct PairResult {
    int pairIndex = 0;
    GameRecord games[2];
    int pentaIndex = 0;  // 0..4 = LL, LD, DD+WL, WD, WW for engines[0]
};

struct EngineFailures {
    int crashes = 0, timeLosses = 0, illegalMoves = 0, stalls = 0;  // garbage counts as illegal
};

struct MatchTotals {
    std::array<long, 3> wdl{};    // wins, draws, losses of engines[0]
    std::array<long, 5> penta{};  // LL, LD, DD+WL, WD, WW of engines[0]
    EngineFailures failures[2];
    long pairs = 0;
    long plies = 0;  // moves the engines played (opening moves not counted)

    long games() const { return wdl[0] + wdl[1] + wdl[2]; }
    void add(const PairResult& pair);
};

class MatchRunner {
  public:
    // Throws std::invalid_argument for a configuration that cannot be played (no engine command, an
    // unlimited time control, fewer than one pair, concurrency < 1, ...).
    explicit MatchRunner(MatchConfig config);
    ~MatchRunner();

    // Plays games/2 pairs, `concurrency` games at once; onPair runs (never concurrently) as each pair
    // finishes; when `stop` becomes true, games in flight are abandoned unreported and run() returns
    // soon. Throws std::runtime_error when an engine cannot be started at all.
    MatchTotals run(const std::function<void(const PairResult&)>& onPair, const std::atomic<bool>& stop);

    // Optional: called (never concurrently) for every finished game, before its pair completes.
    void setGameCallback(std::function<void(const GameRecord&)> onGame);

    const MatchConfig& config() const { return config_; }
    // The CPUs of each slot; empty when slots are not pinned (pinSlots off, or too few CPUs).
    const std::vector<std::vector<int>>& slotCpus() const { return slotCpus_; }

  private:
    MatchConfig config_;
    std::vector<std::vector<int>> slotCpus_;
    std::function<void(const GameRecord&)> onGame_;
};

}  // namespace xq::match
