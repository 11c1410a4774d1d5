// A tiny scriptable GTP engine for the match runner's Capture Go tests: keeps the game in the rules library
// (boardsize, clear_board, komi, xq-rules, cap, play, genmove, time_settings, time_left) and answers genmove
// with a random legal stone move (a pass only when there is none), in upper or (--lowercase) lower case,
// and misbehaves on request: "--X-after N" does X at the (N+1)-th genmove this process answers, X being
// crash (exits), stall (never answers), illegal (names an occupied point), garbage (answers "= banana"),
// error (answers "? out of ideas"), noanswer (prints a line that is no GTP answer), resign. --no-cap leaves
// cap and xq-rules out of list_commands. Every command received can be logged with --log FILE.
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "capturego/notation.h"
#include "capturego/position.h"

namespace cg = xq::capturego;

namespace {

struct Settings {
    unsigned seed = 1;
    int crashAfter = -1, stallAfter = -1, illegalAfter = -1, garbageAfter = -1, errorAfter = -1,
        noanswerAfter = -1, resignAfter = -1;
    bool lowercase = false, noCap = false;
    std::string log;
};

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    Settings s;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
        if (a == "--seed")
            s.seed = unsigned(std::stoul(next()));
        else if (a == "--crash-after")
            s.crashAfter = std::stoi(next());
        else if (a == "--stall-after")
            s.stallAfter = std::stoi(next());
        else if (a == "--illegal-after")
            s.illegalAfter = std::stoi(next());
        else if (a == "--garbage-after")
            s.garbageAfter = std::stoi(next());
        else if (a == "--error-after")
            s.errorAfter = std::stoi(next());
        else if (a == "--noanswer-after")
            s.noanswerAfter = std::stoi(next());
        else if (a == "--resign-after")
            s.resignAfter = std::stoi(next());
        else if (a == "--lowercase")
            s.lowercase = true;
        else if (a == "--no-cap")
            s.noCap = true;
        else if (a == "--log")
            s.log = next();
        else {
            std::cerr << "mock-gtp-engine: unknown argument " << a << "\n";
            return 2;
        }
    }
    std::mt19937 rng(s.seed);
    std::ofstream log;
    if (!s.log.empty()) log.open(s.log, std::ios::app);
    int size = 9;
    cg::Rules rules = cg::Rules::capture(1, 0);
    cg::Position pos(size, rules);
    int genmoves = 0;
    auto answer = [](bool ok, const std::string& text) {
        std::cout << (ok ? "=" : "?") << (text.empty() ? "" : " " + text) << "\n\n" << std::flush;
    };
    for (std::string line; std::getline(std::cin, line);) {
        if (log.is_open()) log << line << std::endl;
        std::istringstream in(line);
        std::string cmd;
        in >> cmd;
        std::vector<std::string> a;
        for (std::string w; in >> w;) a.push_back(w);
        try {
            if (cmd == "list_commands") {
                std::string list =
                    "protocol_version\nname\nlist_commands\nboardsize\nclear_board\nkomi\nplay\n"
                    "genmove\ntime_settings\ntime_left\nquit";
                if (!s.noCap) list += "\ncap\nxq-rules";
                answer(true, list);
            } else if (cmd == "protocol_version") {
                answer(true, "2");
            } else if (cmd == "name") {
                answer(true, "mock-gtp-engine");
            } else if (cmd == "boardsize") {
                size = std::stoi(a.at(0));
                pos = cg::Position(size, rules);
                answer(true, "");
            } else if (cmd == "clear_board") {
                pos = cg::Position(size, rules);
                answer(true, "");
            } else if (cmd == "komi") {
                rules.komi = std::stod(a.at(0));
                pos.setRules(rules);
                answer(true, "");
            } else if (cmd == "xq-rules") {
                rules = a.at(0) == "go" ? cg::Rules::go(rules.komi) : cg::Rules::capture(1, rules.komi);
                pos.setRules(rules);
                answer(true, "");
            } else if (cmd == "cap") {
                rules = cg::Rules::capture(std::stoi(a.at(0)), rules.komi);
                pos.setRules(rules);
                answer(true, "");
            } else if (cmd == "play") {
                cg::Color c = lower(a.at(0))[0] == 'b' ? cg::Color::Black : cg::Color::White;
                pos.setToMove(c);  // GTP lets either colour play; the mock keeps no history beyond superko
                std::string why;
                if (!pos.play(cg::parseMove(a.at(1), size), &why))
                    answer(false, "illegal move: " + why);
                else
                    answer(true, "");
            } else if (cmd == "genmove") {
                int n = genmoves++;
                if (n == s.crashAfter) return 3;
                if (n == s.stallAfter) std::this_thread::sleep_for(std::chrono::hours(1));
                if (n == s.garbageAfter) {
                    answer(true, "banana");
                    continue;
                }
                if (n == s.errorAfter) {
                    answer(false, "out of ideas");
                    continue;
                }
                if (n == s.noanswerAfter) {
                    std::cout << "thinking very hard\n\n" << std::flush;
                    continue;
                }
                if (n == s.resignAfter) {
                    answer(true, s.lowercase ? "resign" : "RESIGN");
                    continue;
                }
                cg::Color c = lower(a.at(0))[0] == 'b' ? cg::Color::Black : cg::Color::White;
                pos.setToMove(c);
                std::vector<cg::Move> stones;
                for (cg::Move m : pos.legalMoves())
                    if (!m.isPass()) stones.push_back(m);
                cg::Move m;
                if (n == s.illegalAfter) {
                    for (int row = 0; row < size && m.isPass(); ++row)
                        for (int col = 0; col < size && m.isPass(); ++col)
                            if (pos.at({col, row}) != cg::Cell::Empty) m = cg::Move::at(col, row);
                    if (m.isPass()) m = cg::Move::at(0, 0);  // an empty board: nothing is occupied yet
                    std::string text = cg::moveName(m);
                    answer(true, s.lowercase ? lower(text) : text);
                    continue;
                }
                if (!stones.empty()) m = stones[rng() % stones.size()];
                pos.play(m);
                std::string text = cg::moveName(m);
                answer(true, s.lowercase ? lower(text) : text);
            } else if (cmd == "time_settings" || cmd == "time_left") {
                answer(true, "");
            } else if (cmd == "quit") {
                answer(true, "");
                return 0;
            } else {
                answer(false, "unknown command");
            }
        } catch (const std::exception& e) {
            answer(false, std::string("syntax error: ") + e.what());
        }
    }
    return 0;
}
