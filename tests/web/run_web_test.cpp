// A run's pages in headless Chromium: an in-process coordinator serving the web view, a run made with
// Coordinator::submitRun and its steps driven through the worker API (tests/coordinator/run_driver.h: the
// figures are the driver's, not played games), read and clicked at a desktop's width and a phone's.
// Screenshots go to build/test-artifacts/web/pages/ (scripts/screenshots.sh copies them to docs/img/).
#include <gtest/gtest.h>

#include <filesystem>

#include "run_driver.h"
#include "submission.h"
#include "web_fixture.h"
#include "webdriver.h"

using namespace xq::coord;
using namespace xq::coord::testing;
namespace v1 = xq::v1;
namespace wd = xq::testing::web;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

std::string pagesDir() {
    std::string dir = std::string(XQ_BIN_DIR) + "/../test-artifacts/web/pages";
    std::filesystem::create_directories(dir);
    return dir;
}

// Three generations (1 and 3 promoted, 2 not) and a fourth in self-play, from the hand-written evaluation.
std::int64_t drivenRun(WebFixture& f, const std::string& description) {
    v1::SubmitRunRequest req;
    auto& spec = *req.mutable_spec();
    spec.mutable_datagen()->mutable_engine()->set_binary_sha256(uploadArtifact(f.coord(), f.user, "engine"));
    spec.mutable_datagen()->set_nodes(200);
    spec.mutable_datagen()->set_sample_rate(0.5);
    spec.set_games_per_generation(4);
    spec.set_start_hce(true);
    (*spec.mutable_recipe())["hidden"] = "16";
    (*spec.mutable_recipe())["epochs"] = "1";
    spec.mutable_gate()->mutable_base()->set_tc("nodes=200");
    spec.mutable_gate()->set_openings_sha256(
        uploadArtifact(f.coord(), f.user, readFileOrEmpty(findDefaultOpenings("xiangqi"))));
    spec.mutable_gate_sprt()->set_elo0(0);
    spec.mutable_gate_sprt()->set_elo1(10);
    spec.set_gate_games(400);
    spec.set_generations(5);
    spec.set_description(description);
    const auto id = std::int64_t(f.coord().submitRun(f.user, req).run_id());
    RunDriver worker(f.coord(), f.worker, f.dir.path);
    const double losses[] = {0.0712, 0.0695, 0.0671};
    double start = 0.1203;
    for (int g = 0; g < 3; ++g) {
        worker.selfplay(40 + 10 * g);
        worker.train(g + 1, losses[g], start);
        worker.gate(g == 1 ? RunDriver::Even : RunDriver::Won);
        if (g != 1) start = losses[g];
    }
    return id;
}

}  // namespace

class RunPagesInBrowser : public ::testing::Test {
  protected:
    void SetUp() override {
        driver_ = std::make_unique<wd::ChromeDriver>(f_.dir.path);
        browser_ = std::make_unique<wd::Browser>(*driver_);
    }
    void TearDown() override {
        browser_.reset();
        driver_.reset();
    }
    void size(int width, int height) {
        browser_->command("POST", "/session/" + browser_->sessionId() + "/window/rect",
                          {{"width", width}, {"height", height}});
    }
    bool fitsTheWidth() {
        return browser_
            ->executeScript(
                "return document.documentElement.scrollWidth <= document.documentElement.clientWidth;")
            .get<bool>();
    }
    // The elements reaching past the screen's right edge, for the message of a page too wide.
    std::string overflowing() {
        return browser_
            ->executeScript(
                "var w = document.documentElement.clientWidth;"
                "return Array.from(document.querySelectorAll('body *'))"
                ".filter(e => e.getBoundingClientRect().right > w)"
                ".map(e => e.tagName + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().right));")
            .dump();
    }
    int count(const std::string& css) {
        return browser_
            ->executeScript("return document.querySelectorAll(arguments[0]).length;", json::array({css}))
            .get<int>();
    }

    WebFixture f_;
    std::unique_ptr<wd::ChromeDriver> driver_;
    std::unique_ptr<wd::Browser> browser_;
};

TEST_F(RunPagesInBrowser, ARunsPageShowsItsGenerationsAndChartsAtEveryWidthAndItsButtonsWork) {
    auto& b = *browser_;
    const std::string evil = "<script>window.__xss = 1</script>";
    const auto id = drivenRun(f_, "small nets from the hand-written evaluation " + evil);
    const std::string sid = std::to_string(id);
    const std::string url = "http://" + f_.server->web()->address();

    b.navigate(url + "/login");
    b.sendKeys(b.find("#token"), f_.userToken);
    b.click(b.find("#login"));
    b.waitFor([&] { return b.currentUrl().find("/tests") != std::string::npos; }, 10s, "the tests page");

    for (const auto& [width, suffix] : {std::pair{1280, "desktop"}, std::pair{390, "phone"}}) {
        size(width, 800);
        b.navigate(url + "/runs");
        EXPECT_EQ(count("tr[data-run]"), 1);
        EXPECT_TRUE(fitsTheWidth()) << "/runs at " << width << ": " << overflowing();
        b.screenshot(pagesDir() + "/runs-" + suffix + ".png");
        b.navigate(url + "/submit/run");
        EXPECT_EQ(b.title().find("Error"), std::string::npos);
        EXPECT_TRUE(fitsTheWidth()) << "/submit/run at " << width << ": " << overflowing();
        b.screenshot(pagesDir() + "/submit-run-" + suffix + ".png");

        size(width, width > 1000 ? 1100 : 1800);  // the whole page in the screenshot
        b.navigate(url + "/runs/" + sid);
        EXPECT_EQ(b.title(), "Run " + sid + " - xq");
        EXPECT_EQ(count("tr[data-generation]"), 4);
        EXPECT_EQ(count("td.promoted b"), 2) << "generations 1 and 3 promoted";
        EXPECT_EQ(count("svg.chart"), 2) << "Elo and validation loss";
        EXPECT_EQ(count("#run-elo-chart polygon.band"), 1);
        EXPECT_EQ(count("#run-loss-chart polyline.series"), 1);
        EXPECT_EQ(count("a.report"), 3);
        EXPECT_EQ(b.executeScript("return window.__xss === undefined;"), true);
        EXPECT_TRUE(fitsTheWidth()) << "/runs/" << sid << " at " << width
                                    << " (the generations table scrolls within itself)";
        b.screenshot(pagesDir() + "/run-" + suffix + ".png");
    }

    // A candidate's network and its report download from the page's links.
    const auto view = f_.coord().showRun(id);
    httplib::Client http(url);
    const std::string report = b.executeScript("return document.querySelector('a.report').href;");
    auto got = http.Get(report.substr(url.size()));
    ASSERT_TRUE(got);
    EXPECT_EQ(got->body, view.generations(0).training_report_json());

    // A running run's figures refresh in place: generation 4's self-play ends, and without a reload the
    // page shows its training step.
    size(1280, 900);
    b.navigate(url + "/runs/" + sid);
    b.executeScript("window.__sameDocument = true;");
    auto stepText = [&] {
        return b
            .executeScript(
                "var e = document.querySelector('#run-summary .step'); return e ? e.innerText : '';")
            .get<std::string>();
    };
    EXPECT_EQ(stepText(), "selfplay");
    RunDriver(f_.coord(), f_.worker, f_.dir.path).selfplay(70);
    b.waitFor([&] { return stepText() == "training"; }, 15s, "the page to show the training step");
    EXPECT_EQ(b.executeScript("return window.__sameDocument === true;"), true) << "the page was reloaded";
    EXPECT_EQ(
        b.executeScript("return document.querySelector('tr[data-generation=\"4\"] td.positions').innerText;"),
        "70");

    // Stop asks first, then stops the run; Resume starts its step again.
    const std::string alert = "/session/" + b.sessionId() + "/alert";
    b.click(b.find("#stop"));
    EXPECT_EQ(b.command("GET", alert + "/text").get<std::string>().rfind("Stop run " + sid + "?", 0), 0u);
    b.command("POST", alert + "/accept", json::object());
    b.waitFor([&] { return f_.coord().showRun(id).summary().state() == v1::RUN_STATE_STOPPED; }, 10s,
              "the run to stop");
    b.waitFor([&] { return b.tryFind("#resume").has_value(); }, 10s, "the resume button");
    b.click(b.find("#resume"));
    b.waitFor([&] { return f_.coord().showRun(id).summary().state() == v1::RUN_STATE_RUNNING; }, 10s,
              "the run to resume");
}
