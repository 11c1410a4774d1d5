// Tests that wait for an approver (CoordinatorOptions::requireApproval, on in xq-coordinator unless
// --no-approval): a user's test is pending and gets no workers until an approver releases it; an
// approver's own tests run at once; a rejected test ends stopped with the reason; and `xq approve` on a
// real cluster.
#include <gtest/gtest.h>
#include <httplib.h>

#include "cluster.h"
#include "expect_error.h"
#include "fixture.h"
#include "web_pages.h"

using namespace xq::coord;
using namespace xq::coord::testing;

namespace {

struct ApprovalFixture : Fixture {
    Caller approver;
    ApprovalFixture() {
        approval = true;
        open();
        makeTokens();
        approver = coord->authenticate(coord->createToken(Role::Approver, "carol"));
    }
    v1::ApproveTestResponse approve(std::uint64_t id, bool reject = false, const std::string& reason = "") {
        v1::ApproveTestRequest r;
        r.set_test_id(id);
        r.set_reject(reject);
        r.set_reason(reason);
        return coord->approveTest(approver, r);
    }
};

}  // namespace

TEST(Approval, AUsersTestWaitsUntilAnApproverReleasesIt) {
    ApprovalFixture f;
    auto id = f.coord->submit(f.user, f.request(10, false)).test_id();
    EXPECT_EQ(f.coord->showTest(std::int64_t(id)).summary().state(), v1::TEST_STATE_PENDING);
    Coordinator::TestQuery q;
    q.state = "pending";
    EXPECT_EQ(f.coord->listTestsPage(q).total, 1) << "the web view's filter finds it";
    auto w = f.registerWorker();
    EXPECT_FALSE(f.job(w).has_job()) << "no worker plays a pending test";
    EXPECT_EQ(f.approve(id).state(), v1::TEST_STATE_RUNNING);
    EXPECT_TRUE(f.job(w).has_job());
    auto events = f.coord->showTest(std::int64_t(id)).events();
    EXPECT_NE(std::find(events.begin(), events.end(), "approved by carol"), events.end());
    EXPECT_EQ(f.coord->listTestsPage(q).total, 0);
}

TEST(Approval, AnApproversOwnTestRunsAtOnceAndARejectedTestEndsStoppedWithTheReason) {
    ApprovalFixture f;
    auto mine = f.coord->submit(f.approver, f.request(10, false)).test_id();
    EXPECT_EQ(f.coord->showTest(std::int64_t(mine)).summary().state(), v1::TEST_STATE_RUNNING);
    auto theirs = f.coord->submit(f.user, f.request(10, false)).test_id();
    EXPECT_EQ(f.approve(theirs, true, "runs an unknown binary").state(), v1::TEST_STATE_STOPPED);
    EXPECT_EQ(f.coord->showTest(std::int64_t(theirs)).summary().result(),
              "rejected by carol: runs an unknown binary");
}

TEST(Approval, OnlyApproversApproveAndOnlyPendingTests) {
    ApprovalFixture f;
    auto id = f.coord->submit(f.user, f.request(10, false)).test_id();
    v1::ApproveTestRequest r;
    r.set_test_id(id);
    EXPECT_NE(messageOf([&] { f.coord->approveTest(f.user, r); }, ErrorCode::PermissionDenied)
                  .find("a user token cannot approve tests"),
              std::string::npos);
    messageOf([&] { f.coord->approveTest(f.worker, r); }, ErrorCode::PermissionDenied);
    f.approve(id);
    EXPECT_NE(
        messageOf([&] { f.approve(id); }, ErrorCode::FailedPrecondition).find("not waiting for approval"),
        std::string::npos);
    messageOf([&] { f.approve(99); }, ErrorCode::NotFound);
}

TEST(Approval, TheSubmitterMayWithdrawAPendingTest) {
    ApprovalFixture f;
    auto id = f.coord->submit(f.user, f.request(10, false)).test_id();
    v1::StopTestRequest stop;
    stop.set_test_id(id);
    stop.set_reason("withdrawn");
    EXPECT_EQ(f.coord->stopTest(f.user, stop).state(), v1::TEST_STATE_STOPPED);
    messageOf([&] { f.approve(id); }, ErrorCode::FailedPrecondition);
}

TEST(Approval, WithApprovalOffEveryUsersTestRunsAtOnce) {
    Fixture f;  // requireApproval is off, as in xq regress
    f.makeTokens();
    auto id = f.coord->submit(f.user, f.request(10, false)).test_id();
    EXPECT_EQ(f.coord->showTest(std::int64_t(id)).summary().state(), v1::TEST_STATE_RUNNING);
}

TEST(Approval, ThePageOfAPendingTestOffersApprovalToApproversOnly) {
    ApprovalFixture f;
    auto id = f.coord->submit(f.user, f.request(10, false)).test_id();
    web::TestPageData d;
    d.view = f.coord->showTest(std::int64_t(id));
    std::string reader = web::testPage({}, d);
    EXPECT_NE(reader.find("Waiting for an approver"), std::string::npos);
    EXPECT_EQ(reader.find("id=\"approve\""), std::string::npos);
    std::string user = web::testPage({"alice", "c", 0, false}, d);
    EXPECT_EQ(user.find("id=\"approve\""), std::string::npos);
    EXPECT_NE(user.find("Stop this test"), std::string::npos) << "a user may withdraw it";
    std::string approver = web::testPage({"carol", "c", 0, true}, d);
    EXPECT_NE(approver.find("id=\"approve\""), std::string::npos);
    EXPECT_NE(approver.find("id=\"reject\""), std::string::npos);
}

// The real binaries: xq-coordinator's default waits for approval, and `xq submit`, `xq tests` and `xq show`
// say so with the command that releases it; `xq approve` with an approver token releases the test and a
// worker plays it to the end.
TEST(Approval, XqApproveReleasesATestOnARealCoordinator) {
    Cluster c;
    c.coordinatorArgs.erase(c.coordinatorArgs.begin());  // leave --no-approval out: the default
    c.coordinatorArgs.insert(c.coordinatorArgs.end(), {"--http", "127.0.0.1:0"});
    c.startCoordinator();
    auto web = c.coordinator->waitForLine("web view on ");
    ASSERT_TRUE(web);
    std::vector<std::string> args = {
        "submit", "--base",    bin("xq-engine"), "--dev", bin("xq-engine"), "--max-moves", "120",
        "--each", "nodes=300", "--games",        "4"};
    for (const auto& a : openingArgs()) args.push_back(a);
    auto submitted = c.xq(args);
    ASSERT_EQ(submitted.code, 0) << submitted.err;
    auto id = std::stoull(lastLine(submitted.out));
    std::string release = "xq approve " + std::to_string(id);
    EXPECT_NE(submitted.out.find("(pending approval)"), std::string::npos) << submitted.out;
    EXPECT_NE(submitted.err.find(release), std::string::npos) << submitted.err;
    auto listed = c.xq({"tests"});
    EXPECT_NE(listed.out.find(release), std::string::npos) << listed.out;
    auto shown = c.xq({"show", std::to_string(id)});
    EXPECT_NE(shown.out.find(release), std::string::npos) << shown.out;
    args.push_back("--json");
    auto asJson = c.xq(args);
    ASSERT_EQ(asJson.code, 0) << asJson.err;
    EXPECT_EQ(nlohmann::json::parse(asJson.out)["state"], "pending") << asJson.out;
    ASSERT_EQ(c.xq({"stop", std::to_string(id + 1)}).code, 0) << "the second copy is withdrawn";
    c.startWorker();
    // The worker asked for a job and was told to wait: its request is parked in the long poll, which the
    // coordinator counts (xq_job_requests_waiting). Only then does "not played" mean "not leased".
    httplib::Client http(*web);
    bool waiting = false;
    for (int i = 0; i < 600 && !waiting; ++i) {
        auto metrics = http.Get("/metrics");
        waiting = metrics && metrics->body.find("\nxq_job_requests_waiting 1\n") != std::string::npos;
        if (!waiting) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_TRUE(waiting) << "the worker never asked for a job\n" << c.workerLogs();
    auto view = c.show(id);
    EXPECT_EQ(view["state"], "pending");
    EXPECT_EQ(view["games"], 0);
    auto refused = c.xq({"approve", std::to_string(id)});
    EXPECT_NE(refused.code, 0);
    EXPECT_NE(refused.err.find("PERMISSION_DENIED"), std::string::npos) << refused.err;
    std::string approver = c.createToken("approver");
    auto ok = c.xq({"approve", std::to_string(id), "--reason", "looks fine"}, approver);
    ASSERT_EQ(ok.code, 0) << ok.err;
    EXPECT_NE(ok.out.find("is running"), std::string::npos) << ok.out;
    view = c.waitFor(id, [](const nlohmann::json& v) { return v["state"] == "finished"; });
    EXPECT_EQ(view["games"], 4);
}
