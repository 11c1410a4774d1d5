#include "submission.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "git_source.h"
#include "rules.h"
#include "sha256.h"

namespace xq::coord {

namespace fs = std::filesystem;
namespace v1 = xq::v1;

namespace {

std::vector<std::string> splitSettings(const std::string& text) {
    std::string s = text;
    std::vector<std::string> out;
    std::istringstream in(s);
    std::string item;
    while (in >> item) out.push_back(item);
    return out;
}

// Applies `key=value` settings to an engine spec; time-control keys accumulate into the tc string.
void applySettings(v1::EngineSpec& e, const std::vector<std::string>& settings) {
    std::string tc = e.tc();
    for (const auto& raw : settings) {
        // Engine option names may hold spaces ("option.Skill Level=10"): such a setting is taken whole.
        auto items = raw.rfind("option.", 0) == 0 ? std::vector<std::string>{raw} : splitSettings(raw);
        for (const auto& item : items) {
            auto eq = item.find('=');
            if (eq == std::string::npos || eq == 0)
                throw std::invalid_argument("setting '" + item + "' is not of the form key=value");
            std::string key = item.substr(0, eq), value = item.substr(eq + 1);
            if (key == "tc" || key == "st" || key == "nodes" || key == "depth" || key == "margin" ||
                key == "timemargin") {
                // A later setting of the same key replaces an earlier one.
                std::vector<std::string> kept;
                for (const auto& old : splitSettings(tc))
                    if (old.rfind(key + "=", 0) != 0) kept.push_back(old);
                kept.push_back(key + "=" + value);
                tc.clear();
                for (const auto& k : kept) tc += (tc.empty() ? "" : " ") + k;
            } else if (key.rfind("option.", 0) == 0 && key.size() > 7) {
                (*e.mutable_options())[key.substr(7)] = value;
            } else if (key == "proto") {
                e.set_protocol(value);
            } else if (key == "name") {
                e.set_name(value);
            } else {
                throw std::invalid_argument(
                    "unknown engine setting '" + key +
                    "' (expected tc, st, nodes, depth, margin, option.NAME, proto, name)");
            }
        }
    }
    e.set_tc(tc);
}

// The engine's hashes from its files.
void hashEngineFiles(const EngineChoice& c, const char* role, std::string& binary, std::string& weights) {
    if (!c.weights.empty()) weights = sha256File(c.weights);
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
                          const std::string& binary, const std::string& weights, const SubmissionOptions& o) {
    if (binary.empty()) throw std::invalid_argument(std::string("no ") + role + " engine given");
    v1::EngineSpec e;
    e.set_name(c.name.empty() ? role : c.name);
    if (c.fromSource()) {
        auto* src = e.mutable_source();
        src->set_source_sha256(binary);
        src->set_commit(c.commit);
        src->set_subject(c.subject.substr(0, 500));
        src->set_build_command(o.buildCommand.empty() ? DefaultBuildCommand : o.buildCommand);
        src->set_binary_path(o.binaryPath.empty() ? DefaultBinaryPath : o.binaryPath);
    } else {
        e.set_binary_sha256(binary);
    }
    if (!weights.empty()) e.set_weights_sha256(weights);
    for (const auto& a : c.args) e.add_args(a);
    applySettings(e, each);
    applySettings(e, c.settings);
    if (e.tc().empty())
        throw std::invalid_argument(std::string(role) +
                                    " engine has no time control (e.g. --each tc=10+0.1 or nodes=5000)");
    return e;
}

}  // namespace

v1::SprtSpec parseSprt(const std::string& text) {
    v1::SprtSpec s;
    bool has0 = false, has1 = false;
    std::string t = text;
    std::replace(t.begin(), t.end(), ',', ' ');
    for (const auto& item : splitSettings(t)) {
        auto eq = item.find('=');
        if (eq == std::string::npos)
            throw std::invalid_argument("SPRT setting '" + item + "' is not key=value");
        std::string key = item.substr(0, eq), value = item.substr(eq + 1);
        if (key == "model") {
            s.set_model(value);
            continue;
        }
        double v;
        try {
            std::size_t used = 0;
            v = std::stod(value, &used);
            if (used != value.size()) throw std::invalid_argument("");
        } catch (const std::exception&) {
            throw std::invalid_argument("SPRT setting '" + key + "' needs a number, got '" + value + "'");
        }
        if (key == "elo0")
            s.set_elo0(v), has0 = true;
        else if (key == "elo1")
            s.set_elo1(v), has1 = true;
        else if (key == "alpha")
            s.set_alpha(v);
        else if (key == "beta")
            s.set_beta(v);
        else
            throw std::invalid_argument("unknown SPRT setting '" + key +
                                        "' (expected elo0, elo1, alpha, beta, model)");
    }
    if (!has0 || !has1)
        throw std::invalid_argument("an SPRT needs elo0= and elo1=, e.g. --sprt elo0=0,elo1=5");
    return s;
}

std::string findDefaultOpenings() {
    if (const char* env = std::getenv("XQ_OPENINGS"); env && *env) return env;
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
            if (entry.path().extension() == ".epd") books.push_back(entry.path());
        std::sort(books.begin(), books.end());
        if (!books.empty()) return books.front().string();
    }
    return {};
}

v1::TestSpec buildTestSpec(const SubmissionOptions& o) {
    ArtifactHashes h;
    hashEngineFiles(o.base, "base", h.base, h.baseWeights);
    hashEngineFiles(o.dev, "dev", h.dev, h.devWeights);
    if (!o.openings.empty()) {
        if (!fs::is_regular_file(o.openings))
            throw std::invalid_argument("openings file '" + o.openings + "' not found");
        h.openings = sha256File(o.openings);
    }
    v1::TestSpec spec = buildTestSpec(o, h);
    if (o.description.empty())
        spec.set_description(o.dev.fromSource() ? o.dev.subject : o.dev.path + " vs " + o.base.path);
    return spec;
}

void prepareSources(SubmissionOptions& o, const std::string& scratchDir) {
    std::string repo = localRepository(o.repo, scratchDir);
    for (auto [engine, role] : {std::pair{&o.base, "base"}, std::pair{&o.dev, "dev"}}) {
        if (engine->ref.empty()) throw std::invalid_argument(std::string("no ") + role + " ref given");
        CommitInfo info = resolveCommit(repo, engine->ref);
        engine->commit = info.commit;
        engine->subject = info.subject;
        if (engine->benchSignature == 0) engine->benchSignature = info.bench;
        engine->sourceArchive = scratchDir + "/" + role + "-" + info.commit.substr(0, 12) + ".tar.gz";
        archiveCommit(repo, info.commit, engine->sourceArchive);
        if (engine->name.empty()) engine->name = role;
    }
}

v1::TestSpec buildTestSpec(const SubmissionOptions& o, const ArtifactHashes& h) {
    v1::TestSpec spec;
    auto* m = spec.mutable_match();
    *m->mutable_base() = engineSpec(o.base, o.each, "base", h.base, h.baseWeights, o);
    *m->mutable_dev() = engineSpec(o.dev, o.each, "dev", h.dev, h.devWeights, o);
    m->set_openings_sha256(h.openings);
    if (o.concurrencyPerWorker < 0) throw std::invalid_argument("concurrency must be positive");
    m->set_concurrency_per_worker(std::uint32_t(o.concurrencyPerWorker));
    m->set_resign_score(o.resignScore);
    m->set_resign_moves(o.resignMoves);
    m->set_draw_score(o.drawScore);
    m->set_draw_moves(o.drawMoves);
    m->set_draw_move_number(o.drawMoveNumber);
    m->set_max_moves(o.maxMoves);
    const auto rules = parseRuleSet(o.rules);
    if (!rules) throw std::invalid_argument("rules: unknown rule set '" + o.rules + "' (asian or chinese)");
    m->set_rules(ruleSetName(*rules));
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

std::uint64_t submitTest(Client& client, const SubmissionOptions& options) {
    v1::SubmitRequest req;
    *req.mutable_spec() = buildTestSpec(options);
    // The hashes in the spec were computed from these same files just now.
    client.upload(options.base.fromSource() ? options.base.sourceArchive : options.base.path);
    client.upload(options.dev.fromSource() ? options.dev.sourceArchive : options.dev.path);
    if (!options.base.weights.empty()) client.upload(options.base.weights);
    if (!options.dev.weights.empty()) client.upload(options.dev.weights);
    if (!options.openings.empty()) client.upload(options.openings);
    v1::SubmitResponse resp;
    auto ctx = client.context(60);
    check(client.user().SubmitTest(ctx.get(), req, &resp), "submit");
    return resp.test_id();
}

}  // namespace xq::coord
