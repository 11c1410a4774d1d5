#include "board.h"

#include <stdexcept>

#include "chess/position.h"
#include "xiangqi/position.h"

namespace xq::games {

std::unique_ptr<Board> makeXiangqiBoard(std::string_view fen);    // xiangqi_board.cpp
std::unique_ptr<Board> makeChessBoard(std::string_view fen);      // chess_board.cpp
std::unique_ptr<Board> makeCaptureGoBoard(std::string_view fen);  // capturego_board.cpp

const char* gameName(Game g) {
    switch (g) {
        case Game::Chess:
            return "chess";
        case Game::CaptureGo:
            return "capturego";
        case Game::Xiangqi:
            break;
    }
    return "xiangqi";
}

std::optional<Game> parseGame(std::string_view name) {
    if (name == "xiangqi") return Game::Xiangqi;
    if (name == "chess") return Game::Chess;
    if (name == "capturego") return Game::CaptureGo;
    return std::nullopt;
}

const char* gameChoices() {
    return "xiangqi, chess or capturego";
}

std::string startFen(Game g) {
    switch (g) {
        case Game::Chess:
            return std::string(chess::START_FEN);
        case Game::CaptureGo:
            return makeCaptureGoBoard({})->fen();
        case Game::Xiangqi:
            break;
    }
    return std::string(Position::StartFEN);
}

const char* sideName(Game g, bool firstPlayer) {
    switch (g) {
        case Game::Chess:
            return firstPlayer ? "white" : "black";
        case Game::CaptureGo:
            return firstPlayer ? "black" : "white";
        case Game::Xiangqi:
            break;
    }
    return firstPlayer ? "red" : "black";
}

std::unique_ptr<Board> makeBoard(Game game, std::string_view fen) {
    switch (game) {
        case Game::Chess:
            return makeChessBoard(fen);
        case Game::CaptureGo:
            return makeCaptureGoBoard(fen);
        case Game::Xiangqi:
            break;
    }
    return makeXiangqiBoard(fen);
}

void requireGame(Game game, std::initializer_list<Game> supported, const std::string& what,
                 const std::string& where) {
    for (Game g : supported)
        if (g == game) return;
    throw std::invalid_argument(what + ": --game " + gameName(game) + " is not supported " + where);
}

}  // namespace xq::games
