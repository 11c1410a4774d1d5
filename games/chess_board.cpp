// International chess behind the game seam: chess/ (UCI moves for engines, SAN in PGN, FIDE's endings).
#include <stdexcept>

#include "board.h"
#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/position.h"
#include "chess/rules.h"

namespace xq::games {

namespace {

GameResult toGameResult(chess::Result r) {
    switch (r) {
        case chess::Result::WHITE_WINS:
            return GameResult::RED_WINS;
        case chess::Result::BLACK_WINS:
            return GameResult::BLACK_WINS;
        case chess::Result::DRAW:
            return GameResult::DRAW;
        case chess::Result::NONE:
            break;
    }
    return GameResult::NONE;
}

class ChessBoard final : public Board {
  public:
    explicit ChessBoard(std::string_view fen) {
        std::string error;
        if (!fen.empty() && !pos_.setFen(fen, &error)) throw std::invalid_argument("bad chess FEN: " + error);
    }

    Game game() const override { return Game::Chess; }
    std::string fen() const override { return pos_.fen(); }
    bool firstPlayerToMove() const override { return pos_.sideToMove() == chess::WHITE; }

    bool play(std::string_view move, std::string* why) override {
        auto m = chess::parseUciMove(pos_, move, why);
        if (!m) return false;
        pos_.doMove(*m);
        return true;
    }
    std::string pgnMove(std::string_view move) const override {
        auto m = chess::parseUciMove(pos_, move);
        return m ? chess::san(pos_, *m) : std::string(move);
    }
    std::optional<std::string> readMove(std::string_view text, std::string* why) const override {
        // UCI first ("e2e4" is also no SAN), then SAN ("e4", "Nf3", "O-O").
        if (auto m = chess::parseUciMove(pos_, text)) return chess::uciMove(*m);
        auto m = chess::parseSan(pos_, text, why);
        if (!m) return std::nullopt;
        return chess::uciMove(*m);
    }
    int legalMoveCount() const override { return chess::legalMoves(pos_).size; }
    std::vector<std::string> legalMoves() const override {
        std::vector<std::string> out;
        for (chess::Move m : chess::legalMoves(pos_)) out.push_back(chess::uciMove(m));
        return out;
    }
    bool inCheck() const override { return pos_.inCheck(); }
    std::uint64_t key() const override { return pos_.key(); }
    int pliesWithoutProgress() const override { return pos_.rule50(); }
    Ending ending(const RuleConfig&) override {
        chess::Verdict v = chess::judge(pos_);
        if (!v.isOver()) return {};
        return {toGameResult(v.result), chess::reasonText(v.reason)};
    }
    std::string noMoveContext(const RuleConfig&) const override {
        return " with " + std::to_string(legalMoveCount()) + " legal moves on the board, " +
               std::to_string(pos_.rule50()) + " plies without a capture or pawn move";
    }
    std::unique_ptr<Board> clone() const override { return std::make_unique<ChessBoard>(*this); }

  private:
    chess::Position pos_;
};

}  // namespace

std::unique_ptr<Board> makeChessBoard(std::string_view fen) {
    return std::make_unique<ChessBoard>(fen);
}

}  // namespace xq::games
