// Job requests that wait for work (JobRequest.wait_seconds): answered as soon as work appears, in the
// same coordinator or, on a shared PostgreSQL store, in another replica; answered at once at shutdown.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "fixture.h"

using namespace xq::coord;
using xq::coord::testing::Fixture;
namespace v1 = xq::v1;
using Clock = std::chrono::steady_clock;

namespace {

v1::JobRequest waitingRequest(std::uint64_t workerId, std::uint32_t seconds) {
    v1::JobRequest r;
    r.set_worker_id(workerId);
    r.set_concurrency(2);
    r.set_wait_seconds(seconds);
    return r;
}

void waitUntilWaiting(Coordinator& c) {
    for (int i = 0; i < 200 && c.waitingJobRequests() == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_EQ(c.waitingJobRequests(), 1);
}

}  // namespace

TEST(LongPoll, AnIdleWorkerGetsANewTestAsSoonAsItIsSubmitted) {
    Fixture f;
    f.makeTokens();
    auto w = f.registerWorker();
    auto pending =
        std::async(std::launch::async, [&] { return f.coord->requestJob(f.worker, waitingRequest(w, 20)); });
    waitUntilWaiting(*f.coord);
    auto submitted = Clock::now();
    auto id = f.coord->submit(f.user, f.request(10, false)).test_id();
    auto resp = pending.get();
    double seconds = std::chrono::duration<double>(Clock::now() - submitted).count();
    ASSERT_TRUE(resp.has_job());
    EXPECT_EQ(resp.job().test_id(), id);
    EXPECT_LT(seconds, 1.0) << "the waiting request was answered " << seconds << " s after the submission";
}

TEST(LongPoll, WithNothingToDoTheRequestWaitsItsTimeAndSaysAskAgain) {
    Fixture f;
    f.makeTokens();
    auto w = f.registerWorker();
    auto start = Clock::now();
    auto resp = f.coord->requestJob(f.worker, waitingRequest(w, 1));
    double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    EXPECT_FALSE(resp.has_job());
    EXPECT_GE(seconds, 0.9);
    EXPECT_EQ(resp.retry_after_seconds(), 0u);
    // Without wait_seconds the answer comes at once, with a pause to keep (older workers).
    auto now = f.coord->requestJob(f.worker, waitingRequest(w, 0));
    EXPECT_GT(now.retry_after_seconds(), 0u);
}

TEST(LongPoll, ShuttingDownAnswersWaitingRequestsAtOnce) {
    Fixture f;
    f.makeTokens();
    auto w = f.registerWorker();
    auto pending =
        std::async(std::launch::async, [&] { return f.coord->requestJob(f.worker, waitingRequest(w, 30)); });
    waitUntilWaiting(*f.coord);
    auto start = Clock::now();
    f.coord->stopWaiting();
    EXPECT_FALSE(pending.get().has_job());
    EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 1.0);
}

TEST(LongPoll, AReplicaHearsOfATestSubmittedToAnother) {
    Fixture f;
    if (!f.store.postgres()) GTEST_SKIP() << "replicas share a PostgreSQL store: runs as pg.LongPoll.*";
    f.makeTokens();
    auto w = f.registerWorker();
    Coordinator other(f.options());  // a second replica on the same database and data directory
    // The worker registered through the first replica; its token and id are in the shared store.
    auto pending =
        std::async(std::launch::async, [&] { return other.requestJob(f.worker, waitingRequest(w, 20)); });
    waitUntilWaiting(other);
    auto submitted = Clock::now();
    auto id = f.coord->submit(f.user, f.request(10, false)).test_id();
    auto resp = pending.get();
    double seconds = std::chrono::duration<double>(Clock::now() - submitted).count();
    ASSERT_TRUE(resp.has_job());
    EXPECT_EQ(resp.job().test_id(), id);
    EXPECT_LT(seconds, 1.0) << "the other replica answered " << seconds << " s after the submission";
}
