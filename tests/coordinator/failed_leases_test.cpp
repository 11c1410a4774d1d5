// A test whose engines cannot be played fails instead of being handed out forever: leases handed back with
// an error, or reports whose every game crashed, count as crashes and as failed leases in a row; enough of
// them fail the test with the reason, durably, and a user may resume it (the count starts again). On the
// coordinator's plain C++ with its injected clock (no sleeping); the whole cluster is in
// failing_engine_cluster_test.cpp.
#include <gtest/gtest.h>

#include <string>

#include "coordinator.h"
#include "expect_error.h"
#include "fixture.h"

using namespace xq::coord;
using xq::coord::testing::codeOf;
using xq::coord::testing::Fixture;
namespace v1 = xq::v1;

namespace {

const std::string StartFailure = "engine 'dev' did not start: exit code 127";

v1::ResumeTestResponse resume(Fixture& f, std::uint64_t id) {
    v1::ResumeTestRequest r;
    r.set_test_id(id);
    return f.coord->resumeTest(f.user, r);
}

bool hasEvent(const v1::TestView& view, const std::string& text) {
    for (const auto& e : view.events())
        if (e == text) return true;
    return false;
}

}  // namespace

TEST(FailedLeases, AnEngineThatDoesNotStartFailsItsTestAtTheFifthLeaseInARow) {
    Fixture f;
    f.makeTokens();
    auto id = f.coord->submit(f.user, f.request(100, true)).test_id();
    auto w = f.registerWorker();
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(f.failLease(w, StartFailure));
    auto view = f.coord->showTest(std::int64_t(id));
    EXPECT_EQ(view.summary().state(), v1::TEST_STATE_RUNNING);
    // Each start failure is a crash of the test and of the worker.
    EXPECT_EQ(view.failures().crashes(), 4u);
    ASSERT_EQ(view.workers_size(), 1);
    EXPECT_EQ(view.workers(0).failures().crashes(), 4u);
    // The same line four times is one event, counted.
    const std::string line = "worker " + std::to_string(w) + " could not play: " + StartFailure;
    EXPECT_TRUE(hasEvent(view, line + " (x4)")) << view.DebugString();
    EXPECT_FALSE(hasEvent(view, line)) << view.DebugString();

    ASSERT_TRUE(f.failLease(w, StartFailure));
    view = f.coord->showTest(std::int64_t(id));
    EXPECT_EQ(view.summary().state(), v1::TEST_STATE_FAILED);
    EXPECT_EQ(view.summary().result(),
              "5 leases in a row failed; last: worker " + std::to_string(w) + ": " + StartFailure);
    EXPECT_EQ(view.failures().crashes(), 5u);
    EXPECT_FALSE(f.job(w).has_job()) << "a failed test has no work to hand out";

    // The state and its reason are durable.
    f.open();
    view = f.coord->showTest(std::int64_t(id));
    EXPECT_EQ(view.summary().state(), v1::TEST_STATE_FAILED);
    EXPECT_NE(view.summary().result().find("5 leases in a row failed"), std::string::npos);
    v1::ListTestsRequest list;
    list.set_limit(10);
    ASSERT_EQ(f.coord->listTests(list).tests_size(), 1);
    EXPECT_EQ(f.coord->listTests(list).tests(0).state(), v1::TEST_STATE_FAILED);
}

TEST(FailedLeases, AResumedTestRunsAgainWithItsCountStartedAgain) {
    Fixture f;
    f.makeTokens();
    auto id = f.coord->submit(f.user, f.request(100, false)).test_id();
    auto w = f.registerWorker();
    // Only a failed test can be resumed.
    EXPECT_EQ(codeOf([&] { resume(f, id); }), ErrorCode::FailedPrecondition);
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(f.failLease(w, StartFailure));
    ASSERT_EQ(f.coord->showTest(std::int64_t(id)).summary().state(), v1::TEST_STATE_FAILED);
    f.clock += 60'000;

    EXPECT_EQ(resume(f, id).state(), v1::TEST_STATE_RUNNING);
    auto view = f.coord->showTest(std::int64_t(id));
    EXPECT_EQ(view.summary().result(), "");
    EXPECT_EQ(view.summary().finished_unix(), 0);
    EXPECT_TRUE(hasEvent(view, "resumed by alice"));
    // Four more failures do not fail it again at once: the count restarted.
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(f.failLease(w, StartFailure));
    EXPECT_EQ(f.coord->showTest(std::int64_t(id)).summary().state(), v1::TEST_STATE_RUNNING);
    ASSERT_TRUE(f.failLease(w, StartFailure));
    EXPECT_EQ(f.coord->showTest(std::int64_t(id)).summary().state(), v1::TEST_STATE_FAILED);
    EXPECT_EQ(f.coord->showTest(std::int64_t(id)).failures().crashes(), 10u);
}

TEST(FailedLeases, AGameCountedBetweenFailuresStartsTheCountAgain) {
    Fixture f;
    f.makeTokens();
    auto id = f.coord->submit(f.user, f.request(100, false)).test_id();
    auto w = f.registerWorker();
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(f.failLease(w, "download of the book failed"));
    // Another worker plays a pair (the first, with 4 crashes in no games, would be suspended by its
    // report) and hands the rest back without an error, which is no failure.
    auto other = f.registerWorker();
    auto job = f.job(other);
    ASSERT_TRUE(job.has_job());
    f.coord->report(f.worker, f.reportOf(job.job(), other, 1, 0, 1, 2));
    v1::ReleaseRequest r;
    r.set_worker_id(other);
    r.set_lease_id(job.job().lease_id());
    f.coord->release(f.worker, r);
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(f.failLease(w, "download of the book failed"));
    EXPECT_EQ(f.coord->showTest(std::int64_t(id)).summary().state(), v1::TEST_STATE_RUNNING);
    ASSERT_TRUE(f.failLease(w, "download of the book failed"));
    EXPECT_EQ(f.coord->showTest(std::int64_t(id)).summary().state(), v1::TEST_STATE_FAILED);
}

TEST(FailedLeases, ReportsWhoseEveryGameCrashedFailTheTestAcrossWorkers) {
    Fixture f;
    f.makeTokens();
    auto id = f.coord->submit(f.user, f.request(100, false)).test_id();
    // Each worker is suspended after its second report of crashes (4 crashes in 4 games): three workers
    // between them send the five reports.
    int reports = 0;
    for (int worker = 0; worker < 3 && reports < 5; ++worker) {
        auto w = f.registerWorker();
        auto job = f.job(w);
        ASSERT_TRUE(job.has_job());
        for (std::uint64_t seq = 1; seq <= 2 && reports < 5; ++seq, ++reports) {
            EXPECT_EQ(f.coord->showTest(std::int64_t(id)).summary().state(), v1::TEST_STATE_RUNNING);
            auto report = f.reportOf(job.job(), w, seq, seq - 1, 1, 0);
            report.mutable_failures()->set_crashes(2);
            f.coord->report(f.worker, report);
        }
    }
    auto s = f.coord->showTest(std::int64_t(id)).summary();
    EXPECT_EQ(s.state(), v1::TEST_STATE_FAILED);
    EXPECT_NE(s.result().find("5 leases in a row failed; last: worker "), std::string::npos) << s.result();
    EXPECT_NE(s.result().find("every game of a report crashed or stalled"), std::string::npos) << s.result();
}

TEST(FailedLeases, ASourceThatDoesNotBuildFailsItsTestAtOnce) {
    Fixture f;
    f.makeTokens();
    auto id = f.coord->submit(f.user, f.request(100, false)).test_id();
    auto w = f.registerWorker();
    ASSERT_TRUE(f.failLease(w, "build failed: make: *** No rule to make target", true));
    auto s = f.coord->showTest(std::int64_t(id)).summary();
    EXPECT_EQ(s.state(), v1::TEST_STATE_FAILED);
    EXPECT_EQ(s.result(), "build failed: make: *** No rule to make target");
}
