// `xq judge`: replays moves from a position under the full rules and prints the game's result.
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "command.h"
#include "rules.h"

namespace {

struct JudgeOptions {
    std::string fen = xq::Position::StartFEN;
    std::string moves;
    std::string rules = "asian";
    int moveLimit = 0;  // 0: the rule set's
    bool chineseLimit = false;
    bool json = false;
};

void printError(const JudgeOptions& o, const std::string& message, int moveIndex, const std::string& move) {
    if (o.json) {
        nlohmann::json j = {{"error", message}};
        if (moveIndex >= 0) j["move_index"] = moveIndex, j["move"] = move;
        std::cout << j.dump() << "\n";
    }
    std::cerr << "xq judge: " << message << "\n";
}

int runJudge(const JudgeOptions& o) {
    xq::Position pos;
    try {
        pos.setFen(o.fen);
    } catch (const xq::FenError& e) {
        printError(o, std::string("bad FEN: ") + e.what(), -1, "");
        return 2;
    }
    xq::RuleConfig rules;
    const auto ruleSet = xq::parseRuleSet(o.rules);
    if (!ruleSet) {
        printError(o, "unknown rule set '" + o.rules + "' (asian or chinese)", -1, "");
        return 2;
    }
    rules.ruleSet = *ruleSet;
    rules.moveLimitPlies = o.chineseLimit    ? 80
                           : o.moveLimit > 0 ? 2 * o.moveLimit
                                             : xq::defaultMoveLimitPlies(*ruleSet);

    std::istringstream in(o.moves);
    std::string text;
    int index = 0, endedAt = -1;
    xq::Verdict verdict = xq::adjudicate(pos, rules);
    if (verdict.isOver()) endedAt = 0;
    while (in >> text) {
        ++index;
        std::string why;
        auto move = xq::parseMove(pos, text, &why);
        if (!move) {
            printError(o, "illegal move " + std::to_string(index) + " (" + text + "): " + why, index, text);
            return 2;
        }
        pos.doMove(*move);
        // The game ends at its first verdict; moves after it are still checked for legality (a repetition
        // cycle is often written out in full) but cannot change the result.
        if (endedAt < 0) {
            verdict = xq::adjudicate(pos, rules);
            if (verdict.isOver()) endedAt = index;
        }
    }
    if (endedAt >= 0 && endedAt < index && !o.json)
        std::cerr << "xq judge: the game ended after move " << endedAt << "; the " << index - endedAt
                  << " moves after it do not change the result\n";
    const std::string reason = xq::reasonString(verdict);
    if (o.json) {
        nlohmann::json j = {{"result", xq::resultString(verdict.result)},
                            {"reason", reason},
                            {"rules", xq::ruleSetName(rules.ruleSet)},
                            {"moves", index},
                            {"ended_after_move", endedAt},
                            {"fen", pos.fen()}};
        std::cout << j.dump() << "\n";
    } else {
        std::cout << xq::resultString(verdict.result) << (reason.empty() ? "" : " " + reason) << "\n";
    }
    return 0;
}

xq::cli::RegisterCommand registerJudge([](CLI::App& app) {
    auto options = std::make_shared<JudgeOptions>();
    CLI::App* sub = app.add_subcommand("judge", "Replay moves under the full rules and print the result");
    sub->add_option("--fen", options->fen, "Start position (default: the initial position)");
    sub->add_option("--moves", options->moves, "Moves in ICCS coordinates, space separated (h2e2 h9g7 ...)");
    sub->add_option("--rules", options->rules,
                    "Rule set judging repetitions and the move limit: asian (AXF) or chinese (the Chinese "
                    "Xiangqi Association's competition rules)")
        ->default_val("asian");
    sub->add_option("--move-limit", options->moveLimit,
                    "Moves by each side without a capture before a draw (default: 60 asian, 40 chinese)")
        ->check(CLI::Range(1, 1000));
    sub->add_flag("--chinese-limit", options->chineseLimit, "Use the Chinese 40-round move limit");
    sub->add_flag("--json", options->json, "Print a JSON object");
    sub->callback([options] {
        int code = runJudge(*options);
        if (code != 0) throw xq::cli::ExitCode{code};
    });
});

}  // namespace
