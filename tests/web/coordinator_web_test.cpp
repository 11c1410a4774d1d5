// The web view as a person meets it: a real xq-coordinator with --http, a real worker playing a real
// test with xq-engine, and headless Chromium reading and clicking the pages. Screenshots of each page are
// written to build/test-artifacts/web/.
#include <gtest/gtest.h>
#include <httplib.h>

#include <filesystem>
#include <regex>
#include <thread>

#include "cluster.h"
#include "data_chunk.h"
#include "webdriver.h"

using namespace xq::coord::testing;
using nlohmann::json;
namespace web = xq::testing::web;
using namespace std::chrono_literals;

namespace {

std::string artifactDir() {
    std::string dir = std::string(XQ_BIN_DIR) + "/../test-artifacts/web";
    std::filesystem::create_directories(dir);
    return dir;
}

int countGames(const std::string& pgn) {
    int n = 0;
    for (auto pos = pgn.find("[Event "); pos != std::string::npos; pos = pgn.find("[Event ", pos + 1)) ++n;
    return n;
}

// A cluster whose coordinator also serves the web view; `url` is its http://host:port.
struct WebCluster : Cluster {
    std::string url;
    void start() {
        coordinatorArgs.insert(coordinatorArgs.end(), {"--http", "127.0.0.1:0"});
        startCoordinator();
        auto line = coordinator->waitForLine("web view on ");
        ASSERT_TRUE(line) << coordinator->err();
        url = *line;
    }
};

// An element's text read in one script, so the live refresh cannot swap the element out between finding
// it and reading it.
std::string text(web::Browser& b, const std::string& css) {
    auto t = b.executeScript("var e = document.querySelector(arguments[0]); return e ? e.innerText : null;",
                             json::array({css}));
    if (!t.is_string()) throw std::runtime_error("no element matches '" + css + "'");
    return t.get<std::string>();
}

// The text of an element a navigation is about to bring (a form's answer): polled until the new page
// holds it, since a click returns before the page it submits to has loaded.
std::string awaitedText(web::Browser& b, const std::string& css, std::chrono::milliseconds timeout) {
    std::string found;
    web::Browser::waitFor(
        [&] {
            try {
                found = text(b, css);
                return true;
            } catch (const std::exception&) {
                return false;
            }
        },
        timeout, "an element matching '" + css + "'");
    return found;
}

}  // namespace

class WebView : public ::testing::Test {
  protected:
    void SetUp() override {
        driver_ = std::make_unique<web::ChromeDriver>(c_.dir.path);
        browser_ = std::make_unique<web::Browser>(*driver_);
    }
    void TearDown() override {
        browser_.reset();
        driver_.reset();
    }
    void shot(const std::string& name) { browser_->screenshot(artifactDir() + "/" + name + ".png"); }

    WebCluster c_;
    std::unique_ptr<web::ChromeDriver> driver_;
    std::unique_ptr<web::Browser> browser_;
};

TEST_F(WebView, ARunningTestIsListedChartedAndRefreshedLiveWithTheFiguresOfXqShow) {
    auto& b = *browser_;
    c_.start();
    ASSERT_FALSE(HasFailure());
    const std::string evil = "<script>window.__xss = 1</script>";
    // Enough games that the test still runs for a while after the page first shows some.
    auto id = c_.submit({"--each", "nodes=2000", "--base-option", "nodes=200", "--sprt", "elo0=0,elo1=5",
                         "--games", "80", "--description", evil});
    const std::string sid = std::to_string(id);
    c_.startWorker();

    // The test's page while it runs: the figures move without a reload. A tall window, so that the
    // screenshot holds the whole page.
    b.command("POST", "/session/" + b.sessionId() + "/window/rect", {{"width", 1280}, {"height", 1800}});
    b.navigate(c_.url + "/tests/" + sid);
    b.executeScript("window.__sameDocument = true;");
    b.waitFor([&] { return std::stoi(text(b, "#results .games")) > 0; }, 90s, "the first games to appear");
    const int first = std::stoi(text(b, "#results .games"));
    b.waitFor([&] { return std::stoi(text(b, "#results .games")) > first; }, 90s, "the games count to move");
    EXPECT_EQ(b.executeScript("return window.__sameDocument === true;"), true) << "the page was reloaded";
    auto count = [&](const std::string& css) {
        return b.executeScript("return document.querySelectorAll(arguments[0]).length;", json::array({css}));
    };
    EXPECT_EQ(count("svg.chart"), 2) << "LLR and Elo charts";
    EXPECT_EQ(count("svg.chart polyline.series"), 2);
    EXPECT_EQ(count("#llr-chart line.bound"), 2) << "both SPRT bounds";
    EXPECT_EQ(count("#elo-chart polygon.band"), 1) << "the Elo error band";
    shot("test-running");

    // The description, a script, stays text.
    EXPECT_EQ(text(b, "h1 .desc"), evil);
    EXPECT_EQ(b.executeScript("return window.__xss === undefined;"), true);

    auto view = c_.waitFor(
        id, [](const json& v) { return v["state"] != "running"; }, 180s);
    ASSERT_EQ(view["state"], "finished") << c_.workerLogs();

    // The tests page lists it with the same games, W/D/L and LLR as `xq show --json`.
    b.navigate(c_.url + "/tests");
    std::string row = "tr[data-test=\"" + sid + "\"]";
    EXPECT_EQ(text(b, row + " .games"), std::to_string(view["games"].get<int>()) + " / " +
                                            std::to_string(view["games_target"].get<int>()));
    EXPECT_EQ(text(b, row + " .wdl"), std::to_string(view["wdl"][0].get<int>()) + " / " +
                                          std::to_string(view["wdl"][1].get<int>()) + " / " +
                                          std::to_string(view["wdl"][2].get<int>()));
    char llr[32];
    std::snprintf(llr, sizeof llr, "%.2f", view["llr"].get<double>());
    EXPECT_EQ(text(b, row + " .llr .num"), llr);
    EXPECT_EQ(b.executeScript("return window.__xss === undefined;"), true);
    EXPECT_NE(text(b, row + " .desc").find("<script>"), std::string::npos);
    shot("tests");
    // On a phone the key figures are on the screen: games, Elo and LLR, without scrolling sideways.
    b.command("POST", "/session/" + b.sessionId() + "/window/rect", {{"width", 390}, {"height", 900}});
    for (const char* figure : {" .games", " .elo", " .llr .num"}) {
        const json box = b.executeScript(
            "var e = document.querySelector(arguments[0]); var r = e.getBoundingClientRect();"
            "return [r.left, r.right, r.width, document.documentElement.clientWidth];",
            json::array({row + figure}));
        EXPECT_GT(box[2].get<double>(), 0) << figure << " is hidden";
        EXPECT_GE(box[0].get<double>(), 0) << figure;
        EXPECT_LE(box[1].get<double>(), box[3].get<double>())
            << figure << " is off the screen: " << box.dump();
    }
    EXPECT_EQ(b.executeScript(
                  "return document.documentElement.scrollWidth <= document.documentElement.clientWidth;"),
              true);
    shot("tests-phone");
    b.command("POST", "/session/" + b.sessionId() + "/window/rect", {{"width", 1280}, {"height", 1800}});

    b.navigate(c_.url + "/tests/" + sid);
    EXPECT_EQ(std::stoi(text(b, "#results .games")), view["games"].get<int>());
    shot("test-finished");
    b.navigate(c_.url + "/workers");
    EXPECT_NE(b.pageSource().find("w0"), std::string::npos);
    shot("workers");

    // Every game the worker played can be downloaded: from the page and with `xq pgn`.
    httplib::Client http(c_.url);
    auto gz = http.Get("/tests/" + sid + "/games.pgn.gz");
    ASSERT_TRUE(gz);
    EXPECT_EQ(countGames(xq::coord::gunzipText(gz->body, 1 << 26, true)), view["games"].get<int>());
    auto pgn = c_.xq({"pgn", sid, "--out", c_.dir.file("games.pgn")});
    ASSERT_EQ(pgn.code, 0) << pgn.err;
    EXPECT_EQ(countGames(readFileOrEmpty(c_.dir.file("games.pgn"))), view["games"].get<int>());

    // The metrics pass Prometheus' own check.
    auto metrics = http.Get("/metrics");
    ASSERT_TRUE(metrics);
    writeFile(c_.dir.file("metrics.txt"), metrics->body);
    auto check =
        runCommand({"/bin/sh", "-c", "promtool check metrics < " + c_.dir.file("metrics.txt")}, c_.dir.path);
    EXPECT_EQ(check.code, 0) << check.out << check.err;
    EXPECT_NE(metrics->body.find("method=\"/xq.v1.WorkerService/ReportResults\""), std::string::npos);
    EXPECT_TRUE(std::regex_search(metrics->body, std::regex("\nxq_games_total [1-9]")));
}

TEST_F(WebView, ALoggedInUserSubmitsThroughTheFormAndStopsThroughTheButton) {
    auto& b = *browser_;
    c_.start();
    ASSERT_FALSE(HasFailure());
    // A first test puts the engine among the stored artifacts the form offers.
    auto first = c_.submit({"--each", "nodes=500", "--games", "2"});
    std::string engineSha = c_.show(first)["dev"]["sha256"];

    // Without a login there is no form and no stop button.
    b.navigate(c_.url + "/submit");
    EXPECT_NE(b.currentUrl().find("/login"), std::string::npos);
    b.navigate(c_.url + "/tests/" + std::to_string(first));
    EXPECT_FALSE(b.tryFind("#stop"));

    b.navigate(c_.url + "/login");
    b.sendKeys(b.find("#token"), "wrong token");
    b.click(b.find("#login"));
    EXPECT_NE(awaitedText(b, "p.error", 10s).find("unknown token"), std::string::npos);
    shot("login-refused");
    b.sendKeys(b.find("#token"), c_.userToken);
    b.click(b.find("#login"));
    b.waitFor([&] { return b.currentUrl().find("/tests") != std::string::npos; }, 10s, "the tests page");
    bool httpOnly = false;
    for (const auto& cookie : b.cookies())
        if (cookie["name"] == "xq_session")
            httpOnly = cookie["httpOnly"].get<bool>() && cookie["sameSite"] == "Strict";
    EXPECT_TRUE(httpOnly) << b.cookies().dump();
    EXPECT_TRUE(b.executeScript("return document.cookie.indexOf('xq_session') < 0;").get<bool>());

    b.navigate(c_.url + "/submit");
    b.click(b.find("#dev_sha256 option[value=\"" + engineSha + "\"]"));
    b.click(b.find("#base_sha256 option[value=\"" + engineSha + "\"]"));
    // The book the first test uploaded: without it every pair would replay the start position's.
    auto book = b.executeScript(
        "var s = document.getElementById('openings_sha256');"
        "for (var i = 0; i < s.options.length; ++i)"
        "  if (s.options[i].text.indexOf('.epd') >= 0) { s.selectedIndex = i; return s.value; }"
        "return null;");
    ASSERT_TRUE(book.is_string()) << "no opening book among the stored artifacts";
    b.clear(b.find("#each"));
    b.sendKeys(b.find("#each"), "nodes=300");
    b.sendKeys(b.find("#games"), "400");
    b.sendKeys(b.find("#description"), "submitted from the browser");
    b.click(b.find("#rules option[value=\"chinese\"]"));
    shot("submit");
    // On a phone the form fits the screen's width: nothing to scroll sideways.
    b.command("POST", "/session/" + b.sessionId() + "/window/rect", {{"width", 390}, {"height", 1400}});
    EXPECT_EQ(b.executeScript(
                  "return document.documentElement.scrollWidth <= document.documentElement.clientWidth;"),
              true)
        << "wider than the screen: "
        << b.executeScript(
                "var w = document.documentElement.clientWidth;"
                "return Array.from(document.querySelectorAll('body *'))"
                ".filter(e => e.getBoundingClientRect().right > w)"
                ".map(e => e.tagName + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().right));")
               .dump();
    shot("submit-phone");
    b.command("POST", "/session/" + b.sessionId() + "/window/rect", {{"width", 1280}, {"height", 900}});
    b.click(b.find("#submit"));
    b.waitFor([&] { return std::regex_search(b.currentUrl(), std::regex("/tests/[0-9]+$")); }, 15s,
              "the new test's page");
    std::uint64_t id = std::stoull(b.currentUrl().substr(b.currentUrl().rfind('/') + 1));
    auto view = c_.show(id);
    EXPECT_EQ(view["description"], "submitted from the browser");
    EXPECT_EQ(view["dev"]["tc"], "nodes=300");
    EXPECT_EQ(view["games_target"], 400);
    EXPECT_EQ(view["rules"], "chinese");
    EXPECT_EQ(view["state"], "running");

    b.sendKeys(b.find("form.stop input[name=reason]"), "seen enough");
    // Stop asks first: answered no, the test runs on; yes, it stops.
    const std::string alert = "/session/" + b.sessionId() + "/alert";
    b.click(b.find("#stop"));
    EXPECT_EQ(b.command("GET", alert + "/text")
                  .get<std::string>()
                  .rfind("Stop test " + std::to_string(id) + "?", 0),
              0u);
    b.command("POST", alert + "/dismiss", json::object());
    std::this_thread::sleep_for(1s);
    EXPECT_EQ(c_.show(id)["state"], "running");
    b.click(b.find("#stop"));
    b.command("POST", alert + "/accept", json::object());
    b.waitFor([&] { return c_.show(id)["state"] == "stopped"; }, 10s, "the test to stop");
    EXPECT_EQ(c_.show(id)["result"], "seen enough");
    b.waitFor([&] { return !b.tryFind("#stop"); }, 10s, "the stop button to go");
    shot("test-stopped");
}

// Every page of the web view with something on it (a ladder's tests, a benchmark run, a worker), at a
// desktop's width and a phone's: nothing wider than a phone's screen, and a screenshot of each in
// build/test-artifacts/web/pages/ (scripts/screenshots.sh copies them to docs/img/).
TEST_F(WebView, EveryPageFitsAPhoneAndADesktop) {
    auto& b = *browser_;
    c_.start();
    ASSERT_FALSE(HasFailure());
    c_.startWorker();
    const std::string engine = bin("xq-engine");
    std::vector<std::string> common = {"--games", "4", "--each", "nodes=200", "--max-moves", "60"};
    for (const char* version : {"v1", "v2"}) {
        std::vector<std::string> args = {"ladder", "add", "main", "--version", version, "--engine", engine};
        if (std::string(version) == "v1")
            args.insert(args.end(), {"--reference", "name=weak,cmd=" + engine + ",nodes=20"});
        args.insert(args.end(), common.begin(), common.end());
        auto added = c_.xq(args);
        ASSERT_EQ(added.code, 0) << added.err;
    }
    auto bench = c_.xq({"bench", "--cluster", "--depth", "5", "--wait", "60"});
    ASSERT_EQ(bench.code, 0) << bench.err;
    for (std::uint64_t id = 1; id <= 3; ++id) {
        auto view = c_.waitFor(
            id, [](const json& v) { return v["state"] != "running"; }, 180s);
        ASSERT_EQ(view["state"], "finished") << c_.workerLogs();
    }
    b.navigate(c_.url + "/login");
    b.sendKeys(b.find("#token"), c_.userToken);
    b.click(b.find("#login"));
    b.waitFor([&] { return b.currentUrl().find("/tests") != std::string::npos; }, 10s, "the tests page");

    const std::string dir = artifactDir() + "/pages";
    std::filesystem::create_directories(dir);
    const std::vector<std::pair<std::string, std::string>> pages = {
        {"tests", "/tests"},    {"test", "/tests/3"},       {"workers", "/workers"}, {"bench", "/bench"},
        {"ladders", "/ladder"}, {"ladder", "/ladder/main"}, {"nets", "/nets"},       {"submit", "/submit"}};
    for (const auto& [width, suffix] : {std::pair{1280, "desktop"}, std::pair{390, "phone"}}) {
        b.command("POST", "/session/" + b.sessionId() + "/window/rect", {{"width", width}, {"height", 800}});
        for (const auto& [name, path] : pages) {
            b.navigate(c_.url + path);
            EXPECT_EQ(b.title().find("Error"), std::string::npos) << path;
            EXPECT_EQ(b.executeScript("return document.documentElement.scrollWidth <= "
                                      "document.documentElement.clientWidth;"),
                      true)
                << path << " is wider than " << width << " px";
            shot("pages/" + name + "-" + suffix);
        }
    }
}
