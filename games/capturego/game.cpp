#include "capturego/game.h"

#include "capturego/concat.h"
#include "capturego/notation.h"

namespace xq::capturego {

using detail::cat;

Game::Game(const Position& start) : start_(start), position_(start), result_(judge(start)) {}

bool Game::play(Move m, std::string* why) {
    if (isOver()) {
        if (why) *why = cat("the game is over: ", result_.reason);
        return false;
    }
    if (!position_.play(m, why)) return false;
    moves_.push_back(m);
    result_ = judge(position_);
    return true;
}

bool Game::resign(Color loser) {
    if (isOver()) return false;
    result_ = resignation(loser);
    return true;
}

bool Game::loseOnTime(Color loser) {
    if (isOver()) return false;
    result_ = timeLoss(loser);
    return true;
}

bool Game::forfeit(Color loser, const std::string& why) {
    if (isOver()) return false;
    result_ = capturego::forfeit(loser, why);
    return true;
}

bool Game::undo() {
    Result byRules = judge(position_);
    if (isOver() && !byRules.isOver()) {  // an event ended the game: take it back
        result_ = byRules;
        return true;
    }
    if (moves_.empty()) return false;
    position_.undo();
    moves_.pop_back();
    result_ = judge(position_);
    return true;
}

Game Game::replay(const Position& start, const std::vector<Move>& moves) {
    Game game(start);
    for (std::size_t i = 0; i < moves.size(); ++i) {
        std::string why;
        Color mover = game.toMove();
        if (!game.play(moves[i], &why))
            throw ParseError(
                cat("move ", i + 1, " (", colorName(mover), " ", moveName(moves[i]), "): ", why));
    }
    return game;
}

}  // namespace xq::capturego
