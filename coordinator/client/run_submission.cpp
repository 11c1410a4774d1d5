#include "run_submission.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "artifact_check.h"
#include "engine_settings.h"
#include "net_file.h"
#include "program_output.h"
#include "util/sha256.h"
#include "util/text.h"

namespace xq::coord {

namespace fs = std::filesystem;
namespace v1 = xq::v1;

namespace {

bool isSha256(const std::string& text) {
    if (text.size() != 64) return false;
    for (char c : text)
        if (!std::isxdigit(static_cast<unsigned char>(c)) || std::isupper(static_cast<unsigned char>(c)))
            return false;
    return true;
}

// A network file the engine's reader accepts; throws naming the flag.
void checkNetworkFile(const std::string& path, const std::string& flag) {
    if (std::string problem = networkFileProblem(path); !problem.empty())
        throw std::invalid_argument(flag + ": network file '" + path + "': " + problem);
}

// The gate's time control from --gate: time keys only (the engines and their options are the run's).
std::string gateTimeControl(const std::string& text) {
    xq::match::EngineSettings settings;
    xq::match::applyEngineSettings(settings, {text}, "--gate", {});
    if (!settings.options.empty())
        throw std::invalid_argument(
            "--gate: '" + settings.options.front().first +
            "' is an engine option: the gate plays the run's engine with its --option "
            "settings; --gate takes the time control (tc=10+0.1, nodes=20000, ...)");
    std::string tc = settings.timeSpec();
    if (tc.empty()) throw std::invalid_argument("--gate: no time control (e.g. tc=10+0.1 or nodes=20000)");
    return tc;
}

// Where the run starts, into spec (and the file to upload, if any).
void resolveStart(const RunSubmission& s, const std::string& scratchDir, PreparedRun& run) {
    auto& spec = run.spec;
    if (s.start == "hce") {
        spec.set_start_hce(true);
        return;
    }
    std::string file;
    if (s.start == "shipped") {
        file = (fs::path(scratchDir) / "shipped.nnue").string();
        exportShippedNetwork(s.selfplay.engine, file);
    } else if (fs::is_regular_file(s.start)) {
        file = s.start;
    } else if (isSha256(s.start)) {
        spec.set_start_net_sha256(s.start);  // the coordinator says whether it holds such a network
        return;
    } else {
        throw std::invalid_argument("--start: '" + s.start +
                                    "' is none of shipped, hce, a network file or a network's SHA-256 "
                                    "(64 hex digits)");
    }
    checkNetworkFile(file, "--start");
    spec.set_start_net_sha256(sha256File(file));
    run.uploads.emplace_back(file, ArtifactKindNet);
}

}  // namespace

std::map<std::string, std::string> parseRecipe(const std::string& text) {
    std::map<std::string, std::string> recipe;
    std::size_t from = 0;
    while (from <= text.size()) {
        std::size_t comma = std::min(text.find(',', from), text.size());
        const std::string item = trim(text.substr(from, comma - from));
        from = comma + 1;
        if (item.empty()) continue;
        auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            throw std::invalid_argument("--train: expected name=value (e.g. hidden=128,epochs=4), got '" +
                                        item + "'");
        const std::string name = trim(item.substr(0, eq));
        if (!recipe.emplace(name, trim(item.substr(eq + 1))).second)
            throw std::invalid_argument("--train: '" + name + "' is given twice");
    }
    return recipe;
}

void exportShippedNetwork(const std::string& engine, const std::string& path) {
    ProgramResult r = runProgram({engine, "nnue", "export", path});
    if (r.code == 0 && fs::is_regular_file(path)) return;
    std::string said = trim(r.err.empty() ? r.out : r.err);
    if (said.size() > 300) said = said.substr(0, 300) + "...";
    throw std::invalid_argument(
        "--start shipped: the engine '" + engine + "' did not write its embedded network (`" + engine +
        " nnue export FILE` " +
        (r.code == 127 ? std::string("could not be run") : "exited with " + std::to_string(r.code)) +
        (said.empty() ? std::string() : ": " + said) +
        "); pass the network to start from as --start FILE (or --start hce)");
}

PreparedRun prepareRun(const RunSubmission& s, const std::string& scratchDir) {
    PreparedRun run;
    auto& spec = run.spec;
    if (s.selfplay.games < 2) throw std::invalid_argument("--games: a generation plays at least 2 games");
    if (s.selfplay.game != "xiangqi")
        throw std::invalid_argument("runs train the Xiangqi engine's network, not " + s.selfplay.game + "'s");
    // The self-play settings are a datagen test's (the engine checked and hashed there).
    v1::TestSpec datagen = buildDatagenSpec(s.selfplay);
    *spec.mutable_datagen() = datagen.datagen();
    spec.set_games_per_generation(s.selfplay.games);
    run.uploads.emplace_back(s.selfplay.engine, ArtifactKindEngine);
    if (!s.selfplay.weights.empty()) run.uploads.emplace_back(s.selfplay.weights, ArtifactKindWeights);

    resolveStart(s, scratchDir, run);
    if (!s.startCheckpoint.empty()) {
        if (!fs::is_regular_file(s.startCheckpoint))
            throw std::invalid_argument("--start-checkpoint: '" + s.startCheckpoint + "' is not a file");
        spec.set_start_checkpoint_sha256(sha256File(s.startCheckpoint));
        run.uploads.emplace_back(s.startCheckpoint, "");
    }
    for (const auto& [name, value] : parseRecipe(s.train)) (*spec.mutable_recipe())[name] = value;
    if (s.window > 1000) throw std::invalid_argument("--window: at most 1000 generations");
    spec.set_window(s.window);

    // The gate: a match as `xq submit` builds it (book, rules, adjudication checked there), with the run's
    // engine on both sides; the coordinator gives each side its network.
    const v1::SprtSpec sprt = parseSprt(s.gateSprt, "--gate-sprt");
    if (!(sprt.elo0() < sprt.elo1())) throw std::invalid_argument("--gate-sprt: elo0 must be below elo1");
    SubmissionOptions g = s.gateMatch;
    g.base = g.dev = EngineChoice{};
    g.base.path = g.dev.path = s.selfplay.engine;
    g.each = {gateTimeControl(s.gate)};
    g.sprt = s.gateSprt;
    g.games = s.gateGames;
    g.rules = s.selfplay.rules;
    g.game = "xiangqi";
    g.webhooks.clear();
    v1::TestSpec match = buildTestSpec(g);
    auto* gate = spec.mutable_gate();
    *gate = match.match();
    gate->clear_base();
    gate->clear_dev();
    gate->mutable_base()->set_tc(match.match().base().tc());
    *spec.mutable_gate_sprt() = sprt;
    spec.set_gate_games(s.gateGames);
    if (!g.openings.empty()) run.uploads.emplace_back(g.openings, ArtifactKindOpenings);

    spec.set_generations(s.generations);
    spec.set_max_failed_gates(s.maxFailedGates);
    spec.set_priority(s.selfplay.priority);
    spec.set_throughput(s.selfplay.throughput);
    spec.set_description(s.selfplay.description);
    v1::TestSpec hooks;
    addWebhooks(hooks, s.webhooks);
    *spec.mutable_webhooks() = hooks.webhooks();
    return run;
}

std::uint64_t submitRun(Client& client, const RunSubmission& s) {
    std::string scratch = (fs::temp_directory_path() / "xq-run-XXXXXX").string();
    if (!mkdtemp(scratch.data())) throw std::runtime_error("cannot make a temporary directory");
    struct Remove {
        std::string dir;
        ~Remove() {
            std::error_code ec;
            fs::remove_all(dir, ec);
        }
    } remove{scratch};
    PreparedRun run = prepareRun(s, scratch);
    for (const auto& [path, kind] : run.uploads) client.upload(path, kind);
    v1::SubmitRunRequest req;
    *req.mutable_spec() = run.spec;
    v1::SubmitRunResponse resp;
    auto ctx = client.context(60);
    check(client.runs().SubmitRun(ctx.get(), req, &resp), "submit run");
    return resp.run_id();
}

}  // namespace xq::coord
