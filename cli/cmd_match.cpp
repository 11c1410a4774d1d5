// `xq match`: a local match between two engines with pairs, concurrency, adjudication, PGN, a live
// progress line, an optional SPRT that stops the match when decided, and a JSON report.
// `xq openings`: makes an opening set from random legal plies, kept when an engine scores them level; for
// Capture Go, random stones in the centre (openings_capturego.h).
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <charconv>
#include <chrono>
#include <climits>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "board.h"
#include "capturego_settings.h"
#include "command.h"
#include "engine.h"
#include "engine_settings.h"
#include "match.h"
#include "openings_capturego.h"
#include "output.h"
#include "sprt.h"
#include "util/text.h"

namespace {

using namespace xq::match;

std::atomic<bool> interruptRequested{false};
std::atomic<bool> matchStop{false};  // what the runner watches: Ctrl-C or a decided SPRT

std::atomic<std::int64_t> firstSignalNs{0};

// A first Ctrl-C (or SIGTERM) stops the match cleanly; a second one kills at once. `timeout` and a
// terminal deliver one request twice within microseconds (to the process and to its group), so only a
// signal a moment after the first counts as the second.
void onInterrupt(int sig) {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);  // async-signal-safe
    const std::int64_t nowNs = std::int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
    std::int64_t expected = 0;
    if (firstSignalNs.compare_exchange_strong(expected, nowNs)) {
        interruptRequested = true;
        matchStop = true;
    } else if (nowNs - expected > 500000000) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

void installInterruptHandler() {
    struct sigaction sa {};
    sa.sa_handler = onInterrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

// "key=value" tokens of one flag; the value may itself contain '='.
std::vector<std::pair<std::string, std::string>> keyValues(const std::vector<std::string>& tokens,
                                                           const std::string& flag) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const std::string& t : tokens) {
        auto eq = t.find('=');
        if (eq == std::string::npos || eq == 0)
            throw std::invalid_argument(flag + ": expected key=value, got '" + t + "'");
        out.emplace_back(t.substr(0, eq), t.substr(eq + 1));
    }
    return out;
}

// Counts that end up in an int (and are doubled into plies) stay far below its limit.
constexpr long MaxCount = 1000000000;

long toNumber(const std::string& flag, const std::string& key, const std::string& value, long min,
              long max = MaxCount) {
    return xq::settingNumber(flag, key, value, min, max);
}

// Applies engine settings (from --each, then from the engine's own --engine) to e.
void applyEngineSettings(EngineConfig& e, xq::match::EngineSettings& settings,
                         const std::vector<std::string>& tokens, const std::string& flag) {
    xq::match::applyEngineSettings(settings, tokens, flag);
    if (settings.name) e.name = *settings.name;
    if (settings.cmd) e.cmd = *settings.cmd;
    if (settings.args) e.args = *settings.args;
    if (settings.protocol) e.protocol = *parseProtocol(*settings.protocol);
    e.options = settings.options;
}

struct MatchOptions {
    std::vector<std::vector<std::string>> engines;
    std::vector<std::string> each, openings, sprt, resign, draw, board;
    int games = 2, concurrency = 1, maxMoves = 0, moveLimit = 0;
    double stallSeconds = 10;
    bool affinity = false;
    std::string pgnOut, json, event = "xq match", rules = "asian", game = "xiangqi";
};

xq::games::Game gameOption(const std::string& name) {
    auto game = xq::games::parseGame(name);
    if (!game)
        throw std::invalid_argument("--game: unknown game '" + name + "' (" + xq::games::gameChoices() + ")");
    return *game;
}

MatchConfig buildConfig(const MatchOptions& o, std::optional<xq::stats::SprtConfig>& sprt) {
    if (o.engines.size() != 2)
        throw std::invalid_argument("give exactly two --engine flags (got " +
                                    std::to_string(o.engines.size()) + ")");
    MatchConfig c;
    c.game = gameOption(o.game);
    for (int i = 0; i < 2; ++i) {
        xq::match::EngineSettings settings;
        applyEngineSettings(c.engines[i], settings, o.each, "--each");
        applyEngineSettings(c.engines[i], settings, o.engines[std::size_t(i)], "--engine");
        const std::string timeSpec = settings.timeSpec();
        if (c.engines[i].cmd.empty())
            throw std::invalid_argument("--engine " + std::to_string(i + 1) + ": cmd= is required");
        if (c.engines[i].name.empty()) c.engines[i].name = c.engines[i].cmd;
        if (timeSpec.empty())
            throw std::invalid_argument(
                "engine '" + c.engines[i].name +
                "' has no time control: add e.g. --each tc=10+0.1 or --each nodes=5000");
        try {
            c.engines[i].tc = TimeControl::parse(timeSpec);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("engine '" + c.engines[i].name + "': " + e.what());
        }
    }
    if (c.engines[0].name == c.engines[1].name) c.engines[1].name += "-2";
    if (o.games < 1) throw std::invalid_argument("--games must be at least 1");
    c.games = o.games + o.games % 2;  // whole pairs
    if (o.games % 2) std::cerr << "xq match: playing " << c.games << " games: games come in pairs\n";
    c.concurrency = o.concurrency;
    c.stallTimeoutMs = int(o.stallSeconds * 1000);
    c.pinSlots = o.affinity;
    c.pgnPath = o.pgnOut;
    c.event = o.event;

    if (!o.openings.empty()) {
        std::string file, order = "sequential";
        for (const auto& [key, value] : keyValues(o.openings, "--openings")) {
            if (key == "file")
                file = value;
            else if (key == "order")
                order = value;
            else if (key == "seed")
                c.openingSeed = std::uint64_t(toNumber("--openings", key, value, 0, LONG_MAX));
            else if (key == "start")
                c.firstPair = int(toNumber("--openings", key, value, 0));
            else
                throw std::invalid_argument("--openings: unknown setting '" + key +
                                            "' (expected file, order, seed, start)");
        }
        if (file.empty()) throw std::invalid_argument("--openings: file=PATH is required");
        if (order != "sequential" && order != "random")
            throw std::invalid_argument("--openings: order must be sequential or random, got '" + order +
                                        "'");
        c.randomOrder = order == "random";
        c.openings = loadOpenings(file, c.game, OpeningCheck::Deferred);
    }

    bool multiThreaded = false;
    for (const EngineConfig& engine : c.engines)
        for (const auto& [name, value] : engine.options) multiThreaded |= asksForThreads(name, value);
    if (std::string w =
            repeatedPairsWarning(c.engines[0].tc, c.engines[1].tc, c.openings.size(), c.games, multiThreaded);
        !w.empty())
        std::cerr << "xq match: warning: " << w << "\n";
    if (std::string w = wrappedPairsWarning(c.engines[0].tc, c.engines[1].tc, c.openings.size(), c.firstPair,
                                            c.games, multiThreaded);
        !w.empty())
        std::cerr << "xq match: warning: " << w << "\n";

    AdjudicationConfig& adj = c.adjudication;
    for (const auto& [key, value] : keyValues(o.resign, "--resign")) {
        if (key == "score")
            adj.resignScore = int(toNumber("--resign", key, value, 1));
        else if (key == "moves")
            adj.resignMoves = int(toNumber("--resign", key, value, 1));
        else
            throw std::invalid_argument("--resign: unknown setting '" + key + "' (expected score, moves)");
    }
    if (!o.resign.empty() && (adj.resignScore == 0 || adj.resignMoves == 0))
        throw std::invalid_argument("--resign needs score=CP and moves=N");
    for (const auto& [key, value] : keyValues(o.draw, "--draw")) {
        if (key == "score")
            adj.drawScore = int(toNumber("--draw", key, value, 0));
        else if (key == "moves")
            adj.drawMoves = int(toNumber("--draw", key, value, 1));
        else if (key == "movenumber")
            adj.drawAfterMove = int(toNumber("--draw", key, value, 0));
        else
            throw std::invalid_argument("--draw: unknown setting '" + key +
                                        "' (expected score, moves, movenumber)");
    }
    if (!o.draw.empty() && adj.drawMoves == 0) throw std::invalid_argument("--draw needs moves=N");
    adj.maxPlies = 2 * o.maxMoves;
    const auto ruleSet = xq::parseRuleSet(o.rules);
    if (!ruleSet)
        throw std::invalid_argument("--rules: unknown rule set '" + o.rules + "' (asian or chinese)");
    if (c.game == xq::games::Game::Chess && (*ruleSet != xq::RuleSet::ASIAN || o.moveLimit > 0))
        throw std::invalid_argument("--rules and --movelimit are Xiangqi's: chess is judged by FIDE's rules");
    adj.rules.ruleSet = *ruleSet;
    adj.rules.moveLimitPlies = o.moveLimit > 0 ? 2 * o.moveLimit : xq::defaultMoveLimitPlies(*ruleSet);

    if (!o.board.empty()) {
        if (c.game != xq::games::Game::CaptureGo)
            throw std::invalid_argument(
                "--board is Capture Go's (size, rules, target, komi): give --game capturego");
        if (!c.openings.empty())
            throw std::invalid_argument(
                "--board and --openings: the openings' position texts carry the board size, rules and komi");
        try {
            c.startPosition =
                xq::games::captureGoStartText(xq::games::parseCaptureGoSettings(o.board, "--board"));
        } catch (const std::invalid_argument& e) {
            const std::string what = e.what();
            throw std::invalid_argument(what.rfind("--board", 0) == 0 ? what : "--board: " + what);
        }
    }
    if (c.game == xq::games::Game::CaptureGo &&
        (o.rules != "asian" || o.moveLimit > 0 || !o.resign.empty() || !o.draw.empty()))
        throw std::invalid_argument(
            "--rules, --movelimit, --resign and --draw are not used by Capture Go: its rules come with "
            "--board "
            "(GTP engines report no scores to adjudicate by)");

    if (!o.sprt.empty()) {
        xq::stats::SprtConfig s = xq::match::parseSprtSettings(o.sprt);
        xq::stats::validate(s);
        sprt = s;
    }
    return c;
}

void runMatch(const MatchOptions& o) {
    std::optional<xq::stats::SprtConfig> sprt;
    MatchConfig config = buildConfig(o, sprt);
    // Unwritable outputs are found now, not after the first game (or the whole match) has been played.
    if (!o.json.empty()) {
        std::ofstream probe(o.json, std::ios::app);
        if (!probe) throw std::invalid_argument("--json: cannot write '" + o.json + "'");
    }
    if (!o.pgnOut.empty()) {
        std::ofstream probe(o.pgnOut, std::ios::app);
        if (!probe) throw std::invalid_argument("--pgnout: cannot write '" + o.pgnOut + "'");
        if (config.game == xq::games::Game::CaptureGo)
            std::cerr << "xq match: --pgnout: Capture Go games are written as SGF, one game tree each\n";
    }
    MatchRunner runner(config);
    if (config.pinSlots) {
        if (runner.slotCpus().empty()) {
            std::cerr << "xq match: --affinity: not enough CPUs for " << config.concurrency
                      << " games at once; engines are not pinned\n";
        } else {
            std::cerr << "xq match: pinned, CPUs per game slot:";
            for (const auto& cpus : runner.slotCpus()) {
                std::cerr << ' ';
                for (std::size_t i = 0; i < cpus.size(); ++i) std::cerr << (i ? "," : "") << cpus[i];
            }
            std::cerr << '\n';
        }
    }

    MatchReport report;
    report.config = &runner.config();
    report.sprt = sprt;
    std::optional<xq::stats::SprtTracker> tracker;
    if (sprt) tracker.emplace(*sprt, 1);

    std::atomic<bool>& stop = matchStop;
    const bool tty = ::isatty(2);
    auto start = std::chrono::steady_clock::now();
    auto lastPrint = start - std::chrono::hours(1);
    auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    std::string lastLine;
    auto print = [&](bool force) {
        auto now = std::chrono::steady_clock::now();
        // A terminal gets a redrawn line; a log gets a line every 10 s.
        if (!force && now - lastPrint < (tty ? std::chrono::milliseconds(200) : std::chrono::seconds(10)))
            return;
        lastPrint = now;
        report.elapsedSeconds = elapsed();
        std::string line = progressLine(report);
        if (!tty && line == lastLine) return;
        lastLine = line;
        std::cerr << (tty ? "\r\033[K" : "") << line << (tty ? "" : "\n") << std::flush;
    };

    installInterruptHandler();
    // An error ends the match, but the games played before it still get their summary and report.
    std::exception_ptr failure;
    try {
        report.totals = runner.run(
            [&](const PairResult& pair) {
                report.totals.add(pair);
                if (tracker) {
                    report.sprtState = tracker->update(pentaOf(report.totals));
                    if (report.sprtState.decision != xq::stats::Decision::Continue) stop = true;
                }
                print(false);
            },
            stop);
    } catch (const std::exception& e) {
        failure = std::current_exception();
        report.error = e.what();
    } catch (...) {
        failure = std::current_exception();
        report.error = "unknown error";
    }
    report.interrupted = interruptRequested.load();
    // A stop during an engine's start-up fails that start: the user's stop, not an error.
    if (report.interrupted) failure = nullptr, report.error.clear();
    if (!failure) print(true);
    if (tty) std::cerr << "\n";

    report.elapsedSeconds = elapsed();
    // The engines have all been reaped by now, so RUSAGE_CHILDREN holds their whole CPU time.
    auto seconds = [](const rusage& u) {
        return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
               double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
    };
    rusage self{}, children{};
    if (getrusage(RUSAGE_SELF, &self) == 0 && getrusage(RUSAGE_CHILDREN, &children) == 0) {
        report.runnerCpuSeconds = seconds(self);
        report.enginesCpuSeconds = seconds(children);
        report.runnerWakeups = self.ru_nvcsw + self.ru_nivcsw;
    }
    std::cout << summaryText(report) << std::flush;
    if (!o.json.empty()) {
        std::ofstream out(o.json, std::ios::trunc);
        out << jsonReport(report);
        if (!out.flush()) throw std::runtime_error("--json: cannot write '" + o.json + "'");
    }
    if (failure) std::rethrow_exception(failure);
    if (report.interrupted) throw xq::cli::ExitCode{130};
}

// `xq openings`: random legal plies from the start position, kept when the engine scores the result
// within +-maxScore at fixed nodes and nobody is in check, without duplicates. Xiangqi openings are written
// as the start position and its moves; chess openings as EPD (the position's first four FEN fields).
struct OpeningsOptions {
    int count = 100, plies = 8, nodes = 20000, maxScore = 50;
    unsigned seed = 1;
    std::string engine, proto = "uci", out, game = "xiangqi";
    xq::cli::CaptureGoOpeningsOptions go;
    // The options given, by name: each game refuses the other's.
    std::vector<std::pair<std::string, CLI::Option*>> engineOnly, goOnly;
};

std::ofstream openOut(const std::string& path) {
    std::ofstream file;
    if (!path.empty()) {
        file.open(path, std::ios::trunc);
        if (!file) throw std::invalid_argument("--out: cannot write '" + path + "'");
    }
    return file;
}

void makeCaptureGoOpenings(const OpeningsOptions& o) {
    for (const auto& [name, option] : o.engineOnly)
        if (option->count() > 0)
            throw std::invalid_argument(
                name +
                " is not for --game capturego: its openings are random stones that no "
                "engine scores (options: --size --stones --area --rules --target --komi "
                "--count --seed --out)");
    if (o.go.rules == "go")
        for (const auto& [name, option] : o.goOnly)
            if (name == "--target" && option->count() > 0)
                throw std::invalid_argument("--target is for --rules capture (go has no capture target)");
    xq::cli::CaptureGoOpeningsOptions go = o.go;
    go.count = o.count;
    go.seed = o.seed;
    std::string header;
    const std::vector<std::string> lines = xq::cli::captureGoOpenings(go, &header);
    std::ofstream file = openOut(o.out);
    std::ostream& out = o.out.empty() ? std::cout : file;
    out << header << "\n";
    for (const std::string& line : lines) out << line << "\n";
    if (!out.flush()) throw std::runtime_error("--out: cannot write '" + o.out + "'");
}

void makeOpenings(const OpeningsOptions& o) {
    const xq::games::Game game = gameOption(o.game);
    if (game == xq::games::Game::CaptureGo) return makeCaptureGoOpenings(o);
    for (const auto& [name, option] : o.goOnly)
        if (option->count() > 0) throw std::invalid_argument(name + " is for --game capturego");
    if (o.engine.empty())
        throw std::invalid_argument("--engine is required: the engine that scores the positions");
    const bool chess = game == xq::games::Game::Chess;
    EngineConfig e;
    e.name = "scorer";
    e.cmd = o.engine;
    e.game = game;
    auto p = parseProtocol(o.proto);
    if (!p) throw std::invalid_argument("--proto must be uci, ucci or fairy");
    e.protocol = *p;
    e.tc.nodes = o.nodes;
    EngineClient scorer(e, 10000, 60000);
    StopCheck stop = [] { return interruptRequested.load(); };
    installInterruptHandler();
    scorer.start(stop);
    std::ofstream file = openOut(o.out);
    std::ostream& out = o.out.empty() ? std::cout : file;
    out << "# xq openings" << (chess ? " --game chess" : "") << " --plies " << o.plies << " --nodes "
        << o.nodes << " --max-score " << o.maxScore << " --seed " << o.seed << " --count " << o.count
        << " (scored by " << o.engine << ")\n";
    std::mt19937_64 rng(o.seed);
    std::set<std::uint64_t> seen;
    int kept = 0, tried = 0;
    TimeControl tc = e.tc;
    GameClock clocks[2] = {GameClock(tc), GameClock(tc)};
    const std::string start = xq::games::startFen(game);
    const xq::RuleConfig rules;
    while (kept < o.count && !interruptRequested) {
        if (++tried > o.count * 200)
            throw std::runtime_error("too few level positions found; raise --max-score");
        auto board = xq::games::makeBoard(game);
        std::vector<std::string> moves;
        bool ok = true;
        for (int i = 0; i < o.plies && ok; ++i) {
            std::vector<std::string> legal = board->legalMoves();
            if (legal.empty())
                ok = false;
            else {
                moves.push_back(legal[rng() % std::uint64_t(legal.size())]);
                board->play(moves.back());
            }
        }
        if (!ok || board->inCheck() || board->ending(rules).isOver() || !seen.insert(board->key()).second)
            continue;
        std::string error;
        if (!scorer.newGame(stop, error)) throw std::runtime_error("scorer: " + error);
        SearchOutcome s = scorer.go(start, moves, clocks, board->firstPlayerToMove(), stop);
        if (s.status != SearchOutcome::Move) throw std::runtime_error("scorer failed: " + s.detail);
        if (s.info.score.kind != Score::Cp || std::abs(s.info.score.value) > o.maxScore) continue;
        if (chess) {
            std::istringstream fen(board->fen());
            std::string placement, side, castling, ep;
            fen >> placement >> side >> castling >> ep;
            out << placement << ' ' << side << ' ' << castling << ' ' << ep << "\n";
        } else {
            out << start << " moves";
            for (const std::string& m : moves) out << ' ' << m;
            out << "\n";
        }
        ++kept;
        std::cerr << "\r" << kept << "/" << o.count << " kept of " << tried << " tried" << std::flush;
    }
    std::cerr << "\n";
}

xq::cli::RegisterCommand registerMatch([](CLI::App& app) {
    auto opts = std::make_shared<MatchOptions>();
    auto* sub = app.add_subcommand("match", "Play a match between two engines (pairs, SPRT, PGN, JSON)");
    sub->add_option(
           "--engine", opts->engines,
           "An engine: name=N cmd=PATH [args=\"...\"] [proto=uci|ucci|fairy|gtp] [option.NAME=VALUE] "
           "[tc=|st=|nodes=|depth=|margin=]; give it twice")
        ->expected(1, -1)
        ->required();
    sub->add_option("--each", opts->each, "Settings for both engines, e.g. tc=10+0.1 or nodes=5000")
        ->expected(1, -1);
    sub->add_option("--games", opts->games, "Total games (pairs: each opening with both colours)")
        ->check(CLI::Range(1, 100000000));
    sub->add_option("--concurrency", opts->concurrency, "Games played at once")->check(CLI::Range(1, 256));
    sub->add_flag("--affinity", opts->affinity,
                  "Pin each game (its engines and its runner thread) to CPUs of its own: steadier speed "
                  "and half the runner's overhead; only for one runner per machine");
    sub->add_option("--openings", opts->openings, "file=PATH [order=sequential|random] [seed=S] [start=PAIR]")
        ->expected(1, -1);
    sub->add_option("--pgnout", opts->pgnOut,
                    "Append the games to this PGN file (--game capturego: SGF, one game tree per game)");
    sub->add_option("--json", opts->json, "Write the final report as JSON to this file");
    sub->add_option("--sprt", opts->sprt,
                    "elo0=A elo1=B [alpha=0.05] [beta=0.05] [model=normalized|logistic]")
        ->expected(1, -1);
    sub->add_option("--resign", opts->resign, "score=CP moves=N: resign when both engines agree")
        ->expected(1, -1);
    sub->add_option("--draw", opts->draw, "score=CP moves=N [movenumber=M]: draw when both engines agree")
        ->expected(1, -1);
    sub->add_option("--maxmoves", opts->maxMoves, "Adjudicate a draw after this many moves (0: no limit)")
        ->check(CLI::Range(0, 1000000));
    sub->add_option("--rules", opts->rules,
                    "Rule set judging repetitions: asian (AXF, default) or chinese (competition rules); also "
                    "sets an engine's Repetition Rule option when it has one")
        ->default_val("asian");
    sub->add_option("--movelimit", opts->moveLimit,
                    "Moves per side without capture that draw (default: 60 asian, 40 chinese)")
        ->check(CLI::Range(1, 10000));
    sub->add_option("--event", opts->event, "The PGN Event tag");
    sub->add_option(
           "--stall-timeout", opts->stallSeconds,
           "Seconds an engine may think past its deadline, or in all without a clock (nodes=, depth=; "
           "a GTP engine told no time, e.g. gnugo --level N), before it loses as stalled")
        ->check(CLI::Range(0.1, 86400.0))
        ->default_val(10);
    sub->add_option(
        "--game", opts->game,
        "The game: xiangqi (default), chess (engines speak uci or fairy; openings in EPD, FEN or "
        "PGN moves as UCI or SAN; PGN out in SAN) or capturego (Capture Go and Go: engines speak gtp; "
        "see --board; openings are position texts; --pgnout writes SGF)");
    sub->add_option("--board", opts->board,
                    "Capture Go: size=5..19 (9) rules=capture|go (capture) target=N (capture: 1) komi=K "
                    "(capture: 0, go: 7.5); go is Tromp-Taylor area scoring")
        ->expected(1, -1);
    sub->callback([opts] { runMatch(*opts); });

    auto oo = std::make_shared<OpeningsOptions>();
    auto* gen =
        app.add_subcommand("openings",
                           "Make a balanced opening set from random plies scored by an engine (Capture Go: "
                           "distinct random stones in the centre)");
    oo->engineOnly = {
        {"--engine", gen->add_option("--engine", oo->engine,
                                     "The engine that scores the positions (required "
                                     "for xiangqi and chess)")},
        {"--proto", gen->add_option("--proto", oo->proto, "Its protocol: uci, ucci or fairy")},
        {"--plies", gen->add_option("--plies", oo->plies, "Random plies from the start position")
                        ->check(CLI::Range(1, 40))},
        {"--nodes",
         gen->add_option("--nodes", oo->nodes, "Nodes per scoring search")->check(CLI::Range(1, 100000000))},
        {"--max-score", gen->add_option("--max-score", oo->maxScore,
                                        "Keep positions scored within +-this "
                                        "(centipawns)")
                            ->check(CLI::NonNegativeNumber)}};
    gen->add_option("--count", oo->count, "Openings to keep")->check(CLI::Range(1, 1000000));
    gen->add_option("--seed", oo->seed, "Random seed (the same seed and options: the same set)");
    gen->add_option("--out", oo->out, "Output file (default stdout)");
    gen->add_option("--game", oo->game,
                    "The game: xiangqi (default), chess (written as EPD) or capturego (position texts for xq "
                    "match --game capturego --openings; no engine)");
    oo->goOnly = {
        {"--size", gen->add_option("--size", oo->go.size, "Capture Go: the board size, 5..19 (9)")},
        {"--stones", gen->add_option("--stones", oo->go.stones, "Capture Go: stones of each colour (2)")
                         ->check(CLI::Range(1, 100))},
        {"--area", gen->add_option("--area", oo->go.area,
                                   "Capture Go: the side of the centre square the stones are put on "
                                   "(default: size - 4, size - 2 below 9x9)")
                       ->check(CLI::Range(1, 19))},
        {"--rules", gen->add_option("--rules", oo->go.rules, "Capture Go: capture (default) or go")},
        {"--target", gen->add_option("--target", oo->go.target, "Capture Go: stones to capture to win (1)")
                         ->check(CLI::Range(1, 1000))},
        {"--komi", gen->add_option("--komi", oo->go.komi, "Capture Go: komi (capture: 0, go: 7.5)")}};
    gen->callback([oo] { makeOpenings(*oo); });
});

}  // namespace
