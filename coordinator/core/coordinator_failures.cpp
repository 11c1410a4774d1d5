// The Coordinator's failed tests: a test whose leases fail again and again (an engine that does not start,
// games that all crash) fails with the reason instead of being handed out forever (failedLeasesReason,
// kinds/scheduler.h), and a user may resume it.
#include "coordinator.h"

namespace xq::coord {

void Coordinator::countLease(TestRow& test, bool failed, const std::string& lastError) {
    if (!failed) {
        store_.clearFailedLeases(test.id);
        return;
    }
    std::int64_t inARow = store_.countFailedLease(test.id);
    if (test.state != TestState::Running) return;
    if (std::string why = failedLeasesReason(inARow, options_.maxFailedLeases, lastError); !why.empty())
        finishTest(test, TestState::Failed, why);
}

v1::ResumeTestResponse Coordinator::resumeTest(const Caller& caller, const v1::ResumeTestRequest& req) {
    require(caller, Role::User, "resume tests");
    WriteLock lock(*this);
    Transaction tx(store_.db());
    auto t = store_.findTest(std::int64_t(req.test_id()));
    if (!t) fail(ErrorCode::NotFound, "no test " + std::to_string(req.test_id()));
    if (t->state != TestState::Failed)
        fail(ErrorCode::FailedPrecondition, "test " + std::to_string(t->id) + " is " + toString(t->state) +
                                                ", not failed: only a failed test can be resumed");
    t->state = TestState::Running;
    t->result.clear();
    t->finishedMs = 0;
    store_.saveTest(*t);
    // The count of failed leases starts again, and so do a datagen test's counts of its slices' failures.
    store_.clearFailedLeases(t->id);
    data_.clearSliceFailures(t->id);
    store_.addEvent(
        t->id, nowMs(),
        "resumed by " + (caller.name.empty() ? "token " + std::to_string(caller.tokenId) : caller.name));
    workAppeared(store_.db());
    tx.commit();
    v1::ResumeTestResponse resp;
    resp.set_state(toProto(t->state));
    return resp;
}

}  // namespace xq::coord
