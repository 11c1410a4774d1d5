#include "submission.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "artifact_check.h"
#include "board.h"
#include "capturego_settings.h"
#include "engine_settings.h"
#include "errors.h"
#include "git_source.h"
#include "net_file.h"
#include "openings.h"
#include "util/sha256.h"
#include "webhook.h"
#include "xiangqi/rules.h"

namespace xq::coord {

namespace fs = std::filesystem;
namespace v1 = xq::v1;

namespace {

// Applies `key=value` settings to an engine spec (engine_settings.h: a later value of a key replaces an
// earlier one). The binary is the submitted file, so cmd= is no setting here.
void applySettings(v1::EngineSpec& e, xq::match::EngineSettings& settings,
                   const std::vector<std::string>& tokens, const std::string& flag) {
    xq::match::applyEngineSettings(settings, tokens, flag, {"name", "args", "proto"});
    if (settings.name) e.set_name(*settings.name);
    if (settings.protocol) e.set_protocol(*settings.protocol);
    if (settings.args) {
        e.clear_args();
        for (const auto& a : *settings.args) e.add_args(a);
    }
    e.clear_options();
    for (const auto& [name, value] : settings.options) (*e.mutable_options())[name] = value;
    e.set_tc(settings.timeSpec());
}

// The hash of a network file the engine's reader accepts; throws std::invalid_argument naming the file.
std::string hashNetwork(const std::string& path, const char* role) {
    if (!fs::is_regular_file(path))
        throw std::invalid_argument(std::string(role) + " network '" + path + "' is not a file");
    if (std::string problem = networkFileProblem(path); !problem.empty())
        throw std::invalid_argument(std::string(role) + " network '" + path + "': " + problem);
    return sha256File(path);
}

// The engine's hashes from its files.
void hashEngineFiles(const EngineChoice& c, const char* role, std::string& binary, std::string& weights,
                     std::string& net) {
    if (!c.weights.empty()) weights = sha256File(c.weights);
    if (!c.net.empty()) net = hashNetwork(c.net, role);
    if (c.fromSource()) {
        binary = sha256File(c.sourceArchive);
        return;
    }
    if (c.path.empty()) throw std::invalid_argument(std::string("no ") + role + " engine given");
    if (!fs::is_regular_file(c.path))
        throw std::invalid_argument(std::string(role) + " engine '" + c.path + "' is not a file");
    if (access(c.path.c_str(), X_OK) != 0)
        throw std::invalid_argument(std::string(role) + " engine '" + c.path + "' is not executable");
    binary = sha256File(c.path);
}

v1::EngineSpec engineSpec(const EngineChoice& c, const std::vector<std::string>& each, const char* role,
                          const std::string& binary, const std::string& weights, const std::string& net,
                          const SubmissionOptions& o) {
    if (binary.empty()) throw std::invalid_argument(std::string("no ") + role + " engine given");
    v1::EngineSpec e;
    e.set_name(c.name.empty() ? role : c.name);
    if (c.fromSource()) {
        auto* src = e.mutable_source();
        src->set_source_sha256(binary);
        src->set_commit(c.commit);
        src->set_subject(c.subject.substr(0, 500));
        src->set_author(c.author.substr(0, 300));
        src->set_ref(c.ref.substr(0, 300));
        src->set_repository(c.repository.substr(0, 2000));
        src->set_build_command(o.buildCommand.empty() ? DefaultBuildCommand : o.buildCommand);
        src->set_binary_path(o.binaryPath.empty() ? DefaultBinaryPath : o.binaryPath);
    } else {
        e.set_binary_sha256(binary);
    }
    if (!weights.empty()) e.set_weights_sha256(weights);
    if (!net.empty()) {
        if (o.game == "chess")
            throw std::invalid_argument(std::string(role) + " network: networks are Xiangqi's");
        e.set_net_sha256(net);
    }
    for (const auto& a : c.args) e.add_args(a);
    xq::match::EngineSettings settings;
    applySettings(e, settings, each, "--each");
    applySettings(e, settings, c.settings, std::string("--") + role + "-option");
    if (e.tc().empty())
        throw std::invalid_argument(std::string(role) +
                                    " engine has no time control (e.g. --each tc=10+0.1 or nodes=5000)");
    return e;
}

}  // namespace

v1::SprtSpec parseSprt(const std::string& text, const std::string& flag) {
    auto c = xq::match::parseSprtSettings({text}, flag);
    v1::SprtSpec s;
    s.set_elo0(c.elo0);
    s.set_elo1(c.elo1);
    s.set_alpha(c.alpha);
    s.set_beta(c.beta);
    s.set_model(xq::stats::toString(c.model));
    return s;
}

std::string findDefaultOpenings(const std::string& game) {
    if (game == "capturego") return {};
    const bool chess = game == "chess";
    if (const char* env = std::getenv(chess ? "XQ_CHESS_OPENINGS" : "XQ_OPENINGS"); env && *env) return env;
    const std::string prefix = chess ? "chess-" : "xq-";
    std::vector<fs::path> roots;
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        roots.push_back(exe.parent_path().parent_path().parent_path() / "data" / "openings");  // build/bin
        roots.push_back(exe.parent_path().parent_path() / "share" / "xq" / "openings");        // installed
    }
    roots.push_back(fs::current_path() / "data" / "openings");
    for (const auto& root : roots) {
        if (!fs::is_directory(root, ec)) continue;
        std::vector<fs::path> books;
        for (const auto& entry : fs::directory_iterator(root, ec))
            if (entry.path().extension() == ".epd" && entry.path().filename().string().rfind(prefix, 0) == 0)
                books.push_back(entry.path());
        std::sort(books.begin(), books.end());
        if (!books.empty()) return books.front().string();
    }
    return {};
}

v1::TestSpec buildTestSpec(const SubmissionOptions& o) {
    ArtifactHashes h;
    hashEngineFiles(o.base, "base", h.base, h.baseWeights, h.baseNet);
    hashEngineFiles(o.dev, "dev", h.dev, h.devWeights, h.devNet);
    if (!o.openings.empty()) {
        if (!fs::is_regular_file(o.openings))
            throw std::invalid_argument("openings file '" + o.openings + "' not found");
        // Read here as the coordinator will, so that a bad line or a book of the other game is named by
        // its own path before anything is uploaded.
        if (const auto game = games::parseGame(o.game)) {
            const auto board = *game == games::Game::CaptureGo
                                   ? games::parseCaptureGoSettings(o.board, o.boardName)
                                   : games::CaptureGoSettings{};
            try {
                const auto book = match::loadOpenings(o.openings, *game);
                if (*game == games::Game::CaptureGo) {
                    for (std::size_t i = 0; i < book.size(); ++i) {
                        try {
                            games::captureGoOpeningText(board, book[i].fen);
                        } catch (const std::invalid_argument& e) {
                            throw std::invalid_argument(o.openings + ": opening " + std::to_string(i + 1) +
                                                        ": " + e.what());
                        }
                    }
                }
            } catch (const std::exception& e) {
                throw std::invalid_argument(std::string("openings (") + games::gameName(*game) +
                                            "): " + e.what());
            }
        }
        h.openings = sha256File(o.openings);
    }
    v1::TestSpec spec = buildTestSpec(o, h);
    addWebhooks(spec, o.webhooks);
    if (o.description.empty())
        spec.set_description(o.dev.fromSource() ? o.dev.subject : o.dev.path + " vs " + o.base.path);
    return spec;
}

void addWebhooks(v1::TestSpec& spec, const std::vector<std::string>& webhooks) {
    for (const auto& text : webhooks) {
        Webhook w;
        try {
            w = parseWebhookOption(text);
        } catch (const CoordError& e) {
            throw std::invalid_argument(e.what());
        }
        auto* out = spec.add_webhooks();
        out->set_url(w.url);
        out->set_format(webhookFormatName(w.format));
    }
}

void prepareSources(SubmissionOptions& o, const std::string& scratchDir) {
    std::string repo = localRepository(o.repo, scratchDir);
    const std::string shown = repositoryUrl(o.repo);
    for (auto [engine, role] : {std::pair{&o.base, "base"}, std::pair{&o.dev, "dev"}}) {
        if (engine->ref.empty()) throw std::invalid_argument(std::string("no ") + role + " ref given");
        CommitInfo info = resolveCommit(repo, engine->ref);
        engine->commit = info.commit;
        engine->subject = info.subject;
        engine->author = info.author;
        engine->repository = shown;
        // A commit's "Bench:" line is the Xiangqi engine's; a GTP engine (Capture Go) has no bench to check.
        if (engine->benchSignature == 0 && o.game != "capturego") engine->benchSignature = info.bench;
        engine->sourceArchive = scratchDir + "/" + role + "-" + info.commit.substr(0, 12) + ".tar.gz";
        archiveCommit(repo, info.commit, engine->sourceArchive);
        if (engine->name.empty()) engine->name = role;
    }
}

v1::TestSpec buildTestSpec(const SubmissionOptions& o, const ArtifactHashes& h) {
    v1::TestSpec spec;
    auto* m = spec.mutable_match();
    *m->mutable_base() = engineSpec(o.base, o.each, "base", h.base, h.baseWeights, h.baseNet, o);
    *m->mutable_dev() = engineSpec(o.dev, o.each, "dev", h.dev, h.devWeights, h.devNet, o);
    m->set_openings_sha256(h.openings);
    if (o.concurrencyPerWorker < 0) throw std::invalid_argument("concurrency must be positive");
    m->set_concurrency_per_worker(std::uint32_t(o.concurrencyPerWorker));
    m->set_resign_score(o.resignScore);
    m->set_resign_moves(o.resignMoves);
    m->set_draw_score(o.drawScore);
    m->set_draw_moves(o.drawMoves);
    m->set_draw_move_number(o.drawMoveNumber);
    m->set_max_moves(o.maxMoves);
    const auto game = games::parseGame(o.game);
    if (!game)
        throw std::invalid_argument("game: unknown game '" + o.game + "' (" + games::gameChoices() + ")");
    const auto rules = parseRuleSet(o.rules);
    if (!rules) throw std::invalid_argument("rules: unknown rule set '" + o.rules + "' (asian or chinese)");
    if (!o.board.empty() && *game != games::Game::CaptureGo)
        throw std::invalid_argument(o.boardName + " is Capture Go's (size, rules, target, komi): give " +
                                    (o.boardName == "--board" ? "--game capturego" : "the game Capture Go"));
    if (*game == games::Game::CaptureGo) {
        if (*rules != RuleSet::ASIAN)
            throw std::invalid_argument("rules: '" + o.rules +
                                        "' is a Xiangqi rule set; capturego takes its rules from " +
                                        o.boardName + " (rules=capture|go)");
        m->set_game(games::gameName(*game));
        m->set_board(games::captureGoSettingsText(games::parseCaptureGoSettings(o.board, o.boardName)));
        // GTP is Capture Go's protocol: the default for its engines (the coordinator refuses any other).
        for (auto* e : {m->mutable_base(), m->mutable_dev()}) {
            if (e->protocol().empty()) e->set_protocol("gtp");
            if (!e->options().empty())
                throw std::invalid_argument((e == m->mutable_base() ? "base" : "dev") +
                                            std::string(" option '") + e->options().begin()->first +
                                            "': GTP engines take no options; give them as args=...");
        }
    } else if (*game == games::Game::Chess) {
        // Chess is judged by FIDE's rules alone: a Xiangqi rule set other than the default is a mistake.
        if (*rules != RuleSet::ASIAN)
            throw std::invalid_argument("rules: '" + o.rules +
                                        "' is a Xiangqi rule set; chess has FIDE's rules only");
        m->set_game(games::gameName(*game));
    } else {
        m->set_rules(ruleSetName(*rules));
    }
    m->mutable_base()->set_bench_signature(o.base.benchSignature);
    m->mutable_dev()->set_bench_signature(o.dev.benchSignature);
    m->set_reference_nps(o.referenceNps);
    if (!o.sprt.empty())
        *spec.mutable_sprt() = parseSprt(o.sprt);
    else if (o.games == 0)
        throw std::invalid_argument("give --games N or --sprt elo0=A,elo1=B");
    spec.set_games(o.games);
    spec.set_priority(o.priority);
    spec.set_throughput(o.throughput);
    spec.set_description(o.description.empty() ? m->dev().name() + " vs " + m->base().name() : o.description);
    return spec;
}

SubmittedTest submitTest(Client& client, const SubmissionOptions& options) {
    v1::SubmitRequest req;
    *req.mutable_spec() = buildTestSpec(options);
    // The hashes in the spec were computed from these same files just now.
    // Each file says what it is, and the coordinator checks it (artifact_check.h) before the test names it.
    for (const auto* e : {&options.base, &options.dev}) {
        if (e->fromSource())
            client.upload(e->sourceArchive);
        else
            client.upload(e->path, ArtifactKindEngine);
    }
    if (!options.base.weights.empty()) client.upload(options.base.weights, ArtifactKindWeights);
    if (!options.dev.weights.empty()) client.upload(options.dev.weights, ArtifactKindWeights);
    if (!options.base.net.empty()) client.upload(options.base.net, ArtifactKindNet);
    if (!options.dev.net.empty()) client.upload(options.dev.net, ArtifactKindNet);
    if (!options.openings.empty()) client.upload(options.openings, ArtifactKindOpenings);
    v1::SubmitResponse resp;
    auto ctx = client.context(60);
    check(client.user().SubmitTest(ctx.get(), req, &resp), "submit");
    return submitted(resp);
}

}  // namespace xq::coord
