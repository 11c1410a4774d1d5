// The one reader of an engine's `key=value` settings and of SPRT settings, as every command takes them:
// `xq match --engine/--each/--sprt`, `xq submit --each/--base-option/--dev-option/--sprt`, `xq regress`,
// `xq spsa`. Settings apply in order and a later value of a key replaces an earlier one (so an engine's own
// settings override --each), for time-control keys as for options.
//
// A token holds one setting or several separated by spaces, except that a token starting with `option.`
// or `args=` is one setting whole (option names and argument lists may hold spaces:
// "option.Skill Level=10", "args=--threads 2").
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sprt.h"

namespace xq::match {

struct EngineSettings {
    std::optional<std::string> name, cmd, protocol;
    std::optional<std::vector<std::string>> args;              // args=: split on spaces
    std::vector<std::pair<std::string, std::string>> options;  // option.NAME=VALUE, first-set order
    std::vector<std::pair<std::string, std::string>> time;     // tc, st, nodes, depth, margin, timemargin

    // The time keys as TimeControl::parse reads them ("tc=10+0.1 nodes=5000"); empty when none is set.
    std::string timeSpec() const;
};

// Applies `tokens` to `s`. `flag` names where they came from in errors ("--each"); keys outside
// `allowed` (besides option.NAME and the time keys) are refused, naming what is accepted. Throws
// std::invalid_argument.
void applyEngineSettings(EngineSettings& s, const std::vector<std::string>& tokens, const std::string& flag,
                         const std::vector<std::string>& allowed = {"name", "cmd", "args", "proto"});

// "elo0=0,elo1=5" or the tokens "elo0=0" "elo1=5", with alpha=, beta= and model=normalized|logistic.
// elo0 and elo1 are required, or given by a preset word of fishtest's two kinds of test (SprtPresets):
// "gainer" (dev is better: elo0=0,elo1=2) or "non-regression" (dev is no worse: elo0=-1.75,elo1=0.25),
// both normalized Elo; keys after a preset override it ("gainer,alpha=0.1"). Throws std::invalid_argument
// naming the bad setting.
struct SprtPreset {
    const char* name;
    const char* what;  // for --help and the web form
    double elo0, elo1;
};
// fishtest's bounds of its short time control, in normalized Elo: a gainer must show at least a little
// gain; a non-regression test (a simplification, a speed-up that must not cost strength) must show that dev
// is no worse than base by more than a little.
inline constexpr SprtPreset SprtPresets[] = {
    {"gainer", "dev is stronger: elo0=0,elo1=2 (normalized)", 0, 2},
    {"non-regression", "dev is no weaker: elo0=-1.75,elo1=0.25 (normalized)", -1.75, 0.25},
};

stats::SprtConfig parseSprtSettings(const std::vector<std::string>& tokens,
                                    const std::string& flag = "--sprt");

}  // namespace xq::match
