// Subcommands of `xq` register themselves here, one file per command family (cmd_*.cpp), so the CLI
// grows without a central list to edit.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace CLI {
class Option;
}

namespace xq::coord {
struct SubmissionOptions;
struct DatagenSubmission;
}  // namespace xq::coord

namespace xq::cli {

using CommandSetup = std::function<void(CLI::App& root)>;

std::vector<CommandSetup>& commandRegistry();

struct RegisterCommand {
    explicit RegisterCommand(CommandSetup setup) { commandRegistry().push_back(std::move(setup)); }
};

// Prints `command: warning: ...` when a test of at most options.games games would replay opening pairs
// (xq::match::repeatedPairsWarning); the coordinator then lowers the test's cap to the distinct pairs. An
// SPRT without a cap is not warned of, since it usually stops early; the coordinator caps it all the same.
void warnIfPairsRepeat(const char* command, const xq::coord::SubmissionOptions& options);

// `xq submit spsa` (cmd_spsa.cpp), a subcommand of `xq submit`.
CLI::App* addSubmitSpsa(CLI::App* submit);
// `xq submit run` (cmd_runs.cpp), a subcommand of `xq submit`; and `xq show run`, `xq stop run`,
// `xq resume run`, subcommands of the commands that take a test's id.
CLI::App* addSubmitRun(CLI::App* submit);
CLI::App* addShowRun(CLI::App* show);
CLI::App* addStopRun(CLI::App* stop);
CLI::App* addResumeRun(CLI::App* resume);

// The self-play options `xq submit datagen` and `xq submit run` share (cmd_remote.cpp): --engine, --args
// (into engineArgs, split at spaces later), --weights, --option, --nodes (returned: its count says whether
// it was given), --random-plies, --sample-rate, --balanced-cp, --seed, --slice-games, --max-plies, --rules,
// --chunk-positions, --keep-mate-scores, --priority, --throughput, --description.
CLI::Option* addSelfplayOptions(CLI::App* sub, xq::coord::DatagenSubmission& s, std::string& engineArgs);
// The adjudication of `xq submit`'s match and of `xq submit run`'s gate: --max-moves, --resign,
// --resign-moves, --draw, --draw-moves, --draw-after.
void addAdjudicationOptions(CLI::App* sub, xq::coord::SubmissionOptions& o);

// The engine that ships beside this xq binary (build/bin/xq-engine), or "xq-engine" for PATH.
std::string engineBesideXq();
// The program `name` beside this xq binary (build/bin/xq-go), or `name` for PATH.
std::string binaryBesideXq(const std::string& name);

// Empty if the engine's own reader (engine/nnue_network.h: every check of docs/nnue.md) accepts the
// network file; otherwise why not, naming the file: "network file 'x.nnue': file truncated: ..."
// (cmd_nets.cpp).
std::string networkProblem(const std::string& path);

// Thrown from a subcommand callback to exit with a code after printing nothing more.
struct ExitCode {
    int code;
};

}  // namespace xq::cli
