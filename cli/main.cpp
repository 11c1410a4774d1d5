// `xq`: the user's command line. Each subcommand lives in its own cmd_*.cpp and registers itself.
// Built twice (cli/CMakeLists.txt): xq-cluster with every command, and xq with the commands that run on
// one machine alone, which hands any other command line to xq-cluster (XQ_CLI_HANDS_OVER_TO).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>

#include "command.h"

namespace xq::cli {
std::vector<CommandSetup>& commandRegistry() {
    static std::vector<CommandSetup> registry;
    return registry;
}

std::string binaryBesideXq(const std::string& name) {
    std::error_code ec;
    auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return name;
    return (self.parent_path() / name).string();
}

std::string engineBesideXq() {
    return binaryBesideXq("xq-engine");
}
}  // namespace xq::cli

namespace {

#ifdef XQ_CLI_HANDS_OVER_TO
// Whether this program has the subcommand the command line starts with. Anything else (another command,
// --help, no command at all, a typo) goes to the program with every command, which answers it in full.
bool hasOwnCommand(CLI::App& app, int argc, char** argv) {
    if (argc < 2) return false;
    for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
        if (sub->check_name(argv[1])) return true;
    return false;
}

// Runs the program with every command in this process's place, with the same arguments (argv[0] stays, so
// its usage text still says `xq`). Returns only when that program cannot be started.
int handOver(char** argv) {
    const std::string program = xq::cli::binaryBesideXq(XQ_CLI_HANDS_OVER_TO);
    ::execv(program.c_str(), argv);
    const int error = errno;
    std::cerr << "xq: error: " << (argv[1] ? "'" + std::string(argv[1]) + "' is" : std::string("help is"))
              << " in " << program << ", which cannot be run: " << std::strerror(error) << "\n";
    return 127;
}
#endif

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"xq: Xiangqi engine testing: matches, SPRT, rules judge, distributed tests"};
    app.require_subcommand(1);
    for (auto& setup : xq::cli::commandRegistry()) setup(app);
#ifdef XQ_CLI_HANDS_OVER_TO
    if (!hasOwnCommand(app, argc, argv)) return handOver(argv);
#endif
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const xq::cli::ExitCode& e) {
        return e.code;
    } catch (const std::exception& e) {
        std::cerr << "xq: error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
