#include "spsa_submission.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "artifact_check.h"
#include "util/text.h"

namespace xq::coord {

namespace v1 = xq::v1;

namespace {

double number(const std::string& text, const std::string& where, const char* what) {
    try {
        std::size_t used = 0;
        double v = std::stod(text, &used);
        if (used == text.size() && std::isfinite(v)) return v;
    } catch (const std::exception&) {
    }
    throw std::invalid_argument(where + ": " + what + " must be a number, got '" + text + "'");
}

std::string compact(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
}

}  // namespace

std::vector<v1::SpsaParam> readSpsaParams(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::invalid_argument("cannot read the parameters file '" + path + "'");
    std::vector<v1::SpsaParam> out;
    std::string line;
    for (int number_ = 1; std::getline(in, line); ++number_) {
        line = trim(line.substr(0, line.find('#')));
        if (line.empty()) continue;
        const std::string where = path + ":" + std::to_string(number_);
        std::vector<std::string> fields;
        std::stringstream split(line);
        for (std::string f; std::getline(split, f, ',');) fields.push_back(trim(f));
        if (fields.size() != 6)
            throw std::invalid_argument(where + ": expected name,start,min,max,c_end,r_end, got '" + line +
                                        "'");
        v1::SpsaParam p;
        p.set_name(fields[0]);
        p.set_start(number(fields[1], where, "start"));
        p.set_min(number(fields[2], where, "min"));
        p.set_max(number(fields[3], where, "max"));
        p.set_c_end(number(fields[4], where, "c_end"));
        p.set_r_end(number(fields[5], where, "r_end"));
        if (p.name().empty()) throw std::invalid_argument(where + ": the parameter has no name");
        out.push_back(p);
    }
    if (out.empty()) throw std::invalid_argument("the parameters file '" + path + "' names no parameter");
    return out;
}

v1::TestSpec buildSpsaSpec(const SpsaSubmission& s) {
    if (s.pairs == 0) throw std::invalid_argument("give --pairs N (iterations, two games each)");
    if (!std::filesystem::is_regular_file(s.engine.path))
        throw std::invalid_argument("engine '" + s.engine.path + "' is not a file");
    SubmissionOptions o;
    o.base = o.dev = s.engine;
    if (o.dev.name.empty())
        o.base.name = o.dev.name = std::filesystem::path(s.engine.path).filename().string();
    o.each = s.each;
    o.openings = s.openings;
    o.games = 2 * s.pairs;
    o.rules = s.rules;
    o.game = s.game;
    o.maxMoves = s.maxMoves;
    o.concurrencyPerWorker = s.concurrencyPerWorker;
    v1::TestSpec match = buildTestSpec(o);
    v1::TestSpec spec;
    auto* sp = spec.mutable_spsa();
    *sp->mutable_match() = match.match();
    for (const auto& p : readSpsaParams(s.paramsFile)) *sp->add_params() = p;
    sp->set_alpha(s.alpha);
    sp->set_gamma(s.gamma);
    if (s.A) sp->set_a(*s.A);
    spec.set_games(2 * s.pairs);
    spec.set_priority(s.priority);
    spec.set_throughput(s.throughput);
    std::string names;
    for (const auto& p : sp->params()) names += (names.empty() ? "" : ", ") + p.name();
    spec.set_description(s.description.empty() ? "spsa of " + names : s.description);
    addWebhooks(spec, s.webhooks);
    return spec;
}

SubmittedTest submitSpsa(Client& client, const SpsaSubmission& s) {
    v1::SubmitRequest req;
    *req.mutable_spec() = buildSpsaSpec(s);
    client.upload(s.engine.path, ArtifactKindEngine);
    if (!s.engine.weights.empty()) client.upload(s.engine.weights, ArtifactKindWeights);
    if (!s.engine.net.empty()) client.upload(s.engine.net, ArtifactKindNet);
    if (!s.openings.empty()) client.upload(s.openings, ArtifactKindOpenings);
    v1::SubmitResponse resp;
    auto ctx = client.context(60);
    check(client.user().SubmitTest(ctx.get(), req, &resp), "submit");
    return submitted(resp);
}

std::string spsaOptionsFile(const v1::TestView& view) {
    if (!view.spec().has_spsa())
        throw std::invalid_argument("test " + std::to_string(view.summary().id()) + " is a " +
                                    view.summary().kind() + " test, not an SPSA test");
    const auto& sp = view.spec().spsa();
    const auto& now = view.summary().spsa();
    std::ostringstream out;
    out << "# SPSA test " << view.summary().id() << " after " << now.iterations() << " of "
        << now.iterations_target() << " iterations (" << view.summary().description() << ")\n";
    for (int i = 0; i < sp.params_size() && i < now.params_size(); ++i) {
        const auto& p = sp.params(i);
        out << p.name() << "," << std::llround(now.params(i).value()) << "," << compact(p.min()) << ","
            << compact(p.max()) << "," << compact(p.c_end()) << "," << compact(p.r_end()) << "\n";
    }
    return out.str();
}

}  // namespace xq::coord
