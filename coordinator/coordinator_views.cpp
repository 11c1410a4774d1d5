// The Coordinator's reads for the web view and metrics: pages of tests, a test's history, its games,
// stored artifacts, gauges. Each takes the coordinator's lock for one short read.
#include <algorithm>
#include <filesystem>

#include "coordinator.h"

namespace xq::coord {

namespace {

int stateNumber(const std::string& state) {
    if (state.empty()) return 0;
    if (state == "running") return int(TestState::Running);
    if (state == "finished") return int(TestState::Finished);
    if (state == "stopped") return int(TestState::Stopped);
    throw CoordError(ErrorCode::InvalidArgument,
                     "state must be running, finished or stopped, got '" + state.substr(0, 40) + "'");
}

}  // namespace

Coordinator::TestPage Coordinator::listTestsPage(const TestQuery& query) {
    int state = stateNumber(query.state);
    if (query.offset < 0) throw CoordError(ErrorCode::InvalidArgument, "offset must not be negative");
    std::int64_t limit = std::clamp<std::int64_t>(query.limit, 1, 500);
    std::lock_guard lock(mutex_);
    TestPage page;
    page.total = store_.countTests(state, query.submitter);
    for (const auto& t : store_.queryTests(state, query.submitter, query.offset, limit)) {
        v1::TestView view;
        *view.mutable_spec() = parseSpec(t);
        *view.mutable_summary() = summarize(t, view.spec());
        page.tests.push_back(std::move(view));
    }
    return page;
}

std::vector<v1::TestView> Coordinator::ladderTests(const std::string& ladder) {
    std::lock_guard lock(mutex_);
    std::vector<v1::TestView> out;
    for (const auto& t : store_.ladderTests(ladder, 0, 100'000)) {
        v1::TestView view;
        *view.mutable_spec() = parseSpec(t);
        *view.mutable_summary() = summarize(t, view.spec());
        out.push_back(std::move(view));
    }
    return out;
}

std::vector<Coordinator::HistoryPoint> Coordinator::testHistory(std::int64_t testId, std::size_t maxPoints) {
    maxPoints = std::max<std::size_t>(maxPoints, 2);
    std::lock_guard lock(mutex_);
    auto t = store_.findTest(testId);
    if (!t) throw CoordError(ErrorCode::NotFound, "no test " + std::to_string(testId));
    if (t->kind != "match") return {};
    const v1::TestSpec spec = parseSpec(*t);
    auto point = [&](const stats::Penta& counts, std::int64_t pairs) {
        HistoryPoint p;
        p.games = 2 * pairs;
        auto e = stats::elo(counts);
        p.elo = e.elo;
        p.eloError = e.eloError;
        if (spec.has_sprt()) p.llr = stats::sprt(counts, sprtConfigOf(spec.sprt())).llr;
        return p;
    };
    if (historyCache_.size() >= 256 && !historyCache_.count(testId)) historyCache_.clear();  // a bound
    auto& c = historyCache_[testId];
    if (c.maxPoints != maxPoints) c = CachedHistory{}, c.maxPoints = maxPoints;
    // Only the pairs that arrived since the last call are read, and nothing when none did.
    const auto fresh = t->pairsDone() == c.pairs ? std::vector<std::pair<std::int64_t, int>>{}
                                                 : store_.pairsAfter(testId, c.lastRowid);
    for (const auto& [rowid, penta] : fresh) {
        c.lastRowid = rowid;
        c.counts.pairs[std::size_t(penta)]++;
        if (++c.pairs % std::int64_t(c.step) != 0) continue;
        c.samples.push_back(point(c.counts, c.pairs));
        if (c.samples.size() > maxPoints) {  // keep every other sample: those at multiples of the new step
            std::vector<HistoryPoint> kept;
            for (std::size_t i = 1; i < c.samples.size(); i += 2) kept.push_back(c.samples[i]);
            c.samples = std::move(kept);
            c.step *= 2;
        }
    }
    std::vector<HistoryPoint> out = c.samples;
    if (c.pairs > 0 && (out.empty() || out.back().games != 2 * c.pairs))
        out.push_back(point(c.counts, c.pairs));
    return out;
}

GameTotals Coordinator::gameTotals(std::int64_t testId) {
    std::lock_guard lock(mutex_);
    return games_.totals(testId);
}

GameStore::Page Coordinator::gamesPage(std::int64_t testId, std::int64_t cursor, std::size_t maxBytes) {
    std::lock_guard lock(mutex_);
    if (!store_.findTest(testId)) throw CoordError(ErrorCode::NotFound, "no test " + std::to_string(testId));
    return games_.page(testId, cursor, maxBytes);
}

std::vector<Coordinator::ArtifactInfo> Coordinator::listArtifacts(int limit) {
    std::lock_guard lock(mutex_);
    std::vector<ArtifactInfo> out;
    for (auto& a : store_.listArtifacts(limit)) out.push_back({a.sha256, a.name, a.size, a.createdMs});
    return out;
}

Gauges Coordinator::gauges() {
    Gauges g;
    std::lock_guard lock(mutex_);
    auto states = store_.testsByState();
    g.testsRunning = states[std::size_t(TestState::Running)];
    g.testsFinished = states[std::size_t(TestState::Finished)];
    g.testsStopped = states[std::size_t(TestState::Stopped)];
    std::int64_t now = nowMs();
    for (const auto& [id, seen] : lastSeen_)
        g.workersActive += now - seen <= 2000 * std::int64_t(options_.leaseTimeoutSeconds);
    std::error_code ec;
    for (const char* f : {"/coordinator.db", "/coordinator.db-wal"}) {
        auto size = std::filesystem::file_size(options_.dataDir + f, ec);
        if (!ec) g.storeBytes += std::int64_t(size);
    }
    g.artifactBytes = store_.artifactBytes();
    return g;
}

}  // namespace xq::coord
