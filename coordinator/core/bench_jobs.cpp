#include "bench_jobs.h"

#include <algorithm>
#include <set>

namespace xq::coord {

namespace {

bool isHexSha256(const std::string& s) {
    return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

}  // namespace

BenchJobs::BenchJobs(Coordinator& coordinator) : coordinator_(coordinator), db_(coordinator.storeAddress()) {}

void BenchJobs::checkWorker(const Caller& caller, std::uint64_t workerId) {
    auto s = db_.prepare("SELECT token_id FROM workers WHERE id = ?");
    s.bind(1, std::int64_t(workerId));
    if (!s.step()) fail(ErrorCode::NotFound, "unknown worker id " + std::to_string(workerId));
    if (s.int64(0) != caller.tokenId)
        fail(ErrorCode::PermissionDenied, "worker " + std::to_string(workerId) + " belongs to another token");
}

v1::SubmitBenchResponse BenchJobs::submit(const Caller& caller, const v1::SubmitBenchRequest& req) {
    Coordinator::require(caller, Role::User, "submit benchmarks");
    v1::BenchSettings settings = req.settings();
    if (!isHexSha256(settings.engine_sha256()))
        fail(ErrorCode::InvalidArgument, "settings.engine_sha256 must be 64 lowercase hex digits");
    if (!coordinator_.hasArtifact(settings.engine_sha256()))
        fail(ErrorCode::InvalidArgument,
             "settings.engine_sha256: no artifact " + settings.engine_sha256() + " (upload it first)");
    if (settings.depth() > 60) fail(ErrorCode::InvalidArgument, "settings.depth must be at most 60");
    if (settings.threads() > 256) fail(ErrorCode::InvalidArgument, "settings.threads must be at most 256");
    if (settings.hash_mb() > 65536)
        fail(ErrorCode::InvalidArgument, "settings.hash_mb must be at most 65536");
    if (settings.repeats() > MaxBenchRepeats)
        fail(ErrorCode::InvalidArgument,
             "settings.repeats must be at most " + std::to_string(MaxBenchRepeats));
    if (settings.threads() == 0) settings.set_threads(1);
    if (settings.hash_mb() == 0) settings.set_hash_mb(16);
    if (settings.repeats() == 0) settings.set_repeats(1);

    v1::ListWorkersResponse workers = coordinator_.listWorkers();
    std::set<std::uint64_t> wanted(req.worker_ids().begin(), req.worker_ids().end());
    std::vector<const v1::WorkerInfo*> chosen;
    for (const auto& w : workers.workers()) {
        if (!wanted.empty()) {
            if (wanted.erase(w.id())) chosen.push_back(&w);
        } else if (w.alive()) {
            chosen.push_back(&w);
        }
    }
    if (!wanted.empty())
        fail(ErrorCode::InvalidArgument, "worker_ids: unknown worker " + std::to_string(*wanted.begin()));
    if (chosen.empty()) fail(ErrorCode::FailedPrecondition, "no live worker to run the benchmark");

    std::lock_guard lock(mutex_);
    Transaction tx(db_);
    auto ins = db_.prepare("INSERT INTO bench_runs (settings, created_ms) VALUES (?, ?)");
    ins.bindBlob(1, settings.SerializeAsString()).bind(2, coordinator_.nowMs()).run();
    std::int64_t id = db_.lastInsertId();
    v1::SubmitBenchResponse resp;
    resp.set_bench_id(std::uint64_t(id));
    auto add = db_.prepare(
        "INSERT INTO bench_results (bench_id, worker_id, worker_name, cpu_model, cores) VALUES (?, ?, ?, ?, "
        "?)");
    for (const auto* w : chosen) {
        add.bind(1, id).bind(2, std::int64_t(w->id())).bind(3, w->name()).bind(4, w->cpu_model());
        add.bind(5, std::int64_t(w->cores())).run();
        add.reset();
        resp.add_worker_ids(w->id());
    }
    coordinator_.workAppeared(db_);  // workers waiting for a job ask for benchmarks first
    tx.commit();
    return resp;
}

v1::BenchRun BenchJobs::readRun(std::int64_t id, const std::string& settings, std::int64_t createdMs) {
    v1::BenchRun run;
    run.set_id(std::uint64_t(id));
    run.mutable_settings()->ParseFromString(settings);
    run.set_created_unix(createdMs / 1000);
    auto s = db_.prepare(
        "SELECT worker_id, worker_name, cpu_model, cores, done, repeats, error, reported_ms FROM "
        "bench_results "
        "WHERE bench_id = ? ORDER BY worker_id");
    s.bind(1, id);
    while (s.step()) {
        auto* w = run.add_workers();
        w->set_worker_id(std::uint64_t(s.int64(0)));
        w->set_worker_name(s.text(1));
        w->set_cpu_model(s.text(2));
        w->set_cores(std::uint32_t(s.int64(3)));
        w->set_done(s.int64(4) != 0);
        v1::ReportBenchRequest stored;
        stored.ParseFromString(s.blob(5));
        *w->mutable_repeats() = stored.repeats();
        w->set_error(s.text(6));
        w->set_reported_unix(s.int64(7) / 1000);
    }
    return run;
}

v1::BenchRun BenchJobs::get(const Caller& caller, std::uint64_t benchId) {
    Coordinator::require(caller, Role::User, "read benchmarks");
    std::lock_guard lock(mutex_);
    auto s = db_.prepare("SELECT settings, created_ms FROM bench_runs WHERE id = ?");
    s.bind(1, std::int64_t(benchId));
    if (!s.step()) fail(ErrorCode::NotFound, "unknown benchmark " + std::to_string(benchId));
    return readRun(std::int64_t(benchId), s.blob(0), s.int64(1));
}

v1::ListBenchesResponse BenchJobs::list(const Caller& caller, std::uint32_t limit) {
    Coordinator::require(caller, Role::User, "read benchmarks");
    std::lock_guard lock(mutex_);
    auto s = db_.prepare("SELECT id, settings, created_ms FROM bench_runs ORDER BY id DESC LIMIT ?");
    s.bind(1, std::int64_t(limit == 0 ? 20 : std::min<std::uint32_t>(limit, 1000)));
    v1::ListBenchesResponse resp;
    while (s.step()) *resp.add_runs() = readRun(s.int64(0), s.blob(1), s.int64(2));
    return resp;
}

v1::PollBenchResponse BenchJobs::poll(const Caller& caller, std::uint64_t workerId) {
    Coordinator::require(caller, Role::Worker, "run benchmarks");
    std::lock_guard lock(mutex_);
    checkWorker(caller, workerId);
    auto s = db_.prepare(
        "SELECT r.id, r.settings FROM bench_results b JOIN bench_runs r ON r.id = b.bench_id "
        "WHERE b.worker_id = ? AND b.done = 0 ORDER BY r.id LIMIT 1");
    s.bind(1, std::int64_t(workerId));
    v1::PollBenchResponse resp;
    if (s.step()) {
        resp.set_bench_id(std::uint64_t(s.int64(0)));
        resp.mutable_settings()->ParseFromString(s.blob(1));
    }
    return resp;
}

void BenchJobs::report(const Caller& caller, const v1::ReportBenchRequest& req) {
    Coordinator::require(caller, Role::Worker, "report benchmarks");
    if (req.repeats_size() > int(MaxBenchRepeats))
        fail(ErrorCode::InvalidArgument, "repeats: at most " + std::to_string(MaxBenchRepeats));
    if (req.repeats_size() == 0 && req.error().empty())
        fail(ErrorCode::InvalidArgument, "a report needs repeats or an error");
    std::lock_guard lock(mutex_);
    checkWorker(caller, req.worker_id());
    v1::ReportBenchRequest stored;
    *stored.mutable_repeats() = req.repeats();
    auto s = db_.prepare(
        "UPDATE bench_results SET done = 1, repeats = ?, error = ?, reported_ms = ?, "
        "cpu_model = CASE WHEN ? = '' THEN cpu_model ELSE ? END, cores = CASE WHEN ? = 0 THEN cores ELSE ? "
        "END "
        "WHERE bench_id = ? AND worker_id = ?");
    s.bindBlob(1, stored.SerializeAsString())
        .bind(2, req.error().substr(0, 500))
        .bind(3, coordinator_.nowMs());
    s.bind(4, req.cpu_model()).bind(5, req.cpu_model()).bind(6, std::int64_t(req.cores()));
    s.bind(7, std::int64_t(req.cores()))
        .bind(8, std::int64_t(req.bench_id()))
        .bind(9, std::int64_t(req.worker_id()));
    s.run();
    if (db_.changes() == 0)
        fail(ErrorCode::NotFound, "benchmark " + std::to_string(req.bench_id()) +
                                      " was not asked of worker " + std::to_string(req.worker_id()));
}

}  // namespace xq::coord
