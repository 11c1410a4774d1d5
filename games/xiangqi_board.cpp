// Xiangqi behind the game seam: the rules core of engine/ (ICCS moves, Asian or Chinese verdicts).
#include <stdexcept>

#include "board.h"
#include "xiangqi/movegen.h"
#include "xiangqi/position.h"

namespace xq::games {

namespace {

class XiangqiBoard final : public Board {
  public:
    explicit XiangqiBoard(std::string_view fen) : pos_(positionOf(fen)) {}

    Game game() const override { return Game::Xiangqi; }
    std::string fen() const override { return pos_.fen(); }
    bool firstPlayerToMove() const override { return pos_.sideToMove() == RED; }

    bool play(std::string_view move, std::string* why) override {
        auto m = parseMove(pos_, move, why);
        if (!m) return false;
        pos_.doMove(*m);
        return true;
    }
    std::string pgnMove(std::string_view move) const override { return std::string(move); }
    std::optional<std::string> readMove(std::string_view text, std::string* why) const override {
        auto m = parseMove(pos_, text, why);
        if (!m) return std::nullopt;
        return moveToString(*m);
    }
    int legalMoveCount() const override {
        MoveList legal;
        generate<LEGAL>(pos_, legal);
        return int(legal.size);
    }
    std::vector<std::string> legalMoves() const override {
        std::vector<std::string> out;
        for (Move m : xq::legalMoves(pos_)) out.push_back(moveToString(m));
        return out;
    }
    bool inCheck() const override { return pos_.inCheck(); }
    std::uint64_t key() const override { return pos_.key(); }
    int pliesWithoutProgress() const override { return pos_.rule60(); }
    Ending ending(const RuleConfig& rules) override {
        Verdict v = adjudicate(pos_, rules);
        if (!v.isOver()) return {};
        return {v.result, reasonString(v)};
    }
    std::string noMoveContext(const RuleConfig& rules) const override {
        return " with " + std::to_string(legalMoveCount()) + " legal moves on the board, " +
               std::to_string(pos_.rule60()) + " plies without a capture (the move limit is " +
               std::to_string(rules.moveLimitPlies) + ")";
    }
    std::unique_ptr<Board> clone() const override { return std::make_unique<XiangqiBoard>(*this); }

  private:
    // The position of a FEN (the start position for an empty one), set up once: an opening book's thousands
    // of lines are read through here.
    static Position positionOf(std::string_view fen) {
        try {
            return fen.empty() ? Position() : Position(fen);
        } catch (const FenError& e) {
            throw std::invalid_argument(std::string("bad Xiangqi FEN: ") + e.what());
        }
    }

    Position pos_;
};

}  // namespace

std::unique_ptr<Board> makeXiangqiBoard(std::string_view fen) {
    return std::make_unique<XiangqiBoard>(fen);
}

}  // namespace xq::games
