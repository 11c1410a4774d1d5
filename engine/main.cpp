// xq-engine: the UCI engine; `xq-engine bench` and `xq-engine perft DEPTH [FEN]` are for testing, `xq-engine
// nnue` makes, describes and exports networks.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "bench.h"
#include "nnue_default.h"
#include "nnue_tool.h"
#include "search_params.h"
#include "uci.h"
#include "weights.h"
#include "xiangqi/movegen.h"
#include "xiangqi/position.h"

namespace {

int runPerft(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: xq-engine perft DEPTH [FEN]\n";
        return 2;
    }
    char* end = nullptr;
    long depth = std::strtol(argv[2], &end, 10);
    if (*end != '\0' || depth < 1 || depth > 12) {
        std::cerr << "xq-engine perft: depth must be a number from 1 to 12, got '" << argv[2] << "'\n";
        return 2;
    }
    std::string fen = xq::Position::StartFEN;
    if (argc > 3) {
        fen.clear();
        for (int i = 3; i < argc; ++i) fen += (i > 3 ? " " : "") + std::string(argv[i]);
    }
    xq::Position pos;
    try {
        pos.setFen(fen);
    } catch (const xq::FenError& e) {
        std::cerr << "xq-engine perft: " << e.what() << "\n";
        return 2;
    }
    auto start = std::chrono::steady_clock::now();
    std::uint64_t total = 0;
    for (xq::Move m : xq::legalMoves(pos)) {
        pos.doMove(m);
        std::uint64_t n = depth > 1 ? xq::perft(pos, int(depth) - 1) : 1;
        pos.undoMove();
        total += n;
        std::cout << xq::moveToString(m) << ": " << n << "\n";
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cerr << "time " << secs << " s, " << std::uint64_t(total / (secs > 0 ? secs : 1e-9))
              << " leaves/s\n";
    std::cout << "\nNodes searched: " << total << "\n";
    return 0;
}

// Reads a positive integer argument or returns -1 after saying what was wrong.
int intArg(const char* what, const char* text, int lo, int hi) {
    char* end = nullptr;
    long v = std::strtol(text, &end, 10);
    if (*end != '\0' || v < lo || v > hi) {
        std::cerr << "xq-engine: " << what << " must be a number from " << lo << " to " << hi << ", got '"
                  << text << "'\n";
        return -1;
    }
    return int(v);
}

// The evaluation a bench runs with: EVALFILE is a network, a hand-written weights file, or "handwritten"
// (the built-in weights); without it, the engine's default. Null for the hand-written evaluation; false
// after saying what was wrong.
bool benchEvaluation(int argc, char** argv, std::shared_ptr<const xq::nnue::Network>& network) {
    network = xq::nnue::defaultNetwork();
    if (argc <= 5) {
        std::cerr << "Evaluation: " << (network ? "network " + network->name : std::string("hand-written"))
                  << "\n";
        return true;
    }
    const std::string file = argv[5];
    try {
        if (file == "handwritten") {
            network = nullptr;
        } else if (xq::nnue::fileLooksLikeNetwork(file)) {
            network = std::make_shared<const xq::nnue::Network>(xq::nnue::loadNetworkFile(file));
        } else {
            xq::eval::setActiveWeights(xq::eval::loadWeightsFile(file));
            network = nullptr;
        }
    } catch (const std::exception& e) {
        std::cerr << "xq-engine bench: " << e.what() << "\n";
        return false;
    }
    std::cerr << "Evaluation: " << (network ? "network " + network->name : "hand-written (" + file + ")")
              << "\n";
    return true;
}

int runBench(int argc, char** argv) {
    int depth = xq::BENCH_DEFAULT_DEPTH, threads = 1, hash = 16;
    if (argc > 2 && (depth = intArg("depth", argv[2], 1, 60)) < 0) return 2;
    if (argc > 3 && (threads = intArg("threads", argv[3], 1, 256)) < 0) return 2;
    if (argc > 4 && (hash = intArg("hash", argv[4], 1, 65536)) < 0) return 2;
    std::shared_ptr<const xq::nnue::Network> network;
    if (!benchEvaluation(argc, argv, network)) return 2;
    xq::BenchResult r = xq::runBench(depth, threads, hash, &std::cerr, network);
    std::cerr << "\n===========================\nTotal time (ms): " << r.milliseconds << "\n";
    std::cout << "Nodes searched: " << r.nodes << "\n";
    std::cout << "Nodes/second: " << r.nodesPerSecond() << "\n";
    return 0;
}

// `xq-engine nnue export FILE|DIR`: the embedded network's file byte for byte (in a directory: named
// xq-<hash>.nnue, so the shipped file's name). Throws NetworkError if the file cannot be written.
int exportDefaultNetwork(const std::string& target) {
    if (!xq::nnue::hasDefaultNetwork()) {
        std::cerr << "xq-engine nnue export: this engine has no embedded network (built without "
                     "XQ_DEFAULT_NET)\n";
        return 1;
    }
    const std::string_view bytes = xq::nnue::defaultNetworkBytes();
    const std::string name = xq::nnue::networkName(bytes);
    std::error_code ec;
    const std::string path =
        std::filesystem::is_directory(target, ec) ? (std::filesystem::path(target) / name).string() : target;
    xq::nnue::writeNetworkBytes(path, bytes);
    std::cout << "wrote " << path << ": " << name << " (" << bytes.size() << " bytes, the embedded "
              << xq::nnue::defaultNetworkPath() << ")\n";
    return 0;
}

// `xq-engine nnue random FILE [H] [SEED]` writes a random valid network; `nnue info FILE` describes one;
// `nnue export` writes the embedded one.
int runNnue(int argc, char** argv) {
    const std::string sub = argc > 2 ? argv[2] : "";
    try {
        if (sub == "random" && argc >= 4 && argc <= 6) {
            int hidden = 256;
            if (argc > 4 && (hidden = intArg("H", argv[4], 16, xq::nnue::MAX_HIDDEN)) < 0) return 2;
            std::uint64_t seed = 1;
            if (argc > 5) {
                char* end = nullptr;
                seed = std::strtoull(argv[5], &end, 10);
                if (*end != '\0' || *argv[5] == '\0' || *argv[5] == '-') {
                    std::cerr << "xq-engine nnue random: SEED must be a whole number, got '" << argv[5]
                              << "'\n";
                    return 2;
                }
            }
            xq::nnue::Network net = xq::nnue::randomNetwork(hidden, seed);
            std::cout << "wrote " << argv[3] << ": " << xq::nnue::saveNetworkFile(argv[3], net)
                      << " (H = " << hidden << ", seed " << seed << ")\n";
            return 0;
        }
        if (sub == "export" && argc == 4) return exportDefaultNetwork(argv[3]);
        if (sub == "info" && argc == 4) {
            std::cout << "file:            " << argv[3] << "\n"
                      << xq::nnue::networkInfo(xq::nnue::loadNetworkFile(argv[3]));
            return 0;
        }
    } catch (const xq::nnue::NetworkError& e) {
        std::cerr << "xq-engine nnue " << sub << ": " << e.what() << "\n";
        return 1;
    }
    std::cerr << "usage: xq-engine nnue random FILE [H [SEED]] | xq-engine nnue info FILE | xq-engine nnue "
                 "export FILE|DIR\n";
    return 2;
}

// `xq-engine weights export [FILE]` writes the compiled-in weights as a weights file; `weights source`
// writes them as C++ (weights_default.cpp).
int runWeights(int argc, char** argv) {
    std::string what = argc > 2 ? argv[2] : "";
    if (what == "export") {
        if (argc > 3) {
            try {
                xq::eval::saveWeightsFile(argv[3], xq::eval::defaultWeights());
            } catch (const xq::eval::WeightsError& e) {
                std::cerr << "xq-engine weights: " << e.what() << "\n";
                return 1;
            }
        } else
            xq::eval::writeWeights(std::cout, xq::eval::defaultWeights());
        return 0;
    }
    if (what == "source") {
        xq::eval::Weights w = xq::eval::defaultWeights();
        if (argc > 3) {
            try {
                w = xq::eval::loadWeightsFile(argv[3]);
            } catch (const xq::eval::WeightsError& e) {
                std::cerr << "xq-engine weights: " << e.what() << "\n";
                return 1;
            }
        }
        xq::eval::writeWeightsSource(std::cout, w);
        return 0;
    }
    std::cerr << "usage: xq-engine weights export [FILE] | xq-engine weights source [WEIGHTS_FILE]\n";
    return 2;
}

// `xq-engine tune`: the search parameters in fishtest's SPSA format; `tune source [FILE]`: the source of the
// compiled-in values (search_params_default.cpp), with FILE's values (tune format) over the current ones.
int runTune(int argc, char** argv) {
    std::string sub = argc > 2 ? argv[2] : "";
    if (sub.empty()) {
        std::cout << xq::search::tuneListing();
        return 0;
    }
    if (sub == "source" && argc <= 4) {
        std::string why;
        if (argc == 4 && !xq::search::loadParamsFile(argv[3], &why)) {
            std::cerr << "xq-engine tune source: " << why << "\n";
            return 1;
        }
        std::cout << xq::search::paramsSource();
        return 0;
    }
    std::cerr << "usage: xq-engine tune | xq-engine tune source [PARAMS_FILE]\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::string cmd = argc > 1 ? argv[1] : "";
    if (cmd == "perft") return runPerft(argc, argv);
    if (cmd == "bench") return runBench(argc, argv);
    if (cmd == "weights") return runWeights(argc, argv);
    if (cmd == "tune") return runTune(argc, argv);
    if (cmd == "nnue") return runNnue(argc, argv);
    if (!cmd.empty()) {
        std::cerr << "usage: xq-engine [bench [DEPTH [THREADS [HASH_MB [EVALFILE]]]] | perft DEPTH [FEN] | "
                     "weights ... | tune ... | nnue ...]\n"
                     "With no arguments it speaks UCI on standard input and output.\n";
        return 2;
    }
    std::ios::sync_with_stdio(false);
    xq::uci::UciLoop loop(std::cin, std::cout);
    loop.run();
    return 0;
}
