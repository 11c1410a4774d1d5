// `xq judge --game capturego FILE.sgf...`: replays every game tree of the SGF files (as `xq match --game
// capturego --pgnout` appends them, one per game) with the rules library and reports, per game, the
// recorded result (RE) against the rules' verdict, or the first move that cannot be played with its number.
#pragma once

#include <string>
#include <vector>

namespace xq::cli {

struct CaptureGoJudgeOptions {
    std::vector<std::string> files;  // SGF, .sgf or .sgf.gz
    bool json = false;
};

// The exit code: 0 when every game could be replayed (whether or not its record agrees with the rules),
// 2 when a file cannot be read or parsed or a game has a move that cannot be played.
int runCaptureGoJudge(const CaptureGoJudgeOptions& o);

}  // namespace xq::cli
