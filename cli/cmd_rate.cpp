// xq rate: ratings of every player of a set of games at once (maximum likelihood, stats/rating.h), from
// PGN files, SGF files (Capture Go and Go, as `xq match --game capturego --pgnout` writes them), `xq match
// --json` reports, or a coordinator's tests (all of them, or one ladder's), with the
// seeds' grade points on request. xq ladder: each new version of an engine against fixed reference
// players on a coordinator, rated with `xq rate --ladder`.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "capturego/result.h"
#include "capturego/sgf.h"
#include "capturego_settings.h"
#include "command.h"
#include "connection.h"
#include "data_chunk.h"
#include "grades.h"
#include "input_file.h"
#include "pgn.h"
#include "rating.h"
#include "submission.h"
#include "util/text.h"

namespace {

namespace v1 = xq::v1;
// Json, not json: in a unity build this file shares its scope with files whose locals are called json.
using Json = nlohmann::json;

using GameList = xq::stats::RatingInput;

// Returns how many games were skipped (unfinished, or without players).
int readPgn(const std::string& path, const std::string& content, GameList& out) {
    int skipped = 0;
    std::vector<std::map<std::string, std::string>> games;
    try {
        games = xq::match::readPgnTags(content);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(path + ": " + e.what());
    }
    for (const auto& tags : games) {
        auto tag = [&](const char* name) {
            auto it = tags.find(name);
            return it == tags.end() ? std::string() : it->second;
        };
        std::string first = tag("Red").empty() ? tag("White") : tag("Red"), second = tag("Black");
        std::string result = tag("Result");
        double score = result == "1-0" ? 1 : result == "0-1" ? 0 : result == "1/2-1/2" ? 0.5 : -1;
        if (first.empty() || second.empty() || first == second || score < 0) {
            ++skipped;
            continue;
        }
        out.addGame(first, second, score);
    }
    return skipped;
}

// Every game tree of an SGF file: PB against PW, scored by RE (B+..., W+..., 0 or Draw), the first player
// being the one who moves first (PL, else the first move's colour, else black), as the match runner's
// first player is. Returns how many games were skipped (no result, or without players).
int readSgf(const std::string& path, const std::string& content, GameList& out) {
    namespace cg = xq::capturego;
    std::vector<cg::SgfGameTree> trees;
    try {
        trees = cg::parseSgfCollection(content);
    } catch (const cg::ParseError& e) {
        throw std::invalid_argument(path + ": " + e.what());
    }
    int skipped = 0;
    for (const cg::SgfGameTree& tree : trees) {
        auto text = [&](const char* id) {
            const cg::SgfProperty* p = tree.mainLine.front().find(id);
            return p && !p->values.empty() ? p->values[0] : std::string();
        };
        std::string black = text("PB"), white = text("PW");
        std::optional<cg::Result> result = cg::parseSgfResult(text("RE"));
        if (black.empty() || white.empty() || black == white || !result ||
            result->outcome == cg::Outcome::Ongoing) {
            ++skipped;
            continue;
        }
        bool whiteFirst = false;
        for (const cg::SgfNode& node : tree.mainLine) {
            if (const cg::SgfProperty* pl = node.find("PL"); pl && !pl->values.empty()) {
                whiteFirst = pl->values[0] == "W" || pl->values[0] == "w" || pl->values[0] == "white";
                break;
            }
            if (node.find("B")) break;
            if (node.find("W")) {
                whiteFirst = true;
                break;
            }
        }
        double blackScore = result->outcome == cg::Outcome::BlackWins   ? 1
                            : result->outcome == cg::Outcome::WhiteWins ? 0
                                                                        : 0.5;
        if (whiteFirst)
            out.addGame(white, black, 1 - blackScore);
        else
            out.addGame(black, white, blackScore);
    }
    return skipped;
}

void readMatchReport(const std::string& path, const std::string& content, GameList& out) {
    Json j;
    try {
        j = Json::parse(content);
        auto names = j.at("engines").get<std::vector<std::string>>();
        auto wdl = j.at("wdl").get<std::array<std::int64_t, 3>>();
        if (names.size() != 2) throw std::invalid_argument("two engines expected");
        out.addTotals(names[0], names[1], wdl);
    } catch (const Json::exception& e) {
        throw std::invalid_argument(path + ": not an `xq match --json` report: " + e.what());
    }
}

// A test's engine as a player: its name, with the build when the test is not a ladder's (so that two
// builds called "dev" stay two players).
std::string playerName(const v1::EngineSpec& e, bool withBuild) {
    if (!withBuild) return e.name();
    std::string build = e.has_source() ? e.source().commit() : e.binary_sha256();
    return e.name() + "@" + build.substr(0, 8);
}

// The coordinator's match tests, page by page: one ladder's (oldest first), or all of them.
std::vector<v1::TestView> coordinatorTests(xq::coord::Client& client, const std::string& ladder) {
    std::vector<v1::TestSummary> summaries;
    v1::ListTestsRequest req;
    req.set_limit(1000);
    req.set_ladder(ladder);
    while (true) {
        v1::ListTestsResponse list;
        auto ctx = client.context(60);
        xq::coord::check(client.user().ListTests(ctx.get(), req, &list), "list tests");
        summaries.insert(summaries.end(), list.tests().begin(), list.tests().end());
        if (!list.more()) break;
        req.set_offset(req.offset() + std::uint64_t(list.tests_size()));
    }
    if (ladder.empty())  // running first, then newest first: put them in the order they were made
        std::sort(summaries.begin(), summaries.end(),
                  [](const auto& a, const auto& b) { return a.id() < b.id(); });
    std::vector<v1::TestView> out;
    for (const auto& s : summaries) {
        if (s.kind() == "datagen") continue;
        v1::ShowTestRequest show;
        show.set_test_id(s.id());
        v1::TestView view;
        auto ctx = client.context(60);
        xq::coord::check(client.user().ShowTest(ctx.get(), show, &view),
                         "show test " + std::to_string(s.id()));
        out.push_back(std::move(view));
    }
    return out;
}

struct RateOptions {
    std::vector<std::string> files;
    xq::cli::Connection conn;
    bool fromCoordinator = false;
    std::string ladder, anchor;
    double anchorElo = 0;
    bool grades = false, json = false, noAdvantage = false;
};

enum class InputFormat { Pgn, Sgf, Report };

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// By the name (.pgn, .sgf, either with .gz; .json), else by the content, which is read once (a pipe such
// as <(zcat games.pgn.gz) cannot be read twice): '(' first is an SGF game tree, a JSON object an `xq match
// --json` report, anything else PGN (as every file not named .json was before SGF was read).
InputFormat inputFormat(const std::string& path, const std::string& text) {
    std::string lower = path;
    for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (endsWith(lower, ".pgn") || endsWith(lower, ".pgn.gz")) return InputFormat::Pgn;
    if (endsWith(lower, ".sgf") || endsWith(lower, ".sgf.gz")) return InputFormat::Sgf;
    if (endsWith(lower, ".json")) return InputFormat::Report;
    std::size_t i = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;  // a UTF-8 byte order mark
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i < text.size() && text[i] == '(') return InputFormat::Sgf;
    if (i < text.size() && text[i] == '{' && Json::accept(text)) return InputFormat::Report;
    return InputFormat::Pgn;  // a PGN may also open with a {comment}
}

void rate(const RateOptions& o) {
    GameList list;
    int skipped = 0;
    bool onlySgf = !o.files.empty() && !o.fromCoordinator && o.ladder.empty();
    for (const auto& f : o.files) {
        const std::string text = xq::cli::readInputFile(f);
        switch (inputFormat(f, text)) {
            case InputFormat::Report:
                readMatchReport(f, text, list);
                onlySgf = false;
                break;
            case InputFormat::Sgf:
                skipped += readSgf(f, text, list);
                break;
            case InputFormat::Pgn:
                skipped += readPgn(f, text, list);
                onlySgf = false;
                break;
        }
    }
    if (o.fromCoordinator || !o.ladder.empty()) {
        auto client = o.conn.open();
        for (const auto& view : coordinatorTests(*client, o.ladder)) {
            const auto& s = view.summary();
            // --tests: the tests that ended (finished or stopped); a ladder's rungs count as they play.
            if (s.games() == 0 || (o.ladder.empty() && s.state() == v1::TEST_STATE_RUNNING)) continue;
            const auto& m = view.spec().match();
            list.addTotals(playerName(m.dev(), o.ladder.empty()), playerName(m.base(), o.ladder.empty()),
                           {std::int64_t(s.wdl(0)), std::int64_t(s.wdl(1)), std::int64_t(s.wdl(2))});
        }
    }
    if (list.games.empty()) throw std::invalid_argument("no finished games to rate");
    if (skipped) std::cerr << "xq rate: " << skipped << " games without players or a result skipped\n";
    xq::stats::RatingOptions ro;
    ro.anchorElo = o.anchorElo;
    // Totals (reports, tests) say nothing of colours: then no advantage can be fitted.
    ro.fitAdvantage = !o.noAdvantage && list.coloursKnown;
    if (!o.anchor.empty()) {
        ro.anchor = list.find(o.anchor);
        if (ro.anchor < 0) throw std::invalid_argument("--anchor: no player called '" + o.anchor + "'");
    }
    auto fit = xq::stats::fitRatings(list.names, list.games, ro);
    std::vector<xq::stats::GradedPlayer> grades;
    if (o.grades) {
        std::vector<std::pair<std::pair<int, int>, double>> ordered;
        for (const auto& g : list.games)
            for (std::int64_t k = 0; k < g.count; ++k) ordered.push_back({{g.first, g.second}, g.score});
        grades = xq::stats::gradePlayers(int(list.names.size()), ordered);
    }
    // A ladder lists its versions in the order they joined; otherwise the strongest first.
    std::vector<std::size_t> order(fit.players.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    if (o.ladder.empty())
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return fit.players[a].elo > fit.players[b].elo;
        });
    if (o.json) {
        Json players = Json::array();
        for (std::size_t i : order) {
            const auto& p = fit.players[i];
            Json j = {{"name", p.name}, {"games", p.games}, {"score", p.score},
                      {"elo", p.elo},   {"low", p.low},     {"high", p.high}};
            if (o.grades) j["grade"] = grades[i].grade, j["points"] = grades[i].points;
            players.push_back(j);
        }
        std::cout << Json{{"players", players}, {"advantage", fit.advantage}, {"draw_elo", fit.drawElo}}.dump(
                         2)
                  << "\n";
        return;
    }
    std::printf("%-4s %-32s %7s %7s %8s %17s%s\n", "", "player", "games", "score", "Elo", "95% interval",
                o.grades ? "  grade  points" : "");
    int rank = 0;
    for (std::size_t i : order) {
        const auto& p = fit.players[i];
        // xq::fixed: a player at the mean reads 0.0, not -0.0.
        std::printf("%-4d %-32s %7lld %6.1f%% %8s   [%6s, %6s]", ++rank, p.name.c_str(), (long long)p.games,
                    p.games ? 100 * p.score / double(p.games) : 0.0, xq::fixed(p.elo, 1).c_str(),
                    xq::fixed(p.low, 1).c_str(), xq::fixed(p.high, 1).c_str());
        if (o.grades) std::printf("  %5d  %6.1f", grades[i].grade, grades[i].points);
        std::printf("\n");
    }
    if (ro.fitAdvantage)
        std::printf("%s advantage %s Elo, ", onlySgf ? "the first mover's (black's)" : "red's",
                    xq::fixed(fit.advantage, 1).c_str());
    std::int64_t games = 0;
    for (const auto& g : list.games) games += g.count;
    std::printf("drawElo %s; %lld games%s\n", xq::fixed(fit.drawElo, 1).c_str(), (long long)games,
                o.anchor.empty() ? ", anchored at the mean" : "");
}

// `name=fairy,cmd=/usr/games/fairy-stockfish,proto=fairy,option.Skill Level=3` as an engine.
xq::coord::EngineChoice parseReference(const std::string& text) {
    xq::coord::EngineChoice e;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        auto eq = item.find('=');
        if (eq == std::string::npos)
            throw std::invalid_argument("--reference: '" + item + "' is not key=value");
        std::string key = item.substr(0, eq), value = item.substr(eq + 1);
        if (key == "name")
            e.name = value;
        else if (key == "cmd")
            e.path = value;
        else
            e.settings.push_back(item);
    }
    if (e.name.empty() || e.path.empty())
        throw std::invalid_argument("--reference needs name= and cmd=, got '" + text + "'");
    return e;
}

struct LadderOptions {
    xq::cli::Connection conn;
    std::string ladder, version, engine, repo, ref, build, binary;
    // Empty: the ladder's (from its earlier tests), else xiangqi, the default board and the game's default
    // book.
    std::string game, board, openings;
    std::vector<std::string> references, each, settings, webhooks;
    std::uint64_t games = 0;
    int previous = 3;
    int maxMoves = 0;
    std::uint64_t benchSignature = 0;
};

// Submits one fixed-games test of the new version against each opponent: the ladder's last versions and
// its reference players (the ones given now, else the ones it had).
void ladderAdd(const LadderOptions& o) {
    auto client = o.conn.open();
    auto earlier = coordinatorTests(*client, o.ladder);
    std::vector<v1::EngineSpec> versions, references;
    auto known = [](const std::vector<v1::EngineSpec>& list, const std::string& name) {
        return std::any_of(list.begin(), list.end(),
                           [&](const v1::EngineSpec& e) { return e.name() == name; });
    };
    for (const auto& v : earlier)
        if (!known(versions, v.spec().match().dev().name())) versions.push_back(v.spec().match().dev());
    for (const auto& v : earlier)
        if (!known(versions, v.spec().match().base().name()) &&
            !known(references, v.spec().match().base().name()))
            references.push_back(v.spec().match().base());
    if (known(versions, o.version))
        throw std::invalid_argument("the ladder has a version '" + o.version + "' already");

    // A ladder rates versions on one game, board and book: a version that played another would be rated from
    // games of another kind. Later versions take the ladder's game and board when they give none.
    std::string game = o.game, board = o.board;
    if (!earlier.empty()) {
        const v1::MatchSpec& m = earlier.front().spec().match();
        const std::string ladderGame = m.game().empty() ? "xiangqi" : m.game();
        if (game.empty()) game = ladderGame;
        if (game != ladderGame)
            throw std::invalid_argument("the ladder '" + o.ladder + "' plays " + ladderGame + ", not " +
                                        game + " (--game)");
        if (game == "capturego") {
            if (board.empty()) board = m.board();
            const std::string asked =
                xq::games::captureGoSettingsText(xq::games::parseCaptureGoSettings(board, "--board"));
            if (asked != m.board())
                throw std::invalid_argument("the ladder '" + o.ladder + "' plays on the board " + m.board() +
                                            ", not " + asked + " (--board)");
        }
    }
    if (game.empty()) game = "xiangqi";
    if (!board.empty() && game != "capturego")
        throw std::invalid_argument("--board is Capture Go's; this ladder plays " + game);

    xq::coord::SubmissionOptions sub;
    sub.game = game;
    sub.board = board;
    sub.each = o.each;
    sub.games = o.games;
    sub.maxMoves = o.maxMoves;
    sub.dev.name = o.version;
    sub.dev.benchSignature = o.benchSignature;
    sub.dev.settings = o.settings;
    sub.webhooks = o.webhooks;
    sub.openings = o.openings.empty() ? xq::coord::findDefaultOpenings(game) : o.openings;
    if (sub.openings.empty() && game == "capturego")
        std::cerr
            << "xq ladder: capturego has no default book (books are made for one board size): every pair "
               "starts from the empty board; give --openings FILE of position texts\n";
    std::string tmpl = (std::filesystem::temp_directory_path() / "xq-ladder-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("cannot make a temporary directory");
    std::shared_ptr<void> cleanup(nullptr, [tmpl](void*) {
        std::error_code ec;
        std::filesystem::remove_all(tmpl, ec);
    });
    if (!o.repo.empty()) {
        sub.repo = o.repo, sub.buildCommand = o.build, sub.binaryPath = o.binary;
        sub.dev.ref = o.ref, sub.base.ref = o.ref;  // base is replaced per opponent below
        xq::coord::prepareSources(sub, tmpl);
        sub.dev.name = o.version;
    } else {
        sub.dev.path = o.engine;
    }
    // Opponents given now as engines (uploaded), or stored engine specs (earlier versions, references).
    std::vector<std::pair<std::string, v1::EngineSpec>> opponents;
    std::vector<xq::coord::EngineChoice> fresh;
    for (const auto& r : o.references) fresh.push_back(parseReference(r));
    int start = std::max(0, int(versions.size()) - o.previous);
    for (int i = start; i < int(versions.size()); ++i)
        opponents.push_back({versions[std::size_t(i)].name(), versions[std::size_t(i)]});
    if (fresh.empty())
        for (const auto& r : references) opponents.push_back({r.name(), r});
    if (opponents.empty() && fresh.empty())
        throw std::invalid_argument("a new ladder needs at least one --reference player");
    auto submitAgainst = [&](xq::coord::SubmissionOptions s, const v1::EngineSpec* stored) {
        if (stored) {
            s.base = s.dev;  // uploaded and valid; replaced by the stored spec below
            s.base.name = stored->name();
        }
        v1::SubmitRequest req;
        *req.mutable_spec() = xq::coord::buildTestSpec(s);
        if (stored) *req.mutable_spec()->mutable_match()->mutable_base() = *stored;
        if (!earlier.empty() &&
            req.spec().match().openings_sha256() != earlier.front().spec().match().openings_sha256())
            throw std::invalid_argument(
                "the ladder '" + o.ladder +
                "' plays from another book than this version's (--openings): its ratings "
                "would mix the two; start a new ladder for a new book");
        req.mutable_spec()->set_ladder(o.ladder);
        req.mutable_spec()->set_description("ladder " + o.ladder + ": " + o.version + " vs " +
                                            req.spec().match().base().name());
        client->upload(s.dev.fromSource() ? s.dev.sourceArchive : s.dev.path);
        if (!stored) client->upload(s.base.path);
        if (!s.openings.empty()) client->upload(s.openings);
        v1::SubmitResponse resp;
        auto ctx = client->context(60);
        xq::coord::check(client->user().SubmitTest(ctx.get(), req, &resp), "submit");
        std::cout << "test " << resp.test_id() << ": " << o.version << " vs "
                  << req.spec().match().base().name() << "\n";
        if (resp.state() == v1::TEST_STATE_PENDING)
            std::cerr << "xq ladder: " << xq::coord::pendingHint(resp.test_id()) << "\n";
    };
    for (const auto& r : fresh) {
        auto s = sub;
        s.base = r;
        submitAgainst(s, nullptr);
    }
    for (const auto& [name, spec] : opponents) submitAgainst(sub, &spec);
}

xq::cli::RegisterCommand ladderCommand([](CLI::App& app) {
    auto* ladder = app.add_subcommand("ladder", "an engine's versions rated against fixed reference players");
    ladder->require_subcommand(1);
    auto* add = ladder->add_subcommand(
        "add",
        "submit a new version of the ladder: fixed games against its last versions and its references");
    auto o = std::make_shared<LadderOptions>();
    o->conn.addOptions(add);
    add->add_option("ladder", o->ladder, "the ladder's name")->required();
    add->add_option("--version", o->version, "the new version's name, e.g. v2.1 or a date")->required();
    add->add_option("--engine", o->engine, "the new version's executable");
    add->add_option("--repo", o->repo,
                    "or: a git repository whose --ref workers build (see xq submit --repo)");
    add->add_option("--ref", o->ref, "with --repo: the version's ref");
    add->add_option("--build", o->build, "with --repo: the build command");
    add->add_option("--binary", o->binary, "with --repo: the executable the build leaves");
    add->add_option(
        "--reference", o->references,
        "a reference player, e.g. name=fairy,cmd=/usr/games/fairy-stockfish,proto=fairy,option.Skill "
        "Level=5 (repeatable; once given, later versions reuse them)");
    add->add_option("--previous", o->previous, "earlier versions each new one plays (default 3)");
    add->add_option("--games", o->games, "games against each opponent")->required();
    add->add_option("--each", o->each, "the ladder's fixed settings for every engine, e.g. tc=10+0.1")
        ->required();
    add->add_option("--max-moves", o->maxMoves, "adjudicate a draw after this many moves per side");
    add->add_option("--bench-signature", o->benchSignature, "the version's bench node count (0: unchecked)");
    add->add_option(
        "--webhook", o->webhooks,
        "URL[,format=json|content|text] told when each of the version's tests starts, finishes or "
        "fails, as xq submit --webhook (repeatable)");
    add->add_option("--option", o->settings,
                    "a setting of the new version only, e.g. args=--level 3 or option.Hash=64 (repeatable)");
    add->add_option("--game", o->game,
                    "xiangqi (default), chess or capturego; later versions take the ladder's when not given");
    add->add_option("--board", o->board,
                    "capturego: the board, as xq submit --board reads it (size=6,rules=capture,target=1); "
                    "later versions take the ladder's");
    add->add_option("--openings", o->openings,
                    "the book every version plays from (default: the game's; capturego has none)");
    add->callback([o] {
        if (o->engine.empty() == o->repo.empty())
            throw CLI::ValidationError("xq ladder add", "give --engine or --repo");
        try {
            ladderAdd(*o);
        } catch (const std::invalid_argument& e) {
            std::cerr << "xq ladder add: " << e.what() << "\n";
            throw xq::cli::ExitCode{2};
        }
    });
});

xq::cli::RegisterCommand registerRate([](CLI::App& app) {
    auto* sub = app.add_subcommand(
        "rate", "ratings of all players of a set of games (maximum likelihood, 95% intervals), grade points");
    auto o = std::make_shared<RateOptions>();
    sub->add_option("files", o->files,
                    "PGN files (.pgn, .pgn.gz), SGF files (.sgf, .sgf.gz; Capture Go and Go) and `xq match "
                    "--json` reports (.json); other names are told by their first character");
    o->conn.addOptions(sub);
    sub->add_flag("--tests", o->fromCoordinator,
                  "rate the coordinator's match tests that ended, players named name@build");
    sub->add_option("--ladder", o->ladder, "rate one ladder's versions (`xq ladder add`) on the coordinator");
    sub->add_option("--anchor", o->anchor, "player whose rating is --anchor-elo (default: the mean)");
    sub->add_option("--anchor-elo", o->anchorElo, "the anchor's rating (default 0)");
    sub->add_flag("--grades", o->grades, "the seeds' grade points over the games in order");
    sub->add_flag("--no-advantage", o->noAdvantage, "fit no first-mover advantage");
    sub->add_flag("--json", o->json, "{\"players\": [{name, games, score, elo, low, high}, ...]}");
    sub->callback([o] {
        if (o->files.empty() && !o->fromCoordinator && o->ladder.empty())
            throw CLI::ValidationError("xq rate", "give PGN or JSON files, --tests or --ladder NAME");
        try {
            rate(*o);
        } catch (const std::invalid_argument& e) {
            std::cerr << "xq rate: " << e.what() << "\n";
            throw xq::cli::ExitCode{2};
        }
    });
});

}  // namespace
