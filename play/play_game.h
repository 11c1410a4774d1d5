// One game between a person and the engine: the position and its history under a rule set, the
// engine's process at the chosen level, and what the page asks of it (a move, undo, a hint, the
// evaluation, the PGN). Not thread-safe: the server holds one lock per game.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine.h"
#include "xiangqi/position.h"
#include "xiangqi/rules.h"

namespace xq::play {

// Levels from 1 (beginner) to 6 ("senior"): the engine's Skill Level and its time per move.
struct Level {
    int skill = 20;
    int moveMs = 1000;
};
constexpr int MinLevel = 1, MaxLevel = 6;
Level levelSettings(int level);  // clamps to MinLevel..MaxLevel

struct GameSettings {
    std::string fen = Position::StartFEN;
    RuleSet rules = RuleSet::ASIAN;
    int level = 1;
    Color human = RED;
    std::string engineCmd;  // the engine's executable (UCI)
};

// The engine's view of a position: its best move and score from the side to move's view.
struct EngineAdvice {
    std::string move;
    match::Score score;
    int depth = 0;
    std::int64_t timeMs = 0;
};

class PlayGame {
  public:
    // Starts the engine and, when the engine has the first move, plays it. Throws std::invalid_argument
    // for a bad FEN (naming what is wrong) and std::runtime_error when the engine cannot start or move.
    explicit PlayGame(const GameSettings& settings);

    const GameSettings& settings() const { return settings_; }
    const Position& position() const { return pos_; }
    const std::vector<std::string>& moves() const { return moves_; }
    const Verdict& verdict() const { return verdict_; }
    bool humanToMove() const { return !verdict_.isOver() && pos_.sideToMove() == settings_.human; }

    // The person's move in ICCS; nullopt and the reason when it is refused (not their turn, the game is
    // over, or the move is illegal: "this move leaves the generals facing", ...). Otherwise the engine
    // answers at once, unless the move ended the game; returns the engine's move ("" when none).
    std::optional<std::string> play(const std::string& iccs, std::string* why);
    // Takes back the person's last move and the engine's answer; false when there is none or the game is
    // over by resignation.
    bool undo();
    // The person resigns: the engine's side wins. False when the game is already over.
    bool resign();
    // Why the game ended ("checkmate", "perpetual check by red", "resignation"; "" while it goes on) and
    // the verdict in words ("Black wins: red resigned").
    std::string reason() const;
    std::string verdictText() const;
    // The engine's choice for the side to move (at the game's level).
    EngineAdvice advise();
    // The game so far as PGN, with the rule set and the verdict.
    std::string pgn() const;

  private:
    void engineMove();
    void judge();

    GameSettings settings_;
    Level level_;
    Position pos_;
    std::vector<std::string> moves_;
    std::vector<match::MoveRecord> records_;  // one per move, for the PGN: the engine's with its score
    Verdict verdict_;
    bool resigned_ = false;
    std::unique_ptr<match::EngineClient> engine_;
    match::TimeControl tc_;
};

// Why a legal-looking move is refused, in words a player reads ("this move leaves the generals facing").
std::string refusalInWords(const Position& pos, const std::string& iccs, const std::string& why);
// The verdict in words: "Red wins by checkmate", "Black wins: perpetual check by red", "Draw by repetition".
std::string verdictInWords(const Verdict& v);

}  // namespace xq::play
