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
    std::vector<int> pairs;
    v1::TestSpec spec;
    std::int64_t counted = 0;
    {
        std::lock_guard lock(mutex_);
        auto t = store_.findTest(testId);
        if (!t) throw CoordError(ErrorCode::NotFound, "no test " + std::to_string(testId));
        spec = parseSpec(*t);
        if (t->kind != "match") return {};
        counted = t->pairsDone();
        if (auto c = historyCache_.find(testId);
            c != historyCache_.end() && c->second.pairs == counted && c->second.maxPoints == maxPoints)
            return c->second.points;
        pairs = store_.pairsInArrivalOrder(testId);
    }
    std::vector<HistoryPoint> out;
    if (pairs.empty()) return out;
    const std::size_t step =
        std::max<std::size_t>(1, (pairs.size() + maxPoints - 1) / std::max<std::size_t>(maxPoints, 1));
    stats::Penta counts;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        counts.pairs[std::size_t(pairs[i])]++;
        if ((i + 1) % step != 0 && i + 1 != pairs.size()) continue;
        HistoryPoint p;
        p.games = 2 * std::int64_t(i + 1);
        auto e = stats::elo(counts);
        p.elo = e.elo;
        p.eloError = e.eloError;
        if (spec.has_sprt()) p.llr = stats::sprt(counts, sprtConfigOf(spec.sprt())).llr;
        out.push_back(p);
    }
    std::lock_guard lock(mutex_);
    if (historyCache_.size() >= 256) historyCache_.clear();  // a bound; pages of recent tests refill it
    historyCache_[testId] = {counted, maxPoints, out};
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
