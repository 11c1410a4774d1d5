// `xq play --game capturego`'s page in a real headless Chromium, played by clicks on the board's
// intersections as a person plays it: the real `xq play` process and real xq-go processes on 127.0.0.1.
// Screenshots go to build/test-artifacts/play; the disabled ReadmeScreenshot test writes the README's
// docs/img/capturego-play.png (run it with --gtest_also_run_disabled_tests).
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <sstream>

#include "capturego/notation.h"
#include "capturego/position_text.h"
#include "capturego/sgf.h"
#include "oracle.h"
#include "webdriver.h"
#include "xq_play_process.h"

using nlohmann::json;
using namespace std::chrono_literals;
namespace web = xq::testing::web;
namespace cg = xq::capturego;

namespace {

std::string artifactDir() {
    std::string dir = std::string(XQ_BIN_DIR) + "/../test-artifacts/play";
    std::filesystem::create_directories(dir);
    return dir;
}

// The Go page as a person sees it, driven through WebDriver.
class GoPage {
  public:
    explicit GoPage(web::Browser& b) : b_(b) {}

    std::string text(const std::string& css) {
        auto t =
            b_.executeScript("var e = document.querySelector(arguments[0]); return e ? e.innerText : null;",
                             json::array({css}));
        if (!t.is_string()) throw std::runtime_error("no element matches '" + css + "'");
        return t.get<std::string>();
    }
    void choose(const std::string& id, const std::string& value) {
        b_.executeScript("document.getElementById(arguments[0]).value = arguments[1];",
                         json::array({id, value}));
    }
    void press(const std::string& buttonId) { b_.click(b_.find("#" + buttonId)); }
    // Starts a game with these settings and waits for my turn.
    void start(int size, int target, const std::string& colour, int level) {
        choose("size", std::to_string(size));
        choose("target", std::to_string(target));
        choose("color", colour);
        choose("level", std::to_string(level));
        press("new");
        waitForTurn();
    }
    // Waits until the page answers: my turn again, or the game over.
    void waitForTurn() {
        b_.waitFor(
            [&] {
                const std::string s = text("#status");
                return s.rfind("Your move", 0) == 0 || s == "Game over.";
            },
            30s, "the page to give the move back");
    }
    bool over() { return text("#status") == "Game over."; }
    // A click on an intersection ("D4"), where the board is drawn on the screen.
    void click(const std::string& point) {
        const cg::Point p = cg::parsePoint(point, size());
        // The board's geometry as the page draws it (data-margin and data-spacing in the SVG's units, row 1
        // at the bottom) and its scale on the screen; offsets are from the board's centre.
        const json g = b_.executeScript(
            "var b = document.getElementById('board');"
            "return [b.getBoundingClientRect().width / b.viewBox.baseVal.width, +b.dataset.margin,"
            " +b.dataset.spacing, b.viewBox.baseVal.width];");
        const double scale = g[0], margin = g[1], spacing = g[2], half = g[3].get<double>() / 2;
        const int x = int(std::lround((margin + spacing * p.col - half) * scale));
        const int y = int(std::lround((margin + spacing * (size() - 1 - p.row) - half) * scale));
        const json origin = web::Browser::elementRef(b_.find("#board"));
        json steps = json::array();
        steps.push_back({{"type", "pointerMove"}, {"origin", origin}, {"x", x}, {"y", y}, {"duration", 0}});
        steps.push_back({{"type", "pointerDown"}, {"button", 0}});
        steps.push_back({{"type", "pointerUp"}, {"button", 0}});
        json actions = {{"actions",
                         {{{"type", "pointer"},
                           {"id", "mouse"},
                           {"parameters", {{"pointerType", "mouse"}}},
                           {"actions", steps}}}}};
        b_.command("POST", "/session/" + b_.sessionId() + "/actions", actions);
        b_.command("DELETE", "/session/" + b_.sessionId() + "/actions");
    }
    int size() {
        return b_.executeScript("return +document.getElementById('board').dataset.size;").get<int>();
    }
    // The moves as the page lists them ("1.B D4  2.W pass").
    std::vector<std::string> moves() {
        std::vector<std::string> out;
        std::istringstream in(text("#moves"));
        for (std::string numbered, move; in >> numbered >> move;) out.push_back(move);
        return out;
    }
    std::vector<std::string> stones(const std::string& colour) {
        return b_
            .executeScript(
                "return Array.from(document.querySelectorAll('circle.stone.' + arguments[0]))"
                ".map(e => e.dataset.point);",
                json::array({colour}))
            .get<std::vector<std::string>>();
    }
    int count(const std::string& css) {
        return b_.executeScript("return document.querySelectorAll(arguments[0]).length;", json::array({css}))
            .get<int>();
    }
    // What the "Download SGF" link serves, fetched by the browser from the link itself.
    std::string downloadedSgf() {
        return b_
            .executeScript(
                "var x = new XMLHttpRequest(); x.open('GET', document.getElementById('sgf').href, false);"
                "x.send(); return x.status === 200 ? x.responseText : 'status ' + x.status;")
            .get<std::string>();
    }
    // The game the listed moves make on the empty board of `boardSize` under a capture target.
    cg::Game replay(int boardSize, int target) {
        const cg::Position start = cg::emptyPosition(boardSize, cg::Rules::capture(target));
        std::vector<cg::Move> list;
        for (const std::string& m : moves()) list.push_back(cg::parseMove(m, boardSize));
        return cg::Game::replay(start, list);
    }
    // Plays a random legal stone (not a pass) for me by a click; returns it.
    std::string playRandom(int boardSize, int target, std::mt19937& rng) {
        const cg::Game game = replay(boardSize, target);
        std::vector<cg::Move> stones;
        for (const cg::Move& m : game.position().legalMoves())
            if (!m.isPass()) stones.push_back(m);
        if (stones.empty()) return "";
        const std::string point = cg::moveName(stones[rng() % stones.size()]);
        const std::size_t before = moves().size();
        click(point);
        b_.waitFor([&] { return moves().size() > before || !text("#message").empty(); }, 30s, "my move");
        waitForTurn();
        return point;
    }

  private:
    web::Browser& b_;
};

}  // namespace

class CaptureGoPlayInBrowser : public ::testing::Test {
  protected:
    void SetUp() override {
        XQ_REQUIRE_ORACLE(std::filesystem::exists(xq::testing::XqGoBinary), "xq-go not built");
        dir_ = ::testing::TempDir() + "xq-go-play-web-XXXXXX";
        ASSERT_TRUE(mkdtemp(dir_.data()));
        server_ = std::make_unique<xq::testing::XqPlayProcess>(
            4, std::vector<std::string>{"--game", "capturego", "--engine", xq::testing::XqGoBinary});
        driver_ = std::make_unique<web::ChromeDriver>(dir_);
        browser_ = std::make_unique<web::Browser>(*driver_);
        browser_->navigate(server_->url() + "/");
    }
    void TearDown() override {
        browser_.reset();
        driver_.reset();
        server_.reset();
        if (!dir_.empty()) std::filesystem::remove_all(dir_);
    }
    void shot(const std::string& name) { browser_->screenshot(artifactDir() + "/" + name + ".png"); }
    void windowSize(int width, int height) {
        browser_->command("POST", "/session/" + browser_->sessionId() + "/window/rect",
                          {{"width", width}, {"height", height}});
    }

    std::string dir_;
    std::unique_ptr<xq::testing::XqPlayProcess> server_;
    std::unique_ptr<web::ChromeDriver> driver_;
    std::unique_ptr<web::Browser> browser_;
};

TEST_F(CaptureGoPlayInBrowser, WholeGamesArePlayedByClicksAtTheLowestLevelUntilAResultWithEitherColour) {
    GoPage page(*browser_);
    EXPECT_EQ(browser_->title(), "Play Capture Go against xq-go");
    std::mt19937 rng(2026);
    for (const std::string colour : {"black", "white"}) {
        SCOPED_TRACE("playing " + colour);
        page.start(7, 1, colour, 1);
        EXPECT_EQ(page.size(), 7);
        EXPECT_EQ(page.moves().size(), colour == "white" ? 1u : 0u) << "black, the engine, moved first";
        int mine = 0;
        while (!page.over() && mine < 60) {
            ASSERT_FALSE(page.playRandom(7, 1, rng).empty());
            EXPECT_EQ(page.text("#message"), "");
            ++mine;
            if (!page.over()) {
                // My stones and the engine's are on the board, the last move marked.
                const cg::Game game = page.replay(7, 1);
                EXPECT_EQ(int(page.stones("black").size()), game.position().stoneCount(cg::Color::Black));
                EXPECT_EQ(int(page.stones("white").size()), game.position().stoneCount(cg::Color::White));
                if (!game.moves().back().isPass()) {
                    EXPECT_EQ(page.count("circle.last"), 1);
                }
            }
        }
        ASSERT_TRUE(page.over()) << "no result after " << mine << " moves of mine";
        if (colour == "black") shot("capturego-end");
        // The verdict in words, the captures counted, and the SGF the page offers reads back the same.
        const cg::Game game = page.replay(7, 1);
        const std::string verdict = page.text("#verdict");
        EXPECT_EQ(verdict.rfind(game.result().outcome == cg::Outcome::BlackWins ? "Black wins by capture: "
                                                                                : "White wins by capture: ",
                                0),
                  0u)
            << verdict;
        EXPECT_EQ(page.text("#cap-black"), std::to_string(game.position().captures(cg::Color::Black)));
        EXPECT_EQ(page.text("#cap-white"), std::to_string(game.position().captures(cg::Color::White)));
        EXPECT_GE(page.count("g.captured"), 1) << "the captured stone is marked";
        const cg::Game back = cg::readSgf(page.downloadedSgf());
        EXPECT_EQ(back.moves(), game.moves());
        EXPECT_EQ(back.result().sgf(), game.result().sgf());
    }
}

TEST_F(CaptureGoPlayInBrowser, AnIllegalClickIsRefusedWithItsReasonAndPassUndoAndResignAnswer) {
    GoPage page(*browser_);
    // No game yet: no SGF to download (the link would download the page itself).
    EXPECT_EQ(browser_->executeScript("return document.getElementById('sgf').offsetParent === null;"), true);
    page.start(9, 5, "black", 1);
    EXPECT_EQ(browser_->executeScript("return document.getElementById('sgf').offsetParent !== null;"), true);
    // Who captured whose stones, in words.
    const std::string captures = page.text("#captures");
    EXPECT_NE(captures.find("Black captured 0 of white's stones"), std::string::npos) << captures;
    EXPECT_NE(captures.find("White captured 0 of black's stones"), std::string::npos) << captures;
    page.click("E5");
    page.waitForTurn();
    ASSERT_EQ(page.moves().size(), 2u);
    EXPECT_EQ(page.stones("black"), std::vector<std::string>{"E5"});
    page.click("E5");
    browser_->waitFor([&] { return !page.text("#message").empty(); }, 30s, "the refusal");
    EXPECT_EQ(page.text("#message"), "Refused: E5 is occupied");
    EXPECT_EQ(page.moves().size(), 2u);
    page.press("pass");
    browser_->waitFor([&] { return page.moves().size() >= 4 || page.over(); }, 30s, "the pass and a reply");
    EXPECT_EQ(page.moves()[2], "pass");
    page.press("undo");
    browser_->waitFor([&] { return page.moves().size() == 2; }, 30s, "the undo of my pass and its reply");
    page.press("undo");
    browser_->waitFor([&] { return page.moves().empty(); }, 30s, "the undo of my first move");
    EXPECT_EQ(page.count("circle.stone"), 0);
    page.press("undo");
    browser_->waitFor([&] { return !page.text("#message").empty(); }, 30s, "the answer to undo");
    EXPECT_EQ(page.text("#message"), "there is no move of yours to take back");
    page.press("resign");
    browser_->waitFor([&] { return page.over(); }, 30s, "the resignation");
    EXPECT_EQ(page.text("#verdict"), "White wins: black resigned");
    EXPECT_EQ(cg::readSgf(page.downloadedSgf()).result().sgf(), "W+R");
}

TEST_F(CaptureGoPlayInBrowser, AtPhoneWidthTheBoardFitsAndClicksWork) {
    GoPage page(*browser_);
    windowSize(390, 900);
    page.start(9, 1, "black", 1);
    // Nothing to scroll sideways, and the whole board is on the screen's width.
    EXPECT_EQ(browser_->executeScript(
                  "return document.documentElement.scrollWidth <= document.documentElement.clientWidth;"),
              true);
    const double width =
        browser_->executeScript("return document.getElementById('board').getBoundingClientRect().right;")
            .get<double>();
    EXPECT_LE(width, 390);
    EXPECT_GE(width, 300) << "the board uses the width";
    for (const std::string point : {"A1", "J9", "E5"}) {
        if (page.over()) break;
        const cg::Game game = page.replay(9, 1);
        if (!game.position().isLegal(cg::parseMove(point, 9))) continue;
        const std::size_t before = page.moves().size();
        page.click(point);
        page.waitForTurn();
        ASSERT_GT(page.moves().size(), before) << page.text("#message");
        EXPECT_EQ(page.moves()[before], point);
    }
    shot("capturego-phone");
}

// Writes docs/img/capturego-play.png, the README's picture of a game in progress at desktop width.
TEST_F(CaptureGoPlayInBrowser, DISABLED_ReadmeScreenshot) {
    GoPage page(*browser_);
    windowSize(1100, 720);
    page.start(9, 3, "black", 2);
    std::mt19937 rng(11);
    for (const std::string point : {"E5", "D4", "F4", "C6", "E3", "G6", "D6"}) {
        if (page.over()) break;
        if (!page.replay(9, 3).position().isLegal(cg::parseMove(point, 9))) {
            page.playRandom(9, 3, rng);
            continue;
        }
        page.click(point);
        page.waitForTurn();
    }
    ASSERT_FALSE(page.over()) << page.text("#verdict");
    browser_->screenshot(std::string(XQ_SOURCE_DIR) + "/docs/img/capturego-play.png");
}
