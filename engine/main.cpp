// xq-engine: the UCI engine; `xq-engine bench` and `xq-engine perft DEPTH [FEN]` are for testing.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>

#include "movegen.h"
#include "position.h"

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
    std::cerr << "time " << secs << " s, " << std::uint64_t(total / (secs > 0 ? secs : 1e-9)) << " leaves/s\n";
    std::cout << "\nNodes searched: " << total << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "perft") return runPerft(argc, argv);
    std::cerr << "xq-engine: only 'perft' is available in this build\n";
    return 2;
}
