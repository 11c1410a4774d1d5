// xq-go: the Capture Go engine. With no command it speaks GTP on stdin/stdout. Commands:
//   xq-go [options]                 GTP (see gtp.h)
//   xq-go bench [depth]             prints "Nodes searched: N", the engine's signature (see bench.h)
//   xq-go solve --size S ...        proves a small position (see solver.h, solve_command.cpp and
//                                   `xq-go solve --help`)
//   xq-go match ...                 two engines play each other (see match.h)
// Options (GTP): --engine auto|alphabeta|mcts|random-mcts, --level 0..20 (see engine.h), --nodes N,
//   --movetime SECONDS, --hash MB, --seed N, --no-solver.
#include <iostream>
#include <string>
#include <vector>

#include "goengine/bench.h"
#include "goengine/engine.h"
#include "goengine/gtp.h"
#include "goengine/match.h"
#include "goengine/solve_command.h"

namespace {

const char* kHelp =
    "usage: xq-go [--engine auto|alphabeta|mcts|random-mcts] [--level 0..20] [--nodes N] [--movetime S]\n"
    "             [--hash MB] [--seed N] [--no-solver]          GTP on stdin/stdout\n"
    "       xq-go bench [depth]                                  prints Nodes searched: N\n"
    "       xq-go solve --size S [--start crosscut|empty|FILE.sgf|'POSITION TEXT'] [--target N] [--json] "
    "...\n"
    "       xq-go match --engine1 A --engine2 B [--games N] [--size S] [--movetime S] ...\n";

bool parseDepth(const std::string& text, int& depth) {
    if (text.empty() || text.size() > 2 || text.find_first_not_of("0123456789") != std::string::npos)
        return false;
    depth = std::stoi(text);
    return depth >= 1 && depth <= 20;
}

int run(const std::vector<std::string>& args) {
    using namespace xq::go;
    if (!args.empty() && args[0] == "solve")
        return runSolveCommand({args.begin() + 1, args.end()}, std::cout, std::cerr);
    if (!args.empty() && args[0] == "match")
        return runMatchCommand({args.begin() + 1, args.end()}, std::cout, std::cerr);
    if (!args.empty() && args[0] == "bench") {
        int depth = kBenchDepth;
        if (args.size() > 2 || (args.size() == 2 && !parseDepth(args[1], depth))) {
            std::cerr << "xq-go bench: the depth is a number from 1 to 20\n" << kHelp;
            return 2;
        }
        BenchResult r = runBench(depth, &std::cerr);
        std::cerr << "\n===========================\nTotal time (ms): " << std::uint64_t(r.seconds * 1000)
                  << "\n";
        std::cout << "Nodes searched: " << r.nodes << "\n";
        std::cout << "Nodes/second: " << (r.seconds > 0 ? std::uint64_t(double(r.nodes) / r.seconds) : 0)
                  << "\n";
        return 0;
    }
    PlayerOptions o;
    try {
        for (std::size_t i = 0; i < args.size(); ++i) {
            const std::string& a = args[i];
            auto value = [&]() -> std::string {
                if (i + 1 >= args.size()) throw std::invalid_argument(a + " needs a value");
                return args[++i];
            };
            if (a == "--engine") {
                auto k = parseEngine(value());
                if (!k) throw std::invalid_argument("unknown engine");
                o.engine = *k;
            } else if (a == "--level") {
                o.level = std::stoi(value());
                if (o.level < 0 || o.level > kMaxLevel) throw std::invalid_argument("--level takes 0 to 20");
            } else if (a == "--nodes")
                o.nodes = std::stoull(value());
            else if (a == "--movetime") {
                o.moveTime = std::stod(value());
                if (!(o.moveTime >= 0 && o.moveTime <= 3600))
                    throw std::invalid_argument("--movetime takes 0 to 3600");
            } else if (a == "--hash") {
                o.hashMegabytes = std::stoul(value());
                if (o.hashMegabytes < 1 || o.hashMegabytes > 65536)
                    throw std::invalid_argument("--hash takes 1 to 65536");
            } else if (a == "--seed")
                o.seed = std::stoull(value());
            else if (a == "--no-solver")
                o.solver = false;
            else if (a == "--help" || a == "-h") {
                std::cout << kHelp;
                return 0;
            } else
                throw std::invalid_argument("unknown option " + a);
        }
    } catch (const std::exception& e) {
        std::cerr << "xq-go: " << e.what() << "\n" << kHelp;
        return 2;
    }
    Gtp gtp(o);
    gtp.run(std::cin, std::cout);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const std::exception& e) {  // a table too large for the memory, and the like
        std::cerr << "xq-go: " << e.what() << "\n";
        return 2;
    }
}
