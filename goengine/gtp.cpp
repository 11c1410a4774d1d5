#include "goengine/gtp.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "capturego/game.h"
#include "capturego/notation.h"
#include "capturego/position_text.h"
#include "capturego/sgf.h"
#include "goengine/solver.h"

namespace xq::go {

namespace {

constexpr std::size_t kMaxSgfBytes = 4u << 20;

const std::vector<std::string>& commands() {
    static const std::vector<std::string> list = {"protocol_version",
                                                  "name",
                                                  "version",
                                                  "known_command",
                                                  "list_commands",
                                                  "quit",
                                                  "boardsize",
                                                  "clear_board",
                                                  "komi",
                                                  "play",
                                                  "genmove",
                                                  "undo",
                                                  "time_settings",
                                                  "time_left",
                                                  "final_score",
                                                  "showboard",
                                                  "loadsgf",
                                                  "level",
                                                  "cap",
                                                  "xq-rules",
                                                  "xq-start",
                                                  "xq-position",
                                                  "xq-engine",
                                                  "xq-level",
                                                  "xq-nodes",
                                                  "xq-movetime",
                                                  "xq-solve",
                                                  "gogui-rules_game_id",
                                                  "gogui-rules_board_size",
                                                  "gogui-rules_board",
                                                  "gogui-rules_side_to_move",
                                                  "gogui-rules_legal_moves",
                                                  "gogui-rules_captured_count",
                                                  "gogui-rules_final_result"};
    return list;
}

std::optional<cg::Color> parseColor(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    if (s == "b" || s == "black") return cg::Color::Black;
    if (s == "w" || s == "white") return cg::Color::White;
    return std::nullopt;
}

bool parseInt(const std::string& s, long long& v) {
    if (s.empty() || s.size() > 18) return false;
    std::size_t used = 0;
    try {
        v = std::stoll(s, &used);
    } catch (...) {
        return false;
    }
    return used == s.size();
}

bool parseSeconds(const std::string& s, double& v) {
    if (s.empty() || s.size() > 32) return false;
    std::size_t used = 0;
    try {
        v = std::stod(s, &used);
    } catch (...) {
        return false;
    }
    return used == s.size() && v >= 0 && v <= 1e9;  // also false for nan
}

std::string trimNewlines(std::string s) {
    while (!s.empty() && s.back() == '\n') s.pop_back();
    // An empty line would end the GTP answer early.
    for (std::size_t i; (i = s.find("\n\n")) != std::string::npos;) s.erase(i, 1);
    return s;
}

}  // namespace

Gtp::Gtp(PlayerOptions options) : player_(options) {
    newGame();
}

void Gtp::newGame() {
    start_ = crosscut_ ? cg::crosscutPosition(size_, rules_) : cg::emptyPosition(size_, rules_);
    moves_.clear();
    stack_.assign(1, start_);
    resigned_.reset();
    player_.newGame();
}

std::string Gtp::tryPlay(cg::Color c, cg::Move m, cg::Position* next) const {
    cg::Position q = position();
    if (q.toMove() != c) q.setToMove(c);  // GTP lets either colour play; superko is checked below
    std::string why;
    if (!q.play(m, &why)) return why;
    if (!m.isPass())
        for (const cg::Position& earlier : stack_)
            if (earlier.hash() == q.hash()) return cg::moveName(m) + " repeats an earlier position (superko)";
    if (next) *next = std::move(q);
    return "";
}

void Gtp::push(cg::Color c, cg::Move m, cg::Position next) {
    moves_.push_back({c, m});
    stack_.push_back(std::move(next));
}

void Gtp::replay() {
    // The engine's tables hold values proven under the old rules (their keys have no target or komi).
    player_.newGame();
    start_.setRules(rules_);
    std::vector<ColoredMove> moves = std::move(moves_);
    moves_.clear();
    stack_.assign(1, start_);
    for (const ColoredMove& m : moves) {
        cg::Position next;
        if (!tryPlay(m.color, m.move, &next).empty()) break;
        push(m.color, m.move, std::move(next));
    }
}

std::string Gtp::legalMovesText() const {
    if (result().isOver()) return "";
    std::string s;
    const cg::Color me = position().toMove();
    for (int row = 0; row < size_; ++row)
        for (int col = 0; col < size_; ++col) {
            cg::Move m = cg::Move::at(col, row);
            if (position().at(m.point()) != cg::Cell::Empty || !tryPlay(me, m, nullptr).empty()) continue;
            s += cg::moveName(m);
            s += ' ';
        }
    return s + "pass";
}

std::string Gtp::execute(const std::string& line, bool& ok, bool& quit) {
    std::istringstream in(line);
    std::string cmd;
    in >> cmd;
    std::vector<std::string> a;
    for (std::string w; in >> w;) a.push_back(w);
    ok = true;
    try {
        return dispatch(cmd, a, ok, quit);
    } catch (const std::exception& e) {
        ok = false;
        return std::string("internal error: ") + e.what();
    }
}

std::string Gtp::dispatch(const std::string& cmd, const std::vector<std::string>& a, bool& ok, bool& quit) {
    auto fail = [&](const std::string& msg) {
        ok = false;
        return msg;
    };
    const cg::Position& pos = position();

    if (cmd == "protocol_version") return "2";
    if (cmd == "name") return "xq-go";
    if (cmd == "version") return "1.0";
    if (cmd == "known_command")
        return !a.empty() && std::count(commands().begin(), commands().end(), a[0]) ? "true" : "false";
    if (cmd == "list_commands") {
        std::string s;
        for (const auto& c : commands()) s += (s.empty() ? "" : "\n") + c;
        return s;
    }
    if (cmd == "quit") {
        quit = true;
        return "";
    }
    if (cmd == "boardsize") {
        long long n;
        if (a.empty() || !parseInt(a[0], n)) return fail("boardsize not an integer");
        if (n < cg::kMinBoardSize || n > cg::kMaxBoardSize) return fail("unacceptable size");
        size_ = int(n);
        newGame();
        return "";
    }
    if (cmd == "clear_board") {
        newGame();
        if (clock_.set) clock_.settings(clock_.mainTime, clock_.byoTime, clock_.byoStones);
        return "";
    }
    if (cmd == "komi") {
        double k;
        if (a.empty() || !cg::parsePoints(a[0], &k)) return fail("komi not a float (a multiple of 0.5)");
        rules_.komi = k;
        replay();
        return "";
    }
    if (cmd == "cap") {
        long long n;
        if (a.empty() || !parseInt(a[0], n) || n < 1 || n > 10000)
            return fail("cap takes a target of 1 to 10000");
        if (rules_.ruleSet != cg::RuleSet::Capture) rules_ = cg::Rules::capture(1, 0);
        rules_.target = captureTarget_ = int(n);
        replay();
        return "";
    }
    if (cmd == "xq-rules") {
        if (a.empty() || (a[0] != "capture" && a[0] != "go")) return fail("xq-rules takes capture or go");
        rules_ = a[0] == "go" ? cg::Rules::go(7.5) : cg::Rules::capture(captureTarget_, 0);
        replay();
        return "";
    }
    if (cmd == "xq-start") {
        if (a.empty() || (a[0] != "empty" && a[0] != "crosscut"))
            return fail("xq-start takes empty or crosscut");
        crosscut_ = a[0] == "crosscut";
        newGame();
        return "";
    }
    if (cmd == "xq-position") return cg::positionText(pos);
    if (cmd == "xq-engine") {
        auto k = a.empty() ? std::nullopt : parseEngine(a[0]);
        if (!k) return fail("xq-engine takes auto, alphabeta, mcts or random-mcts");
        player_.options().engine = *k;
        return "";
    }
    if (cmd == "xq-level" || cmd == "level") {
        long long n;
        if (a.empty() || !parseInt(a[0], n) || n < 0 || n > kMaxLevel) return fail(cmd + " takes 0 to 20");
        player_.options().level = int(n);
        return "";
    }
    if (cmd == "xq-nodes") {
        long long n;
        if (a.empty() || !parseInt(a[0], n) || n < 0) return fail("xq-nodes takes a count (0: no limit)");
        player_.options().nodes = std::uint64_t(n);
        return "";
    }
    if (cmd == "xq-movetime") {
        double t;
        if (a.empty() || !parseSeconds(a[0], t) || t > 3600)
            return fail("xq-movetime takes 0 to 3600 seconds");
        player_.options().moveTime = t;
        return "";
    }
    if (cmd == "play") {
        std::optional<cg::Color> c = a.size() >= 2 ? parseColor(a[0]) : std::nullopt;
        if (!c) return fail("invalid color or coordinate");
        cg::Move m;
        try {
            m = cg::parseMove(a[1], size_);
        } catch (const cg::ParseError& e) {
            return fail(std::string("invalid coordinate: ") + e.what());
        }
        if (cg::Result r = result(); r.isOver()) return fail("illegal move: the game is over: " + r.reason);
        cg::Position next;
        if (std::string why = tryPlay(*c, m, &next); !why.empty()) return fail("illegal move: " + why);
        push(*c, m, std::move(next));
        return "";
    }
    if (cmd == "genmove") {
        std::optional<cg::Color> c = a.empty() ? std::nullopt : parseColor(a[0]);
        if (!c) return fail("invalid color");
        if (result().isOver()) return "pass";
        auto t0 = std::chrono::steady_clock::now();
        Board board = boardFromGame(start_, moves_);
        board.setToMove(engineColor(*c));
        Decision d = player_.genmove(board, clock_);
        clock_.spend(engineColor(*c),
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        if (!d.info.empty()) std::cerr << d.info << "\n";
        if (d.resign) {
            resigned_ = cg::resignation(*c);
            return "resign";
        }
        cg::Move m = referenceMove(board, d.move);
        cg::Position next;
        if (!tryPlay(*c, m, &next).empty()) {  // never expected: the engine's board is cross-checked
            std::cerr << "xq-go: the engine chose an illegal move " << cg::moveName(m) << "; passing\n";
            m = cg::Move::pass();
            tryPlay(*c, m, &next);
        }
        push(*c, m, std::move(next));
        return cg::moveName(m);
    }
    if (cmd == "undo") {
        if (resigned_) {
            resigned_.reset();
            return "";
        }
        if (moves_.empty()) return fail("cannot undo");
        moves_.pop_back();
        stack_.pop_back();
        return "";
    }
    if (cmd == "time_settings") {
        long long m, b, s;
        if (a.size() < 3 || !parseInt(a[0], m) || !parseInt(a[1], b) || !parseInt(a[2], s) || m < 0 ||
            b < 0 || s < 0)
            return fail("syntax error: time_settings MAIN BYO_YOMI STONES");
        clock_.settings(double(m), double(b), int(std::min(s, 1000000LL)));
        return "";
    }
    if (cmd == "time_left") {
        std::optional<cg::Color> c = a.empty() ? std::nullopt : parseColor(a[0]);
        long long t, s;
        if (a.size() < 3 || !c || !parseInt(a[1], t) || !parseInt(a[2], s) || t < 0 || s < 0)
            return fail("syntax error: time_left COLOR TIME STONES");
        if (!clock_.set) clock_.settings(double(t), 0, 0);
        clock_.left[colorIndex(engineColor(*c))] = double(t);
        clock_.stonesLeft[colorIndex(engineColor(*c))] = int(std::min(s, 1000000LL));
        return "";
    }
    if (cmd == "showboard") {
        cg::Result r = result();
        return "\n" + trimNewlines(cg::diagram(pos)) + "\n" +
               (r.isOver() ? "result: " + r.sgf() + " (" + r.reason + ")" : "result: the game goes on");
    }
    if (cmd == "final_score") {
        cg::Result r = result();
        if (!r.isOver()) {  // as if both passed now
            cg::Position end = pos;
            while (!cg::judge(end).isOver()) end.play(cg::Move::pass());
            r = cg::judge(end);
        }
        return r.sgf();
    }
    if (cmd == "loadsgf") {
        if (a.empty()) return fail("loadsgf takes a file name and an optional move number");
        long long moveNumber = 0;
        if (a.size() >= 2 && (!parseInt(a[1], moveNumber) || moveNumber < 1)) return fail("bad move number");
        std::error_code error;
        if (!std::filesystem::is_regular_file(a[0], error)) return fail("cannot load file");
        std::ifstream file(a[0], std::ios::binary);
        std::string text(kMaxSgfBytes + 1, '\0');
        file.read(text.data(), std::streamsize(text.size()));
        if (file.bad() || std::size_t(file.gcount()) > kMaxSgfBytes)
            return fail("cannot load file: too large");
        text.resize(std::size_t(file.gcount()));
        cg::Game game;
        try {
            game = cg::readSgf(text);
        } catch (const cg::ParseError& e) {
            return fail(std::string("cannot load file: ") + e.what());
        }
        size_ = game.start().size();
        rules_ = game.rules();
        if (rules_.ruleSet == cg::RuleSet::Capture) captureTarget_ = rules_.target;
        start_ = game.start();
        moves_.clear();
        stack_.assign(1, start_);
        resigned_.reset();
        player_.newGame();
        std::size_t count = game.moves().size();
        if (moveNumber > 0) count = std::min<std::size_t>(count, std::size_t(moveNumber - 1));
        for (std::size_t i = 0; i < count; ++i) {
            cg::Position next;
            const cg::Color c = position().toMove();
            if (!tryPlay(c, game.moves()[i], &next).empty()) return fail("cannot load file: an illegal move");
            push(c, game.moves()[i], std::move(next));
        }
        return cg::colorName(position().toMove());
    }
    if (cmd == "xq-solve") {
        if (size_ > kSmallMaxSize) return fail("the solver takes boards up to 7x7");
        SolverOptions so;
        so.rules = engineRules(pos.rules());
        so.hashMegabytes = 256;
        so.timeLimit = 10;
        if (!a.empty()) {
            double t;
            if (!parseSeconds(a[0], t) || t > 600)
                return fail("xq-solve takes an optional time of 0 to 600 seconds");
            so.timeLimit = t;
        }
        if (cg::Result r = result(); r.isOver()) return r.sgf();
        Solver solver(size_, so);
        // The game's earlier positions: superko bans what `play` would refuse.
        std::vector<SmallPos> history;
        for (std::size_t i = 0; i + 1 < stack_.size(); ++i)
            history.push_back(smallFromPosition(solver.geometry(), stack_[i]));
        SolveResult r = solver.solve(smallFromPosition(solver.geometry(), pos), history);
        if (!r.solved) return "unknown";
        const char* w = r.winner == Winner::Black ? "black" : r.winner == Winner::White ? "white" : "draw";
        return std::string(w) + (r.moveName.empty() ? "" : " " + r.moveName);
    }
    if (cmd == "gogui-rules_game_id") return "Capturego";
    if (cmd == "gogui-rules_board_size") return std::to_string(size_);
    if (cmd == "gogui-rules_board") {
        std::string s;
        for (int r = size_ - 1; r >= 0; --r) {
            for (int c = 0; c < size_; ++c) {
                cg::Cell cell = pos.at({c, r});
                s += cell == cg::Cell::Black ? 'X' : cell == cg::Cell::White ? 'O' : '.';
                if (c + 1 < size_) s += ' ';
            }
            if (r > 0) s += '\n';
        }
        return "\n" + s;
    }
    if (cmd == "gogui-rules_side_to_move") return cg::colorName(pos.toMove());
    if (cmd == "gogui-rules_legal_moves") return legalMovesText();
    if (cmd == "gogui-rules_captured_count")
        return std::to_string(pos.captures(cg::Color::White)) + " " +
               std::to_string(pos.captures(cg::Color::Black));
    if (cmd == "gogui-rules_final_result") {
        cg::Result r = result();
        return r.isOver() ? r.sgf() : "unknown";
    }
    return fail("unknown command");
}

void Gtp::run(std::istream& in, std::ostream& out) {
    for (std::string raw; std::getline(in, raw);) {
        // GTP preprocessing: comments dropped, tabs become spaces, other control characters dropped.
        std::string line;
        for (char ch : raw) {
            if (ch == '#') break;
            if (ch == '\t') ch = ' ';
            if (static_cast<unsigned char>(ch) < 32 || ch == 127) continue;
            line += ch;
        }
        std::istringstream words(line);
        std::string first;
        if (!(words >> first)) continue;
        std::string id;
        std::string rest = line;
        long long number;
        if (parseInt(first, number) && number >= 0) {
            id = first;
            rest = line.substr(line.find(first) + first.size());
        }
        bool ok = true, quit = false;
        std::string answer = execute(rest, ok, quit);
        out << (ok ? "=" : "?") << id;
        if (!answer.empty()) out << (answer[0] == '\n' ? "" : " ") << trimNewlines(answer);
        out << "\n\n" << std::flush;
        if (quit) return;
    }
}

}  // namespace xq::go
