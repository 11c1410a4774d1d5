// `xq judge --game chess`: replays moves (UCI or SAN) from a chess position under FIDE's rules and prints
// the result, or with --perft N prints the divide and `Nodes searched: N` as `xq-engine perft` does.
#pragma once

#include <string>

namespace xq::cli {

struct ChessJudgeOptions {
    std::string fen;  // empty: the start position
    std::string moves;
    int perft = 0;
    bool json = false;
};

// The exit code: 0, or 2 after saying on stderr (and in JSON with --json) what was wrong.
int runChessJudge(const ChessJudgeOptions& o);

}  // namespace xq::cli
