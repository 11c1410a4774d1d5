#include "goengine/solve_command.h"

#include <cstdio>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "capturego/game.h"
#include "capturego/notation.h"
#include "capturego/position_text.h"
#include "capturego/result.h"
#include "capturego/sgf.h"
#include "goengine/convert.h"
#include "goengine/solver.h"

namespace xq::go {

SmallPos smallStart(const SmallGeometry& g, StartPosition start) {
    SmallPos pos;
    if (start == StartPosition::Crosscut) {
        if (g.n < 3) throw std::invalid_argument("the crosscut start needs a board of 3x3 or more");
        int lo = crosscutLow(g.n);
        pos.addStone(g, 0, g.index(lo, lo));
        pos.addStone(g, 0, g.index(lo + 1, lo + 1));
        pos.addStone(g, 1, g.index(lo, lo + 1));
        pos.addStone(g, 1, g.index(lo + 1, lo));
    }
    return pos;
}

namespace {

const char* kUsage =
    "usage: xq-go solve --size S [--start crosscut|empty|FILE.sgf|'POSITION TEXT'] [--target N]\n"
    "                   [--rules capture|go] [--komi K] [--no-pass] [--json] [--hash MB] [--nodes N]\n"
    "                   [--time SECONDS] [--no-symmetry] [--id] [--no-ladders] [--plain] [--quiet]\n"
    "  --start takes the empty board, the crosscut (default), an SGF file (its main line's last position)\n"
    "  or a position in the rules library's text form (capturego/position_text.h); the rules come from\n"
    "  the SGF or text unless --rules, --target or --komi say otherwise.\n";

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The solver's board of the game's last position; `history` gets every earlier position, for superko
// under the general rules.
SmallPos fromGame(const SmallGeometry& g, const cg::Game& game, std::vector<SmallPos>& history) {
    SmallPos pos = smallFromPosition(g, game.start());
    for (const cg::Move& m : game.moves()) {
        history.push_back(pos);
        if (m.isPass()) {
            pos.pass();
        } else if (!pos.play(g, g.index(m.point().col, m.point().row))) {
            throw std::runtime_error("the solver's board refuses SGF move " + cg::moveName(m));
        }
    }
    // The library's position is the reference: side to move, captures and passes come from it.
    SmallPos last = smallFromPosition(g, game.position());
    if (last.stones[0] != pos.stones[0] || last.stones[1] != pos.stones[1])
        throw std::runtime_error("the solver's board disagrees with the rules library on the SGF game");
    return last;
}

}  // namespace

int runSolveCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    int size = 0;
    std::string start = "crosscut";
    bool json = false, quiet = false;
    SolverOptions o;
    std::optional<double> komi;
    std::optional<std::string> rulesName;
    std::optional<int> target;
    try {
        for (std::size_t i = 0; i < args.size(); ++i) {
            const std::string& a = args[i];
            auto value = [&]() -> std::string {
                if (i + 1 >= args.size()) throw std::invalid_argument(a + " needs a value");
                return args[++i];
            };
            if (a == "--size")
                size = std::stoi(value());
            else if (a == "--start")
                start = value();
            else if (a == "--target")
                target = std::stoi(value());
            else if (a == "--rules")
                rulesName = value();
            else if (a == "--komi") {
                double k = 0;
                if (!cg::parsePoints(value(), &k))
                    throw std::invalid_argument("--komi takes a multiple of 0.5");
                komi = k;
            } else if (a == "--no-pass")
                o.passAllowed = false;
            else if (a == "--json")
                json = true;
            else if (a == "--quiet")
                quiet = true;
            else if (a == "--hash")
                o.hashMegabytes = std::stoul(value());
            else if (a == "--nodes")
                o.nodeLimit = std::stoull(value());
            else if (a == "--time")
                o.timeLimit = std::stod(value());
            else if (a == "--no-symmetry")
                o.symmetry = false;
            else if (a == "--no-id")
                o.iterativeDeepening = false;
            else if (a == "--id")
                o.iterativeDeepening = true;
            else if (a == "--no-ladders")
                o.ladders = false;
            else if (a == "--plain")
                o.plainSearch = true;
            else if (a == "--help" || a == "-h") {
                out << kUsage;
                return 0;
            } else
                throw std::invalid_argument("unknown option " + a);
        }
        if (rulesName && *rulesName != "capture" && *rulesName != "go")
            throw std::invalid_argument("--rules takes capture or go");
        if (target && *target < 1) throw std::invalid_argument("--target must be at least 1");
        if (o.hashMegabytes < 1 || o.hashMegabytes > (1u << 20))
            throw std::invalid_argument("--hash takes 1 to 1048576");
        if (!(o.timeLimit >= 0)) throw std::invalid_argument("--time must be 0 or more");
    } catch (const std::exception& e) {
        err << "xq-go solve: " << e.what() << "\n" << kUsage;
        return 2;
    }

    SmallPos root;
    std::vector<SmallPos> history;
    std::optional<cg::Position> reference;  // the root in the rules library (boards of 5x5 and more)
    cg::Rules rules;
    try {
        if (start == "crosscut" || start == "empty") {
            if (size == 0) throw std::invalid_argument("--size is required");
            const SmallGeometry& g = SmallGeometry::of(size);
            if (size >= cg::kMinBoardSize) {
                reference = start == "crosscut" ? cg::crosscutPosition(size) : cg::emptyPosition(size);
                root = smallFromPosition(g, *reference);
            } else {
                root = smallStart(g, start == "crosscut" ? StartPosition::Crosscut : StartPosition::Empty);
            }
        } else {
            // Position text has '/' between rows and spaces between fields; anything else is an SGF file.
            const bool text = start.find('/') != std::string::npos && start.find(' ') != std::string::npos;
            cg::Game game = text ? cg::Game(cg::parsePositionText(start)) : cg::readSgf(readFile(start));
            if (size != 0 && size != game.start().size())
                throw std::invalid_argument("--size differs from the position's size");
            size = game.start().size();
            rules = game.rules();
            root = fromGame(SmallGeometry::of(size), game, history);
            reference = game.position();
        }
    } catch (const std::exception& e) {
        err << "xq-go solve: " << e.what() << "\n";
        return 2;
    }
    // The rules: the position's, then the options.
    if (rulesName == "go") rules = cg::Rules::go(rules.ruleSet == cg::RuleSet::Go ? rules.komi : 7.5);
    if (rulesName == "capture" && rules.ruleSet != cg::RuleSet::Capture) rules = cg::Rules::capture();
    if (target) {
        if (rules.ruleSet != cg::RuleSet::Capture) {
            err << "xq-go solve: --target needs the capture rule set\n";
            return 2;
        }
        rules.target = *target;
    }
    if (komi) rules.komi = *komi;
    o.rules = engineRules(rules);
    if (!quiet) o.progress = &err;

    const std::string rulesText = cg::ruleSetText(rules);
    std::string startText;
    for (char c : start) {
        if (c == '"' || c == '\\') startText += '\\';
        startText += c;
    }
    // A game the rules have already ended is not searched.
    cg::Result over;
    if (reference) {
        reference->setRules(rules);
        over = cg::judge(*reference);
    }
    SolveResult r;
    if (over.isOver()) {
        r.solved = true;
        r.winner = over.outcome == cg::Outcome::BlackWins   ? Winner::Black
                   : over.outcome == cg::Outcome::WhiteWins ? Winner::White
                                                            : Winner::Draw;
    } else {
        Solver solver(size, o);
        r = solver.solve(root, history);
    }
    char head[512];
    if (json) {
        std::snprintf(head, sizeof head,
                      "{\"size\": %d, \"start\": \"%s\", \"rules\": \"%s\", \"komi\": %s, \"passes\": %s, "
                      "\"to_move\": \"%s\", ",
                      size, startText.c_str(), rulesText.c_str(), cg::formatPoints(rules.komi).c_str(),
                      o.passAllowed ? "true" : "false", root.toMove ? "white" : "black");
        out << head << r.toJson() << "}\n";
    } else {
        std::snprintf(head, sizeof head, "size %dx%d, start %s, rules %s, komi %s, passes %s, %s to move\n",
                      size, size, start.c_str(), rulesText.c_str(), cg::formatPoints(rules.komi).c_str(),
                      o.passAllowed ? "allowed" : "forbidden", root.toMove ? "white" : "black");
        out << head << root.toString(SmallGeometry::of(size));
        if (over.isOver()) out << "the game is over: " << over.reason << "\n";
        out << r.toString();
    }
    return r.solved ? 0 : 1;
}

}  // namespace xq::go
