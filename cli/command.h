// Subcommands of `xq` register themselves here, one file per command family (cmd_*.cpp), so the CLI
// grows without a central list to edit.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace xq::coord {
struct SubmissionOptions;
}

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
