// Capture Go and Go behind the game seam: capturego/ (GTP coordinates and "pass" as move text in engine
// and record alike, the position text form as the FEN, the rules library's endings).
#include <stdexcept>

#include "board.h"
#include "capturego/notation.h"
#include "capturego/position_text.h"
#include "capturego/result.h"

namespace xq::games {

namespace {

namespace cg = xq::capturego;

GameResult toGameResult(cg::Outcome o) {
    switch (o) {
        case cg::Outcome::BlackWins:
            return GameResult::RED_WINS;  // Black moves first: the seam's first player
        case cg::Outcome::WhiteWins:
            return GameResult::BLACK_WINS;
        case cg::Outcome::Draw:
            return GameResult::DRAW;
        case cg::Outcome::Ongoing:
            break;
    }
    return GameResult::NONE;
}

class CaptureGoBoard final : public Board {
  public:
    explicit CaptureGoBoard(std::string_view fen) {
        if (fen.empty()) return;
        try {
            pos_ = cg::parsePositionText(fen);
        } catch (const cg::ParseError& e) {
            throw std::invalid_argument(std::string("bad Capture Go position text: ") + e.what());
        }
    }

    Game game() const override { return Game::CaptureGo; }
    std::string fen() const override { return cg::positionText(pos_); }
    bool firstPlayerToMove() const override { return pos_.toMove() == cg::Color::Black; }

    bool play(std::string_view move, std::string* why) override {
        auto m = parse(move, why);
        if (!m || !pos_.play(*m, why)) return false;
        sinceCapture_ = pos_.lastCaptured().empty() ? sinceCapture_ + 1 : 0;
        return true;
    }
    std::string pgnMove(std::string_view move) const override {
        auto m = parse(move, nullptr);
        return m ? cg::moveName(*m) : std::string(move);
    }
    std::optional<std::string> readMove(std::string_view text, std::string* why) const override {
        auto m = parse(text, why);
        if (!m) return std::nullopt;
        if (std::string problem = pos_.whyIllegal(*m); !problem.empty()) {
            if (why) *why = problem;
            return std::nullopt;
        }
        return cg::moveName(*m);
    }
    int legalMoveCount() const override { return int(pos_.legalMoves().size()); }
    std::vector<std::string> legalMoves() const override {
        std::vector<std::string> out;
        for (cg::Move m : pos_.legalMoves()) out.push_back(cg::moveName(m));
        return out;
    }
    bool inCheck() const override { return false; }
    std::uint64_t key() const override {
        // The stone placement (with the board size), the side to move, captures and passes.
        std::uint64_t k = pos_.hash();
        if (pos_.toMove() == cg::Color::White) k ^= 0x9E3779B97F4A7C15ull;
        k ^= std::uint64_t(pos_.captures(cg::Color::Black)) * 0xBF58476D1CE4E5B9ull;
        k ^= std::uint64_t(pos_.captures(cg::Color::White)) * 0x94D049BB133111EBull;
        k ^= std::uint64_t(pos_.consecutivePasses()) * 0xD6E8FEB86659FD93ull;
        return k;
    }
    int pliesWithoutProgress() const override { return sinceCapture_; }
    Ending ending(const RuleConfig&) override {
        cg::Result r = cg::judge(pos_);
        if (!r.isOver()) return {};
        return {toGameResult(r.outcome), r.reason};
    }
    std::string noMoveContext(const RuleConfig&) const override {
        return " with " + std::to_string(legalMoveCount()) + " legal moves on the board (pass included)";
    }
    std::unique_ptr<Board> clone() const override { return std::make_unique<CaptureGoBoard>(*this); }

  private:
    std::optional<cg::Move> parse(std::string_view text, std::string* why) const {
        try {
            return cg::parseMove(text, pos_.size());
        } catch (const cg::ParseError& e) {
            if (why) *why = e.what();
            return std::nullopt;
        }
    }

    cg::Position pos_;
    int sinceCapture_ = 0;
};

}  // namespace

std::unique_ptr<Board> makeCaptureGoBoard(std::string_view fen) {
    return std::make_unique<CaptureGoBoard>(fen);
}

std::string captureGoStartText(int size, std::string_view ruleSet, std::optional<int> target,
                               std::optional<double> komi) {
    cg::Rules rules;
    if (ruleSet == "capture")
        rules = cg::Rules::capture(target.value_or(1), komi.value_or(0));
    else if (ruleSet == "go")
        rules = cg::Rules::go(komi.value_or(7.5));
    else
        throw std::invalid_argument("unknown Capture Go rule set '" + std::string(ruleSet) +
                                    "' (capture or go)");
    if (ruleSet == "go" && target)
        throw std::invalid_argument("a capture target belongs to the capture rule set, not to go");
    if (std::string problem = cg::rulesProblem(rules); !problem.empty()) throw std::invalid_argument(problem);
    if (size < cg::kMinBoardSize || size > cg::kMaxBoardSize)
        throw std::invalid_argument("the board size must be from " + std::to_string(cg::kMinBoardSize) +
                                    " to " + std::to_string(cg::kMaxBoardSize) + ", not " +
                                    std::to_string(size));
    return cg::positionText(cg::emptyPosition(size, rules));
}

}  // namespace xq::games
