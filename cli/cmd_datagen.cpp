// `xq datagen`: self-play training positions from an engine; `xq data export|stats`: merge, deduplicate
// and count `FEN ; result` files (plain or gzip, from datagen, a coordinator's data directory or
// elsewhere); `xq data export --test ID` and `xq data list --test ID` do the same with the chunks a
// coordinator stores for a datagen test, over gRPC.
#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <unordered_set>

#include "command.h"
#include "connection.h"
#include "data_client.h"
#include "datagen.h"
#include "dataset.h"
#include "util/text.h"
#include "xiangqi/position.h"

namespace {

std::atomic<bool> Interrupted{false};
void onDatagenSignal(int) {
    Interrupted = true;
}

struct DatagenArgs {
    xq::tuner::DatagenOptions gen;
    std::string out;
    std::vector<std::string> options;  // NAME=VALUE
    std::string rules = "asian";
    std::string game = "xiangqi";
    std::string engineArgs;  // --args, split at spaces
    bool append = false;
    bool json = false;
};

std::string formatDuration(double seconds) {
    if (!(seconds >= 0) || seconds > 1e7) return "?";
    long s = long(seconds + 0.5);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    return buf;
}

void printProgress(const xq::tuner::DatagenStats& s, bool final) {
    long done = long(s.gamesPlayed + s.gamesFailed + s.gamesGivenUp);
    double rate = s.seconds > 0 ? double(done) / s.seconds : 0;
    double eta = rate > 0 ? double(s.gamesTotal - done) / rate : -1;
    char line[256];
    std::snprintf(line, sizeof line,
                  "%s games %ld/%d (%lld failed), positions %lld, %.2f games/s, %.0f positions/s, %s %s\n",
                  final ? "done:" : "datagen:", done, s.gamesTotal, (long long)s.gamesFailed,
                  (long long)s.positions, rate, s.seconds > 0 ? double(s.positions) / s.seconds : 0.0,
                  final ? "elapsed" : "ETA", formatDuration(final ? s.seconds : eta).c_str());
    std::cerr << line;
}

int runDatagen(DatagenArgs& a) {
    for (const std::string& kv : a.options) {
        auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) {
            std::cerr << "xq datagen: --option wants NAME=VALUE, got '" << kv << "'\n";
            return 2;
        }
        a.gen.engineOptions.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
    a.gen.game = xq::games::parseGame(a.game).value_or(xq::games::Game::Xiangqi);
    a.gen.engineArgs = xq::words(a.engineArgs);
    const bool go = a.gen.game == xq::games::Game::CaptureGo;
    if (a.gen.game != xq::games::Game::Xiangqi && a.rules != "asian") {
        std::cerr << "xq datagen: --rules is Xiangqi's; "
                  << (go ? "Capture Go's rules are given by --board" : "chess games end by FIDE's rules")
                  << "\n";
        return 2;
    }
    if (go && !a.gen.engineOptions.empty()) {
        std::cerr << "xq datagen: --option: GTP engines take no options; give them as --args\n";
        return 2;
    }
    if (!go && !a.gen.board.empty()) {
        std::cerr << "xq datagen: --board is Capture Go's (--game capturego)\n";
        return 2;
    }
    a.gen.rules.ruleSet = xq::parseRuleSet(a.rules).value_or(xq::RuleSet::ASIAN);
    a.gen.rules.moveLimitPlies = xq::defaultMoveLimitPlies(a.gen.rules.ruleSet);
    xq::tuner::DataWriter writer(a.out, a.append);
    auto onChunk = [&](std::vector<xq::tuner::LabeledPosition>& chunk) { writer.write(chunk); };
    auto lastReport = std::chrono::steady_clock::now() - std::chrono::hours(1);
    auto onProgress = [&](const xq::tuner::DatagenStats& s) {
        auto now = std::chrono::steady_clock::now();
        if (now - lastReport < std::chrono::seconds(2)) return;
        lastReport = now;
        printProgress(s, false);
    };
    std::signal(SIGINT, onDatagenSignal);
    std::signal(SIGTERM, onDatagenSignal);
    xq::tuner::DatagenStats s;
    try {
        s = xq::tuner::generateData(a.gen, onChunk, Interrupted, onProgress);
    } catch (const std::invalid_argument& e) {
        std::cerr << "xq datagen: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        writer.close();
        std::cerr << "xq datagen: " << e.what() << " (" << writer.count() << " positions written to " << a.out
                  << ")\n";
        return 1;
    }
    writer.close();
    printProgress(s, true);
    if (a.json) {
        nlohmann::json j = {{"games", s.gamesPlayed},
                            {"games_failed", s.gamesFailed},
                            {"games_given_up", s.gamesGivenUp},
                            {"openings_rejected", s.openingsRejected},
                            {"red_wins", s.redWins},
                            {"draws", s.draws},
                            {"black_wins", s.blackWins},
                            {"plies", s.plies},
                            {"sampled", s.sampled},
                            {"rejected_in_check", s.inCheck},
                            {"rejected_noisy", s.noisy},
                            {"rejected_mate_score", s.mateScores},
                            {"rejected_duplicate", s.duplicates},
                            {"positions", s.positions},
                            {"seconds", s.seconds},
                            {"out", a.out},
                            {"interrupted", Interrupted.load()}};
        std::cout << j.dump() << "\n";
    } else {
        // The first player: Red in Xiangqi, White in chess, Black in Capture Go.
        const char* first = go ? "black" : a.gen.game == xq::games::Game::Chess ? "white" : "red";
        const char* second = go ? "white" : "black";
        std::printf("games %lld (%s %lld, draws %lld, %s %lld; %lld failed, %lld without a%s opening)\n",
                    (long long)s.gamesPlayed, first, (long long)s.redWins, (long long)s.draws, second,
                    (long long)s.blackWins, (long long)s.gamesFailed, (long long)s.gamesGivenUp,
                    go ? " quiet" : " balanced");
        std::printf(
            "plies %lld, sampled %lld: in check %lld, noisy %lld, mate scores %lld, duplicates %lld\n",
            (long long)s.plies, (long long)s.sampled, (long long)s.inCheck, (long long)s.noisy,
            (long long)s.mateScores, (long long)s.duplicates);
        std::printf("positions %lld written to %s\n", (long long)s.positions, a.out.c_str());
    }
    return Interrupted ? 130 : 0;
}

// Files named on the command line; a directory stands for every regular file in it (sorted).
std::vector<std::string> expandInputs(const std::vector<std::string>& inputs) {
    std::vector<std::string> files;
    for (const std::string& in : inputs) {
        std::error_code ec;
        if (std::filesystem::is_directory(in, ec)) {
            std::vector<std::string> inDir;
            for (const auto& entry : std::filesystem::directory_iterator(in, ec))
                if (entry.is_regular_file()) inDir.push_back(entry.path().string());
            std::sort(inDir.begin(), inDir.end());
            files.insert(files.end(), inDir.begin(), inDir.end());
        } else if (std::filesystem::exists(in, ec)) {
            files.push_back(in);
        } else {
            throw xq::tuner::DataError(in + ": no such file or directory");
        }
    }
    return files;
}

struct ExportArgs {
    std::vector<std::string> inputs;
    std::string out;
    bool keepDuplicates = false;
    bool json = false;
    std::uint64_t test = 0;  // non-zero: the chunks a coordinator stores for this datagen test
    xq::cli::Connection connection;
};

struct Counts {
    long positions = 0, duplicates = 0, red = 0, draws = 0, black = 0, files = 0;
};

Counts readAll(const std::vector<std::string>& files, bool dedup,
               const std::function<void(const xq::tuner::LabeledPosition&)>& onNew) {
    Counts c;
    std::unordered_set<std::uint64_t> seen;
    for (const std::string& f : files) {
        ++c.files;
        xq::tuner::readDataFile(f, [&](const xq::tuner::LabeledPosition& p) {
            if (dedup && !seen.insert(xq::tuner::positionKey(p.fen)).second) {
                ++c.duplicates;
                return true;
            }
            ++c.positions;
            (p.result > 0.5f ? c.red : p.result < 0.5f ? c.black : c.draws)++;
            if (onNew) onNew(p);
            return true;
        });
    }
    return c;
}

void printCounts(const Counts& c, bool asJson, const std::string& out) {
    if (asJson) {
        nlohmann::json j = {{"files", c.files},  {"positions", c.positions}, {"duplicates", c.duplicates},
                            {"red_wins", c.red}, {"draws", c.draws},         {"black_wins", c.black}};
        if (!out.empty()) j["out"] = out;
        std::cout << j.dump() << "\n";
    } else {
        std::printf("files %ld, positions %ld (red wins %ld, draws %ld, black wins %ld), duplicates %s %ld\n",
                    c.files, c.positions, c.red, c.draws, c.black, out.empty() ? "seen" : "dropped",
                    c.duplicates);
        if (!out.empty()) std::printf("wrote %s\n", out.c_str());
    }
}

int runRemoteExport(const ExportArgs& a) {
    auto client = a.connection.open();
    xq::coord::ExportCounts c = xq::coord::exportTestData(*client, a.test, a.out, a.keepDuplicates);
    if (a.json) {
        nlohmann::json j = {
            {"test", a.test},           {"chunks", c.chunks},         {"listed_positions", c.listedPositions},
            {"positions", c.positions}, {"duplicates", c.duplicates}, {"red_wins", c.redWins},
            {"draws", c.draws},         {"black_wins", c.blackWins},  {"out", a.out}};
        std::cout << j.dump() << "\n";
    } else {
        std::printf(
            "test %llu: chunks %lld holding %lld positions; wrote %lld (red wins %lld, draws %lld, black "
            "wins "
            "%lld), duplicates %s %lld\nwrote %s\n",
            (unsigned long long)a.test, (long long)c.chunks, (long long)c.listedPositions,
            (long long)c.positions, (long long)c.redWins, (long long)c.draws, (long long)c.blackWins,
            a.keepDuplicates ? "kept" : "dropped", (long long)c.duplicates, a.out.c_str());
    }
    return 0;
}

int runExport(const ExportArgs& a) {
    if ((a.test != 0) == !a.inputs.empty()) {
        std::cerr
            << "xq data export: give either input files/directories or --test ID (with --coordinator)\n";
        return 2;
    }
    if (a.test != 0) return runRemoteExport(a);
    try {
        auto files = expandInputs(a.inputs);
        xq::tuner::DataWriter writer(a.out);
        Counts c =
            readAll(files, !a.keepDuplicates, [&](const xq::tuner::LabeledPosition& p) { writer.write(p); });
        writer.close();
        printCounts(c, a.json, a.out);
    } catch (const xq::tuner::DataError& e) {
        std::cerr << "xq data export: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

xq::cli::RegisterCommand registerDatagen([](CLI::App& app) {
    auto args = std::make_shared<DatagenArgs>();
    auto* sub = app.add_subcommand("datagen", "self-play training positions (FEN ; result) at fixed nodes");
    auto& g = args->gen;
    sub->add_option("--engine", g.enginePath, "engine executable (UCI; GTP for --game capturego)")
        ->required();
    sub->add_option("--args", args->engineArgs,
                    "the engine's command-line arguments, split at spaces, e.g. \"--nodes 2000\" for xq-go");
    sub->add_option("--games", g.games, "games to play")->required()->check(CLI::Range(1, 100000000));
    auto* nodes =
        sub->add_option("--nodes", g.nodes,
                        "nodes per move (required for UCI engines; a GTP engine is not told it and plays "
                        "at its own settings, see --args)")
            ->check(CLI::Range(1L, 1L << 40));
    sub->add_option("--out", args->out, "output file (gzip when it ends in .gz)")->required();
    sub->add_option("--random-plies", g.randomPlies, "random legal plies from the start position")
        ->check(CLI::Range(0, 40))
        ->capture_default_str();
    sub->add_option("--seed", g.seed, "seed for openings and sampling")->capture_default_str();
    sub->add_option("--first-game", g.firstGame, "number of the first game (slices of one run)")
        ->check(CLI::NonNegativeNumber);
    sub->add_option("--concurrency", g.concurrency, "games at once")
        ->check(CLI::Range(1, 256))
        ->capture_default_str();
    sub->add_option("--sample-rate", g.sampleRate, "chance that a game position is considered")
        ->check(CLI::Range(0.000001, 1.0))
        ->capture_default_str();
    sub->add_option("--balanced-cp", g.balancedCp, "keep openings the engine scores within +-this")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    sub->add_option("--max-plies", g.maxPlies, "a game this long is a draw")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    sub->add_option("--option", args->options, "engine option NAME=VALUE (repeatable), e.g. EvalFile=w.xqw");
    sub->add_option("--rules", args->rules, "rule set judging the games: asian (default) or chinese")
        ->check([](const std::string& v) {
            return xq::parseRuleSet(v) ? std::string() : "unknown rule set '" + v + "' (asian or chinese)";
        });
    sub->add_option(
           "--game", args->game,
           "the game: xiangqi (default), chess (a UCI chess engine such as Stockfish; positions are "
           "labelled from White's view) or capturego (a GTP engine such as xq-go; position texts labelled "
           "from Black's view, without scores)")
        ->check([](const std::string& v) -> std::string {
            return xq::games::parseGame(v) ? ""
                                           : "unknown game '" + v + "' (" + xq::games::gameChoices() + ")";
        });
    sub->add_option(
        "--board", g.board,
        "capturego: the board, as xq match --board reads it (default size=9,rules=capture,target=1)");
    sub->add_flag(
        "--keep-mate-scores", [&g](std::int64_t) { g.skipMateScores = false; },
        "keep positions where the engine announced a mate");
    sub->add_flag("--append", args->append, "append to the output file");
    sub->add_flag("--json", args->json, "print the summary as JSON");
    sub->callback([args, nodes] {
        if (nodes->count() == 0 && args->game != "capturego")
            throw CLI::RequiredError("--nodes (UCI engines search a fixed number of nodes a move)");
        if (int rc = runDatagen(*args)) throw xq::cli::ExitCode{rc};
    });

    auto* data = app.add_subcommand("data", "training data files: export, stats, list (a coordinator's)");
    data->require_subcommand(1);
    auto ex = std::make_shared<ExportArgs>();
    auto* exp = data->add_subcommand(
        "export",
        "merge position files (or directories of them), or a coordinator's datagen test, into one file");
    exp->add_option("inputs", ex->inputs, "files or directories (plain or .gz)");
    exp->add_option("--test", ex->test, "instead of files: the datagen test whose stored chunks to download");
    ex->connection.addOptions(exp);
    exp->add_option("--out", ex->out, "output file (gzip when it ends in .gz)")->required();
    exp->add_flag("--keep-duplicates", ex->keepDuplicates, "do not drop repeated positions");
    exp->add_flag("--json", ex->json, "print the counts as JSON");
    exp->callback([ex] {
        if (int rc = runExport(*ex)) throw xq::cli::ExitCode{rc};
    });
    auto ls = std::make_shared<ExportArgs>();
    auto* list = data->add_subcommand("list", "list the chunks a coordinator stores for a datagen test");
    list->add_option("--test", ls->test, "datagen test id")->required();
    list->add_flag("--json", ls->json, "JSON for scripts");
    ls->connection.addOptions(list);
    list->callback([ls] {
        auto client = ls->connection.open();
        auto resp = xq::coord::listDataChunks(*client, ls->test);
        const auto& p = resp.progress();
        if (ls->json) {
            nlohmann::json chunks = nlohmann::json::array();
            for (const auto& c : resp.chunks())
                chunks.push_back({{"id", c.id()},
                                  {"slice", c.slice()},
                                  {"positions", c.positions()},
                                  {"bytes", c.bytes()},
                                  {"sha256", c.sha256()},
                                  {"worker", c.worker_id()},
                                  {"slice_done", c.slice_done()},
                                  {"file", c.file()}});
            nlohmann::json j = {{"test", resp.test_id()},
                                {"positions", p.positions()},
                                {"chunks", p.chunks()},
                                {"bytes", p.bytes()},
                                {"slices", p.slices()},
                                {"slices_done", p.slices_done()},
                                {"games_played", p.games_played()},
                                {"files", chunks}};
            std::cout << j.dump() << "\n";
            return;
        }
        std::printf("%6s %6s %9s %9s %7s  %s\n", "chunk", "slice", "positions", "bytes", "worker", "file");
        for (const auto& c : resp.chunks())
            std::printf("%6llu %6llu %9llu %9llu %7llu  %s%s\n", (unsigned long long)c.id(),
                        (unsigned long long)c.slice(), (unsigned long long)c.positions(),
                        (unsigned long long)c.bytes(), (unsigned long long)c.worker_id(), c.file().c_str(),
                        c.slice_done() ? "" : "  (slice in progress)");
        std::printf("test %llu: %llu positions in %llu chunks (%llu bytes); slices %llu/%llu done\n",
                    (unsigned long long)resp.test_id(), (unsigned long long)p.positions(),
                    (unsigned long long)p.chunks(), (unsigned long long)p.bytes(),
                    (unsigned long long)p.slices_done(), (unsigned long long)p.slices());
    });

    auto st = std::make_shared<ExportArgs>();
    auto* stats = data->add_subcommand("stats", "count positions and results in position files");
    stats->add_option("inputs", st->inputs, "files or directories (plain or .gz)")->required();
    stats->add_flag("--json", st->json, "print the counts as JSON");
    stats->callback([st] {
        try {
            printCounts(readAll(expandInputs(st->inputs), true, {}), st->json, "");
        } catch (const xq::tuner::DataError& e) {
            std::cerr << "xq data stats: " << e.what() << "\n";
            throw xq::cli::ExitCode{1};
        }
    });
});

}  // namespace
