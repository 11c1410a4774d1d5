// The web view's parts without a server: the games workers send with their reports, the coordinator's
// pages of tests and history, HTML escaping, the SVG charts and the Prometheus text.
#include <gtest/gtest.h>

#include <cstdio>

#include "charts.h"
#include "data_chunk.h"
#include "fixture.h"
#include "html.h"
#include "metrics.h"
#include "process.h"
#include "schema_rewind.h"
#include "web_pages.h"

using namespace xq::coord;
using xq::coord::testing::countOf;
using xq::coord::testing::Fixture;
using xq::coord::testing::pgnOfGames;
using xq::coord::testing::rewindSchema;
namespace v1 = xq::v1;

namespace {

// Everything stored for the test, as one text.
std::string storedGames(Coordinator& coord, std::int64_t testId, std::size_t pageBytes) {
    std::string gz;
    std::int64_t cursor = 0;
    while (true) {
        auto page = coord.gamesPage(testId, cursor, pageBytes);
        if (page.members.empty()) break;
        cursor = page.cursor;
        for (const auto& m : page.members) gz += m;
    }
    return gz.empty() ? "" : gunzipText(gz, 1 << 24, true);
}

}  // namespace

TEST(ReportGames, AreStoredBesideTheResultsAndDownloadAsOneGzipFile) {
    Fixture f;
    f.makeTokens();
    auto id = std::int64_t(f.coord->submit(f.user, f.request(8, false)).test_id());
    auto w = f.registerWorker();
    auto job = f.job(w).job();
    auto r1 = f.reportOf(job, w, 1, 0, 2, 2);
    r1.set_pgn_gz(gzipText(pgnOfGames(4, " first")));
    f.coord->report(f.worker, r1);
    auto r2 = f.reportOf(job, w, 2, 2, 1, 3);
    r2.set_pgn(pgnOfGames(2, " second"));  // plain text from an older worker is compressed on arrival
    f.coord->report(f.worker, r2);
    // A repeated report stores its games once, like its results.
    f.coord->report(f.worker, r2);

    auto totals = f.coord->gameTotals(id);
    EXPECT_EQ(totals.reports, 2);
    EXPECT_EQ(totals.games, 6);
    EXPECT_GT(totals.bytes, 0);
    for (std::size_t pageBytes : {std::size_t(1), std::size_t(1) << 20}) {
        std::string text = storedGames(*f.coord, id, pageBytes);
        EXPECT_EQ(countOf(text, "[Event "), 6) << "page size " << pageBytes;
        EXPECT_LT(text.find("first"), text.find("second")) << "in the order the reports arrived";
    }
    // Survives a restart like every acknowledged result.
    f.open();
    EXPECT_EQ(f.coord->gameTotals(id).games, 6);
}

TEST(ReportGames, APgnThatBreaksTheRulesIsDroppedButTheResultsCount) {
    Fixture f;
    f.makeTokens();
    auto id = std::int64_t(f.coord->submit(f.user, f.request(8, false)).test_id());
    auto w = f.registerWorker();
    auto job = f.job(w).job();
    auto wrongCount = f.reportOf(job, w, 1, 0, 1, 2);
    wrongCount.set_pgn_gz(gzipText(pgnOfGames(3)));
    f.coord->report(f.worker, wrongCount);
    auto notGzip = f.reportOf(job, w, 2, 1, 1, 2);
    notGzip.set_pgn_gz("this is not gzip at all, just bytes");
    f.coord->report(f.worker, notGzip);
    auto bomb = f.reportOf(job, w, 3, 2, 1, 2);
    bomb.set_pgn_gz(gzipText(std::string(MaxReportPgnTextBytes + 1, 'x')));
    f.coord->report(f.worker, bomb);

    auto view = f.coord->showTest(id);
    EXPECT_EQ(view.summary().games(), 6u) << "results of all three reports count";
    EXPECT_EQ(f.coord->gameTotals(id).games, 0);
    int dropped = 0;
    for (const auto& e : view.events()) dropped += e.find("not kept") != std::string::npos;
    EXPECT_EQ(dropped, 3);
    bool namesTheCount = false;
    for (const auto& e : view.events())
        namesTheCount |= e.find("PGN holds 3 games, the report 2") != std::string::npos;
    EXPECT_TRUE(namesTheCount);
    EXPECT_EQ(f.coord->metrics().pgnDropped.load(), 3u);
}

TEST(TestPages, ListRunningFirstThenNewestAndFilterByStateAndSubmitter) {
    Fixture f;
    f.makeTokens();
    Caller bob = f.coord->authenticate(f.coord->createToken(Role::User, "bob"));
    std::vector<std::int64_t> ids;
    for (int i = 0; i < 5; ++i) {
        auto req = f.request(10, false);
        ids.push_back(std::int64_t(f.coord->submit(i % 2 ? bob : f.user, req).test_id()));
    }
    v1::StopTestRequest stop;
    stop.set_test_id(std::uint64_t(ids[4]));
    f.coord->stopTest(f.user, stop);

    auto all = f.coord->listTestsPage({});
    ASSERT_EQ(all.total, 5);
    std::vector<std::uint64_t> order;
    for (const auto& v : all.tests) order.push_back(v.summary().id());
    EXPECT_EQ(order, (std::vector<std::uint64_t>{4, 3, 2, 1, 5})) << "running first, newest first";
    EXPECT_EQ(all.tests[0].spec().submitter(), "bob");

    auto bobs = f.coord->listTestsPage({"", "bob", 0, 50});
    EXPECT_EQ(bobs.total, 2);
    for (const auto& v : bobs.tests) EXPECT_EQ(v.spec().submitter(), "bob");
    auto stopped = f.coord->listTestsPage({"stopped", "", 0, 50});
    ASSERT_EQ(stopped.total, 1);
    EXPECT_EQ(stopped.tests[0].summary().id(), 5u);
    auto second = f.coord->listTestsPage({"", "", 2, 2});
    EXPECT_EQ(second.total, 5);
    ASSERT_EQ(second.tests.size(), 2u);
    EXPECT_EQ(second.tests[0].summary().id(), 2u);
    EXPECT_THROW(f.coord->listTestsPage({"sleeping", "", 0, 50}), CoordError);
}

TEST(TestPages, HistoryEndsAtTheTestsCurrentLlrAndElo) {
    Fixture f;
    f.makeTokens();
    auto id = std::int64_t(f.coord->submit(f.user, f.request(0, true)).test_id());
    auto w = f.registerWorker();
    std::uint64_t seq = 0;
    for (int round = 0; round < 6; ++round) {
        auto resp = f.job(w);
        ASSERT_TRUE(resp.has_job());
        const auto& job = resp.job();
        for (std::uint32_t i = 0; i < job.match().pair_count(); ++i)
            f.coord->report(f.worker, f.reportOf(job, w, ++seq, i, 1, i % 2 ? 3 : 2));
    }
    auto view = f.coord->showTest(id);
    auto history = f.coord->testHistory(id);
    ASSERT_FALSE(history.empty());
    EXPECT_EQ(history.back().games, std::int64_t(view.summary().games()));
    EXPECT_NEAR(history.back().llr, view.summary().llr(), 1e-9);
    EXPECT_NEAR(history.back().elo, view.summary().elo(), 1e-9);
    for (std::size_t i = 1; i < history.size(); ++i) EXPECT_GT(history[i].games, history[i - 1].games);
    auto thin = f.coord->testHistory(id, 5);
    EXPECT_LE(thin.size(), 5u);
    EXPECT_EQ(thin.back().games, history.back().games);
}

TEST(Html, EscapesEveryCharacterThatCouldOpenMarkup) {
    EXPECT_EQ(html::escape("<script>alert('x&y')</script>\""),
              "&lt;script&gt;alert(&#39;x&amp;y&#39;)&lt;/script&gt;&quot;");
    EXPECT_EQ(html::urlEncode("a b&c=d/é"), "a%20b%26c%3Dd%2F%C3%A9");
}

TEST(WebPages, AScriptInATestsTextStaysText) {
    Fixture f;
    f.makeTokens();
    auto req = f.request(10, false);
    const std::string evil = "<script>alert(1)</script>";
    req.mutable_spec()->set_description(evil);
    req.mutable_spec()->mutable_match()->mutable_dev()->set_name("\"><img src=x onerror=alert(2)>");
    (*req.mutable_spec()->mutable_match()->mutable_base()->mutable_options())["<b>"] = "</td>";
    auto id = std::int64_t(f.coord->submit(f.user, req).test_id());
    web::PageContext ctx{"alice", "token\"<", 0};
    web::TestsPageQuery q;
    q.submitter = "<i>";
    std::string list = web::testsPage(ctx, q, f.coord->listTestsPage({}));
    web::TestPageData d;
    d.view = f.coord->showTest(id);
    std::string page = web::testPage(ctx, d);
    for (const auto* html : {&list, &page}) {
        EXPECT_EQ(html->find(evil), std::string::npos);
        EXPECT_NE(html->find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
        EXPECT_EQ(html->find("<img src=x"), std::string::npos);
        EXPECT_EQ(html->find("token\"<"), std::string::npos);
        // The only scripts are the page's own.
        EXPECT_EQ(countOf(*html, "<script"), 1);
    }
    EXPECT_EQ(list.find("<i>"), std::string::npos);
    EXPECT_NE(page.find("&lt;b&gt;=&lt;/td&gt;"), std::string::npos);
}

TEST(WebPages, ARunningTestsFiguresAreMarkedLiveAndAFinishedTestsAreNot) {
    Fixture f;
    f.makeTokens();
    auto id = std::int64_t(f.coord->submit(f.user, f.request(10, true)).test_id());
    web::TestPageData d;
    d.view = f.coord->showTest(id);
    std::string running = web::testPage({}, d);
    EXPECT_NE(running.find("id=\"results\" data-live"), std::string::npos);
    EXPECT_EQ(running.find("Stop this test"), std::string::npos) << "readers get no stop button";
    EXPECT_NE(web::testPage({"alice", "c", 0}, d).find("Stop this test"), std::string::npos);
    v1::StopTestRequest stop;
    stop.set_test_id(std::uint64_t(id));
    f.coord->stopTest(f.user, stop);
    d.view = f.coord->showTest(id);
    EXPECT_EQ(web::testPage({}, d).find("data-live"), std::string::npos);
}

TEST(Charts, DrawTheSeriesTheBandAndTheBounds) {
    Chart c;
    c.title = "LLR <1>";
    c.x = {0, 100, 200};
    c.y = {0, 1.5, -0.5};
    c.bandLow = {-1, 0.5, -1.5};
    c.bandHigh = {1, 2.5, 0.5};
    c.lines = {{2.94, "H1"}, {-2.94, "H0"}};
    std::string svg = svgChart(c);
    EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
    EXPECT_EQ(countOf(svg, "<polyline class=\"series\""), 1);
    EXPECT_EQ(countOf(svg, "<polygon class=\"band\""), 1);
    EXPECT_EQ(countOf(svg, "class=\"bound\""), 2);
    EXPECT_NE(svg.find("LLR &lt;1&gt;"), std::string::npos);
    EXPECT_EQ(svg.substr(svg.size() - 6), "</svg>");
    Chart empty;
    empty.title = "Elo";
    EXPECT_NE(svgChart(empty).find("no games yet"), std::string::npos);
}

TEST(Charts, SmallValuesGetDistinctTickLabelsAndALonePointIsMarked) {
    // A run's validation losses: one generation's network against the start's line.
    Chart c;
    c.title = "Validation loss";
    c.x = {1};
    c.y = {0.0061};
    c.lines = {{0.00593, "start"}};
    std::string svg = svgChart(c);
    EXPECT_EQ(countOf(svg, "<circle class=\"point\""), 1);
    // Ticks 0.00005 apart, each with the digits that tell it from the next, not all "0.01".
    EXPECT_EQ(countOf(svg, ">0.01</text>"), 0) << svg;
    EXPECT_NE(svg.find(">0.00600</text>"), std::string::npos) << svg;
    EXPECT_NE(svg.find(">0.00605</text>"), std::string::npos) << svg;
}

TEST(Metrics, PassPromtoolsCheckOfTheTextFormat) {
    Metrics m;
    m.reports += 3;
    m.games += 24;
    m.leaseGrants += 2;
    m.observeRpc("/xq.v1.WorkerService/ReportResults", 0.003, true);
    m.observeRpc("/xq.v1.WorkerService/ReportResults", 0.2, false);
    m.observeHttp("GET /tests/:id", 0.004);
    Gauges g;
    g.testsRunning = 2;
    std::string text = m.render(g);
    EXPECT_NE(text.find("xq_games_total 24\n"), std::string::npos);
    EXPECT_NE(text.find("xq_tests{state=\"running\"} 2\n"), std::string::npos);
    EXPECT_NE(
        text.find(
            "xq_rpc_duration_seconds_bucket{method=\"/xq.v1.WorkerService/ReportResults\",le=\"+Inf\"} 2\n"),
        std::string::npos);
    EXPECT_NE(text.find("xq_rpc_duration_seconds_count{method=\"/xq.v1.WorkerService/ReportResults\"} 2\n"),
              std::string::npos);
    xq::coord::testing::TempDir dir;
    std::string path = dir.file("metrics.txt");
    xq::coord::testing::writeFile(path, text);
    auto r = xq::coord::testing::runCommand({"/bin/sh", "-c", "promtool check metrics < " + path}, dir.path);
    EXPECT_EQ(r.code, 0) << r.out << r.err;
}

TEST(WebPages, ATestFromSourceShowsBothCommitsWithSubjectsAndTheCompare) {
    web::TestPageData d;
    d.view.mutable_summary()->set_id(7);
    d.view.mutable_summary()->set_state(v1::TEST_STATE_RUNNING);
    auto* m = d.view.mutable_spec()->mutable_match();
    auto source = [](v1::EngineSpec* e, const std::string& commit, const std::string& subject) {
        e->set_name("engine");
        e->mutable_source()->set_commit(commit);
        e->mutable_source()->set_subject(subject);
        e->mutable_source()->set_build_command("make <all>");
    };
    source(m->mutable_base(), std::string(40, 'a'), "main: the old <b>eval</b>");
    source(m->mutable_dev(), std::string(40, 'b'), "search: sharper futility");
    std::string page = web::testPage({}, d);
    EXPECT_NE(page.find(std::string(12, 'a') + ".." + std::string(12, 'b')), std::string::npos);
    EXPECT_NE(page.find("search: sharper futility"), std::string::npos);
    EXPECT_NE(page.find("main: the old &lt;b&gt;eval&lt;/b&gt;"), std::string::npos);
    EXPECT_NE(page.find("make &lt;all&gt;"), std::string::npos);
}

TEST(TestPages, ALaddersTestsListOldestFirstPageByPage) {
    Fixture f;
    f.makeTokens();
    std::vector<std::uint64_t> rungs;
    for (int i = 0; i < 5; ++i) {
        auto req = f.request(10, false);
        if (i != 2) req.mutable_spec()->set_ladder("main");
        auto id = f.coord->submit(f.user, req).test_id();
        if (i != 2) rungs.push_back(id);
    }
    v1::ListTestsRequest req;
    req.set_ladder("main");
    req.set_limit(3);
    auto first = f.coord->listTests(req);
    EXPECT_TRUE(first.more());
    req.set_offset(3);
    auto second = f.coord->listTests(req);
    EXPECT_FALSE(second.more());
    std::vector<std::uint64_t> listed;
    for (const auto* page : {&first, &second})
        for (const auto& t : page->tests()) listed.push_back(t.id());
    EXPECT_EQ(listed, rungs);
    EXPECT_EQ(f.coord->ladderTests("main").size(), 4u);
    EXPECT_TRUE(f.coord->ladderTests("other").empty());
}

TEST(TestPages, AStoreFromBeforeTheLadderColumnKeepsItsLadders) {
    Fixture f;
    f.makeTokens();
    auto req = f.request(10, false);
    req.mutable_spec()->set_ladder("main");
    auto id = f.coord->submit(f.user, req).test_id();
    // Back to schema 4: no ladder column (5) and none of what came after.
    auto& db = f.coord->storeForTesting().db();
    rewindSchema(db, 4);
    f.open();
    auto tests = f.coord->ladderTests("main");
    ASSERT_EQ(tests.size(), 1u);
    EXPECT_EQ(tests[0].summary().id(), id);
}

TEST(TestPages, AllTestsListPageByPageWithoutEnd) {
    Fixture f;
    f.makeTokens();
    for (int i = 0; i < 5; ++i) f.coord->submit(f.user, f.request(10, false));
    v1::ListTestsRequest req;
    req.set_limit(2);
    std::vector<std::uint64_t> ids;
    while (true) {
        auto page = f.coord->listTests(req);
        for (const auto& t : page.tests()) ids.push_back(t.id());
        if (!page.more()) break;
        req.set_offset(req.offset() + std::uint64_t(page.tests_size()));
    }
    EXPECT_EQ(ids, (std::vector<std::uint64_t>{5, 4, 3, 2, 1}));
}
