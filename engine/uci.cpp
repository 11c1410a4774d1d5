#include "uci.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <istream>
#include <new>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <vector>

#include "evaluate.h"
#include "nnue_default.h"
#include "nnue_tool.h"
#include "search_params.h"
#include "weights.h"
#include "xiangqi/movegen.h"
#include "xiangqi/rules.h"

namespace xq::uci {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

const search::ParamInfo* findParamIgnoringCase(const std::string& lowerName) {
    for (const auto& p : search::paramInfos())
        if (lower(p.name) == lowerName) return &p;
    return nullptr;
}

// Strict integer parsing with a range; false if the text is not a whole number.
bool parseInt64(const std::string& text, long long& value) {
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && ptr == text.data() + text.size();
}

}  // namespace

std::string formatScore(int v) {
    using namespace search;
    if (v >= VALUE_MATE_IN_MAX_PLY) return "mate " + std::to_string((VALUE_MATE - v + 1) / 2);
    // Moves until mated, rounding up: a loss one ply away (a perpetual check about to be judged) is "mate
    // -1", and "mate 0" is kept for a side already without moves.
    if (v <= VALUE_MATED_IN_MAX_PLY) return "mate " + std::to_string(-((VALUE_MATE + v + 1) / 2));
    return "cp " + std::to_string(v);
}

std::string formatInfo(const search::InfoLine& l) {
    std::ostringstream s;
    std::uint64_t nps = l.time > 0 ? l.nodes * 1000 / std::uint64_t(l.time) : l.nodes * 1000;
    s << "info depth " << l.depth << " seldepth " << l.selDepth << " multipv " << l.multiPV << " score "
      << formatScore(l.score)
      << (l.lowerbound   ? " lowerbound"
          : l.upperbound ? " upperbound"
                         : "")
      << " nodes " << l.nodes << " nps " << nps << " hashfull " << l.hashfull << " time " << l.time;
    if (!l.pv.empty()) s << " pv " << search::pvString(l.pv);
    return s.str();
}

UciLoop::UciLoop(std::istream& in, std::ostream& out) : in_(in), out_(out) {
    // A tied input stream flushes the output before each read, from the reading thread and without our lock,
    // racing with the search thread's writes (seen as duplicated lines). All output goes through send().
    in_.tie(nullptr);
}

void UciLoop::send(const std::string& text) {
    std::lock_guard<std::mutex> lock(outMutex_);
    out_ << text << std::endl;
}

void UciLoop::run() {
    std::string line;
    while (std::getline(in_, line))
        if (!handle(line)) break;
    pool_.stop();
    pool_.wait();
}

bool UciLoop::handle(const std::string& line) {
    std::istringstream args(line);
    std::string cmd;
    if (!(args >> cmd)) return true;
    try {
        if (cmd == "quit") {
            pool_.stop();
            pool_.wait();
            return false;
        } else if (cmd == "uci")
            cmdUci();
        else if (cmd == "isready")
            send("readyok");
        else if (cmd == "ucinewgame") {
            pool_.stop();
            pool_.wait();
            pool_.clear();
        } else if (cmd == "setoption")
            cmdSetOption(args);
        else if (cmd == "position")
            cmdPosition(args);
        else if (cmd == "go")
            cmdGo(args);
        else if (cmd == "stop")
            pool_.stop();
        else if (cmd == "ponderhit")
            error("ponder is not supported; ignoring 'ponderhit'");
        else if (cmd == "eval")
            cmdEval();
        else if (cmd == "d")
            send(pos_.pretty() + "\nFen: " + pos_.fen());
        else
            error("unknown command '" + cmd + "'");
    } catch (const std::exception& e) {
        // Nothing a GUI sends may kill the engine.
        error(cmd + ": " + e.what());
    }
    return true;
}

void UciLoop::cmdUci() {
    std::ostringstream s;
    s << "id name " << ENGINE_NAME << "\n"
      << "id author the xq-fishtest developers\n\n"
      << "option name Threads type spin default 1 min 1 max 256\n"
      << "option name Hash type spin default 16 min 1 max 33554432\n"
      << "option name Clear Hash type button\n"
      << "option name MultiPV type spin default 1 min 1 max 128\n"
      << "option name Move Overhead type spin default 10 min 0 max 5000\n"
      << "option name Skill Level type spin default 20 min 0 max 20\n"
      << "option name EvalFile type string default <default>\n"
      << "option name Use NNUE type check default " << (nnue::hasDefaultNetwork() ? "true" : "false") << "\n"
      << "option name Disable type string default none\n"
      << "option name Repetition Rule type combo default Asian var Asian var Chinese\n"
      << "option name ParamsFile type string default <empty>\n";
    // The search's tunable constants (search_params.h), for SPSA.
    for (const auto& p : search::paramInfos())
        s << "option name " << p.name << " type spin default " << search::defaultParam(p) << " min " << p.min
          << " max " << p.max << "\n";
    s << "uciok";
    send(s.str());
}

void UciLoop::cmdSetOption(std::istream& args) {
    std::string token, name, value;
    args >> token;
    if (token != "name") return error("setoption: expected 'setoption name NAME [value VALUE]'");
    while (args >> token && token != "value") name += (name.empty() ? "" : " ") + token;
    if (token == "value") {
        std::getline(args, value);
        auto first = value.find_first_not_of(" \t"), last = value.find_last_not_of(" \t\r");
        value = first == std::string::npos ? "" : value.substr(first, last - first + 1);
    }
    const std::string key = lower(name);
    if (pool_.searching() && key != "multipv" && key != "move overhead" && key != "skill level" &&
        key != "disable") {
        pool_.stop();
        pool_.wait();
    }
    auto spin = [&](long long lo, long long hi, long long& out) {
        if (!parseInt64(value, out)) {
            error("setoption " + name + ": value '" + value + "' is not a number");
            return false;
        }
        if (out < lo || out > hi) {
            error("setoption " + name + ": value " + value + " is outside " + std::to_string(lo) + ".." +
                  std::to_string(hi));
            return false;
        }
        return true;
    };
    long long n = 0;
    if (key == "threads") {
        if (spin(1, 256, n)) pool_.setThreads(int(n));
    } else if (key == "hash") {
        if (spin(1, 33554432, n)) {
            try {
                pool_.setHash(std::size_t(n));
            } catch (const std::bad_alloc&) {
                error("setoption Hash: cannot allocate " + value + " MB; keeping " +
                      std::to_string(pool_.hashMegabytes()) + " MB");
            }
        }
    } else if (key == "clear hash") {
        pool_.clear();
    } else if (key == "multipv") {
        if (spin(1, 128, n)) pool_.multiPV = int(n);
    } else if (key == "move overhead") {
        if (spin(0, 5000, n)) pool_.moveOverhead = int(n);
    } else if (key == "skill level") {
        if (spin(0, 20, n)) pool_.skillLevel = int(n);
    } else if (key == "evalfile") {
        setEvalFile(value);
    } else if (key == "use nnue") {
        const std::string v = lower(value);
        if (v == "true" || v == "false")
            useNnue_ = v == "true";
        else
            error("setoption Use NNUE: value '" + value + "' is not true or false");
    } else if (key == "disable") {
        // For measuring features in self-play: a comma-separated list of feature names (see
        // Features::parse), or none.
        std::string bad;
        if (!pool_.features.parse(value, &bad))
            error("setoption Disable: unknown feature '" + bad +
                  "' (nullmove, lmr, futility, reversefutility, checkextension, aspiration, seepruning, "
                  "killers, history, conthistory, matedistance, qchecks, none)");
    } else if (key == "repetition rule") {
        if (auto r = parseRuleSet(value))
            pool_.ruleSet = *r;
        else
            error("setoption Repetition Rule: value '" + value + "' is not Asian or Chinese");
    } else if (key == "paramsfile") {
        std::string why;
        if (value.empty() || value == "<empty>")
            search::resetParams();
        else if (search::loadParamsFile(value, &why))
            send("info string ParamsFile: loaded " + value);
        else
            error("setoption ParamsFile: " + why + "; parameters unchanged");
    } else if (const search::ParamInfo* param = findParamIgnoringCase(key)) {
        std::string why;
        if (!search::setParam(param->name, value, &why)) error("setoption " + why);
    } else if (key == "ponder" || key == "uci_chess960" || key == "uci_variant") {
        // Options some GUIs set unconditionally; nothing to do.
    } else {
        error("setoption: no such option '" + name + "'");
    }
}

// EvalFile takes a hand-written weights file or a network, told apart by the network's magic (XQNNUE), and
// selects what evaluates: a network turns Use NNUE on, a weights file turns it off (the tuner's weights
// load straight into the engine whether or not a network is embedded). "<default>" (or nothing) goes back
// to the built-in weights, the embedded network, if any, and Use NNUE's default.
void UciLoop::setEvalFile(const std::string& value) {
    if (value.empty() || value == "<default>") {
        eval::setActiveWeights(eval::defaultWeights());
        evalFile_ = "<default>";
        network_ = nnue::defaultNetwork();
        useNnue_ = network_ != nullptr;
        send(network_ ? "info string EvalFile: using the built-in weights and the embedded network " +
                            network_->name
                      : std::string("info string EvalFile: using the built-in weights"));
    } else if (nnue::fileLooksLikeNetwork(value)) {
        try {
            network_ = std::make_shared<const nnue::Network>(nnue::loadNetworkFile(value));
            send("info string EvalFile: loaded network " + network_->name + " from " + value +
                 (useNnue_ ? "" : "; Use NNUE is now true"));
            useNnue_ = true;
        } catch (const nnue::NetworkError& e) {
            error(std::string("EvalFile: ") + e.what() + "; keeping " +
                  (network_ ? "network " + network_->name : std::string("no network")));
        }
    } else {
        try {
            eval::setActiveWeights(eval::loadWeightsFile(value));
            evalFile_ = value;
            send("info string EvalFile: loaded " + value +
                 (useNnue_ ? "; Use NNUE is now false (the hand-written evaluation)" : ""));
            useNnue_ = false;
        } catch (const eval::WeightsError& e) {
            error(std::string("EvalFile: ") + e.what() + "; keeping " + evalFile_);
        }
    }
}

// The network the next search evaluates with: the loaded one if Use NNUE is on. A change of evaluation
// clears the table, whose stored static evaluations came from the other one.
void UciLoop::applyEvaluation() {
    if (useNnue_ && !network_)
        error(
            "Use NNUE is true but no network is loaded (set EvalFile to a network file); searching with the "
            "hand-written evaluation");
    std::shared_ptr<const nnue::Network> wanted = useNnue_ ? network_ : nullptr;
    if (pool_.network != wanted) {
        pool_.network = wanted;
        pool_.clear();
    }
}

void UciLoop::cmdPosition(std::istream& args) {
    std::string token, fen, next;
    args >> token;
    if (token == "startpos") {
        fen = Position::StartFEN;
        args >> next;
    } else if (token == "fen") {
        while (args >> token && token != "moves") fen += (fen.empty() ? "" : " ") + token;
        if (token == "moves") next = token;
    } else {
        return error("position: expected 'startpos' or 'fen', got '" + token + "'");
    }
    if (!next.empty() && next != "moves") return error("position: expected 'moves', got '" + next + "'");
    Position newPos;
    try {
        newPos.setFen(fen);
    } catch (const FenError& e) {
        return error(std::string("position: bad FEN: ") + e.what() + "; the position is unchanged");
    }
    int index = 0;
    while (args >> token) {
        std::string why;
        auto move = parseMove(newPos, token, &why);
        if (!move) {
            pos_ = newPos;
            return error("position: move " + std::to_string(index + 1) + " '" + token + "' is illegal (" +
                         why + "); the position is the one before it");
        }
        newPos.doMove(*move);
        ++index;
    }
    pos_ = newPos;
}

void UciLoop::cmdGo(std::istream& args) {
    SearchLimits limits;
    limits.startTime = now();
    std::vector<std::string> tokens;
    for (std::string t; args >> t;) tokens.push_back(t);
    bool anyLimit = false, malformed = false;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string& token = tokens[i];
        // The value after token; a parameter name in its place is left to be read as the next parameter.
        auto number = [&]() -> std::optional<long long> {
            static const std::set<std::string> Parameters = {"wtime",     "btime",    "winc",  "binc",
                                                             "movestogo", "movetime", "depth", "nodes",
                                                             "infinite",  "ponder",   "mate",  "searchmoves"};
            long long v = 0;
            const bool hasValue = i + 1 < tokens.size() && !Parameters.count(tokens[i + 1]);
            if (hasValue && parseInt64(tokens[i + 1], v)) return ++i, v;
            error("go: '" + token + "' needs a number, got " +
                  (hasValue ? "'" + tokens[i + 1] + "'" : std::string("nothing")));
            if (hasValue) ++i;
            malformed = true;
            return std::nullopt;
        };
        if (token == "wtime" || token == "btime") {
            // A clock at or below zero still means "move now", never "think forever".
            if (auto v = number())
                limits.time[token[0] == 'w' ? RED : BLACK] = std::max(1LL, *v), anyLimit = true;
        } else if (token == "winc" || token == "binc") {
            if (auto v = number()) limits.inc[token[0] == 'w' ? RED : BLACK] = std::max(0LL, *v);
        } else if (token == "movestogo") {
            if (auto v = number()) limits.movestogo = int(std::clamp(*v, 0LL, 1000LL));
        } else if (token == "movetime") {
            if (auto v = number()) limits.movetime = std::max(1LL, *v), anyLimit = true;
        } else if (token == "depth") {
            if (auto v = number())
                limits.depth = int(std::clamp<long long>(*v, 1, search::MAX_PLY - 1)), anyLimit = true;
        } else if (token == "nodes") {
            if (auto v = number()) limits.nodes = std::uint64_t(std::max(1LL, *v)), anyLimit = true;
        } else if (token == "infinite" || token == "ponder") {
            limits.infinite = true;  // pondering is searching until told otherwise
        } else if (token == "mate") {
            number();  // not supported as a limit: searched like a plain search
        } else {
            error("go: unknown parameter '" + token + "'");
        }
    }
    // A limit that cannot be read must not turn into a search without end, nor quietly into another one.
    if (malformed) return error("go: not searching (see the errors above)");
    if (!anyLimit) limits.infinite = true;
    pool_.stop();
    pool_.wait();
    applyEvaluation();
    pool_.start(
        pos_, limits, [this](const search::InfoLine& l) { send(formatInfo(l)); },
        [this](const SearchResult& r) {
            if (r.best == MOVE_NONE) return send("bestmove (none)");
            send("bestmove " + moveToString(r.best) +
                 (r.ponder != MOVE_NONE ? " ponder " + moveToString(r.ponder) : ""));
        });
}

void UciLoop::cmdEval() {
    std::string report = useNnue_ && network_ ? nnue::evalReport(*network_, pos_) : eval::evalReport(pos_);
    if (!report.empty() && report.back() == '\n') report.pop_back();
    send(report);
}

}  // namespace xq::uci
