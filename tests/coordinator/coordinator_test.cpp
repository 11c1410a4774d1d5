// The coordinator's logic without a network: submission, leases, reports, SPRT stops, expiry, restarts.
#include "coordinator.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>

#include "expect_error.h"
#include "fixture.h"
#include "job_player.h"
#include "test_report.h"
#include "test_util.h"
#include "upload_artifact.h"
#include "xiangqi/rules.h"

using namespace xq::coord;
using xq::coord::testing::codeOf;
using xq::coord::testing::Fixture;
using xq::coord::testing::TempDir;
namespace v1 = xq::v1;

TEST(Coordinator, UnknownTokensAndWrongRolesAreRefused) {
    Fixture f;
    f.makeTokens();
    EXPECT_EQ(codeOf([&] { f.coord->authenticate("xq_nonsense"); }), ErrorCode::Unauthenticated);
    EXPECT_EQ(codeOf([&] { f.coord->authenticate(""); }), ErrorCode::Unauthenticated);
    auto req = f.request(10, false);
    EXPECT_EQ(codeOf([&] { f.coord->submit(f.worker, req); }), ErrorCode::PermissionDenied);
    EXPECT_EQ(codeOf([&] { f.coord->stopTest(f.worker, {}); }), ErrorCode::PermissionDenied);
    EXPECT_EQ(codeOf([&] { f.coord->registerWorker(f.user, {}); }), ErrorCode::PermissionDenied);
    v1::CreateTokenRequest userToken;
    userToken.set_role("user");
    EXPECT_EQ(codeOf([&] { f.coord->createTokenFor(f.user, userToken); }), ErrorCode::PermissionDenied);
    EXPECT_EQ(f.coord->listTests({}).tests_size(), 0);
}

TEST(Coordinator, MalformedSubmissionsStoreNothing) {
    Fixture f;
    f.makeTokens();
    auto bad = [&](auto mutate) {
        auto req = f.request(10, false);
        mutate(req);
        return codeOf([&] { f.coord->submit(f.user, req); });
    };
    using R = v1::SubmitRequest;
    EXPECT_EQ(bad([](R& r) { r.mutable_spec()->clear_match(); }), ErrorCode::InvalidArgument);
    EXPECT_EQ(bad([](R& r) {
                  r.mutable_spec()->mutable_match()->mutable_dev()->set_binary_sha256(std::string(64, 'a'));
              }),
              ErrorCode::InvalidArgument);
    EXPECT_EQ(bad([](R& r) { r.mutable_spec()->mutable_match()->mutable_dev()->set_tc("fast please"); }),
              ErrorCode::InvalidArgument);
    EXPECT_EQ(bad([](R& r) { r.mutable_spec()->mutable_match()->mutable_dev()->set_tc(""); }),
              ErrorCode::InvalidArgument);
    EXPECT_EQ(bad([](R& r) { r.mutable_spec()->set_games(0); }), ErrorCode::InvalidArgument);
    EXPECT_EQ(bad([](R& r) {
                  r.mutable_spec()->mutable_sprt()->set_elo0(5);
                  r.mutable_spec()->mutable_sprt()->set_elo1(1);
              }),
              ErrorCode::InvalidArgument);
    EXPECT_EQ(bad([](R& r) { r.mutable_spec()->mutable_match()->mutable_base()->set_protocol("xboard"); }),
              ErrorCode::InvalidArgument);
    EXPECT_EQ(bad([](R& r) { r.mutable_spec()->mutable_match()->set_rules("martian"); }),
              ErrorCode::InvalidArgument);
    EXPECT_EQ(f.coord->listTests({}).tests_size(), 0);
}

TEST(Coordinator, ATestsRuleSetAndPerMoveClockAreStoredShownAndHandedToItsWorkers) {
    Fixture f;
    f.makeTokens();
    auto req = f.request(10, false);
    req.mutable_spec()->mutable_match()->set_rules("chinese");
    for (auto* e : {req.mutable_spec()->mutable_match()->mutable_base(),
                    req.mutable_spec()->mutable_match()->mutable_dev()})
        e->set_tc("tc=permove2+bank60");  // the Chinese rules' per-move clock, as xq submit writes it
    const auto id = f.coord->submit(f.user, req).test_id();
    f.open();  // from the store, not from memory
    const v1::TestView view = f.coord->showTest(std::int64_t(id));
    EXPECT_EQ(view.spec().match().rules(), "chinese");
    EXPECT_NE(testViewText(view).find("  rules      chinese\n"), std::string::npos) << testViewText(view);
    EXPECT_EQ(nlohmann::json::parse(testViewJson(view))["rules"], "chinese") << testViewJson(view);
    const auto job = f.job(f.registerWorker());
    ASSERT_TRUE(job.has_job());
    xq::worker::JobEnvironment env;
    env.concurrency = 2;
    const xq::match::MatchConfig cfg = xq::worker::makeMatchConfig(job.job().match(), env);
    EXPECT_EQ(cfg.adjudication.rules.ruleSet, xq::RuleSet::CHINESE);
    EXPECT_EQ(cfg.adjudication.rules.moveLimitPlies, 80);
    EXPECT_EQ(cfg.engines[0].tc.perMoveMs, 2000);
    EXPECT_EQ(cfg.engines[1].tc.bankMs, 60000);
    // A test without rules is judged by the Asian ones.
    v1::MatchJob unset = job.job().match();
    unset.mutable_spec()->clear_rules();
    EXPECT_EQ(xq::worker::makeMatchConfig(unset, env).adjudication.rules.ruleSet, xq::RuleSet::ASIAN);
}

TEST(Coordinator, TamperedUploadIsRefused) {
    Fixture f;
    f.makeTokens();
    auto up = f.coord->beginUpload(f.user, xq::sha256Hex("original"), 8);
    up->write("tampered");
    EXPECT_THROW(up->finish(), std::invalid_argument);
    EXPECT_FALSE(f.coord->hasArtifact(xq::sha256Hex("original")));
    EXPECT_EQ(codeOf([&] { f.coord->beginUpload(f.user, "not-a-hash", 8); }), ErrorCode::InvalidArgument);
}

TEST(Coordinator, FixedGamesAreLeasedReportedAndFinished) {
    Fixture f;
    f.makeTokens();
    auto id = f.coord->submit(f.user, f.request(10, false)).test_id();
    auto w = f.registerWorker();
    std::uint64_t seq = 0;
    int leases = 0;
    std::set<std::uint64_t> firsts;
    while (true) {
        auto resp = f.job(w);
        if (!resp.has_job()) break;
        ++leases;
        const auto& job = resp.job();
        EXPECT_EQ(job.test_id(), id);
        EXPECT_LE(job.match().pair_count(), 4u);
        EXPECT_TRUE(firsts.insert(job.match().first_pair()).second);
        for (std::uint32_t i = 0; i < job.match().pair_count(); ++i)
            f.coord->report(f.worker, f.reportOf(job, w, ++seq, i, 1, 3));
    }
    EXPECT_EQ(leases, 2);  // 5 pairs in chunks of at most 4
    auto view = f.coord->showTest(std::int64_t(id));
    EXPECT_EQ(view.summary().state(), v1::TEST_STATE_FINISHED);
    EXPECT_EQ(view.summary().games(), 10u);
    EXPECT_EQ(view.summary().penta().counts(3), 5u);
    EXPECT_EQ(view.summary().wdl(0), 5u);
    EXPECT_EQ(view.summary().wdl(1), 5u);
    EXPECT_GT(view.summary().elo(), 0);
    ASSERT_EQ(view.workers_size(), 1);
    EXPECT_EQ(view.workers(0).games(), 10u);
}

TEST(Coordinator, ADamagedArtifactFailsItsTestWhenAWorkerCannotPlay) {
    Fixture f;
    f.makeTokens();
    auto req = f.request(10, false);
    const std::string devSha = req.spec().match().dev().binary_sha256();
    auto id = std::int64_t(f.coord->submit(f.user, req).test_id());
    auto w = f.registerWorker();
    auto release = [&](const std::string& error) {
        auto job = f.job(w);
        ASSERT_TRUE(job.has_job());
        v1::ReleaseRequest r;
        r.set_worker_id(w);
        r.set_lease_id(job.job().lease_id());
        r.set_error(error);
        f.coord->release(f.worker, r);
    };
    // A worker's own trouble with intact artifacts leaves the test running.
    release("engine crashed at startup");
    EXPECT_EQ(f.coord->showTest(id).summary().state(), v1::TEST_STATE_RUNNING);
    // Someone changes the stored dev binary behind the coordinator's back.
    std::ofstream(f.dir.file("data") + "/artifacts/" + devSha, std::ios::app) << "evil";
    release("artifact " + devSha + " failed verification");
    auto view = f.coord->showTest(id);
    EXPECT_EQ(view.summary().state(), v1::TEST_STATE_FAILED);
    EXPECT_NE(view.summary().result().find("dev engine binary " + devSha + " is damaged in the store"),
              std::string::npos)
        << view.summary().result();
    EXPECT_FALSE(f.job(w).has_job());
}

TEST(Coordinator, FixedWorkTestsStopAtTheBook) {
    Fixture f;
    f.makeTokens();
    const std::string book = f.upload(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n"
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1\n"
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/6P2/P1P1P3P/1C5C1/9/RNBAKABNR b - - 0 1\n");
    auto submit = [&](std::uint64_t games, bool sprt, const std::string& baseTc, const std::string& devTc,
                      const std::string& threads = "") {
        auto req = f.request(games, sprt);
        auto* m = req.mutable_spec()->mutable_match();
        m->set_openings_sha256(book);
        m->mutable_base()->set_tc(baseTc);
        m->mutable_dev()->set_tc(devTc);
        if (!threads.empty()) (*m->mutable_dev()->mutable_options())["threads"] = threads;
        auto view = f.coord->showTest(std::int64_t(f.coord->submit(f.user, req).test_id()));
        std::string events;
        for (const auto& e : view.events()) events += e + "\n";
        return std::pair{view.summary().games_target(), events};
    };
    // Three openings hold three distinct pairs at a node or depth limit: 20 games become 6.
    auto [games, events] = submit(20, false, "nodes=1000", "depth=5");
    EXPECT_EQ(games, 6u);
    EXPECT_NE(events.find("game cap lowered from 20 to 6"), std::string::npos) << events;
    EXPECT_NE(events.find("after one pair per opening (3) every pair would replay"), std::string::npos)
        << events;
    // An SPRT's default cap likewise; a test within the book is left alone.
    EXPECT_EQ(submit(0, true, "nodes=1000", "nodes=1000").first, 6u);
    std::tie(games, events) = submit(6, false, "nodes=1000", "nodes=1000");
    EXPECT_EQ(games, 6u);
    EXPECT_EQ(events.find("cap lowered"), std::string::npos) << events;
    // A clock, a move time or a second thread varies the games: no cap.
    EXPECT_EQ(submit(20, false, "nodes=1000", "10+0.1").first, 20u);
    EXPECT_EQ(submit(20, false, "st=0.1", "nodes=1000").first, 20u);
    EXPECT_EQ(submit(20, false, "nodes=1000", "nodes=1000", "2").first, 20u);
    EXPECT_EQ(submit(20, false, "nodes=1000", "nodes=1000", "1").first, 6u);
    // Without a book every pair starts from the start position: one distinct pair.
    auto req = f.request(10, false);
    req.mutable_spec()->mutable_match()->mutable_base()->set_tc("nodes=1000");
    req.mutable_spec()->mutable_match()->mutable_dev()->set_tc("nodes=1000");
    auto view = f.coord->showTest(std::int64_t(f.coord->submit(f.user, req).test_id()));
    EXPECT_EQ(view.summary().games_target(), 2u);
    ASSERT_GE(view.events_size(), 2);
    EXPECT_NE(view.events(1).find("per start position (no book)"), std::string::npos) << view.events(1);
}

TEST(Coordinator, ARepeatedReportIsAcknowledgedButNotCounted) {
    Fixture f;
    f.makeTokens();
    auto id = f.coord->submit(f.user, f.request(100, false)).test_id();
    auto w = f.registerWorker();
    auto job = f.job(w).job();
    auto report = f.reportOf(job, w, 1, 0, 2, 4);
    EXPECT_FALSE(f.coord->report(f.worker, report).duplicate());
    EXPECT_TRUE(f.coord->report(f.worker, report).duplicate());
    EXPECT_EQ(f.coord->showTest(std::int64_t(id)).summary().games(), 4u);
    // The same pairs under a new sequence number are not counted either.
    auto again = f.reportOf(job, w, 2, 0, 2, 4);
    EXPECT_EQ(codeOf([&] { f.coord->report(f.worker, again); }), ErrorCode::InvalidArgument);
    EXPECT_EQ(f.coord->showTest(std::int64_t(id)).summary().games(), 4u);
}

TEST(Coordinator, InconsistentReportsAreRefusedAndStoreNothing) {
    Fixture f;
    f.makeTokens();
    auto id = f.coord->submit(f.user, f.request(100, false)).test_id();
    auto w = f.registerWorker();
    auto job = f.job(w).job();
    auto r = f.reportOf(job, w, 1, 0, 1, 4);
    r.mutable_pairs(0)->set_wins(0);  // WW claimed, games say otherwise
    EXPECT_EQ(codeOf([&] { f.coord->report(f.worker, r); }), ErrorCode::InvalidArgument);
    r = f.reportOf(job, w, 1, 0, 1, 4);
    r.mutable_pairs(0)->set_pair_index(job.match().first_pair() + 1000);
    EXPECT_EQ(codeOf([&] { f.coord->report(f.worker, r); }), ErrorCode::InvalidArgument);
    r = f.reportOf(job, w, 1, 0, 5, 4);  // more pairs than the lease holds
    EXPECT_EQ(codeOf([&] { f.coord->report(f.worker, r); }), ErrorCode::InvalidArgument);
    r = f.reportOf(job, w, 0, 0, 1, 4);
    EXPECT_EQ(codeOf([&] { f.coord->report(f.worker, r); }), ErrorCode::InvalidArgument);
    EXPECT_EQ(f.coord->showTest(std::int64_t(id)).summary().games(), 0u);
    // A valid report with sequence 1 is still accepted: the refused ones left no trace.
    EXPECT_FALSE(f.coord->report(f.worker, f.reportOf(job, w, 1, 0, 1, 4)).duplicate());
}

TEST(Coordinator, AnotherWorkersLeaseCannotBeReportedOn) {
    Fixture f;
    f.makeTokens();
    f.coord->submit(f.user, f.request(100, false));
    auto w1 = f.registerWorker();
    auto w2 = f.registerWorker();
    auto job = f.job(w1).job();
    EXPECT_EQ(codeOf([&] { f.coord->report(f.worker, f.reportOf(job, w2, 1, 0, 1, 2)); }),
              ErrorCode::PermissionDenied);
}

TEST(Coordinator, ExpiredLeasesReturnTheirUnplayedPairs) {
    Fixture f;
    f.makeTokens();
    auto id = f.coord->submit(f.user, f.request(8, false)).test_id();  // 4 pairs
    auto w1 = f.registerWorker();
    auto w2 = f.registerWorker();
    auto job1 = f.job(w1).job();
    EXPECT_EQ(job1.match().pair_count(), 4u);
    f.coord->report(f.worker, f.reportOf(job1, w1, 1, 0, 1, 2));
    EXPECT_FALSE(f.job(w2).has_job());  // everything is leased
    f.clock += 5'000;
    v1::HeartbeatRequest hb;
    hb.set_worker_id(w1);
    hb.set_lease_id(job1.lease_id());
    EXPECT_EQ(f.coord->heartbeat(f.worker, hb).command(), v1::LEASE_CONTINUE);
    f.clock += 9'000;  // 9 s after the heartbeat: still alive
    EXPECT_EQ(f.coord->expireLeases(), 0);
    f.clock += 2'000;  // 11 s: expired
    EXPECT_EQ(f.coord->expireLeases(), 1);
    EXPECT_EQ(f.coord->heartbeat(f.worker, hb).command(), v1::LEASE_STOP);
    // A late report of the expired lease is not counted.
    EXPECT_EQ(codeOf([&] { f.coord->report(f.worker, f.reportOf(job1, w1, 2, 1, 1, 2)); }),
              ErrorCode::FailedPrecondition);
    auto job2 = f.job(w2).job();
    EXPECT_EQ(job2.match().pair_count(), 3u);  // the three unplayed pairs
    f.coord->report(f.worker, f.reportOf(job2, w2, 1, 0, 3, 2));
    auto s = f.coord->showTest(std::int64_t(id)).summary();
    EXPECT_EQ(s.state(), v1::TEST_STATE_FINISHED);
    EXPECT_EQ(s.games(), 8u);
}

TEST(Coordinator, SprtStopsItselfAndTellsWorkers) {
    Fixture f;
    f.makeTokens();
    auto id = f.coord->submit(f.user, f.request(0, true)).test_id();
    auto w = f.registerWorker();
    std::uint64_t seq = 0;
    v1::ReportResponse last;
    for (int round = 0; round < 200; ++round) {
        auto resp = f.job(w);
        if (!resp.has_job()) break;
        last = f.coord->report(f.worker,
                               f.reportOf(resp.job(), w, ++seq, 0, int(resp.job().match().pair_count()), 4));
        if (last.command() == v1::LEASE_STOP) break;
    }
    auto s = f.coord->showTest(std::int64_t(id)).summary();
    EXPECT_EQ(s.state(), v1::TEST_STATE_FINISHED);
    EXPECT_EQ(s.result(), "H1 accepted");
    EXPECT_GT(s.llr(), s.upper_bound());
    EXPECT_FALSE(f.job(w).has_job());
}

TEST(Coordinator, StoppedTestsCancelTheirLeases) {
    Fixture f;
    f.makeTokens();
    auto id = f.coord->submit(f.user, f.request(100, false)).test_id();
    auto w = f.registerWorker();
    auto job = f.job(w).job();
    v1::StopTestRequest stop;
    stop.set_test_id(id);
    EXPECT_EQ(f.coord->stopTest(f.user, stop).state(), v1::TEST_STATE_STOPPED);
    v1::HeartbeatRequest hb;
    hb.set_worker_id(w);
    hb.set_lease_id(job.lease_id());
    auto resp = f.coord->heartbeat(f.worker, hb);
    EXPECT_EQ(resp.command(), v1::LEASE_STOP);
    EXPECT_NE(resp.reason().find("stopped"), std::string::npos);
}

TEST(Coordinator, SuspiciousWorkersAreSuspendedFromTheTest) {
    Fixture f;
    f.makeTokens();
    auto id = f.coord->submit(f.user, f.request(100, false)).test_id();
    auto w = f.registerWorker();
    auto job = f.job(w).job();
    auto r = f.reportOf(job, w, 1, 0, 2, 0);
    r.mutable_failures()->set_crashes(4);
    auto resp = f.coord->report(f.worker, r);
    EXPECT_EQ(resp.command(), v1::LEASE_STOP);
    auto view = f.coord->showTest(std::int64_t(id));
    ASSERT_EQ(view.workers_size(), 1);
    EXPECT_TRUE(view.workers(0).suspended());
    EXPECT_EQ(view.failures().crashes(), 4u);
    bool mentioned = false;
    for (const auto& e : view.events()) mentioned |= e.find("suspended") != std::string::npos;
    EXPECT_TRUE(mentioned);
    EXPECT_FALSE(f.job(w).has_job());  // no more work of this test for it
    EXPECT_TRUE(f.job(f.registerWorker()).has_job());
}

TEST(Coordinator, EverythingSurvivesARestart) {
    Fixture f;
    f.makeTokens();
    auto id = f.coord->submit(f.user, f.request(20, false)).test_id();
    auto w = f.registerWorker();
    auto job = f.job(w).job();
    auto report = f.reportOf(job, w, 1, 0, 2, 3);
    f.coord->report(f.worker, report);
    f.open();  // a new process on the same data: the lease, the token and the counts are still there
    EXPECT_TRUE(f.coord->report(f.worker, report).duplicate());
    EXPECT_FALSE(f.coord->report(f.worker, f.reportOf(job, w, 2, 2, 2, 1)).duplicate());
    auto s = f.coord->showTest(std::int64_t(id)).summary();
    EXPECT_EQ(s.games(), 8u);
    EXPECT_EQ(s.penta().counts(3), 2u);
    EXPECT_EQ(s.penta().counts(1), 2u);
    EXPECT_EQ(s.state(), v1::TEST_STATE_RUNNING);
    EXPECT_EQ(f.coord->storeForTesting().countPairs(std::int64_t(id)), 4);
}

TEST(Coordinator, RateLimitPerToken) {
    Fixture f;
    CoordinatorOptions o = f.options();
    o.dataDir = f.dir.file("limited");
    o.requestsPerSecondPerToken = 1;
    o.requestBurstPerToken = 3;
    o.clockMs = {};
    Coordinator c(o);
    std::string t = c.createToken(Role::User, "spammer");
    for (int i = 0; i < 3; ++i) c.authenticate(t);
    EXPECT_EQ(codeOf([&] { c.authenticate(t); }), ErrorCode::ResourceExhausted);
}
