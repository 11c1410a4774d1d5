// What a match tells people and scripts: the live progress line, the final summary and the JSON
// report, with Elo and the SPRT from the statistics library.
#pragma once

#include <optional>
#include <string>

#include "match.h"
#include "sprt.h"

namespace xq::match {

struct MatchReport {
    const MatchConfig* config = nullptr;
    MatchTotals totals;
    std::optional<xq::stats::SprtConfig> sprt;
    xq::stats::SprtState sprtState;  // from the tracker, when sprt is set
    double elapsedSeconds = 0;
    bool interrupted = false;  // stopped by the user before the planned games were played
    std::string error;  // what ended the match early, if an error did; the totals are the games before it
    // CPU time of the runner itself and of its (finished) engine processes; negative: not measured.
    double runnerCpuSeconds = -1;
    double enginesCpuSeconds = -1;
    // How often the runner gave up its CPU (context switches, voluntary or not): mostly the waits for
    // engine output; negative: not measured.
    long runnerWakeups = -1;
};

xq::stats::Penta pentaOf(const MatchTotals& t);
xq::stats::Wdl wdlOf(const MatchTotals& t);

// One line: games, W/D/L, pentanomial, Elo +- error, LLR with bounds (with an SPRT), ETA.
std::string progressLine(const MatchReport& r);
// Several lines for stdout at the end.
std::string summaryText(const MatchReport& r);
// The --json report: games, pairs, wdl, penta, elo, elo_error, nelo, los, llr, sprt, failures, ...
std::string jsonReport(const MatchReport& r);

}  // namespace xq::match
