// The game seam: which game a match plays, and a Board, the rules of that game as the framework needs them
// (start position, FEN, engine move text, PGN move text, legal moves, the end of the game and its reason).
// Xiangqi moves are ICCS in both engine and PGN text; chess moves are UCI for engines and SAN in PGN;
// Capture Go moves are GTP coordinates ("D4", read in any case) and "pass" in both.
// Results use xq::GameResult with RED_WINS for the side that moves first (White in chess, Black in Go).
//
// Capture Go's options (board size, rule set capture:<target> or go, komi) travel in its start position:
// the "FEN" is the rules library's position text (capturego/position_text.h), e.g.
// "9/9/9/9/9/9/9/9/9 b 0 0 0 capture:1 0"; captureGoStartText() makes the empty board for given options.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "xiangqi/rules.h"

namespace xq::games {

enum class Game { Xiangqi, Chess, CaptureGo };

const char* gameName(Game g);                          // "xiangqi", "chess", "capturego"
std::optional<Game> parseGame(std::string_view name);  // nullopt for an unknown name
// "xiangqi, chess or capturego": for error messages and help text.
const char* gameChoices();
std::string startFen(Game g);
// The names of the two sides, first mover first: "red"/"black", "white"/"black", "black"/"white".
const char* sideName(Game g, bool firstPlayer);

struct Ending {
    GameResult result = GameResult::NONE;
    std::string reason;  // "checkmate", "perpetual check by red", "fifty-move rule", ...
    bool isOver() const { return result != GameResult::NONE; }
};

class Board {
  public:
    virtual ~Board() = default;

    virtual Game game() const = 0;
    virtual std::string fen() const = 0;
    virtual bool firstPlayerToMove() const = 0;  // red (Xiangqi) or white (chess) to move

    // Plays a move given in engine notation (ICCS, UCI); false and the reason when it is not legal here.
    virtual bool play(std::string_view move, std::string* why = nullptr) = 0;
    // The PGN text (ICCS, SAN) of a legal move in engine notation, before it is played.
    virtual std::string pgnMove(std::string_view move) const = 0;
    // A move as a book or a PGN file may write it (Xiangqi: ICCS; chess: UCI or SAN) in engine notation;
    // nullopt and the reason when it names no legal move.
    virtual std::optional<std::string> readMove(std::string_view text, std::string* why = nullptr) const = 0;
    virtual int legalMoveCount() const = 0;
    // Every legal move in engine notation, in the generator's order.
    virtual std::vector<std::string> legalMoves() const = 0;
    virtual bool inCheck() const = 0;
    // Equal positions (pieces, side to move and, in chess, castling and en-passant rights) have equal keys.
    virtual std::uint64_t key() const = 0;
    // Plies since the last capture (Xiangqi) or the last capture or pawn move (chess).
    virtual int pliesWithoutProgress() const = 0;
    // The rules' verdict on the position reached. `rules` is Xiangqi's rule set and move limit; chess
    // applies FIDE's endings (mate, stalemate, fifty moves, threefold repetition, insufficient material).
    virtual Ending ending(const RuleConfig& rules) = 0;
    // What the engine that answered "no move" was told apart by: the legal moves and the move counter.
    virtual std::string noMoveContext(const RuleConfig& rules) const = 0;

    virtual std::unique_ptr<Board> clone() const = 0;
};

// A board of `game` at `fen` (empty: the start position; Capture Go: the empty 9x9 board, capture rules,
// target 1, komi 0); throws std::invalid_argument naming what is wrong.
std::unique_ptr<Board> makeBoard(Game game, std::string_view fen = {});

// The position text of Capture Go's empty board: `size` 5..19, rule set "capture" (target default 1, komi
// default 0) or "go" (no target; komi default 7.5). Throws std::invalid_argument naming a bad option.
std::string captureGoStartText(int size, std::string_view ruleSet, std::optional<int> target = std::nullopt,
                               std::optional<double> komi = std::nullopt);

// Throws std::invalid_argument "<what>: --game <name> is not supported <where>" when `game` is not one of
// the games a command handles, e.g. requireGame(g, {Game::Xiangqi, Game::Chess}, "xq submit", "on the cluster
// yet").
void requireGame(Game game, std::initializer_list<Game> supported, const std::string& what,
                 const std::string& where);

}  // namespace xq::games
