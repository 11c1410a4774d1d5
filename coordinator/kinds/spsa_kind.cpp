#include "spsa_kind.h"

#include <cmath>
#include <set>

#include "coordinator_options.h"
#include "errors.h"
#include "match_kind.h"

namespace xq::coord {

namespace {

constexpr int MaxParams = 64;
constexpr double DefaultAlpha = 0.602, DefaultGamma = 0.101;

std::uint64_t splitmix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

std::string optionValue(double v) {
    return std::to_string(std::llround(v));
}

}  // namespace

stats::SpsaSchedule SpsaKind::schedule(const v1::SpsaSpec& spsa, std::int64_t iterations) {
    stats::SpsaSchedule s;
    s.iterations = iterations;
    s.alpha = spsa.alpha() > 0 ? spsa.alpha() : DefaultAlpha;
    s.gamma = spsa.gamma() > 0 ? spsa.gamma() : DefaultGamma;
    s.A = spsa.has_a() ? spsa.a() : 0.1 * double(iterations);
    return s;
}

stats::SpsaAxis SpsaKind::axis(const v1::SpsaParam& p) {
    return {p.min(), p.max(), p.c_end(), p.r_end()};
}

std::string SpsaKind::flipsFor(std::int64_t testId, std::int64_t leaseId, int params) {
    std::string flips;
    std::uint64_t bits = 0;
    for (int i = 0; i < params; ++i) {
        if (i % 64 == 0)
            bits = splitmix(std::uint64_t(testId) * 0x100000001b3ull ^ std::uint64_t(leaseId) ^
                            std::uint64_t(i));
        flips += (bits >> (i % 64)) & 1 ? '+' : '-';
    }
    return flips;
}

std::int64_t SpsaKind::create(v1::TestSpec& spec, std::vector<std::string>&) {
    auto* sp = spec.mutable_spsa();
    if (sp->match().game() == "capturego")
        bad("game capturego: SPSA tunes option values of UCI engines (Xiangqi and chess); a GTP engine "
            "takes no such options");
    checkMatchSpec(host_, sp->match());
    if (spec.has_sprt()) bad("sprt: an SPSA test has no SPRT; give games (two per iteration)");
    if (spec.games() < 2) bad("games: an SPSA test needs at least one iteration (2 games, one pair)");
    if (sp->params_size() < 1 || sp->params_size() > MaxParams)
        bad("spsa.params: give 1 to " + std::to_string(MaxParams) + " parameters, got " +
            std::to_string(sp->params_size()));
    std::set<std::string> names;
    for (const auto& p : sp->params()) {
        const std::string what = "spsa parameter '" + p.name().substr(0, 100) + "'";
        if (p.name().empty() || p.name().size() > 100 || p.name().find_first_of("\n\r=") != std::string::npos)
            bad("spsa parameter names must be 1 to 100 characters without '=' or line breaks, got '" +
                p.name().substr(0, 100) + "'");
        if (!names.insert(p.name()).second) bad(what + " is given twice");
        for (double v : {p.start(), p.min(), p.max(), p.c_end(), p.r_end()})
            if (!std::isfinite(v)) bad(what + ": every number must be finite");
        if (!(p.min() < p.max())) bad(what + ": min must be below max");
        if (p.start() < p.min() || p.start() > p.max())
            bad(what + ": the start value must lie in [min, max]");
        if (!(p.c_end() > 0) || !(p.r_end() > 0)) bad(what + ": c_end and r_end must be above 0");
        if (p.c_end() > p.max() - p.min()) bad(what + ": c_end must be at most max - min");
    }
    for (auto [value, name] : {std::pair{sp->alpha(), "alpha"}, std::pair{sp->gamma(), "gamma"}})
        if (!std::isfinite(value) || value < 0 || value > 10)
            bad(std::string("spsa.") + name + " must be 0..10");
    if (sp->has_a() && (!std::isfinite(sp->a()) || sp->a() < 0)) bad("spsa.a (A) must be 0 or more");

    // The stored spec spells out the defaults, so that a later change of one never alters a running test.
    const std::int64_t iterations = (std::int64_t(spec.games()) + 1) / 2;
    stats::SpsaSchedule s = schedule(*sp, iterations);
    sp->set_alpha(s.alpha);
    sp->set_gamma(s.gamma);
    sp->set_a(s.A);
    std::int64_t id = host_.store().insertTest(name(), spec.SerializeAsString(), iterations, host_.now());
    v1::SpsaPoint start;
    for (const auto& p : sp->params()) start.add_values(p.start());
    spsa_.insertState(id, start);
    spsa_.addHistory(id, start);
    return id;
}

std::int64_t SpsaKind::available(const TestRow& t, const v1::TestSpec&) {
    return t.pairsTarget - t.pairsDone() - t.outstandingPairs;
}

void SpsaKind::lease(TestRow& test, const v1::TestSpec& spec, const LeaseAsk& ask, v1::JobResponse& resp) {
    const auto& sp = spec.spsa();
    const v1::SpsaPoint theta = spsa_.state(test.id);
    const auto k = std::int64_t(theta.iteration());
    const stats::SpsaSchedule s = schedule(sp, test.pairsTarget);
    LeaseRow lease = leasePairs(host_, test, sp.match(), ask, resp);
    const std::string flips = flipsFor(test.id, lease.id, sp.params_size());
    auto* job = resp.mutable_job()->mutable_match()->mutable_spec();
    job->mutable_dev()->set_name("spsa+");
    job->mutable_base()->set_name("spsa-");
    for (int i = 0; i < sp.params_size(); ++i) {
        const int sign = flips[std::size_t(i)] == '+' ? 1 : -1;
        const auto a = axis(sp.params(i));
        (*job->mutable_dev()->mutable_options())[sp.params(i).name()] =
            optionValue(stats::spsaProbe(a, s, k, theta.values(i), sign));
        (*job->mutable_base()->mutable_options())[sp.params(i).name()] =
            optionValue(stats::spsaProbe(a, s, k, theta.values(i), -sign));
    }
    spsa_.insertLease(lease.id, {k, flips});
}

void SpsaKind::accept(TestRow& test, const v1::TestSpec& spec, const LeaseRow& lease,
                      const PairTally& tally) {
    const auto& sp = spec.spsa();
    auto drawn = spsa_.lease(lease.id);
    if (!drawn)
        kindFail(ErrorCode::FailedPrecondition, "lease " + std::to_string(lease.id) + " has no SPSA draw");
    v1::SpsaPoint theta = spsa_.state(test.id);
    const stats::SpsaSchedule s = schedule(sp, test.pairsTarget);
    const double result = double(tally.wdl[0] - tally.wdl[2]);
    for (int i = 0; i < sp.params_size() && i < theta.values_size(); ++i) {
        const int flip = drawn->flips[std::size_t(i)] == '+' ? 1 : -1;
        theta.set_values(
            i, stats::spsaUpdate(axis(sp.params(i)), s, drawn->iteration, theta.values(i), result, flip));
    }
    const auto before = std::int64_t(theta.iteration());
    const std::int64_t after = before + tally.pairs;
    theta.set_iteration(std::uint64_t(after));
    spsa_.saveState(test.id, theta);
    // The chart keeps about a thousand points a test, and the last.
    const std::int64_t stride = std::max<std::int64_t>(1, test.pairsTarget / 1000);
    if (before / stride != after / stride || after >= test.pairsTarget) spsa_.addHistory(test.id, theta);
}

std::optional<std::string> SpsaKind::completion(const TestRow& test, const v1::TestSpec&) {
    if (test.pairsDone() < test.pairsTarget) return std::nullopt;
    return "finished after " + std::to_string(test.pairsDone()) + " iterations";
}

void SpsaKind::summarize(const TestRow& test, const v1::TestSpec& spec, v1::TestSummary& summary) {
    const auto& sp = spec.spsa();
    const v1::SpsaPoint theta = spsa_.state(test.id);
    const stats::SpsaSchedule s = schedule(sp, test.pairsTarget);
    auto* out = summary.mutable_spsa();
    out->set_iterations(theta.iteration());
    out->set_iterations_target(std::uint64_t(test.pairsTarget));
    for (int i = 0; i < sp.params_size() && i < theta.values_size(); ++i) {
        auto* v = out->add_params();
        const auto& p = sp.params(i);
        v->set_name(p.name());
        v->set_value(theta.values(i));
        v->set_start(p.start());
        v->set_min(p.min());
        v->set_max(p.max());
        v->set_c_k(stats::spsaPerturbation(axis(p), s, std::int64_t(theta.iteration())));
    }
}

void SpsaKind::detail(const TestRow& test, const v1::TestSpec&, v1::TestView& view) {
    auto points = spsa_.history(test.id);
    const std::size_t maxPoints = 400;
    const std::size_t step = (points.size() + maxPoints - 1) / maxPoints;
    for (std::size_t i = 0; i < points.size(); ++i)
        if (step <= 1 || i % step == 0 || i + 1 == points.size()) *view.add_spsa_history() = points[i];
}

std::vector<std::pair<std::string, std::string>> SpsaKind::artifacts(const v1::TestSpec& spec) const {
    return matchArtifacts(spec.spsa().match());
}

}  // namespace xq::coord
