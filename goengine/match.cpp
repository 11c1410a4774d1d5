#include "goengine/match.h"

#include <cstdio>
#include <ostream>
#include <stdexcept>

#include "goengine/board.h"
#include "goengine/engine.h"

namespace xq::go {

namespace {
const char* kUsage =
    "usage: xq-go match --engine1 NAME --engine2 NAME [--games N] [--size S] [--start empty|crosscut]\n"
    "                   [--rules capture|go] [--target N] [--movetime S] [--nodes N] [--level1 L] [--level2 "
    "L]\n";
}

int runMatchCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    PlayerOptions p1, p2;
    int games = 10, size = 9, target = 1;
    std::string start = "empty", rules = "capture";
    double moveTime = 0.2;
    std::uint64_t nodes = 0;
    try {
        for (std::size_t i = 0; i < args.size(); ++i) {
            const std::string& a = args[i];
            auto value = [&]() -> std::string {
                if (i + 1 >= args.size()) throw std::invalid_argument(a + " needs a value");
                return args[++i];
            };
            auto engine = [&](const std::string& v) {
                auto k = parseEngine(v);
                if (!k) throw std::invalid_argument("unknown engine " + v);
                return *k;
            };
            if (a == "--engine1")
                p1.engine = engine(value());
            else if (a == "--engine2")
                p2.engine = engine(value());
            else if (a == "--level1")
                p1.level = std::stoi(value());
            else if (a == "--level2")
                p2.level = std::stoi(value());
            else if (a == "--games")
                games = std::stoi(value());
            else if (a == "--size")
                size = std::stoi(value());
            else if (a == "--start")
                start = value();
            else if (a == "--rules")
                rules = value();
            else if (a == "--target")
                target = std::stoi(value());
            else if (a == "--movetime")
                moveTime = std::stod(value());
            else if (a == "--nodes")
                nodes = std::stoull(value());
            else
                throw std::invalid_argument("unknown option " + a);
        }
        if (size < 5 || size > kMaxSize) throw std::invalid_argument("--size takes 5 to 19");
        if (games < 1) throw std::invalid_argument("--games takes 1 or more");
        if (target < 1) throw std::invalid_argument("--target takes 1 or more");
        if (rules != "capture" && rules != "go") throw std::invalid_argument("--rules takes capture or go");
        if (start != "empty" && start != "crosscut")
            throw std::invalid_argument("--start takes empty or crosscut");
        if (!(moveTime >= 0 && moveTime <= 3600)) throw std::invalid_argument("--movetime takes 0 to 3600");
        for (int level : {p1.level, p2.level})
            if (level < 0 || level > kMaxLevel) throw std::invalid_argument("levels are 0 to 20");
    } catch (const std::exception& e) {
        err << "xq-go match: " << e.what() << "\n" << kUsage;
        return 2;
    }
    Rules r = rules == "go" ? Rules::go() : Rules::capture(target, 0.0);
    StartPosition sp = start == "crosscut" ? StartPosition::Crosscut : StartPosition::Empty;
    for (PlayerOptions* p : {&p1, &p2}) p->moveTime = moveTime, p->nodes = nodes, p->hashMegabytes = 32;
    p2.seed = 2;
    Player a(p1), b(p2);
    int wins = 0, draws = 0, losses = 0;
    GameClock clock;
    for (int game = 0; game < games; ++game) {
        Board board(size, r, sp);
        const bool firstIsBlack = game % 2 == 0;
        a.newGame(), b.newGame();
        int plies = 0;
        while (!board.gameOver() && plies < 4 * size * size) {
            bool firstToMove = (board.toMove() == Black) == firstIsBlack;
            Decision d = (firstToMove ? a : b).genmove(board, clock);
            if (d.resign)
                board.resign(board.toMove());
            else if (board.play(d.move) != MoveError::None)
                board.play(kPass);
            ++plies;
        }
        Winner w = board.gameOver() ? board.result().winner : board.scoreByPasses().winner;
        bool firstWon = w == (firstIsBlack ? Winner::Black : Winner::White);
        if (w == Winner::Draw)
            ++draws;
        else if (firstWon)
            ++wins;
        else
            ++losses;
        out << "game " << game + 1 << ": first plays " << (firstIsBlack ? "black" : "white") << ", "
            << (board.gameOver() ? board.result().toString() : "unfinished") << " after " << plies
            << " moves\n"
            << std::flush;
    }
    char buf[128];
    std::snprintf(buf, sizeof buf, "%s vs %s: +%d =%d -%d\n", engineName(p1.engine), engineName(p2.engine),
                  wins, draws, losses);
    out << buf;
    return 0;
}

}  // namespace xq::go
