// SPSA tests on the coordinator without a network (coordinator/spsa_kind.h): what a submission must give,
// the engines a lease plays (θ ± c_k Δ), how each report moves θ, the summary, and the end.
#include <gtest/gtest.h>

#include <cmath>

#include "expect_error.h"
#include "fixture.h"
#include "spsa.h"
#include "spsa_kind.h"
#include "web_pages.h"

using namespace xq::coord;
using namespace xq::coord::testing;

namespace {

v1::SubmitRequest spsaRequest(Fixture& f, std::uint64_t games) {
    v1::SubmitRequest req;
    auto* sp = req.mutable_spec()->mutable_spsa();
    std::string engine = f.upload("the engine");
    for (auto* e : {sp->mutable_match()->mutable_base(), sp->mutable_match()->mutable_dev()}) {
        e->set_binary_sha256(engine);
        e->set_tc("nodes=1000");
    }
    auto* p = sp->add_params();
    p->set_name("LmrBase");
    p->set_start(200);
    p->set_min(100);
    p->set_max(300);
    p->set_c_end(10);
    p->set_r_end(0.002);
    auto* q = sp->add_params();
    q->set_name("NmpBase");
    q->set_start(160);
    q->set_min(0);
    q->set_max(400);
    q->set_c_end(16);
    q->set_r_end(0.002);
    req.mutable_spec()->set_games(games);
    return req;
}

double optionOf(const v1::EngineSpec& e, const std::string& name) {
    return std::stod(e.options().at(name));
}

}  // namespace

TEST(SpsaJobs, ASubmissionNamesWhatIsWrongWithItsParameters) {
    Fixture f;
    f.makeTokens();
    auto expectBad = [&](const std::function<void(v1::SubmitRequest&)>& change, const std::string& message) {
        auto req = spsaRequest(f, 100);
        change(req);
        std::string what = messageOf([&] { f.coord->submit(f.user, req); }, ErrorCode::InvalidArgument);
        EXPECT_NE(what.find(message), std::string::npos) << what;
    };
    expectBad([](auto& r) { r.mutable_spec()->mutable_spsa()->clear_params(); }, "give 1 to 64 parameters");
    expectBad([](auto& r) { r.mutable_spec()->mutable_spsa()->mutable_params(1)->set_name("LmrBase"); },
              "'LmrBase' is given twice");
    expectBad([](auto& r) { r.mutable_spec()->mutable_spsa()->mutable_params(0)->set_start(400); },
              "the start value must lie in [min, max]");
    expectBad([](auto& r) { r.mutable_spec()->mutable_spsa()->mutable_params(0)->set_c_end(0); },
              "c_end and r_end must be above 0");
    expectBad([](auto& r) { r.mutable_spec()->mutable_spsa()->mutable_params(0)->set_max(50); },
              "min must be below max");
    expectBad([](auto& r) { r.mutable_spec()->set_games(0); }, "needs at least one iteration");
    expectBad([](auto& r) { r.mutable_spec()->mutable_sprt()->set_elo1(5); }, "an SPSA test has no SPRT");
    expectBad([](auto& r) { r.mutable_spec()->mutable_spsa()->mutable_match()->mutable_dev()->set_tc("x"); },
              "dev time control");
}

TEST(SpsaJobs, ALeasePlaysThetaPlusAgainstThetaMinusAndEachReportMovesTheta) {
    Fixture f;
    f.makeTokens();
    auto id = f.coord->submit(f.user, spsaRequest(f, 200)).test_id();  // 100 iterations
    auto spec = f.coord->showTest(std::int64_t(id)).spec().spsa();
    EXPECT_NEAR(spec.alpha(), 0.602, 1e-12) << "defaults are spelled out in the stored spec";
    EXPECT_NEAR(spec.gamma(), 0.101, 1e-12);
    EXPECT_NEAR(spec.a(), 10, 1e-12) << "A defaults to a tenth of the iterations";

    auto w = f.registerWorker();
    auto job = f.job(w).job();
    ASSERT_TRUE(job.has_match());
    const auto& m = job.match().spec();
    EXPECT_EQ(m.dev().name(), "spsa+");
    EXPECT_EQ(m.base().name(), "spsa-");
    xq::stats::SpsaSchedule s{100, 0.602, 0.101, 10};
    const std::string flips = SpsaKind::flipsFor(std::int64_t(id), std::int64_t(job.lease_id()), 2);
    const double c0 = xq::stats::spsaPerturbation({100, 300, 10, 0.002}, s, 0);
    const int sign = flips[0] == '+' ? 1 : -1;
    EXPECT_EQ(optionOf(m.dev(), "LmrBase"), double(std::llround(200 + sign * c0)));
    EXPECT_EQ(optionOf(m.base(), "LmrBase"), double(std::llround(200 - sign * c0)));
    EXPECT_NE(optionOf(m.dev(), "NmpBase"), optionOf(m.base(), "NmpBase"));

    // θ+ wins both games of a pair: θ moves toward θ+ by (a_0 / c_0) * 2.
    auto r = f.reportOf(job, w, 1, 0, 1, 4);
    EXPECT_FALSE(f.coord->report(f.worker, r).duplicate());
    auto view = f.coord->showTest(std::int64_t(id));
    const auto& progress = view.summary().spsa();
    EXPECT_EQ(progress.iterations(), 1u);
    EXPECT_EQ(progress.iterations_target(), 100u);
    const double step = xq::stats::spsaStepSize({100, 300, 10, 0.002}, s, 0) / c0 * 2;
    EXPECT_NEAR(progress.params(0).value(), 200 + sign * step, 1e-9);
    EXPECT_EQ(progress.params(0).name(), "LmrBase");
    // A repeated report changes nothing.
    EXPECT_TRUE(f.coord->report(f.worker, r).duplicate());
    EXPECT_NEAR(f.coord->showTest(std::int64_t(id)).summary().spsa().params(0).value(), 200 + sign * step,
                1e-9);
    // The history starts at the start values and has a point for the report.
    ASSERT_GE(view.spsa_history_size(), 2);
    EXPECT_EQ(view.spsa_history(0).values(0), 200);
    EXPECT_EQ(view.spsa_history(view.spsa_history_size() - 1).iteration(), 1u);
    // A drawn pair moves nothing.
    auto draw = f.reportOf(job, w, 2, 1, 1, 2);
    f.coord->report(f.worker, draw);
    EXPECT_NEAR(f.coord->showTest(std::int64_t(id)).summary().spsa().params(0).value(), 200 + sign * step,
                1e-9);
    EXPECT_EQ(f.coord->showTest(std::int64_t(id)).summary().spsa().iterations(), 2u);
}

TEST(SpsaJobs, TheTestEndsWhenItsIterationsAreCounted) {
    Fixture f;
    f.makeTokens();
    auto id = f.coord->submit(f.user, spsaRequest(f, 4)).test_id();  // 2 iterations
    auto w = f.registerWorker();
    auto job = f.job(w).job();
    ASSERT_EQ(job.match().pair_count(), 2u);
    auto resp = f.coord->report(f.worker, f.reportOf(job, w, 1, 0, 2, 3));
    auto view = f.coord->showTest(std::int64_t(id));
    EXPECT_EQ(view.summary().state(), v1::TEST_STATE_FINISHED);
    EXPECT_EQ(view.summary().result(), "finished after 2 iterations");
    EXPECT_EQ(view.summary().kind(), "spsa");
    EXPECT_FALSE(f.job(w).has_job());
}

TEST(SpsaJobs, AnExpiredLeaseReturnsItsIterationsAndTheNextOneDrawsAgain) {
    Fixture f;
    f.makeTokens();
    auto id = f.coord->submit(f.user, spsaRequest(f, 8)).test_id();  // 4 iterations
    auto w = f.registerWorker();
    auto first = f.job(w).job();
    f.clock += 11'000;  // past the 10 s lease timeout without a heartbeat
    EXPECT_EQ(f.coord->expireLeases(), 1);
    auto second = f.job(w).job();
    EXPECT_NE(second.lease_id(), first.lease_id());
    EXPECT_EQ(second.match().first_pair(), first.match().first_pair() + first.match().pair_count());
    EXPECT_EQ(f.coord->showTest(std::int64_t(id)).summary().spsa().iterations(), 0u);
}

// The web view's test page of an SPSA test: a row and a chart for every parameter, names escaped; the
// tests list shows the values.
TEST(SpsaJobs, TheTestPageTablesAndChartsEveryParameter) {
    Fixture f;
    f.makeTokens();
    auto req = spsaRequest(f, 20);
    req.mutable_spec()->mutable_spsa()->mutable_params(1)->set_name("<b>Nmp");
    auto id = std::int64_t(f.coord->submit(f.user, req).test_id());
    auto w = f.registerWorker();
    auto job = f.job(w).job();
    f.coord->report(f.worker, f.reportOf(job, w, 1, 0, 1, 4));
    web::TestPageData d;
    d.view = f.coord->showTest(id);
    std::string page = web::testPage({}, d);
    EXPECT_NE(page.find("<h2>Parameters</h2>"), std::string::npos);
    EXPECT_NE(page.find("<td>LmrBase</td>"), std::string::npos);
    EXPECT_NE(page.find("&lt;b&gt;Nmp"), std::string::npos);
    EXPECT_EQ(page.find("<b>Nmp"), std::string::npos);
    std::size_t charts = 0;
    for (auto at = page.find("class=\"spsa-chart\""); at != std::string::npos;
         at = page.find("class=\"spsa-chart\"", at + 1))
        ++charts;
    EXPECT_EQ(charts, 2u);
    EXPECT_NE(page.find("xq spsa export " + std::to_string(id)), std::string::npos);
    std::string list = web::testsPage({}, {}, f.coord->listTestsPage({}));
    EXPECT_NE(list.find("1 / 10 iterations: LmrBase"), std::string::npos) << list;
}

TEST(SpsaJobs, AnEngineThatDoesNotStartFailsTheTest) {
    Fixture f;
    f.makeTokens();
    auto id = f.coord->submit(f.user, spsaRequest(f, 200)).test_id();
    auto w = f.registerWorker();
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(f.coord->showTest(std::int64_t(id)).summary().state(), v1::TEST_STATE_RUNNING);
        ASSERT_TRUE(f.failLease(w, "engine 'dev' did not start: exit code 127"));
    }
    auto view = f.coord->showTest(std::int64_t(id));
    EXPECT_EQ(view.summary().state(), v1::TEST_STATE_FAILED);
    EXPECT_NE(view.summary().result().find("5 leases in a row failed"), std::string::npos);
    EXPECT_EQ(view.failures().crashes(), 5u);
}
