// What the web view and `xq show` say, word for word, where a new user read them: no "-0.0", counts with
// their nouns in the singular and plural, a finished test's result that says how it ended, every column
// named, every command a page names one that exists, the ladders' index and chart, the stop form's
// question and the pages' icon.
#include <gtest/gtest.h>
#include <httplib.h>

#include <array>
#include <regex>

#include "charts.h"
#include "fixture.h"
#include "html.h"
#include "process.h"
#include "server.h"
#include "test_report.h"
#include "test_store.h"
#include "util/text.h"
#include "web_assets.h"
#include "web_pages.h"

using namespace xq::coord;
using namespace xq::coord::testing;
namespace v1 = xq::v1;

namespace {

v1::TestView finishedFixedTest(Fixture& f, std::int64_t* id = nullptr) {
    f.makeTokens();
    auto test = std::int64_t(f.coord->submit(f.user, f.request(8, false)).test_id());
    if (id) *id = test;
    auto w = f.registerWorker();
    auto job = f.job(w).job();
    f.coord->report(f.worker, f.reportOf(job, w, 1, 0, 4, 2));
    return f.coord->showTest(test);
}

// A test's summary as the pages show it, with the figures given.
v1::TestView viewWith(double elo, double eloError, std::uint32_t activeWorkers) {
    v1::TestView v;
    auto* s = v.mutable_summary();
    s->set_id(7);
    s->set_state(v1::TEST_STATE_RUNNING);
    s->set_games(100);
    s->set_games_target(1000);
    for (int i = 0; i < 3; ++i) s->add_wdl(30 + i);
    s->set_elo(elo);
    s->set_elo_error(eloError);
    s->set_active_workers(activeWorkers);
    s->set_is_sprt(true);
    s->set_lower_bound(-2.94);
    s->set_upper_bound(2.94);
    s->set_llr(-0.0001);
    auto* m = v.mutable_spec()->mutable_match();
    m->mutable_dev()->set_tc("10+0.1");
    m->mutable_base()->set_tc("10+0.1");
    return v;
}

// The words of each <code>xq ...</code> (and xq-coordinator) a page names.
std::vector<std::vector<std::string>> commandsOn(const std::string& page) {
    std::vector<std::vector<std::string>> out;
    std::regex code("<code[^>]*>((xq|xq-coordinator) [^<]*)</code>");
    for (std::sregex_iterator it(page.begin(), page.end(), code), end; it != end; ++it)
        out.push_back(xq::words((*it)[1].str()));
    return out;
}

}  // namespace

TEST(Wording, NoFigureIsPrintedAsNegativeZero) {
    EXPECT_EQ(html::fixed(-0.0, 1), "0.0");
    EXPECT_EQ(html::fixed(-0.04, 1), "0.0");
    EXPECT_EQ(html::fixed(-0.001, 2), "0.00");
    EXPECT_EQ(html::fixed(-0.06, 1), "-0.1");
    EXPECT_EQ(html::fixed(-3, 0), "-3");
    const auto v = viewWith(-0.0001, 8.5, 2);
    web::PageContext ctx;
    Coordinator::TestPage list;
    list.tests.push_back(v);
    list.total = 1;
    const std::string tests = web::testsPage(ctx, {}, list);
    EXPECT_NE(tests.find("0.0 &plusmn; 8.5"), std::string::npos);
    EXPECT_EQ(tests.find("-0.0"), std::string::npos) << tests;
    web::TestPageData d;
    d.view = v;
    EXPECT_EQ(web::testPage(ctx, d).find("-0.0"), std::string::npos);
    // `xq show` and the list of `xq tests`.
    EXPECT_EQ(testViewText(v).find("-0.0"), std::string::npos) << testViewText(v);
    EXPECT_EQ(testSummaryLine(v.summary()).find("-0.0"), std::string::npos) << testSummaryLine(v.summary());
}

TEST(Wording, CountsTakeTheSingularForOne) {
    web::PageContext ctx;
    web::TestPageData d;
    d.view = viewWith(1, 2, 1);
    const std::string page = web::testPage(ctx, d);
    EXPECT_NE(page.find("1 worker active"), std::string::npos);
    EXPECT_EQ(page.find("1 workers"), std::string::npos);
    EXPECT_NE(testViewText(d.view).find("1 worker active"), std::string::npos) << testViewText(d.view);
    d.view.mutable_summary()->set_active_workers(2);
    EXPECT_NE(web::testPage(ctx, d).find("2 workers active"), std::string::npos);

    v1::ListWorkersResponse workers;
    workers.add_workers()->set_name("box");
    EXPECT_NE(web::workersPage(ctx, workers).find("1 worker seen within a day"), std::string::npos);
    Coordinator::TestPage one;
    one.tests.push_back(d.view);
    one.total = 1;
    EXPECT_NE(web::testsPage(ctx, {}, one).find(">1 test<"), std::string::npos);
    v1::TestView failing = d.view;
    failing.mutable_failures()->set_crashes(1);
    failing.mutable_failures()->set_time_losses(1);
    d.view = failing;
    EXPECT_NE(web::testPage(ctx, d).find("1 crash, 1 time loss, 0 illegal moves, 0 stalls"),
              std::string::npos);
}

TEST(Wording, AFinishedFixedGamesTestSaysHowItEndedNotFinishedTwice) {
    Fixture f;
    std::int64_t id = 0;
    auto view = finishedFixedTest(f, &id);
    ASSERT_EQ(view.summary().state(), v1::TEST_STATE_FINISHED);
    const std::string text = testViewText(view);
    EXPECT_NE(text.find("finished (all 8 games played)"), std::string::npos) << text;
    EXPECT_EQ(text.find("finished (finished)"), std::string::npos);
    bool event = false;
    for (const auto& e : view.events()) {
        EXPECT_NE(e, "finished: finished");
        event = event || e == "finished: all 8 games played";
    }
    EXPECT_TRUE(event) << text;
}

TEST(Wording, EveryColumnOfATestsWorkersTableIsNamed) {
    Fixture f;
    auto view = finishedFixedTest(f);
    web::TestPageData d;
    d.view = view;
    const std::string page = web::testPage({}, d);
    EXPECT_EQ(page.find("<th></th>"), std::string::npos) << "an unnamed column";
    EXPECT_NE(page.find("<th>Stalls</th><th>Suspended</th>"), std::string::npos);
    EXPECT_NE(page.find("</td><td>no</td></tr>"), std::string::npos);
}

TEST(Wording, EveryColumnOfADatagenTestsChunksTableIsNamed) {
    web::TestPageData d;
    d.view.mutable_summary()->set_id(3);
    d.view.mutable_summary()->set_kind("datagen");
    d.view.mutable_spec()->mutable_datagen();
    auto* chunk = d.chunks.add_chunks();
    chunk->set_id(1);
    chunk->set_positions(3);
    const std::string page = web::testPage({}, d);
    EXPECT_EQ(page.find("<th></th>"), std::string::npos) << page;
    EXPECT_NE(page.find("<th>Slice state</th></tr>"), std::string::npos);
    EXPECT_NE(page.find("<td>in play</td></tr>"), std::string::npos);
}

TEST(Wording, EveryCommandAPageNamesExistsWithItsOptions) {
    web::PageContext ctx;
    ctx.user = "alice";
    Fixture f;
    web::TestPageData d;
    d.view = finishedFixedTest(f);
    d.games.games = 8;
    std::vector<std::string> pages = {web::benchPage(ctx, {}), web::loginPage(ctx, ""), web::testPage(ctx, d),
                                      web::laddersPage(ctx, {{"main", 3}})};
    web::LadderPageData ladder;
    ladder.name = "main";
    pages.push_back(web::ladderPage(ctx, ladder));
    web::TestPageData datagen;
    datagen.view.mutable_summary()->set_id(3);
    datagen.view.mutable_summary()->set_kind("datagen");
    datagen.view.mutable_spec()->mutable_datagen();
    datagen.chunks.set_more(true);
    pages.push_back(web::testPage(ctx, datagen));
    // The run pages (a run with a generation) and the run form.
    v1::RunView run;
    run.mutable_summary()->set_id(2);
    run.mutable_summary()->set_step("selfplay");
    run.add_generations()->set_generation(1);
    pages.push_back(web::runPage(ctx, run));
    v1::ListRunsResponse runs;
    *runs.add_runs() = run.summary();
    pages.push_back(web::runsPage(ctx, runs));
    pages.push_back(web::runSubmitPage(ctx, {}, ""));
    int checked = 0;
    for (const auto& page : pages)
        for (const auto& words : commandsOn(page)) {
            // The subcommands: the words before the first option or value.
            std::vector<std::string> command{std::string(XQ_BIN_DIR) + "/" + words[0]}, options;
            std::size_t i = 1;
            for (; i < words.size() && std::regex_match(words[i], std::regex("[a-z][a-z-]*")); ++i)
                command.push_back(words[i]);
            for (; i < words.size(); ++i)
                if (words[i].rfind("--", 0) == 0) options.push_back(words[i]);
            std::string name;
            for (const auto& w : words) name += (name.empty() ? "" : " ") + w;
            command.push_back("--help");
            auto r = runCommand(command, f.dir.path);
            ASSERT_EQ(r.code, 0) << name << ": " << r.err;
            // CLI11 prints the help of the deepest subcommand it knows: its usage line names them all.
            std::string usage = command[0];
            for (std::size_t k = 1; k + 1 < command.size(); ++k) usage += " " + command[k];
            EXPECT_NE(r.out.find("Usage: " + usage + " "), std::string::npos)
                << "'" << name << "' is not a command: " << r.out.substr(0, 300);
            for (const auto& o : options)
                EXPECT_NE(r.out.find(o), std::string::npos) << name << ": no option " << o;
            ++checked;
        }
    EXPECT_GE(checked, 6);
}

TEST(Wording, ALaddersChartCountsVersionsInWholeNumbersFromTheFirst) {
    web::LadderPageData d;
    d.name = "main";
    d.versions = {"v1", "v2", "v3", "v4"};
    for (int i = 0; i < 4; ++i) {
        xq::stats::PlayerRating p;
        p.name = d.versions[std::size_t(i)];
        p.elo = 10.0 * i;
        p.low = p.elo - 5, p.high = p.elo + 5;
        p.games = 10;
        d.fit.players.push_back(p);
    }
    const std::string page = web::ladderPage({}, d);
    std::regex tick("text-anchor=\"middle\"[^>]*>([^<]*)</text>");
    std::vector<std::string> labels;
    for (std::sregex_iterator it(page.begin(), page.end(), tick), end; it != end; ++it)
        labels.push_back((*it)[1]);
    EXPECT_EQ(labels, (std::vector<std::string>{"1", "2", "3", "4"}));
    // The first version at the plot's left edge: no empty stretch before it.
    std::smatch first;
    ASSERT_TRUE(std::regex_search(page, first, std::regex("class=\"series\" points=\"([0-9.]+),")));
    EXPECT_EQ(first[1], "52.0");
}

TEST(Wording, TheLaddersIndexListsEveryLadderAndTheIconIsServed) {
    TempDir dir;
    TestStore store;
    ServerOptions o;
    o.coordinator.dataDir = dir.file("data");
    o.coordinator.store = store.option();
    o.web.listen = "127.0.0.1:0";
    CoordinatorServer server(o);
    auto& coord = server.coordinator();
    auto user = coord.authenticate(coord.createToken(Role::User, "alice"));
    for (const char* ladder : {"main", "main", "nets"}) {
        v1::SubmitRequest req;
        auto* m = req.mutable_spec()->mutable_match();
        m->mutable_base()->set_binary_sha256(uploadArtifact(coord, user, "base engine"));
        m->mutable_dev()->set_binary_sha256(uploadArtifact(coord, user, "dev engine"));
        m->mutable_base()->set_tc("10+0.1");
        m->mutable_dev()->set_tc("10+0.1");
        req.mutable_spec()->set_games(2);
        req.mutable_spec()->set_ladder(ladder);
        coord.submit(user, req);
    }
    EXPECT_EQ(coord.ladders(), (std::vector<std::pair<std::string, std::int64_t>>{{"main", 2}, {"nets", 1}}));
    httplib::Client c("http://" + server.web()->address());
    auto index = c.Get("/ladder");
    ASSERT_TRUE(index);
    EXPECT_EQ(index->status, 200);
    EXPECT_NE(index->body.find("<a href=\"/ladder/main\">main</a></td><td class=\"num\">2<"),
              std::string::npos);
    EXPECT_NE(index->body.find("<a href=\"/ladder/nets\">nets</a>"), std::string::npos);
    EXPECT_NE(index->body.find("<a href=\"/ladder\">Ladders</a>"), std::string::npos) << "in the navigation";
    // The icon every page names, and the one browsers ask for unasked.
    EXPECT_NE(index->body.find("<link rel=\"icon\" type=\"image/svg+xml\" href=\"/static/favicon.svg\">"),
              std::string::npos);
    for (const char* path : {"/favicon.ico", "/static/favicon.svg"}) {
        auto icon = c.Get(path);
        ASSERT_TRUE(icon);
        EXPECT_EQ(icon->status, 200) << path;
        EXPECT_EQ(icon->get_header_value("Content-Type"), "image/svg+xml");
        EXPECT_EQ(icon->body.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
    }
}

TEST(Wording, StoppingATestAsksFirst) {
    web::PageContext ctx;
    ctx.user = "alice";
    web::TestPageData d;
    d.view = viewWith(1, 2, 1);
    const std::string page = web::testPage(ctx, d);
    EXPECT_NE(page.find("class=\"stop\" data-confirm=\"Stop test 7? "), std::string::npos) << page;
    EXPECT_NE(std::string(web::LiveJs).find("window.confirm(question)"), std::string::npos);
}

TEST(Wording, ALaddersTestShowsBothClocksInTheEnginesOrder) {
    auto v = viewWith(1, 2, 1);
    v.mutable_spec()->mutable_match()->mutable_dev()->set_tc("nodes=300");
    v.mutable_spec()->mutable_match()->mutable_base()->set_tc("nodes=20");
    v.mutable_spec()->set_ladder("main");
    Coordinator::TestPage list;
    list.tests.push_back(v);
    list.total = 1;
    const std::string page = web::testsPage({}, {}, list);
    EXPECT_NE(page.find("<td data-label=\"TC\">nodes=300 vs nodes=20</td>"), std::string::npos) << page;
    EXPECT_EQ(page.find("dev nodes"), std::string::npos);
}

TEST(Wording, XqRateWritesAPlayerAtTheMeanAsZero) {
    TempDir dir;
    // B wins once and loses once against A and against C, whose results mirror each other: B sits at the
    // players' mean, where the fit's last bits used to print "-0.0".
    std::string pgn;
    for (const auto& [red, black, result] : std::vector<std::array<const char*, 3>>{{"A", "B", "1-0"},
                                                                                    {"B", "A", "1-0"},
                                                                                    {"A", "C", "1/2-1/2"},
                                                                                    {"C", "B", "1-0"},
                                                                                    {"B", "C", "1-0"},
                                                                                    {"C", "A", "0-1"},
                                                                                    {"A", "C", "0-1"}})
        pgn += std::string("[Event \"t\"]\n[Red \"") + red + "\"]\n[Black \"" + black + "\"]\n[Result \"" +
               result + "\"]\n[Variant \"xiangqi\"]\n\n" + result + "\n\n";
    writeFile(dir.file("games.pgn"), pgn);
    auto r = runCommand({std::string(XQ_BIN_DIR) + "/xq", "rate", dir.file("games.pgn")}, dir.path);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.find("-0.0 "), std::string::npos) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex("\\n2 +B +4 +50\\.0% +0\\.0 "))) << r.out;
}
