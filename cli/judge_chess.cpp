// `xq judge --game chess` (judge_chess.h).
#include "judge_chess.h"

#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/rules.h"

namespace xq::cli {

namespace {

int fail(const ChessJudgeOptions& o, const std::string& message, int moveIndex = -1,
         const std::string& move = "") {
    if (o.json) {
        nlohmann::json j = {{"error", message}};
        if (moveIndex >= 0) j["move_index"] = moveIndex, j["move"] = move;
        std::cout << j.dump() << "\n";
    }
    std::cerr << "xq judge: " << message << "\n";
    return 2;
}

}  // namespace

int runChessJudge(const ChessJudgeOptions& o) {
    chess::Position pos;
    std::string error;
    if (!o.fen.empty() && !pos.setFen(o.fen, &error)) return fail(o, error);

    if (o.perft > 0) {
        auto start = std::chrono::steady_clock::now();
        auto divide = chess::perftDivide(pos, o.perft);
        std::uint64_t total = 0;
        for (const auto& [move, n] : divide) total += n;
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (o.json) {
            nlohmann::json d = nlohmann::json::object();
            for (const auto& [move, n] : divide) d[move] = n;
            std::cout << nlohmann::json{{"fen", pos.fen()},
                                        {"depth", o.perft},
                                        {"nodes", total},
                                        {"divide", d}}
                             .dump()
                      << "\n";
        } else {
            for (const auto& [move, n] : divide) std::cout << move << ": " << n << "\n";
            std::cout << "\nNodes searched: " << total << "\n";
        }
        std::cerr << "time " << seconds << " s, " << (seconds > 0 ? double(total) / seconds : 0.0)
                  << " leaves/s\n";
        return 0;
    }

    std::istringstream in(o.moves);
    std::string text;
    int index = 0, endedAt = -1;
    chess::Verdict verdict = chess::judge(pos);
    if (verdict.isOver()) endedAt = 0;
    while (in >> text) {
        ++index;
        std::string uciWhy, sanWhy;
        auto move = chess::parseUciMove(pos, text, &uciWhy);
        if (!move) move = chess::parseSan(pos, text, &sanWhy);
        if (!move)
            return fail(o, "illegal move " + std::to_string(index) + " (" + text + "): " + sanWhy, index,
                        text);
        if (endedAt >= 0) {  // moves after the end are still checked, but change nothing
            pos.doMove(*move);
            continue;
        }
        pos.doMove(*move);
        verdict = chess::judge(pos);
        if (verdict.isOver()) endedAt = index;
    }
    if (endedAt >= 0 && endedAt < index && !o.json)
        std::cerr << "xq judge: the game ended after move " << endedAt << "; the " << index - endedAt
                  << " moves after it do not change the result\n";
    const std::string reason = verdict.isOver() ? chess::reasonText(verdict.reason) : "";
    if (o.json) {
        std::cout << nlohmann::json{{"game", "chess"},
                                    {"result", chess::resultText(verdict.result)},
                                    {"reason", reason},
                                    {"moves", index},
                                    {"ended_after_move", endedAt},
                                    {"fen", pos.fen()}}
                         .dump()
                  << "\n";
    } else {
        std::cout << chess::resultText(verdict.result) << (reason.empty() ? "" : " " + reason) << "\n";
    }
    return 0;
}

}  // namespace xq::cli
