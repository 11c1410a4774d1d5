// The GTP (version 2) front end of xq-go: the standard commands, the Capture Go extensions and GoGui's
// ruler commands. The game is kept in the project's rules library (capturego/position.h): legality,
// captures, superko, the result (capturego/result.h), notation, position text and SGF all come from it;
// the engine's own board is built from it for each genmove.
//
// Standard: protocol_version name version known_command list_commands quit boardsize (5..19) clear_board
//   komi play genmove undo time_settings time_left final_score showboard loadsgf (FILE [MOVE]: the
//   position before move MOVE of the SGF's main line, by default after the last move).
//   `play` takes either colour in any order (as GTP allows); `genmove` answers within the clock
//   (time_settings / time_left, see engine.h) and plays the move; after the end of the game it answers
//   "pass" without playing.
// Capture Go:
//   cap N                 the capture target (KataGomo's command); it also selects the capture rule set.
//   xq-rules capture|go   the rule-set switch: `capture` (the first to capture the target wins; komi 0)
//                         or `go` (Tromp-Taylor area scoring; komi 7.5); a later `komi` overrides.
//   xq-start empty|crosscut  what clear_board sets up (the crosscut start: capturego/position_text.h);
//                         it clears the board.
//   xq-position           the position in the library's text form.
// Engine: `level N` or `xq-level N` (0 weakest .. 20 full strength, the default: the Skill Level of
//   engine.h), `xq-engine auto|alphabeta|mcts|random-mcts`, `xq-nodes N` (0: none), `xq-movetime SECONDS`
//   (0: the clock decides; at most 3600), `xq-solve [SECONDS]` (proves the position after the game so far,
//   whose earlier positions superko bans as `play` does; boards up to 7x7; 10 s unless told, at most 600:
//   "black C2", "white", "draw pass" or "unknown").
// GoGui rulers: gogui-rules_game_id (Capturego), gogui-rules_board_size, gogui-rules_board,
//   gogui-rules_side_to_move, gogui-rules_legal_moves (the legal moves of the side to move, row 1 first,
//   then "pass"; empty once the game is over), gogui-rules_captured_count ("B W": the black stones
//   captured, that is White's captures, then the white stones captured, Black's captures — GoGui's order
//   of prisoners), gogui-rules_final_result ("unknown" while the game goes on, else the SGF result of
//   capturego/result.h: B+C, W+R, W+3.5, 0).
// Rule changes (cap, xq-rules, komi) keep the moves played: the game is replayed under the new rules, and
// the engine forgets its tables (proven under the old rules).
// Errors answer "? message" and never end the process: "unknown command", syntax errors, "illegal move:
// D4 is occupied" (also suicide, superko, "the game is over: ..."), "cannot undo".
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "capturego/position.h"
#include "capturego/result.h"
#include "goengine/convert.h"
#include "goengine/engine.h"

namespace xq::go {

class Gtp {
  public:
    explicit Gtp(PlayerOptions options = {});
    // Runs until quit or end of input.
    void run(std::istream& in, std::ostream& out);
    // One command line (without its id); `ok` tells success; sets `quit`.
    std::string execute(const std::string& line, bool& ok, bool& quit);
    const cg::Position& position() const { return stack_.back(); }
    cg::Result result() const { return resigned_ ? *resigned_ : cg::judge(position()); }

  private:
    // Plays m for c on a copy of the current position: "" and the new position, or why it is illegal.
    std::string tryPlay(cg::Color c, cg::Move m, cg::Position* next) const;
    void push(cg::Color c, cg::Move m, cg::Position next);
    void newGame();  // the start position of size_, rules_ and start_, no moves
    void replay();   // the moves again under the current rules (a rule change)
    std::string legalMovesText() const;
    std::string dispatch(const std::string& cmd, const std::vector<std::string>& a, bool& ok, bool& quit);

    int size_ = cg::kDefaultBoardSize;
    cg::Rules rules_ = cg::Rules::capture(1, 0);
    int captureTarget_ = 1;  // kept while the go rule set is on
    bool crosscut_ = false;
    cg::Position start_;
    std::vector<ColoredMove> moves_;
    std::vector<cg::Position> stack_;  // stack_[i]: after i moves
    std::optional<cg::Result> resigned_;
    GameClock clock_;
    Player player_;
};

}  // namespace xq::go
