// A tiny scriptable engine for the match runner's tests: plays random legal moves (captures first
// with --greedy, or the first legal one of a --prefer list) in the UCI, UCCI or Fairy-Stockfish dialect, and
// with --optimum NAME=BEST:SCALE is as strong as its spin option NAME is close to a hidden BEST (SPSA's
// tests: with a chance of 1 - |NAME - BEST| / SCALE a move mates in one or takes the most valuable piece,
// otherwise it is random), with --hostile ACT does something a sandbox must stop at its first go (open a
// TCP connection to 127.0.0.1:PORT, write a file at PATH, fork without bound, take GB of memory) and dies
// (abort) when it is stopped, and
// misbehaves on request: crash, stall, illegal move, garbage, no move, slowness, a missing handshake. "After
// N" counts the go commands this process has answered. Every command received can be logged to a file.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "xiangqi/movegen.h"
#include "xiangqi/position.h"
#include "xiangqi/rules.h"

namespace {

struct Settings {
    std::string proto = "uci";
    unsigned seed = 1;
    int crashAfter = -1, stallAfter = -1, illegalAfter = -1, garbageAfter = -1, nomoveAfter = -1;
    int delayMs = 0;
    int redScore = 0;
    bool reportScore = false;
    bool noHandshake = false;
    bool greedy = false;
    std::vector<std::string> prefer;  // --prefer a,b,...: the first of these moves that is legal, if any
    std::string logPath;
    // --optimum NAME=BEST:SCALE
    std::string optimumName;
    double optimum = 0, optimumScale = 1, optionValue = 50;
    std::string hostile;  // socket:PORT, write:PATH, fork, memory:GB
};

// The hostile act; false when something stopped it.
bool actHostile(const std::string& act) {
    if (act.rfind("socket:", 0) == 0) {
        int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) return false;
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(std::uint16_t(std::atoi(act.c_str() + 7)));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
        ::close(fd);
        return ok;
    }
    if (act.rfind("write:", 0) == 0) {
        std::FILE* f = std::fopen(act.c_str() + 6, "w");
        if (!f) return false;
        bool ok = std::fputs("written by a hostile engine\n", f) >= 0;
        return std::fclose(f) == 0 && ok;
    }
    if (act == "fork") {
        // Children that sleep for a while: without a sandbox these many stay (bounded here, so that the
        // unsandboxed control stays harmless); with one the first fork fails.
        for (int i = 0; i < 64; ++i) {
            pid_t pid = ::fork();
            if (pid < 0) return false;
            if (pid == 0) {
                ::sleep(5);
                ::_exit(0);
            }
        }
        return true;
    }
    if (act.rfind("memory:", 0) == 0) {
        std::size_t bytes = std::size_t(std::atoll(act.c_str() + 7)) << 30;
        char* p = static_cast<char*>(std::malloc(bytes));
        if (!p) return false;
        for (std::size_t i = 0; i < bytes; i += 4096) p[i] = 1;
        std::free(p);
        return true;
    }
    return false;
}

// A mate in one if there is one, else the capture of the most valuable piece, else none.
std::optional<xq::Move> strongMove(xq::Position& pos, const xq::MoveList& moves) {
    static const int value[] = {0, 10000, 2, 2, 4, 9, 4, 1};  // by piece type: king .. pawn
    std::optional<xq::Move> best;
    int bestValue = 0;
    for (xq::Move m : moves) {
        pos.doMove(m);
        bool mates = xq::legalMoves(pos).size == 0;
        pos.undoMove();
        if (mates) return m;
        if (!pos.isCapture(m)) continue;
        int v = value[xq::typeOf(pos.pieceOn(xq::toSq(m)))];
        if (v > bestValue) best = m, bestValue = v;
    }
    return best;
}

int intArg(int& i, int argc, char** argv) {
    if (i + 1 >= argc) {
        std::fprintf(stderr, "mock-engine: %s needs a value\n", argv[i]);
        std::exit(2);
    }
    return std::atoi(argv[++i]);
}

std::string toFairy(const std::string& m) {
    return std::string(1, m[0]) + std::to_string(m[1] - '0' + 1) + m[2] + std::to_string(m[3] - '0' + 1);
}

std::string fromFairy(const std::string& m) {
    std::string out;
    std::size_t i = 0;
    for (int k = 0; k < 2 && i < m.size(); ++k) {
        out += m[i++];
        int rank = 0;
        while (i < m.size() && std::isdigit(static_cast<unsigned char>(m[i])))
            rank = rank * 10 + (m[i++] - '0');
        out += char('0' + rank - 1);
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    Settings s;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--proto" && i + 1 < argc)
            s.proto = argv[++i];
        else if (a == "--seed")
            s.seed = unsigned(intArg(i, argc, argv));
        else if (a == "--crash-after")
            s.crashAfter = intArg(i, argc, argv);
        else if (a == "--stall-after")
            s.stallAfter = intArg(i, argc, argv);
        else if (a == "--illegal-after")
            s.illegalAfter = intArg(i, argc, argv);
        else if (a == "--garbage-after")
            s.garbageAfter = intArg(i, argc, argv);
        else if (a == "--nomove-after")
            s.nomoveAfter = intArg(i, argc, argv);
        else if (a == "--delay")
            s.delayMs = intArg(i, argc, argv);
        else if (a == "--red-score")
            s.redScore = intArg(i, argc, argv), s.reportScore = true;
        else if (a == "--no-handshake")
            s.noHandshake = true;
        else if (a == "--optimum" && i + 1 < argc) {
            std::string spec = argv[++i];
            auto eq = spec.find('='), colon = spec.find(':');
            if (eq == std::string::npos || colon == std::string::npos || colon < eq) {
                std::fprintf(stderr, "mock-engine: --optimum wants NAME=BEST:SCALE\n");
                return 2;
            }
            s.optimumName = spec.substr(0, eq);
            s.optimum = std::atof(spec.substr(eq + 1, colon - eq - 1).c_str());
            s.optimumScale = std::max(1e-9, std::atof(spec.substr(colon + 1).c_str()));
        } else if (a == "--hostile" && i + 1 < argc) {
            s.hostile = argv[++i];
        } else if (a == "--greedy")
            s.greedy = true;
        else if (a == "--prefer" && i + 1 < argc) {
            std::istringstream list(argv[++i]);
            for (std::string m; std::getline(list, m, ',');) s.prefer.push_back(m);
        } else if (a == "--log" && i + 1 < argc)
            s.logPath = argv[++i];
        else if (a == "--exit-at-start")
            return 3;
        else {
            std::fprintf(stderr, "mock-engine: unknown argument %s\n", a.c_str());
            return 2;
        }
    }
    const bool fairy = s.proto == "fairy", ucci = s.proto == "ucci";
    std::mt19937 rng(s.seed);
    std::ofstream log;
    if (!s.logPath.empty()) log.open(s.logPath, std::ios::app);
    xq::Position pos;
    bool variantSet = false;
    int answered = 0;

    std::string line;
    while (std::getline(std::cin, line)) {
        if (log) log << line << std::endl;
        std::istringstream in(line);
        std::string cmd;
        in >> cmd;
        if (cmd == "uci" || cmd == "ucci") {
            if (s.noHandshake) continue;
            std::cout << "id name mock-" << s.proto << "\n";
            if (fairy)
                std::cout << "option name UCI_Variant type combo default chess var chess var xiangqi\n";
            // A few options as real engines declare them, so that a runner may set them.
            for (const char* option :
                 {"Threads type spin default 1 min 1 max 64", "Hash type spin default 16 min 1 max 1024",
                  "EvalFile type string", "Repetition Rule type combo default Asian var Asian var Chinese"})
                std::cout << (ucci ? "option " : "option name ") << option << "\n";
            if (!s.optimumName.empty())
                std::cout << "option name " << s.optimumName << " type spin default 50 min 0 max 100\n";
            std::cout << (cmd == "ucci" ? "ucciok" : "uciok") << std::endl;
        } else if (cmd == "isready") {
            std::cout << "readyok" << std::endl;
        } else if (cmd == "setoption") {
            if (line.find("UCI_Variant value xiangqi") != std::string::npos) variantSet = true;
            std::string prefix = "setoption name " + s.optimumName + " value ";
            if (!s.optimumName.empty() && line.rfind(prefix, 0) == 0)
                s.optionValue = std::atof(line.substr(prefix.size()).c_str());
        } else if (cmd == "position") {
            std::string kind, tok, fen;
            in >> kind;
            if (kind == "fen") {
                while (in >> tok && tok != "moves") fen += (fen.empty() ? "" : " ") + tok;
            } else {
                fen = xq::Position::StartFEN;
                in >> tok;
            }
            try {
                pos.setFen(fen);
            } catch (const std::exception& e) {
                std::cout << "info string bad fen: " << e.what() << std::endl;
                continue;
            }
            while (in >> tok) {
                auto m = xq::parseMove(pos, fairy ? fromFairy(tok) : tok);
                if (!m) {
                    std::cout << "info string illegal move " << tok << std::endl;
                    break;
                }
                pos.doMove(*m);
            }
        } else if (cmd == "go") {
            if (answered == s.crashAfter) std::abort();
            if (answered == 0 && !s.hostile.empty() && !actHostile(s.hostile)) {
                std::perror(("mock-engine: hostile " + s.hostile + " refused").c_str());
                std::abort();
            }
            if (answered == s.stallAfter) {
                // Ignore everything from now on, but stay alive.
                while (std::getline(std::cin, line)) {
                }
                return 0;
            }
            if (s.delayMs > 0) std::this_thread::sleep_for(std::chrono::milliseconds(s.delayMs));
            xq::MoveList moves = xq::legalMoves(pos);
            std::vector<xq::Move> pool;
            if (s.greedy)
                for (xq::Move m : moves)
                    if (pos.isCapture(m)) pool.push_back(m);
            if (pool.empty())
                for (const std::string& text : s.prefer)
                    if (auto m = xq::parseMove(pos, text); m && pool.empty()) pool.push_back(*m);
            if (!s.optimumName.empty()) {
                double quality = std::max(0.0, 1 - std::abs(s.optionValue - s.optimum) / s.optimumScale);
                if (std::uniform_real_distribution<double>(0, 1)(rng) < quality)
                    if (auto m = strongMove(pos, moves)) pool.push_back(*m);
            }
            if (pool.empty()) pool.assign(moves.begin(), moves.end());
            std::string best;
            if (answered == s.garbageAfter) {
                best = "zz!?";
            } else if (answered == s.illegalAfter) {
                // A move from an empty square can never be legal.
                for (xq::Square from = 0; from < xq::SQUARE_NB && best.empty(); ++from)
                    if (pos.pieceOn(from) == xq::NO_PIECE)
                        best = xq::moveToString(xq::makeMove(from, from == 0 ? 1 : 0));
            } else if (!pool.empty() && answered != s.nomoveAfter) {
                best = xq::moveToString(pool[rng() % pool.size()]);
            }
            ++answered;
            if (fairy && !variantSet) best = "a1a2";  // without the variant it would be playing chess
            int mover = pos.sideToMove() == xq::RED ? s.redScore : -s.redScore;
            if (s.reportScore) {
                if (ucci)
                    std::cout << "info depth 3 score " << mover << " pv " << best << "\n";
                else
                    std::cout << "info depth 3 seldepth 3 score cp " << mover << " nodes 42 time 1 pv\n";
            }
            if (best.empty())
                std::cout << (ucci ? "nobestmove" : "bestmove (none)") << std::endl;
            else
                std::cout << "bestmove "
                          << (fairy && best.size() == 4 && best != "a1a2" ? toFairy(best) : best)
                          << std::endl;
        } else if (cmd == "quit") {
            if (ucci) std::cout << "bye" << std::endl;
            return 0;
        }
    }
    return 0;
}
