// The Coordinator's reads: test summaries, lists and views, workers, and for the web view and metrics
// pages of tests, a test's history, its games, stored artifacts, gauges. Each takes the coordinator's
// lock for one short read.
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
    if (state == "pending") return int(TestState::Pending);
    if (state == "failed") return int(TestState::Failed);
    throw CoordError(
        ErrorCode::InvalidArgument,
        "state must be running, pending, finished, stopped or failed, got '" + state.substr(0, 40) + "'");
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

std::vector<std::pair<std::string, std::int64_t>> Coordinator::ladders() {
    std::lock_guard lock(mutex_);
    return store_.ladders();
}

std::vector<Coordinator::HistoryPoint> Coordinator::testHistory(std::int64_t testId, std::size_t maxPoints) {
    maxPoints = std::max<std::size_t>(maxPoints, 2);
    std::lock_guard lock(mutex_);
    auto t = store_.findTest(testId);
    if (!t) throw CoordError(ErrorCode::NotFound, "no test " + std::to_string(testId));
    const v1::TestSpec spec = parseSpec(*t);
    if (!kindOf(spec).takesPairs()) return {};
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

std::vector<Coordinator::ArtifactInfo> Coordinator::listArtifacts(int limit, const std::string& kind) {
    std::lock_guard lock(mutex_);
    std::vector<ArtifactInfo> out;
    for (auto& a : store_.listArtifacts(limit, kind)) {
        out.push_back({a.sha256, a.name, a.size, a.createdMs, a.kind, {}});
        if (!kind.empty()) out.back().testIds = store_.testsOfArtifact(a.sha256);
    }
    return out;
}

Coordinator::ArtifactInfo Coordinator::findArtifact(const std::string& sha256) {
    if (!isSha256Hex(sha256))
        throw CoordError(ErrorCode::InvalidArgument, "artifact hash must be 64 lowercase hex digits");
    std::lock_guard lock(mutex_);
    auto a = store_.findArtifact(sha256);
    if (!a) throw CoordError(ErrorCode::NotFound, "no artifact " + sha256);
    return {a->sha256, a->name, a->size, a->createdMs, a->kind, store_.testsOfArtifact(sha256)};
}

v1::ListArtifactsResponse Coordinator::listArtifacts(const v1::ListArtifactsRequest& req) {
    checkArtifactKind(req.kind());
    int limit = req.limit() == 0 ? 200 : int(std::min<std::uint32_t>(req.limit(), 10000));
    v1::ListArtifactsResponse resp;
    for (const auto& a : listArtifacts(limit, req.kind())) {
        auto* out = resp.add_artifacts();
        out->set_sha256(a.sha256);
        out->set_name(a.name);
        out->set_size(std::uint64_t(a.size));
        out->set_created_unix(a.createdMs / 1000);
        out->set_kind(a.kind);
        for (auto id : a.testIds) out->add_test_ids(std::uint64_t(id));
    }
    return resp;
}

Gauges Coordinator::gauges() {
    Gauges g;
    g.jobRequestsWaiting = waitingJobRequests();  // its own lock, before the store's
    std::lock_guard lock(mutex_);
    auto states = store_.testsByState();
    g.testsRunning = states[std::size_t(TestState::Running)];
    g.testsFinished = states[std::size_t(TestState::Finished)];
    g.testsStopped = states[std::size_t(TestState::Stopped)];
    g.testsPending = states[std::size_t(TestState::Pending)];
    g.testsFailed = states[std::size_t(TestState::Failed)];
    auto runs = runs_.runsByState();
    g.runsRunning = runs[std::size_t(RunState::Running)];
    g.runsFinished = runs[std::size_t(RunState::Finished)];
    g.runsStopped = runs[std::size_t(RunState::Stopped)];
    g.runsFailed = runs[std::size_t(RunState::Failed)];
    std::int64_t now = nowMs();
    {
        std::lock_guard clocks(clockMutex_);
        for (const auto& [id, seen] : lastSeen_)
            g.workersActive += now - seen <= 2000 * std::int64_t(options_.leaseTimeoutSeconds);
    }
    if (store_.db().dialect() == Dialect::Postgres) {
        auto s = store_.db().prepare("SELECT pg_database_size(current_database())");
        if (s.step()) g.storeBytes = s.int64(0);
    } else {
        std::error_code ec;
        for (const char* f : {"/coordinator.db", "/coordinator.db-wal"}) {
            auto size = std::filesystem::file_size(options_.dataDir + f, ec);
            if (!ec) g.storeBytes += std::int64_t(size);
        }
    }
    g.artifactBytes = store_.artifactBytes();
    return g;
}

v1::TestSummary Coordinator::summarize(const TestRow& t, const v1::TestSpec& spec) {
    v1::TestSummary s;
    s.set_id(std::uint64_t(t.id));
    s.set_state(toProto(t.state));
    s.set_description(spec.description());
    s.set_games(std::uint64_t(2 * t.pairsDone()));
    for (auto v : t.wdl) s.add_wdl(std::uint64_t(v));
    for (auto v : t.penta) s.mutable_penta()->add_counts(std::uint64_t(v));
    s.set_result(t.result);
    s.set_games_target(std::uint64_t(2 * t.pairsTarget));
    s.set_created_unix(t.createdMs / 1000);
    s.set_finished_unix(t.finishedMs / 1000);
    auto e = stats::elo(pentaOf(t));
    s.set_elo(e.elo);
    s.set_elo_error(e.eloError);
    s.set_los(e.los);
    std::int64_t active = 0;
    for (const auto& lease : store_.leases(LeaseState::Active, t.id)) active += lease.workerId > 0;
    s.set_active_workers(std::uint32_t(active));
    TestKind& kind = kindOf(spec);
    s.set_kind(kind.name());
    const v1::MatchSpec* match = spec.has_match()  ? &spec.match()
                                 : spec.has_spsa() ? &spec.spsa().match()
                                                   : nullptr;
    const std::string& game = match ? match->game() : spec.datagen().game();
    s.set_game(game.empty() ? "xiangqi" : game);
    if (match && match->game() == "capturego") s.set_board(match->board());
    if (spec.has_run()) *s.mutable_run() = spec.run();
    kind.summarize(t, spec, s);
    return s;
}

v1::ListTestsResponse Coordinator::listTests(const v1::ListTestsRequest& req) {
    std::lock_guard lock(mutex_);
    v1::ListTestsResponse resp;
    int limit = req.limit() == 0 ? 50 : int(std::min<std::uint32_t>(req.limit(), 1000));
    if (!req.ladder().empty()) {
        auto rows = store_.ladderTests(
            req.ladder(), std::int64_t(std::min<std::uint64_t>(req.offset(), 1ull << 40)), limit + 1);
        resp.set_more(int(rows.size()) > limit);
        if (resp.more()) rows.pop_back();
        for (const auto& t : rows) *resp.add_tests() = summarize(t, parseSpec(t));
        return resp;
    }
    auto rows = store_.queryTests(req.running_only() ? int(TestState::Running) : 0, "",
                                  std::int64_t(std::min<std::uint64_t>(req.offset(), 1ull << 40)), limit + 1);
    resp.set_more(int(rows.size()) > limit);
    if (resp.more()) rows.pop_back();
    for (const auto& t : rows) *resp.add_tests() = summarize(t, parseSpec(t));
    return resp;
}

v1::TestView Coordinator::showTest(std::int64_t testId) {
    std::lock_guard lock(mutex_);
    auto t = store_.findTest(testId);
    if (!t) throw CoordError(ErrorCode::NotFound, "no test " + std::to_string(testId));
    v1::TestView view;
    v1::TestSpec spec = parseSpec(*t);
    *view.mutable_summary() = summarize(*t, spec);
    *view.mutable_spec() = spec;
    for (const auto& row : store_.workerTestStats(testId)) {
        auto* w = view.add_workers();
        w->set_worker_id(std::uint64_t(row.workerId));
        w->set_worker_name(row.workerName);
        w->set_games(std::uint64_t(row.games));
        fillFailures(w->mutable_failures(), row.failures);
        w->set_suspended(row.suspended);
    }
    fillFailures(view.mutable_failures(), t->failures);
    for (auto& e : store_.events(testId)) view.add_events(e);
    for (const auto& d : webhooks_.ofTest(testId)) {
        auto* out = view.add_webhook_deliveries();
        out->set_url(d.url);
        out->set_event(d.event);
        out->set_state(d.state);
        out->set_attempts(std::int32_t(d.attempts));
        out->set_http_status(std::int32_t(d.httpStatus));
        out->set_last_error(d.lastError);
        out->set_updated_ms(d.updatedMs);
    }
    kindOf(spec).detail(*t, spec, view);
    return view;
}

v1::ListWorkersResponse Coordinator::listWorkers() {
    std::lock_guard lock(mutex_);
    v1::ListWorkersResponse resp;
    std::unordered_map<std::int64_t, std::int64_t> current;
    for (const auto& lease : store_.leases(LeaseState::Active)) current[lease.workerId] = lease.testId;
    auto totals = store_.workerTotals();
    std::int64_t now = nowMs();
    std::unordered_map<std::int64_t, std::int64_t> lastSeen;
    {
        std::lock_guard clocks(clockMutex_);
        lastSeen = lastSeen_;
    }
    for (const auto& w : store_.listWorkers()) {
        std::int64_t seen = std::max(w.lastSeenMs, lastSeen[w.id]);
        bool alive = now - seen <= 2000 * std::int64_t(options_.leaseTimeoutSeconds);
        if (!alive && !current.count(w.id) && now - seen > 86'400'000) continue;  // long gone
        auto* info = resp.add_workers();
        info->set_id(std::uint64_t(w.id));
        info->set_name(w.name);
        info->set_cores(std::uint32_t(w.cores));
        info->set_memory_mb(std::uint64_t(w.memoryMb));
        info->set_engine_nps(std::uint64_t(w.engineNps));
        info->set_version(w.version);
        info->set_cpu_model(w.cpuModel);
        info->set_last_seen_unix(seen / 1000);
        info->set_alive(alive);
        info->set_current_test_id(std::uint64_t(current.count(w.id) ? current[w.id] : 0));
        if (auto c = workerConcurrency_.find(w.id); c != workerConcurrency_.end())
            info->set_concurrency(std::uint32_t(c->second));
        if (auto t = totals.find(w.id); t != totals.end()) {
            info->set_games(std::uint64_t(t->second.games));
            fillFailures(info->mutable_failures(), t->second.failures);
            info->set_suspensions(std::uint32_t(t->second.suspensions));
        }
    }
    return resp;
}

}  // namespace xq::coord
