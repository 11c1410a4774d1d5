#include "capturego/result.h"

#include "capturego/concat.h"

namespace xq::capturego {

using detail::cat;

namespace {

Outcome winnerOutcome(Color c) {
    return c == Color::Black ? Outcome::BlackWins : Outcome::WhiteWins;
}

std::string stones(int n) {
    return cat(n, n == 1 ? " stone" : " stones");
}

// After two passes, neither player having reached a capture target (or under the go rule set).
Result passDecision(const Position& pos) {
    const Rules& rules = pos.rules();
    int black = pos.captures(Color::Black), white = pos.captures(Color::White);
    std::string prefix = "two passes: ";
    if (rules.ruleSet == RuleSet::Capture) {
        if (black != white) {
            Color winner = black > white ? Color::Black : Color::White;
            return Result{winnerOutcome(winner), Ending::MoreCaptures, 0,
                          cat("two passes: black captured ", stones(black), ", white ", white, " (target ",
                              rules.target, ")")};
        }
        prefix = cat("two passes, captures equal (", black, " each): ");
    }
    AreaScore area = pos.areaScore();
    double blackPoints = area.black, whitePoints = area.white + rules.komi;
    std::string reason = cat(prefix, "black ", formatPoints(blackPoints), " points, white ",
                             formatPoints(whitePoints), " (komi ", formatPoints(rules.komi), ")");
    if (blackPoints == whitePoints) return Result{Outcome::Draw, Ending::Score, 0, cat(reason, ", a draw")};
    Outcome outcome = blackPoints > whitePoints ? Outcome::BlackWins : Outcome::WhiteWins;
    double margin = blackPoints > whitePoints ? blackPoints - whitePoints : whitePoints - blackPoints;
    return Result{outcome, Ending::Score, margin, reason};
}

}  // namespace

std::string Result::sgf() const {
    if (outcome == Outcome::Ongoing) return "";
    if (outcome == Outcome::Draw) return "0";
    std::string text = outcome == Outcome::BlackWins ? "B+" : "W+";
    switch (ending) {
        case Ending::CaptureTarget:
        case Ending::MoreCaptures:
            return cat(text, "C");
        case Ending::Resignation:
            return cat(text, "R");
        case Ending::Time:
            return cat(text, "T");
        case Ending::Forfeit:
            return cat(text, "F");
        case Ending::Score:
            return cat(text, formatPoints(margin));
        case Ending::None:
            break;
    }
    return text;
}

Result judge(const Position& pos) {
    const Rules& rules = pos.rules();
    if (rules.ruleSet == RuleSet::Capture) {
        Color last = opponent(pos.toMove());
        for (Color c : {last, opponent(last)})
            if (pos.captures(c) >= rules.target)
                return Result{
                    winnerOutcome(c), Ending::CaptureTarget, 0,
                    cat(colorName(c), " captured ", stones(pos.captures(c)), " (target ", rules.target, ")")};
    }
    if (pos.consecutivePasses() >= 2) return passDecision(pos);
    return Result{};
}

Result resignation(Color loser) {
    return Result{winnerOutcome(opponent(loser)), Ending::Resignation, 0, cat(colorName(loser), " resigned")};
}

Result timeLoss(Color loser) {
    return Result{winnerOutcome(opponent(loser)), Ending::Time, 0, cat(colorName(loser), " lost on time")};
}

Result forfeit(Color loser, const std::string& why) {
    std::string reason = cat(colorName(loser), " forfeited");
    if (!why.empty()) reason += cat(": ", why);
    return Result{winnerOutcome(opponent(loser)), Ending::Forfeit, 0, reason};
}

std::optional<Result> parseSgfResult(std::string_view text) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    if (text == "0" || text == "Draw" || text == "draw" || text == "D")
        return Result{Outcome::Draw, Ending::Score, 0, ""};
    if (text.size() < 2 || text[1] != '+') return std::nullopt;
    Outcome outcome;
    if (text[0] == 'B' || text[0] == 'b')
        outcome = Outcome::BlackWins;
    else if (text[0] == 'W' || text[0] == 'w')
        outcome = Outcome::WhiteWins;
    else
        return std::nullopt;
    std::string_view rest = text.substr(2);
    if (rest.empty()) return Result{outcome, Ending::None, 0, ""};
    if (rest == "C") return Result{outcome, Ending::CaptureTarget, 0, ""};
    if (rest == "R" || rest == "Resign") return Result{outcome, Ending::Resignation, 0, ""};
    if (rest == "T" || rest == "Time") return Result{outcome, Ending::Time, 0, ""};
    if (rest == "F" || rest == "Forfeit") return Result{outcome, Ending::Forfeit, 0, ""};
    double margin = 0;
    if (!parsePoints(std::string(rest), &margin) || margin < 0) return std::nullopt;
    if (margin == 0) return Result{Outcome::Draw, Ending::Score, 0, ""};
    return Result{outcome, Ending::Score, margin, ""};
}

}  // namespace xq::capturego
