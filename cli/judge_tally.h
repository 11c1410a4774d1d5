// What `xq judge` counts, whichever the game (cmd_judge.cpp for Xiangqi and chess, judge_capturego.cpp):
// each game's status (agrees, differs, open, error), the games' JSON entries, and the summary it ends with.
#pragma once

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

namespace xq::cli {

struct JudgeTally {
    int agree = 0, differ = 0, open = 0, broken = 0;
    nlohmann::json games = nlohmann::json::array();

    void count(const std::string& status) {
        (status == "error" ? broken : status == "open" ? open : status == "agrees" ? agree : differ)++;
    }

    // Prints the summary of `total` games to stdout (the JSON document of every game, or one line) and
    // returns the exit code: 2 when a game could not be replayed, else 0.
    int finish(std::size_t total, bool json) const {
        if (json)
            std::cout << nlohmann::json{{"games", games},
                                        {"agree", agree},
                                        {"differ", differ},
                                        {"open", open},
                                        {"errors", broken}}
                             .dump()
                      << "\n";
        else
            std::cout << total << " games: " << agree << " agree, " << differ << " differ, " << open
                      << " not decided by the rules, " << broken << " cannot be replayed\n";
        return broken > 0 ? 2 : 0;
    }
};

}  // namespace xq::cli
