// The web view of runs (run.proto): over real HTTP with an in-process coordinator and a run made by
// Coordinator::submitRun (the list, the run page, 404s, escaping, Stop / Resume with and without the form
// token, the JSON and the run form), and the page's builders on a hand-made RunView with generations (the
// generations table, the Elo chain and its band, the loss chart, each step's progress and ETA).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>

#include "html.h"
#include "process.h"
#include "run_driver.h"
#include "submission.h"
#include "util/sha256.h"
#include "web_fixture.h"
#include "web_pages.h"

using namespace xq::coord;
using namespace xq::coord::testing;
namespace v1 = xq::v1;
using nlohmann::json;

namespace {

const std::string Hostile = "<script>window.__xss = 1</script>";

// The tiny run: from the hand-written evaluation, 4 games a generation at 200 nodes, a net of 16
// hidden units trained 1 epoch, a gate of at most 4 games at 200 nodes.
std::int64_t submitTinyRun(WebFixture& f, const std::string& description,
                           const std::function<void(v1::RunSpec&)>& change = {}) {
    v1::SubmitRunRequest req;
    auto& spec = *req.mutable_spec();
    auto* d = spec.mutable_datagen();
    d->mutable_engine()->set_binary_sha256(uploadArtifact(f.coord(), f.user, "the run's engine"));
    d->set_nodes(200);
    d->set_sample_rate(0.5);
    spec.set_games_per_generation(4);
    spec.set_start_hce(true);
    (*spec.mutable_recipe())["hidden"] = "16";
    (*spec.mutable_recipe())["epochs"] = "1";
    spec.mutable_gate()->mutable_base()->set_tc(
        "1+0.01");  // a clock: without a book, a node limit replays its one pair
    spec.mutable_gate_sprt()->set_elo0(0);
    spec.mutable_gate_sprt()->set_elo1(10);
    spec.set_gate_games(4);
    spec.set_description(description);
    if (change) change(spec);
    return std::int64_t(f.coord().submitRun(f.user, req).run_id());
}

std::string sha(char c) {
    return std::string(64, c);
}

// A run of three ended generations and a fourth in training: generation 1 promoted (+20 +- 10), 2 failed its
// gate (-5 +- 12), 3 promoted (+15 +- 9).
v1::RunView handMadeRun() {
    v1::RunView run;
    auto* s = run.mutable_summary();
    s->set_id(7);
    s->set_state(v1::RUN_STATE_RUNNING);
    s->set_description(Hostile);
    s->set_generation(4);
    s->set_step("training");
    s->set_step_test_id(40);
    s->set_best_net_sha256(sha('c'));
    s->set_best_generation(3);
    s->set_promotions(2);
    s->set_elo(35);
    s->set_elo_error(std::sqrt(181.0));
    s->set_submitter("alice");
    s->set_generations_target(5);
    s->mutable_step_test()->set_created_unix(1000);
    s->mutable_step_test()->mutable_training()->set_epochs_done(1);
    s->mutable_step_test()->mutable_training()->set_epochs(4);
    run.mutable_spec()->set_max_failed_gates(3);
    struct Gen {
        double elo, error;
        bool promoted;
        char net;
    };
    const Gen gens[] = {{20, 10, true, 'a'}, {-5, 12, false, 'b'}, {15, 9, true, 'c'}};
    for (int i = 0; i < 3; ++i) {
        auto* g = run.add_generations();
        g->set_generation(std::uint32_t(i + 1));
        g->set_step("done");
        g->set_selfplay_test_id(std::uint64_t(10 * i + 1));
        g->set_training_test_id(std::uint64_t(10 * i + 2));
        g->set_gate_test_id(std::uint64_t(10 * i + 3));
        g->set_candidate_net_sha256(sha(gens[i].net));
        g->set_promoted(gens[i].promoted);
        g->set_positions(std::uint64_t(1000 * (i + 1)));
        g->set_window_positions(std::uint64_t(1500 * (i + 1)));
        g->set_train_loss(0.05 - 0.001 * i);
        g->set_validation_loss(0.06 - 0.002 * i);
        g->set_start_validation_loss(i == 0 ? 0.09 : 0.06 - 0.002 * (i - 1));
        g->set_training_seconds(3.5);
        g->set_training_report_json("{\"seconds\": 3.5}");
        g->set_selfplay_ms(65'000);
        g->set_training_ms(4'000);
        g->set_gate_ms(7'200'000);
        auto* gate = g->mutable_gate();
        gate->set_games(40);
        for (auto n : {20, 10, 10}) gate->add_wdl(std::uint64_t(n));
        gate->set_elo(gens[i].elo);
        gate->set_elo_error(gens[i].error);
        gate->set_is_sprt(true);
        gate->set_llr(gens[i].promoted ? 2.95 : -2.95);
        gate->set_lower_bound(-2.94);
        gate->set_upper_bound(2.94);
    }
    auto* g4 = run.add_generations();
    g4->set_generation(4);
    g4->set_step("training");
    g4->set_selfplay_test_id(31);
    g4->set_training_test_id(40);
    g4->set_train_loss(std::nan(""));
    g4->set_validation_loss(std::nan(""));
    g4->set_start_validation_loss(std::nan(""));
    run.add_events("generation 3: gate H1 accepted; " + Hostile);
    return run;
}

}  // namespace

TEST(WebRuns, ReadersSeeTheRunsListAndAFreshRunsPageWithItsStepAndHostileTextStaysText) {
    WebFixture f;
    const auto id = submitTinyRun(f, Hostile);
    const std::string sid = std::to_string(id);
    const auto view = f.coord().showRun(id);
    ASSERT_EQ(view.generations_size(), 1);
    const std::string selfplay = std::to_string(view.generations(0).selfplay_test_id());
    auto c = f.client();

    auto list = c.Get("/runs");
    ASSERT_TRUE(list);
    ASSERT_EQ(list->status, 200);
    EXPECT_NE(list->body.find("<a href=\"/runs\">Runs</a>"), std::string::npos) << "in the navigation";
    EXPECT_NE(list->body.find("<tr data-run=\"" + sid + "\">"), std::string::npos);
    EXPECT_NE(list->body.find("<a href=\"/runs/" + sid + "\">"), std::string::npos);
    EXPECT_NE(list->body.find("the hand-written evaluation"), std::string::npos) << "the best: the start";
    EXPECT_EQ(list->body.find(Hostile), std::string::npos);
    EXPECT_NE(list->body.find(html::escape(Hostile)), std::string::npos);
    EXPECT_NE(list->body.find("alice"), std::string::npos);

    auto page = c.Get("/runs/" + sid);
    ASSERT_TRUE(page);
    ASSERT_EQ(page->status, 200);
    const std::string& b = page->body;
    EXPECT_EQ(b.find(Hostile), std::string::npos);
    EXPECT_NE(b.find(html::escape(Hostile)), std::string::npos);
    EXPECT_NE(b.find("<span class=\"state running\">running</span>"), std::string::npos);
    // The current step with its test linked and its progress: no games yet of the generation's 4.
    EXPECT_NE(b.find("<span class=\"step\">selfplay</span>, test <a href=\"/tests/" + selfplay + "\">"),
              std::string::npos)
        << b;
    EXPECT_NE(b.find("0 of 4 games"), std::string::npos);
    EXPECT_NE(b.find("no estimate yet"), std::string::npos);
    EXPECT_NE(b.find("<tr data-generation=\"1\">"), std::string::npos);
    EXPECT_EQ(countOf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\""), 2) << "Elo and loss";
    EXPECT_NE(b.find("no gate has ended yet"), std::string::npos);
    EXPECT_NE(b.find("hidden=16"), std::string::npos) << "the recipe among the settings";
    EXPECT_NE(b.find("submitted by alice"), std::string::npos);
    EXPECT_EQ(b.find("id=\"stop\""), std::string::npos) << "no button for a reader";
    EXPECT_NE(b.find("data-live=\"1\""), std::string::npos) << "a running run's figures refresh";

    // Unknown runs and generations are 404s, in HTML and JSON.
    EXPECT_EQ(c.Get("/runs/99")->status, 404);
    EXPECT_EQ(c.Get("/api/runs/99")->status, 404);
    EXPECT_NE(c.Get("/api/runs/99")->body.find("no run 99"), std::string::npos);
    EXPECT_EQ(c.Get("/runs/" + sid + "/generations/1/report.json")->status, 404) << "not trained yet";
    EXPECT_EQ(c.Get("/runs/" + sid + "/generations/5/report.json")->status, 404);

    auto api = c.Get("/api/runs");
    ASSERT_TRUE(api);
    EXPECT_EQ(api->get_header_value("Content-Type"), "application/json");
    auto j = json::parse(api->body);
    ASSERT_EQ(j["runs"].size(), 1u);
    EXPECT_EQ(j["runs"][0]["id"], sid);  // 64-bit numbers are strings in protobuf's JSON
    EXPECT_EQ(j["runs"][0]["state"], "RUN_STATE_RUNNING");
    EXPECT_EQ(j["runs"][0]["description"], Hostile);
    auto one = json::parse(c.Get("/api/runs/" + sid)->body);
    EXPECT_EQ(one["summary"]["step"], "selfplay");
    EXPECT_EQ(one["generations"].size(), 1u);
    EXPECT_EQ(one["generations"][0]["selfplay_test_id"], selfplay);
    EXPECT_EQ(one["spec"]["games_per_generation"], "4");
    EXPECT_EQ(one["events"].size(), view.events_size());
}

TEST(WebRuns, StopAndResumeButtonsWorkWithTheFormsTokenAndAreRefusedWithout) {
    WebFixture f;
    const auto id = submitTinyRun(f, "stop me");
    const std::string sid = std::to_string(id);
    const auto firstTest = f.coord().showRun(id).summary().step_test_id();
    auto c = f.client();
    auto [session, csrf] = f.login(c);
    const httplib::Headers cookie{{"Cookie", session}};

    auto page = c.Get("/runs/" + sid, cookie);
    ASSERT_TRUE(page);
    EXPECT_NE(page->body.find("action=\"/runs/" + sid + "/stop\""), std::string::npos);
    EXPECT_NE(page->body.find("name=\"csrf\" value=\"" + csrf + "\""), std::string::npos);
    EXPECT_EQ(page->body.find("id=\"resume\""), std::string::npos);

    // No login: 401; a login without the form's token (or another one): 403. The run runs on.
    auto anonymous = c.Post("/runs/" + sid + "/stop", httplib::Params{{"csrf", csrf}});
    ASSERT_TRUE(anonymous);
    EXPECT_EQ(anonymous->status, 401);
    auto noToken = c.Post("/runs/" + sid + "/stop", cookie, httplib::Params{});
    ASSERT_TRUE(noToken);
    EXPECT_EQ(noToken->status, 403);
    auto otherToken = c.Post("/runs/" + sid + "/stop", cookie, httplib::Params{{"csrf", csrf + "x"}});
    EXPECT_EQ(otherToken->status, 403);
    auto resumeRefused = c.Post("/runs/" + sid + "/resume", cookie, httplib::Params{});
    EXPECT_EQ(resumeRefused->status, 403);
    EXPECT_EQ(f.coord().showRun(id).summary().state(), v1::RUN_STATE_RUNNING);

    auto stop =
        c.Post("/runs/" + sid + "/stop", cookie, httplib::Params{{"csrf", csrf}, {"reason", "enough"}});
    ASSERT_TRUE(stop);
    EXPECT_EQ(stop->status, 303);
    EXPECT_EQ(stop->get_header_value("Location"), "/runs/" + sid);
    auto stopped = f.coord().showRun(id).summary();
    EXPECT_EQ(stopped.state(), v1::RUN_STATE_STOPPED);
    EXPECT_EQ(stopped.result(), "enough");
    EXPECT_EQ(f.coord().showTest(std::int64_t(firstTest)).summary().state(), v1::TEST_STATE_STOPPED);

    page = c.Get("/runs/" + sid, cookie);
    EXPECT_EQ(page->body.find("id=\"stop\""), std::string::npos);
    EXPECT_NE(page->body.find("id=\"resume\""), std::string::npos);
    EXPECT_NE(page->body.find("enough"), std::string::npos);
    // Stopping again is no error; resuming a running run is (409).
    auto resume = c.Post("/runs/" + sid + "/resume", cookie, httplib::Params{{"csrf", csrf}});
    ASSERT_TRUE(resume);
    EXPECT_EQ(resume->status, 303);
    auto resumed = f.coord().showRun(id).summary();
    EXPECT_EQ(resumed.state(), v1::RUN_STATE_RUNNING);
    EXPECT_NE(resumed.step_test_id(), firstTest) << "self-play again as a new test";
    EXPECT_EQ(c.Post("/runs/" + sid + "/resume", cookie, httplib::Params{{"csrf", csrf}})->status, 409);
    EXPECT_EQ(c.Post("/runs/99/stop", cookie, httplib::Params{{"csrf", csrf}})->status, 404);
}

TEST(WebRuns, TheRunFormMakesTheRunAndARefusedOneComesBackFilledWithTheReason) {
    WebFixture f;
    auto c = f.client();
    // Without a login the form sends to the login page.
    auto anonymous = c.Get("/submit/run");
    ASSERT_TRUE(anonymous);
    EXPECT_EQ(anonymous->status, 303);
    EXPECT_EQ(anonymous->get_header_value("Location"), "/login");
    auto [session, csrf] = f.login(c);
    const httplib::Headers cookie{{"Cookie", session}};
    const std::string engine = uploadArtifact(f.coord(), f.user, "#!/bin/sh\n# a stored engine\n");
    const std::string net = uploadArtifact(f.coord(), f.user, "a network", "net");
    auto form = c.Get("/submit/run", cookie);
    ASSERT_TRUE(form);
    ASSERT_EQ(form->status, 200);
    EXPECT_NE(selectIn(form->body, "engine_sha256").find(engine), std::string::npos);
    EXPECT_EQ(selectIn(form->body, "engine_sha256").find(net), std::string::npos);
    EXPECT_NE(selectIn(form->body, "start_net_sha256").find(net), std::string::npos);
    EXPECT_NE(selectIn(form->body, "start_net_sha256").find("the hand-written evaluation"),
              std::string::npos);
    // The test form links it, and offers the networks for dev and base.
    auto testForm = c.Get("/submit", cookie);
    EXPECT_NE(testForm->body.find("href=\"/submit/run\""), std::string::npos);
    EXPECT_NE(selectIn(testForm->body, "dev_net_sha256").find(net), std::string::npos);
    EXPECT_NE(selectIn(testForm->body, "base_net_sha256").find(net), std::string::npos);

    httplib::MultipartFormDataItems items = {
        {"csrf", csrf, "", ""},
        {"engine_sha256", engine, "", ""},
        {"engine_settings", "option.Hash=16", "", ""},
        {"start_net_sha256", "", "", ""},
        {"games_per_generation", "4", "", ""},
        {"nodes", "200", "", ""},
        {"recipe", "hidden=16,epochs=1", "", ""},
        {"window", "2", "", ""},
        {"gate_tc", "nodes=200", "", ""},
        {"gate_sprt", "elo0=0,elo1=10", "", ""},
        {"gate_games", "4", "", ""},
        {"generations", "3", "", ""},
        {"max_failed_gates", "2", "", ""},
        {"description", "from the run form", "", ""},
    };
    auto res = c.Post("/submit/run", cookie, items);
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 303) << res->body;
    const std::string location = res->get_header_value("Location");
    ASSERT_EQ(location.rfind("/runs/", 0), 0u) << location;
    const auto run = f.coord().showRun(std::stoll(location.substr(6)));
    const auto& spec = run.spec();
    EXPECT_EQ(spec.datagen().engine().binary_sha256(), engine);
    EXPECT_EQ(spec.datagen().engine().options().at("Hash"), "16");
    EXPECT_EQ(spec.datagen().engine().tc(), "") << "self-play plays by nodes";
    EXPECT_EQ(spec.datagen().nodes(), 200u);
    EXPECT_GT(spec.datagen().sample_rate(), 0);
    EXPECT_EQ(spec.games_per_generation(), 4u);
    EXPECT_TRUE(spec.start_hce());
    EXPECT_EQ(spec.recipe().at("hidden"), "16");
    EXPECT_EQ(spec.recipe().at("epochs"), "1");
    EXPECT_EQ(spec.window(), 2u);
    EXPECT_EQ(spec.gate().base().tc(), "nodes=200");
    EXPECT_EQ(spec.gate().base().options().at("Hash"), "16");
    EXPECT_FALSE(spec.gate().openings_sha256().empty()) << "no book chosen: the game's book";
    EXPECT_EQ(spec.gate_sprt().elo1(), 10);
    EXPECT_EQ(spec.gate_games(), 4u);
    EXPECT_EQ(spec.generations(), 3u);
    EXPECT_EQ(spec.max_failed_gates(), 2u);
    EXPECT_EQ(spec.submitter(), "alice");
    EXPECT_EQ(run.summary().description(), "from the run form");

    // A recipe piece that is no NAME=VALUE, and a setting xq-tuner does not have: refused, saying which,
    // with the form filled again; no run is made.
    items[6] = {"recipe", "hidden=16,epochs", "", ""};
    auto bad = c.Post("/submit/run", cookie, items);
    ASSERT_TRUE(bad);
    EXPECT_EQ(bad->status, 400);
    EXPECT_NE(bad->body.find("recipe: &#39;epochs&#39; is not NAME=VALUE"), std::string::npos) << bad->body;
    EXPECT_NE(bad->body.find("value=\"hidden=16,epochs\""), std::string::npos);
    EXPECT_NE(bad->body.find("value=\"from the run form\""), std::string::npos);
    items[6] = {"recipe", "hidden=16,bogus=1", "", ""};
    bad = c.Post("/submit/run", cookie, items);
    EXPECT_EQ(bad->status, 400);
    EXPECT_NE(bad->body.find("bogus"), std::string::npos) << bad->body;
    items[6] = {"recipe", "hidden=16", "", ""};
    items[1] = {"engine_sha256", "", "", ""};
    bad = c.Post("/submit/run", cookie, items);
    EXPECT_EQ(bad->status, 400);
    EXPECT_NE(bad->body.find("engine: choose a stored engine"), std::string::npos);
    EXPECT_EQ(f.coord().listRuns({}).runs_size(), 1);
    // Without the form's token nothing is made either.
    items[0] = {"csrf", "", "", ""};
    items[1] = {"engine_sha256", engine, "", ""};
    EXPECT_EQ(c.Post("/submit/run", cookie, items)->status, 403);
    EXPECT_EQ(f.coord().listRuns({}).runs_size(), 1);
}

TEST(RunPages, TheGenerationsTableShowsEachStepsFiguresLinksAndWallTimes) {
    web::PageContext ctx;
    ctx.nowUnix = 1100;
    const auto run = handMadeRun();
    const std::string b = web::runPage(ctx, run);
    EXPECT_EQ(b.find(Hostile), std::string::npos) << "description and events are escaped";
    EXPECT_EQ(countOf(b, html::escape(Hostile)), 2);
    for (int g = 1; g <= 4; ++g)
        EXPECT_NE(b.find("<tr data-generation=\"" + std::to_string(g) + "\">"), std::string::npos) << g;
    // Each candidate and its report download; each step's test linked with its wall time.
    for (char c : {'a', 'b', 'c'}) EXPECT_NE(b.find("href=\"/nets/" + sha(c) + "\""), std::string::npos) << c;
    EXPECT_EQ(countOf(b, "href=\"/runs/7/generations/"), 3);
    EXPECT_NE(b.find("href=\"/runs/7/generations/2/report.json\""), std::string::npos);
    EXPECT_NE(b.find("<a href=\"/tests/21\">21</a> <span class=\"muted\">65 s</span>"), std::string::npos);
    EXPECT_NE(b.find("<a href=\"/tests/22\">22</a> <span class=\"muted\">4 s</span>"), std::string::npos);
    EXPECT_NE(b.find("<a href=\"/tests/23\">23</a> <span class=\"muted\">2 h</span>"), std::string::npos);
    EXPECT_EQ(countOf(b, "<td class=\"promoted\"><b>yes</b></td>"), 2);
    EXPECT_EQ(countOf(b, "<td class=\"promoted\">no</td>"), 1);
    EXPECT_NE(b.find("<td class=\"num wdl\">20 / 10 / 10</td>"), std::string::npos);
    EXPECT_NE(b.find("-5.0 &plusmn; 12.0"), std::string::npos);
    EXPECT_NE(b.find("0.05600 <span class=\"muted\">(0.05800)</span>"), std::string::npos)
        << "gen 2's losses";
    EXPECT_NE(b.find("0.06000 <span class=\"muted\">(0.09000)</span>"), std::string::npos);
    EXPECT_NE(b.find("<td class=\"num window\">4500</td>"), std::string::npos);
    // The summary: the best, its Elo over the start, the step with its progress and ETA.
    EXPECT_NE(b.find("<span class=\"elo\">+35.0 &plusmn; 13.5</span>"), std::string::npos);
    EXPECT_NE(b.find("of generation 3"), std::string::npos);
    EXPECT_NE(b.find("<span class=\"generation\">4 of 5</span>"), std::string::npos);
    EXPECT_NE(b.find("<span class=\"step\">training</span>, test <a href=\"/tests/40\">40</a>"),
              std::string::npos);
    EXPECT_NE(b.find("1 of 4 epochs done"), std::string::npos);
    EXPECT_NE(b.find("about 5 min left"), std::string::npos) << "100 s for 1 epoch of 4: 300 s left";
}

TEST(RunPages, TheEloChartChainsThePromotedGatesAndCombinesTheirErrors) {
    const auto c = web::runEloChart(handMadeRun());
    ASSERT_EQ(c.x, (std::vector<double>{0, 1, 2, 3})) << "the start, then each ended generation";
    EXPECT_EQ(c.y, (std::vector<double>{0, 20, 20, 35})) << "a failed gate adds nothing";
    const double e3 = std::sqrt(10.0 * 10 + 9 * 9);
    EXPECT_DOUBLE_EQ(c.bandHigh[1], 30);
    EXPECT_DOUBLE_EQ(c.bandLow[2], 10);
    EXPECT_DOUBLE_EQ(c.bandHigh[3], 35 + e3);
    EXPECT_DOUBLE_EQ(c.bandLow[3], 35 - e3);
    // The chain's end is the summary's figure.
    EXPECT_NEAR(c.bandHigh[3] - c.y[3], handMadeRun().summary().elo_error(), 1e-9);
    const std::string svg = svgChart(c);
    EXPECT_NE(svg.find("polygon class=\"band\""), std::string::npos);

    const auto loss = web::runLossChart(handMadeRun());
    EXPECT_EQ(loss.x, (std::vector<double>{1, 2, 3})) << "generation 4 is not trained yet";
    ASSERT_EQ(loss.y.size(), 3u);
    EXPECT_DOUBLE_EQ(loss.y[2], 0.056);
    ASSERT_EQ(loss.lines.size(), 1u);
    EXPECT_DOUBLE_EQ(loss.lines[0].y, 0.09) << "the start's validation loss";

    v1::RunView fresh;
    fresh.add_generations()->set_step("selfplay");
    EXPECT_TRUE(web::runEloChart(fresh).x.empty());
    EXPECT_NE(svgChart(web::runEloChart(fresh)).find("no gate has ended yet"), std::string::npos);
}

TEST(RunPages, EachStepsProgressIsItsOwnCountAndTheEtaFollowsThePaceSoFar) {
    v1::RunSummary s;
    s.set_step("selfplay");
    auto* t = s.mutable_step_test();
    t->set_created_unix(1000);
    t->set_games(1);
    t->set_games_target(4);
    t->mutable_datagen()->set_positions(123);
    auto p = web::runStepProgress(s, 1060);
    EXPECT_EQ(p.text, "1 of 4 games, 123 positions");
    EXPECT_DOUBLE_EQ(p.fraction, 0.25);
    EXPECT_EQ(p.etaSeconds, 180);

    s.set_step("gate");
    t->set_games(30);
    t->set_games_target(40);
    t->set_is_sprt(true);
    t->set_llr(1.5);
    t->set_lower_bound(-2.94);
    t->set_upper_bound(2.94);
    p = web::runStepProgress(s, 1060);
    EXPECT_EQ(p.text, "30 of 40 games at most, LLR 1.50 in [-2.94, 2.94]");
    EXPECT_EQ(p.etaSeconds, 20);

    s.set_step("training");
    t->mutable_training()->set_epochs(4);
    p = web::runStepProgress(s, 1060);
    EXPECT_EQ(p.etaSeconds, -1) << "no epoch done: no pace yet";
    EXPECT_EQ(p.fraction, 0);
}

TEST(WebRuns, ANetworkUploadedWithTheFormsStartsARunAndPlaysAsATestsDevNetwork) {
    WebFixture f;
    const std::string netPath = f.dir.file("start.nnue");
    auto made = runCommand({std::string(XQ_BIN_DIR) + "/xq-engine", "nnue", "random", netPath, "16", "5"},
                           f.dir.path);
    ASSERT_EQ(made.code, 0) << made.err;
    const std::string net = readFileOrEmpty(netPath);
    const std::string netSha = xq::sha256Hex(net);
    auto c = f.client();
    auto [session, csrf] = f.login(c);
    const httplib::Headers cookie{{"Cookie", session}};
    const std::string engine = uploadArtifact(f.coord(), f.user, "#!/bin/sh\n# the engine\n");
    httplib::MultipartFormDataItems run = {
        {"csrf", csrf, "", ""},
        {"engine_sha256", engine, "", ""},
        {"start_net_file", net, "start.nnue", "application/octet-stream"},
        {"games_per_generation", "4", "", ""},
        {"nodes", "200", "", ""},
        {"recipe", "epochs=1", "", ""},
        {"gate_tc", "nodes=200", "", ""},
        {"gate_sprt", "elo0=0,elo1=10", "", ""},
        {"gate_games", "4", "", ""},
    };
    auto res = c.Post("/submit/run", cookie, run);
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 303) << res->body;
    const auto view = f.coord().showRun(std::stoll(res->get_header_value("Location").substr(6)));
    EXPECT_EQ(view.spec().start_net_sha256(), netSha);
    EXPECT_FALSE(view.spec().start_hce());
    EXPECT_EQ(view.summary().best_net_sha256(), netSha);
    auto page = c.Get("/runs/" + std::to_string(view.summary().id()));
    EXPECT_NE(page->body.find("href=\"/nets/" + netSha + "\""), std::string::npos) << "the best's download";
    EXPECT_EQ(c.Get("/nets/" + netSha)->body, net);

    // The test form offers the stored network for either engine; chosen for dev, the test's dev plays it.
    auto form = c.Get("/submit", cookie);
    EXPECT_NE(selectIn(form->body, "dev_net_sha256").find(netSha), std::string::npos);
    EXPECT_NE(selectIn(form->body, "base_net_sha256").find(netSha), std::string::npos);
    httplib::MultipartFormDataItems test = {
        {"csrf", csrf, "", ""},          {"dev_sha256", engine, "", ""},
        {"base_sha256", engine, "", ""}, {"dev_net_sha256", netSha, "", ""},
        {"each", "nodes=500", "", ""},   {"games", "10", "", ""},
    };
    auto submitted = c.Post("/submit", cookie, test);
    ASSERT_TRUE(submitted);
    ASSERT_EQ(submitted->status, 303) << submitted->body;
    const auto t = f.coord().showTest(std::stoll(submitted->get_header_value("Location").substr(7)));
    EXPECT_EQ(t.spec().match().dev().net_sha256(), netSha);
    EXPECT_EQ(t.spec().match().base().net_sha256(), "");
    // A file that is no network is refused by the network field, naming it.
    test[3] = {"dev_net_file", "not a network", "bad.nnue", "application/octet-stream"};
    auto refused = c.Post("/submit", cookie, test);
    EXPECT_EQ(refused->status, 400);
    EXPECT_NE(refused->body.find("dev network"), std::string::npos) << refused->body;
}

// The run's steps driven through the worker API (run_driver.h): generation 1's gate is won and promotes its
// candidate, generation 2's is even and does not; the run ends after its 2 generations, and the page, the
// report downloads and the JSON show each generation's figures.
TEST(WebRuns, ARunDrivenThroughTwoGenerationsShowsEachOnItsPage) {
    WebFixture f;
    // A book, so that the gate's pairs may go past one opening.
    const std::string book =
        uploadArtifact(f.coord(), f.user, readFileOrEmpty(findDefaultOpenings("xiangqi")));
    const auto id = submitTinyRun(f, "two generations", [&](v1::RunSpec& spec) {
        spec.set_generations(2);
        spec.set_gate_games(400);
        spec.mutable_gate()->set_openings_sha256(book);
    });
    const std::string sid = std::to_string(id);
    RunDriver worker(f.coord(), f.worker, f.dir.path);
    worker.selfplay();
    const std::string first = worker.train(1, 0.07, 0.12);
    worker.gate(RunDriver::Won);
    ASSERT_EQ(f.coord().showRun(id).summary().best_net_sha256(), first)
        << "generation 1 promoted: " << f.coord().showRun(id).DebugString();
    worker.selfplay();
    const std::string second = worker.train(2, 0.065, 0.07);
    worker.gate(RunDriver::Even);
    const auto view = f.coord().showRun(id);
    ASSERT_EQ(view.summary().state(), v1::RUN_STATE_FINISHED) << view.summary().result();
    ASSERT_EQ(view.generations_size(), 2);
    EXPECT_TRUE(view.generations(0).promoted());
    EXPECT_FALSE(view.generations(1).promoted());

    auto c = f.client();
    auto page = c.Get("/runs/" + sid);
    ASSERT_TRUE(page);
    ASSERT_EQ(page->status, 200);
    const std::string& b = page->body;
    EXPECT_NE(b.find("<span class=\"state finished\">finished</span>"), std::string::npos);
    EXPECT_EQ(b.find("data-live"), std::string::npos) << "a finished run's page does not refresh";
    EXPECT_EQ(countOf(b, "<td class=\"promoted\"><b>yes</b></td>"), 1);
    EXPECT_EQ(countOf(b, "<td class=\"promoted\">no</td>"), 1);
    EXPECT_NE(b.find("href=\"/nets/" + first + "\""), std::string::npos);
    EXPECT_NE(b.find("href=\"/nets/" + second + "\""), std::string::npos);
    EXPECT_NE(b.find("<td class=\"num validation-loss\">0.07000 <span class=\"muted\">(0.12000)</span>"),
              std::string::npos)
        << b;
    EXPECT_NE(b.find("<td class=\"num positions\">30</td>"), std::string::npos);
    EXPECT_NE(b.find("<td class=\"num window\">60</td>"), std::string::npos) << "generation 2 reads both";
    const auto& gate1 = view.generations(0).gate();
    EXPECT_NE(b.find("<td class=\"num wdl\">" + web::wdlText(gate1) + "</td>"), std::string::npos);
    EXPECT_NE(b.find("<td class=\"num elo\">" + web::eloText(gate1) + "</td>"), std::string::npos);
    EXPECT_NE(b.find("<span class=\"elo\">+" + html::fixed(gate1.elo(), 1)), std::string::npos)
        << "the best's Elo is generation 1's gate";
    EXPECT_NEAR(view.summary().elo(), gate1.elo(), 1e-9);
    // The Elo chart ends at the summary's figure; the loss chart has both generations.
    const auto elo = web::runEloChart(view);
    ASSERT_EQ(elo.x, (std::vector<double>{0, 1, 2}));
    EXPECT_NEAR(elo.y.back(), view.summary().elo(), 1e-9);
    EXPECT_NEAR(elo.bandHigh.back() - elo.y.back(), view.summary().elo_error(), 1e-9);
    EXPECT_EQ(web::runLossChart(view).x, (std::vector<double>{1, 2}));
    EXPECT_EQ(countOf(b, "polygon class=\"band\""), 1);

    auto report = c.Get("/runs/" + sid + "/generations/2/report.json");
    ASSERT_TRUE(report);
    EXPECT_EQ(report->status, 200);
    EXPECT_EQ(report->get_header_value("Content-Type"), "application/json");
    EXPECT_EQ(report->body, view.generations(1).training_report_json());
    EXPECT_DOUBLE_EQ(json::parse(report->body)["final_validation_loss_quantised"].get<double>(), 0.065);
    auto api = json::parse(c.Get("/api/runs/" + sid)->body);
    EXPECT_EQ(api["summary"]["state"], "RUN_STATE_FINISHED");
    EXPECT_EQ(api["generations"][0]["promoted"], true);
    EXPECT_EQ(api["generations"][1]["candidate_net_sha256"], second);
}
