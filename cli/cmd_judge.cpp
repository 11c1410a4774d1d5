// `xq judge`: replays moves from a position under the full rules and prints the game's result; with
// --pgn, judges every game of a PGN file and compares each verdict with the result the file records; with
// --game capturego, the same for every game tree of SGF files (judge_capturego.h).
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "board.h"
#include "command.h"
#include "input_file.h"
#include "judge_capturego.h"
#include "judge_chess.h"
#include "judge_tally.h"
#include "pgn.h"
#include "xiangqi/rules.h"

namespace {

struct JudgeOptions {
    std::string game = "xiangqi";
    bool gameGiven = false;  // with --pgn and no --game, each game's tags say which game it is
    bool fenGiven = false;
    int perft = 0;
    std::string fen = xq::Position::StartFEN;
    std::string moves;
    std::string rules;  // empty: asian, or with --pgn each game's Rules tag
    std::string pgn;
    int moveLimit = 0;  // 0: the rule set's
    bool chineseLimit = false;
    bool json = false;
    std::vector<std::string> files;  // --game capturego: SGF files
};

void printError(const JudgeOptions& o, const std::string& message, int moveIndex, const std::string& move) {
    if (o.json) {
        nlohmann::json j = {{"error", message}};
        if (moveIndex >= 0) j["move_index"] = moveIndex, j["move"] = move;
        std::cout << j.dump() << "\n";
    }
    std::cerr << "xq judge: " << message << "\n";
}

xq::RuleConfig ruleConfig(const JudgeOptions& o, xq::RuleSet set) {
    xq::RuleConfig rules;
    rules.ruleSet = set;
    rules.moveLimitPlies = o.chineseLimit    ? 80
                           : o.moveLimit > 0 ? 2 * o.moveLimit
                                             : xq::defaultMoveLimitPlies(set);
    return rules;
}

// One game of a PGN file, judged: the first verdict the rules reach, or the reason it cannot be replayed.
struct JudgedGame {
    xq::games::Ending verdict;
    int endedAfterMove = -1;
    std::string error;
};

JudgedGame judgeGame(const xq::match::PgnGame& game, xq::games::Game which, const xq::RuleConfig& rules) {
    JudgedGame j;
    std::unique_ptr<xq::games::Board> board;
    const auto fen = game.tags.find("FEN");
    try {
        board = xq::games::makeBoard(which, fen == game.tags.end() ? "" : fen->second);
    } catch (const std::invalid_argument& e) {
        j.error = std::string("the FEN tag: ") + e.what();
        return j;
    }
    j.verdict = board->ending(rules);
    if (j.verdict.isOver()) j.endedAfterMove = 0;
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
        std::string why;
        auto move = board->readMove(game.moves[i], &why);
        if (!move || !board->play(*move, &why)) {
            j.error = "illegal move " + std::to_string(i + 1) + " (" + game.moves[i] + "): " + why;
            return j;
        }
        if (j.endedAfterMove < 0) {
            j.verdict = board->ending(rules);
            if (j.verdict.isOver()) j.endedAfterMove = int(i + 1);
        }
    }
    return j;
}

// --pgn: every game, its recorded result beside the rules' verdict. Games the rules leave open (decided by
// adjudication, time, a crash) are counted apart: the rules cannot confirm or contradict them.
int runPgn(const JudgeOptions& o) {
    std::vector<xq::match::PgnGame> games;
    try {
        games = xq::match::readPgnGames(xq::cli::readInputFile(o.pgn));
    } catch (const std::exception& e) {
        printError(o, o.pgn + ": " + e.what(), -1, "");
        return 2;
    }
    if (!o.rules.empty() && !xq::parseRuleSet(o.rules)) {
        printError(o, "unknown rule set '" + o.rules + "' (asian or chinese)", -1, "");
        return 2;
    }
    xq::cli::JudgeTally tally;
    for (std::size_t n = 0; n < games.size(); ++n) {
        const auto& g = games[n];
        auto tag = [&](const char* name) {
            auto it = g.tags.find(name);
            return it == g.tags.end() ? std::string() : it->second;
        };
        // The game: --game, else the tags (chess PGN names White; ours for Xiangqi names Red and a Variant).
        const bool chess = o.gameGiven ? o.game == "chess" : !tag("White").empty() && tag("Variant").empty();
        const xq::games::Game which = chess ? xq::games::Game::Chess : xq::games::Game::Xiangqi;
        const xq::RuleSet set =
            xq::parseRuleSet(o.rules.empty() ? tag("Rules") : o.rules).value_or(xq::RuleSet::ASIAN);
        const JudgedGame j = judgeGame(g, which, ruleConfig(o, set));
        const std::string recorded = tag("Result").empty() ? "*" : tag("Result");
        const std::string judged = xq::resultString(j.verdict.result);
        const std::string first = tag(chess ? "White" : "Red");
        const std::string ruleName = chess ? "FIDE" : xq::ruleSetName(set);
        std::string status = !j.error.empty()      ? "error"
                             : !j.verdict.isOver() ? "open"
                             : judged == recorded  ? "agrees"
                                                   : "differs";
        tally.count(status);
        const std::string who = first + " vs " + tag("Black");
        if (o.json) {
            nlohmann::json e = {
                {"game", n + 1},         {"line", g.line},          {chess ? "white" : "red", first},
                {"black", tag("Black")}, {"recorded", recorded},    {"termination", tag("Termination")},
                {"rules", ruleName},     {"moves", g.moves.size()}, {"status", status}};
            if (j.error.empty())
                e["result"] = judged, e["reason"] = j.verdict.reason,
                e["ended_after_move"] = j.endedAfterMove;
            else
                e["error"] = j.error;
            tally.games.push_back(e);
        } else if (!j.error.empty()) {
            std::cerr << "xq judge: game " << n + 1 << " (line " << g.line << ", " << who << "): " << j.error
                      << "\n";
        } else {
            std::cout << "game " << n + 1 << " " << who << ": recorded " << recorded << ", the " << ruleName
                      << " rules say " << judged
                      << (j.verdict.isOver() ? " " + j.verdict.reason : " (not decided by the rules)")
                      << (status == "differs" ? "  DIFFERS" : "") << "\n";
        }
    }
    return tally.finish(games.size(), o.json);
}

int runJudge(const JudgeOptions& o) {
    if (o.game == "capturego") {
        std::string others = o.fenGiven         ? "--fen"
                             : !o.moves.empty() ? "--moves"
                             : !o.pgn.empty()   ? "--pgn"
                             : o.perft > 0      ? "--perft"
                             : !o.rules.empty() ? "--rules"
                             : o.moveLimit      ? "--move-limit"
                             : o.chineseLimit   ? "--chinese-limit"
                                                : "";
        if (!others.empty())
            return printError(o,
                              others +
                                  " is not for --game capturego, which judges SGF files: xq judge --game "
                                  "capturego FILE.sgf... (the rules come from each game's RU, XT and KM)",
                              -1, ""),
                   2;
        return xq::cli::runCaptureGoJudge({o.files, o.json});
    }
    if (!o.files.empty())
        return printError(
                   o,
                   "the files '" + o.files.front() +
                       "'...: xq judge reads files given as arguments only with --game capturego (SGF); "
                       "give Xiangqi and chess PGN with --pgn",
                   -1, ""),
               2;
    if (!o.pgn.empty()) {
        if (o.perft > 0) return printError(o, "--perft and --pgn do not go together", -1, ""), 2;
        if (o.game == "chess" && (!o.rules.empty() || o.moveLimit || o.chineseLimit))
            return printError(o, "--rules, --move-limit and --chinese-limit are Xiangqi's", -1, ""), 2;
        return runPgn(o);
    }
    if (o.game == "chess") {
        if (!o.rules.empty() || o.moveLimit || o.chineseLimit)
            return printError(
                       o, "--rules, --move-limit and --chinese-limit are Xiangqi's; chess has FIDE's rules",
                       -1, ""),
                   2;
        return xq::cli::runChessJudge({o.fenGiven ? o.fen : "", o.moves, o.perft, o.json});
    }
    if (o.perft > 0)
        return printError(o, "--perft is for --game chess (Xiangqi's: xq-engine perft)", -1, ""), 2;
    xq::Position pos;
    try {
        pos.setFen(o.fen);
    } catch (const xq::FenError& e) {
        printError(o, std::string("bad FEN: ") + e.what(), -1, "");
        return 2;
    }
    const auto ruleSet = xq::parseRuleSet(o.rules.empty() ? "asian" : o.rules);
    if (!ruleSet) {
        printError(o, "unknown rule set '" + o.rules + "' (asian or chinese)", -1, "");
        return 2;
    }
    const xq::RuleConfig rules = ruleConfig(o, *ruleSet);

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
    sub->add_option("--game", options->game,
                    "The game: xiangqi (default), chess (International chess) or capturego (Capture Go and "
                    "Go: judges every game tree of the SGF files given as arguments); with --pgn, default: "
                    "each game's tags (a White tag and no Variant: chess)")
        ->check([](const std::string& v) -> std::string {
            return v == "xiangqi" || v == "chess" || v == "capturego"
                       ? ""
                       : "unknown game '" + v + "' (xiangqi, chess or capturego)";
        })
        ->each([options](const std::string&) { options->gameGiven = true; });
    sub->add_option("--fen", options->fen, "Start position (default: the initial position)")
        ->each([options](const std::string&) { options->fenGiven = true; });
    sub->add_option(
        "--moves", options->moves,
        "Moves, space separated: ICCS coordinates for Xiangqi (h2e2 h9g7 ...), UCI or SAN for chess "
        "(e2e4 e7e5 or e4 e5 ...)");
    sub->add_option("--perft", options->perft,
                    "Chess: count the leaf positions this many plies ahead, by first move (perft divide)")
        ->check(CLI::Range(1, 12));
    sub->add_option("--rules", options->rules,
                    "Rule set judging repetitions and the move limit: asian (AXF) or chinese (the Chinese "
                    "Xiangqi Association's competition rules); with --pgn, default: each game's Rules tag");
    sub->add_option(
        "--pgn", options->pgn,
        "Judge every game of this PGN file (.pgn or .pgn.gz) and compare with its recorded result");
    sub->add_option("--move-limit", options->moveLimit,
                    "Moves by each side without a capture before a draw (default: 60 asian, 40 chinese)")
        ->check(CLI::Range(1, 1000));
    sub->add_flag("--chinese-limit", options->chineseLimit, "Use the Chinese 40-round move limit");
    sub->add_flag("--json", options->json, "Print a JSON object");
    sub->add_option("files", options->files,
                    "--game capturego: SGF files (.sgf, .sgf.gz), every game tree of each judged");
    sub->callback([options] {
        int code = runJudge(*options);
        if (code != 0) throw xq::cli::ExitCode{code};
    });
});

}  // namespace
