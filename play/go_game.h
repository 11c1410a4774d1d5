// One game of Capture Go between a person and a GTP engine (xq-go) for `xq play --game capturego`: the
// rules library is the referee (capturego::Game: occupied points, suicide and superko are refused with the
// reason in words; the capture target and two passes end the game), the engine is a real process spoken to
// through the match runner's GTP session (match::EngineClient with proto=gtp), and an engine that crashes,
// stalls, answers garbage or plays an illegal point loses the game by forfeit with the reason, never a hang.
// Not thread-safe: the server holds one lock per game.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "capturego/game.h"
#include "engine.h"

namespace xq::play {

// The page's levels 1..6 for xq-go: its Skill Level (0..20, goengine/engine.h) and the time per move.
struct GoLevel {
    int engineLevel = 20;
    int moveMs = 1000;
};
constexpr int GoMinLevel = 1, GoMaxLevel = 6;
GoLevel goLevelSettings(int level);  // clamps to GoMinLevel..GoMaxLevel

struct GoGameSettings {
    int size = capturego::kDefaultBoardSize;  // 5..19
    int target = 1;                           // stones to capture to win; 1 is Atari Go
    bool crosscut = false;                    // start from the crosscut instead of the empty board
    int level = 1;
    capturego::Color human = capturego::Color::Black;
    std::string engineCmd;  // a GTP engine's executable (xq-go)
    std::vector<std::string> engineArgs;
};

// The settings' problem in words ("the board size must be 5 to 19, not 4"); empty when they are usable.
std::string goSettingsProblem(const GoGameSettings& settings);

class GoPlayGame {
  public:
    // Starts the engine and, when it has the first move, plays it. Throws std::invalid_argument for bad
    // settings and std::runtime_error when the engine cannot start.
    explicit GoPlayGame(const GoGameSettings& settings);
    ~GoPlayGame();

    const GoGameSettings& settings() const { return settings_; }
    const capturego::Game& game() const { return game_; }
    const capturego::Position& position() const { return game_.position(); }
    bool over() const { return game_.isOver(); }
    bool humanToMove() const { return !over() && game_.toMove() == settings_.human; }
    capturego::Color engineColor() const { return capturego::opponent(settings_.human); }

    // The person's move: a point in GTP coordinates ("D4") or "pass". nullopt and the reason in words when
    // it is refused (not their turn, the game is over, an occupied point, suicide, superko, no such point).
    // Otherwise the engine answers at once unless the move ended the game; returns the engine's move ("D4",
    // "pass", "resign"; "" when none, e.g. the game ended or the engine failed).
    std::optional<std::string> play(const std::string& move, std::string* why);
    // Takes back the person's last move and the engine's answers after it; false (and why) when there is
    // none, or the game ended by a resignation of the person or the engine's failure.
    bool undo(std::string* why);
    bool resign();  // the person resigns; false when the game is over
    // The verdict in words: "Black wins: black captured 1 stone (target 1)", with the rule that decided
    // after two passes; "" while the game goes on.
    std::string verdictText() const;
    // What went wrong with the engine when it failed ("" otherwise).
    const std::string& engineFailure() const { return engineFailure_; }
    std::string sgf() const;

  private:
    void engineMove();
    void engineFails(const std::string& what);
    std::vector<std::string> moveTexts() const;

    GoGameSettings settings_;
    GoLevel level_;
    std::string startText_;  // the start position's text form, as the GTP session reads it
    capturego::Game game_;
    std::unique_ptr<match::EngineClient> engine_;
    match::TimeControl tc_;
    std::string engineFailure_;
    bool humanResigned_ = false;
};

// A refused point in words: "D4 is occupied", "D4 is suicide: the stone would have no liberty and
// captures nothing", "D4 repeats an earlier position (superko)".
std::string goRefusalInWords(const capturego::Position& pos, capturego::Move move);
// The rules' result in words with its winner: "White wins: ..." / "Draw: ...".
std::string goVerdictInWords(const capturego::Result& result);

}  // namespace xq::play
