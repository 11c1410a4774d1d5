// `xq`: the user's command line. Each subcommand lives in its own cmd_*.cpp and registers itself.
#include <CLI/CLI.hpp>
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

int main(int argc, char** argv) {
    CLI::App app{"xq: Xiangqi engine testing: matches, SPRT, rules judge, distributed tests"};
    app.require_subcommand(1);
    for (auto& setup : xq::cli::commandRegistry()) setup(app);
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
