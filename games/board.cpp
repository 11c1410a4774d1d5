#include "board.h"

#include <stdexcept>

#include "chess/position.h"
#include "xiangqi/position.h"

namespace xq::games {

std::unique_ptr<Board> makeXiangqiBoard(std::string_view fen);  // xiangqi_board.cpp
std::unique_ptr<Board> makeChessBoard(std::string_view fen);    // chess_board.cpp

const char* gameName(Game g) {
    return g == Game::Chess ? "chess" : "xiangqi";
}

std::optional<Game> parseGame(std::string_view name) {
    if (name == "xiangqi") return Game::Xiangqi;
    if (name == "chess") return Game::Chess;
    return std::nullopt;
}

const char* gameChoices() {
    return "xiangqi or chess";
}

std::string startFen(Game g) {
    return g == Game::Chess ? std::string(chess::START_FEN) : std::string(Position::StartFEN);
}

const char* sideName(Game g, bool firstPlayer) {
    if (!firstPlayer) return "black";
    return g == Game::Chess ? "white" : "red";
}

std::unique_ptr<Board> makeBoard(Game game, std::string_view fen) {
    return game == Game::Chess ? makeChessBoard(fen) : makeXiangqiBoard(fen);
}

}  // namespace xq::games
