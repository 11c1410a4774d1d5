// Cluster benchmark bookkeeping without a network: who is asked, polling, reports, history, restarts.
#include "bench_jobs.h"

#include <gtest/gtest.h>

#include <functional>

#include "expect_error.h"
#include "test_store.h"
#include "test_util.h"
#include "upload_artifact.h"
#include "util/sha256.h"

using namespace xq::coord;
using xq::coord::testing::codeOf;
using xq::coord::testing::TempDir;
using xq::coord::testing::TestStore;
namespace v1 = xq::v1;

namespace {

struct BenchFixture {
    TempDir dir;
    TestStore store;
    std::int64_t clock = 5'000'000;
    std::unique_ptr<Coordinator> coord;
    std::unique_ptr<BenchJobs> jobs;
    Caller user, worker, otherWorker;
    std::string engine;

    BenchFixture() {
        open();
        user = coord->authenticate(coord->createToken(Role::User, "alice"));
        worker = coord->authenticate(coord->createToken(Role::Worker, "box"));
        otherWorker = coord->authenticate(coord->createToken(Role::Worker, "other"));
        engine = xq::coord::testing::uploadArtifact(*coord, user, "an engine");
    }
    void open() {
        jobs.reset();
        coord.reset();
        CoordinatorOptions o;
        o.dataDir = dir.file("data");
        o.store = store.option();
        o.leaseTimeoutSeconds = 10;
        o.clockMs = [this] { return clock; };
        coord = std::make_unique<Coordinator>(o);
        jobs = std::make_unique<BenchJobs>(*coord);
    }
    std::uint64_t registerWorker(const std::string& name) {
        v1::RegisterRequest r;
        r.set_name(name);
        r.set_cores(4);
        r.set_cpu_model("Test CPU");
        return coord->registerWorker(worker, r).worker_id();
    }
    v1::SubmitBenchRequest request(std::uint32_t repeats = 2) {
        v1::SubmitBenchRequest r;
        r.mutable_settings()->set_engine_sha256(engine);
        r.mutable_settings()->set_repeats(repeats);
        return r;
    }
    v1::ReportBenchRequest report(std::uint64_t benchId, std::uint64_t workerId, std::uint64_t nodes) {
        v1::ReportBenchRequest r;
        r.set_bench_id(benchId);
        r.set_worker_id(workerId);
        r.set_cpu_model("Reported CPU");
        r.set_cores(8);
        for (std::uint64_t nps : {1000u, 1100u}) {
            auto* rep = r.add_repeats();
            rep->set_nodes(nodes);
            rep->set_nps(nps);
            rep->set_time_ms(nodes * 1000 / nps);
        }
        return r;
    }
};

}  // namespace

TEST(BenchJobs, SubmissionNeedsAUserALiveWorkerAndAKnownEngine) {
    BenchFixture f;
    EXPECT_EQ(codeOf([&] { f.jobs->submit(f.user, f.request()); }), ErrorCode::FailedPrecondition);
    f.registerWorker("a");
    EXPECT_EQ(codeOf([&] { f.jobs->submit(f.worker, f.request()); }), ErrorCode::PermissionDenied);
    auto bad = f.request();
    bad.mutable_settings()->set_engine_sha256(std::string(64, 'a'));
    EXPECT_EQ(codeOf([&] { f.jobs->submit(f.user, bad); }), ErrorCode::InvalidArgument);
    bad.mutable_settings()->set_engine_sha256("not a hash");
    EXPECT_EQ(codeOf([&] { f.jobs->submit(f.user, bad); }), ErrorCode::InvalidArgument);
    auto tooMany = f.request(MaxBenchRepeats + 1);
    EXPECT_EQ(codeOf([&] { f.jobs->submit(f.user, tooMany); }), ErrorCode::InvalidArgument);
    auto unknownWorker = f.request();
    unknownWorker.add_worker_ids(999);
    EXPECT_EQ(codeOf([&] { f.jobs->submit(f.user, unknownWorker); }), ErrorCode::InvalidArgument);
    EXPECT_EQ(f.jobs->list(f.user, 0).runs_size(), 0);  // nothing half-stored
}

TEST(BenchJobs, LiveWorkersPollReportAndTheRunIsKeptAcrossRestarts) {
    BenchFixture f;
    auto a = f.registerWorker("a");
    auto b = f.registerWorker("b");
    auto submitted = f.jobs->submit(f.user, f.request());
    ASSERT_EQ(submitted.worker_ids_size(), 2);
    auto id = submitted.bench_id();
    EXPECT_EQ(f.jobs->poll(f.worker, a).bench_id(), id);
    EXPECT_EQ(f.jobs->poll(f.worker, a).settings().threads(), 1u);  // defaults filled in
    EXPECT_EQ(f.jobs->poll(f.worker, a).settings().repeats(), 2u);
    // Another token cannot poll or report for these workers; users cannot report at all.
    EXPECT_EQ(codeOf([&] { f.jobs->poll(f.otherWorker, a); }), ErrorCode::PermissionDenied);
    EXPECT_EQ(codeOf([&] { f.jobs->report(f.otherWorker, f.report(id, a, 7)); }),
              ErrorCode::PermissionDenied);
    EXPECT_EQ(codeOf([&] { f.jobs->report(f.user, f.report(id, a, 7)); }), ErrorCode::PermissionDenied);
    EXPECT_EQ(codeOf([&] { f.jobs->report(f.worker, f.report(id + 1, a, 7)); }), ErrorCode::NotFound);

    f.jobs->report(f.worker, f.report(id, a, 12345));
    EXPECT_EQ(f.jobs->poll(f.worker, a).bench_id(), 0u);  // done: nothing more for a
    EXPECT_EQ(f.jobs->poll(f.worker, b).bench_id(), id);
    auto run = f.jobs->get(f.user, id);
    ASSERT_EQ(run.workers_size(), 2);
    EXPECT_TRUE(run.workers(0).done());
    EXPECT_FALSE(run.workers(1).done());
    EXPECT_EQ(run.workers(0).cpu_model(), "Reported CPU");
    EXPECT_EQ(run.workers(1).cpu_model(), "Test CPU");  // from registration until it reports

    f.open();  // a coordinator restart keeps runs and results
    auto list = f.jobs->list(f.user, 0);
    ASSERT_EQ(list.runs_size(), 1);
    ASSERT_EQ(list.runs(0).workers_size(), 2);
    ASSERT_EQ(list.runs(0).workers(0).repeats_size(), 2);
    EXPECT_EQ(list.runs(0).workers(0).repeats(0).nodes(), 12345u);
    EXPECT_EQ(list.runs(0).workers(0).repeats(1).nps(), 1100u);
    EXPECT_EQ(list.runs(0).settings().engine_sha256(), f.engine);
}

TEST(BenchJobs, AChosenSetIsAskedAndHistoryIsNewestFirst) {
    BenchFixture f;
    auto a = f.registerWorker("a");
    auto b = f.registerWorker("b");
    auto first = f.jobs->submit(f.user, f.request()).bench_id();
    auto only = f.request();
    only.add_worker_ids(b);
    auto second = f.jobs->submit(f.user, only);
    ASSERT_EQ(second.worker_ids_size(), 1);
    EXPECT_EQ(second.worker_ids(0), b);
    // b has two runs to do, oldest first; a only the first.
    EXPECT_EQ(f.jobs->poll(f.worker, b).bench_id(), first);
    f.jobs->report(f.worker, f.report(first, b, 1));
    EXPECT_EQ(f.jobs->poll(f.worker, b).bench_id(), second.bench_id());
    EXPECT_EQ(f.jobs->poll(f.worker, a).bench_id(), first);
    auto list = f.jobs->list(f.user, 0);
    ASSERT_EQ(list.runs_size(), 2);
    EXPECT_EQ(list.runs(0).id(), second.bench_id());
    EXPECT_EQ(list.runs(1).id(), first);
    // An error report counts as done and keeps the message.
    v1::ReportBenchRequest failed;
    failed.set_bench_id(first);
    failed.set_worker_id(a);
    failed.set_error("engine would not start");
    f.jobs->report(f.worker, failed);
    auto run = f.jobs->get(f.user, first);
    EXPECT_TRUE(run.workers(0).done());
    EXPECT_EQ(run.workers(0).error(), "engine would not start");
    v1::ReportBenchRequest empty;
    empty.set_bench_id(first);
    empty.set_worker_id(a);
    EXPECT_EQ(codeOf([&] { f.jobs->report(f.worker, empty); }), ErrorCode::InvalidArgument);
}
