#include "judge_capturego.h"

#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "capturego/game.h"
#include "capturego/notation.h"
#include "capturego/result.h"
#include "capturego/sgf.h"
#include "input_file.h"
#include "judge_tally.h"

namespace xq::cli {

namespace {

namespace cg = xq::capturego;

std::string rulesName(const cg::Rules& rules) {
    return cg::ruleSetText(rules) + " komi " + cg::formatPoints(rules.komi);
}

// Does the recorded result say what the rules' verdict says? A bare "B+" (a win of unknown kind) agrees
// with any win of black; "B+C" with a win by captures (the target, or more captures after two passes);
// "B+3.5" with a win by that margin; "0" or "Draw" with a draw.
bool sameResult(const cg::Result& recorded, const cg::Result& rules) {
    if (recorded.outcome != rules.outcome) return false;
    if (rules.outcome == cg::Outcome::Draw || recorded.ending == cg::Ending::None) return true;
    const bool byCaptures =
        rules.ending == cg::Ending::CaptureTarget || rules.ending == cg::Ending::MoreCaptures;
    if (recorded.ending == cg::Ending::CaptureTarget) return byCaptures;
    if (recorded.ending == cg::Ending::Score)
        return rules.ending == cg::Ending::Score && recorded.margin == rules.margin;
    return false;  // a resignation, time or forfeit the rules' own ending makes impossible
}

// A result the moves cannot show: a resignation, a loss on time, a forfeit, a draw by agreement or a
// length limit. The rules, which leave such a game open, neither confirm nor contradict it.
bool isEvent(const cg::Result& recorded) {
    return recorded.outcome == cg::Outcome::Draw || recorded.ending == cg::Ending::Resignation ||
           recorded.ending == cg::Ending::Time || recorded.ending == cg::Ending::Forfeit;
}

std::string rootText(const cg::SgfNode& root, const char* id) {
    const cg::SgfProperty* p = root.find(id);
    return p && !p->values.empty() ? p->values[0] : std::string();
}

int countMoves(const std::vector<cg::SgfNode>& nodes) {
    int n = 0;
    for (const cg::SgfNode& node : nodes) n += node.find("B") || node.find("W") ? 1 : 0;
    return n;
}

void fail(const CaptureGoJudgeOptions& o, const std::string& message) {
    if (o.json) std::cout << nlohmann::json{{"error", message}}.dump() << "\n";
    std::cerr << "xq judge: " << message << "\n";
}

}  // namespace

int runCaptureGoJudge(const CaptureGoJudgeOptions& o) {
    if (o.files.empty()) return fail(o, "--game capturego: give the SGF files to judge"), 2;
    // Every file is read and parsed first: a file that is no SGF is an error before any report.
    std::vector<std::vector<cg::SgfGameTree>> files;
    for (const std::string& path : o.files) {
        try {
            files.push_back(cg::parseSgfCollection(readInputFile(path)));
        } catch (const std::exception& e) {
            fail(o, path + ": " + e.what());
            return 2;
        }
    }
    JudgeTally tally;
    int number = 0;
    for (std::size_t f = 0; f < files.size(); ++f) {
        for (const cg::SgfGameTree& tree : files[f]) {
            ++number;
            const cg::SgfNode& root = tree.mainLine.front();
            const std::string black = rootText(root, "PB"), white = rootText(root, "PW");
            const std::string who = (black.empty() ? "?" : black) + " vs " + (white.empty() ? "?" : white);
            const std::string recordedText = rootText(root, "RE");
            const std::optional<cg::Result> recorded = cg::parseSgfResult(recordedText);
            std::optional<cg::Game> game;
            std::string error;
            int badMove = 0;
            std::string badMoveText;
            try {
                game = cg::readSgf(tree);
            } catch (const cg::SgfMoveError& e) {
                error = "illegal move " + std::to_string(e.moveNumber) + " (" + e.move + "): " + e.why;
                badMove = e.moveNumber;
                badMoveText = e.move;
            } catch (const cg::ParseError& e) {
                error = e.what();
            }
            // The rules' verdict on the moves alone: readSgf applies a recorded resignation, time loss or
            // forfeit to a game the moves leave open, which is the record's claim, not the rules'.
            const cg::Result verdict = game ? cg::judge(game->position()) : cg::Result{};
            std::string status;
            if (!error.empty())
                status = "error";
            else if (verdict.isOver())
                status = recorded && sameResult(*recorded, verdict) ? "agrees" : "differs";
            else
                status = !recorded || isEvent(*recorded) ? "open" : "differs";
            tally.count(status);
            const std::string shownRecorded = recordedText.empty() ? "none" : recordedText;
            const std::string where = o.files[f] + ", line " + std::to_string(tree.line);
            if (o.json) {
                nlohmann::json e = {{"game", number},
                                    {"file", o.files[f]},
                                    {"line", tree.line},
                                    {"black", black},
                                    {"white", white},
                                    {"recorded", recordedText},
                                    {"status", status},
                                    {"moves", game ? int(game->moves().size()) : countMoves(tree.mainLine)}};
                if (game) {
                    e["rules"] = rulesName(game->rules());
                    e["result"] = verdict.sgf();
                    e["reason"] = verdict.reason;
                } else {
                    e["error"] = error;
                    if (badMove > 0) e["move_number"] = badMove, e["move"] = badMoveText;
                }
                tally.games.push_back(e);
            } else if (!game) {
                std::cout << "game " << number << " (" << where << ") " << who << ": recorded "
                          << shownRecorded << ", cannot be replayed: " << error << "\n";
            } else {
                std::cout << "game " << number << " (" << where << ") " << who << ": recorded "
                          << shownRecorded << ", the " << rulesName(game->rules()) << " rules say "
                          << (verdict.isOver() ? verdict.sgf() + " " + verdict.reason
                                               : std::string("nothing (the moves do not end the game)"))
                          << (status == "differs" ? "  DIFFERS" : "") << "\n";
            }
        }
    }
    return tally.finish(number, o.json);
}

}  // namespace xq::cli
