// xq play's page in a real headless Chromium, played by clicks on the board as a person plays it: the
// real `xq play` process and real engine processes on 127.0.0.1. Screenshots go to
// build/test-artifacts/play (the README's are taken from there).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <set>

#include "oracle.h"
#include "webdriver.h"
#include "xiangqi/movegen.h"
#include "xiangqi/position.h"
#include "xiangqi/rules.h"
#include "xq_play_process.h"

using nlohmann::json;
using namespace std::chrono_literals;
namespace web = xq::testing::web;

namespace {

std::string artifactDir() {
    std::string dir = std::string(XQ_BIN_DIR) + "/../test-artifacts/play";
    std::filesystem::create_directories(dir);
    return dir;
}

// The page as a person sees it, driven through WebDriver.
class PlayPage {
  public:
    explicit PlayPage(web::Browser& b) : b_(b) {}

    std::string text(const std::string& css) {
        auto t =
            b_.executeScript("var e = document.querySelector(arguments[0]); return e ? e.innerText : null;",
                             json::array({css}));
        if (!t.is_string()) throw std::runtime_error("no element matches '" + css + "'");
        return t.get<std::string>();
    }
    void choose(const std::string& selectId, const std::string& value) {
        b_.executeScript("var s = document.getElementById(arguments[0]); s.value = arguments[1];",
                         json::array({selectId, value}));
    }
    void press(const std::string& buttonId) { b_.click(b_.find("#" + buttonId)); }
    // A new game from this position (FEN), waiting for the person's turn.
    void startFrom(const std::string& fen) {
        b_.sendKeys(b_.find("#startfen"), fen);
        press("new");
        waitForTurn();
    }

    // A click (pointer down and up) on a point of the board. Red sees files a-i left to right and ranks
    // 0-9 bottom to top; a flipped board (playing black) shows them the other way round.
    void clickSquare(const std::string& square) { pointer(square, square); }
    // A drag: pointer down on `from`, moved over the board, up on `to`.
    void drag(const std::string& from, const std::string& to) { pointer(from, to); }
    bool flipped = false;
    // Clicks the piece on `from`, then the point `to`.
    void move(const std::string& from, const std::string& to) {
        clickSquare(from);
        clickSquare(to);
    }
    // Waits until the page answers: the person's turn again, or the game over.
    void waitForTurn() {
        b_.waitFor(
            [&] {
                const std::string s = text("#status");
                return s.rfind("Your move", 0) == 0 || s == "Game over.";
            },
            60s, "the page to give the move back");
    }
    std::vector<std::string> squares(const std::string& css) {
        json list = b_.executeScript(
            "return Array.from(document.querySelectorAll(arguments[0])).map(e => e.dataset.square);",
            json::array({css}));
        return list.get<std::vector<std::string>>();
    }
    int count(const std::string& css) {
        return b_.executeScript("return document.querySelectorAll(arguments[0]).length;", json::array({css}))
            .get<int>();
    }
    std::string fen() { return text("#fen"); }
    bool over() { return text("#status") == "Game over."; }
    // What the "Download PGN" link serves, fetched by the browser from the link itself.
    std::string downloadedPgn() {
        return b_
            .executeScript(
                "var x = new XMLHttpRequest(); x.open('GET', document.getElementById('pgn').href, false);"
                "x.send(); return x.status === 200 ? x.responseText : 'status ' + x.status;")
            .get<std::string>();
    }

  private:
    // The offset of a point from the board element's centre, in CSS pixels. Board coordinates: 40 + 60 *
    // column across, 40 + 60 * row down; the centre is (280, 310).
    std::pair<int, int> offset(const std::string& square) {
        const double scale = b_.executeScript(
                                   "var r = document.getElementById('board').getBoundingClientRect();"
                                   "return r.width / 560;")
                                 .get<double>();
        int column = square[0] - 'a', row = 9 - (square[1] - '0');
        if (flipped) column = 8 - column, row = 9 - row;
        return {int(std::lround((40 + 60 * column - 280) * scale)),
                int(std::lround((40 + 60 * row - 310) * scale))};
    }
    void pointer(const std::string& down, const std::string& up) {
        const json origin = web::Browser::elementRef(b_.find("#board"));
        const auto [x0, y0] = offset(down);
        const auto [x1, y1] = offset(up);
        json steps = json::array();
        steps.push_back({{"type", "pointerMove"}, {"origin", origin}, {"x", x0}, {"y", y0}, {"duration", 0}});
        steps.push_back({{"type", "pointerDown"}, {"button", 0}});
        if (up != down)
            steps.push_back(
                {{"type", "pointerMove"}, {"origin", origin}, {"x", x1}, {"y", y1}, {"duration", 150}});
        steps.push_back({{"type", "pointerUp"}, {"button", 0}});
        json actions = {{"actions",
                         {{{"type", "pointer"},
                           {"id", "mouse"},
                           {"parameters", {{"pointerType", "mouse"}}},
                           {"actions", steps}}}}};
        b_.command("POST", "/session/" + b_.sessionId() + "/actions", actions);
        b_.command("DELETE", "/session/" + b_.sessionId() + "/actions");
    }

    web::Browser& b_;
};

// `xq judge --json --pgn` on a PGN text.
json judged(const std::string& pgn, const std::string& name) {
    const std::string path = artifactDir() + "/" + name + ".pgn";
    std::ofstream(path) << pgn;
    FILE* p = popen((std::string(XQ_BIN_DIR) + "/xq judge --json --pgn " + path).c_str(), "r");
    std::string out;
    char buf[4096];
    for (std::size_t n; p && (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    if (p) pclose(p);
    return json::parse(out, nullptr, false);
}

}  // namespace

class PlayInBrowser : public ::testing::Test {
  protected:
    void SetUp() override {
        XQ_REQUIRE_ORACLE(std::filesystem::exists(xq::testing::XqEngineBinary), "xq-engine not built");
        dir_ = ::testing::TempDir() + "xq-play-web-XXXXXX";
        ASSERT_TRUE(mkdtemp(dir_.data()));
        server_ = std::make_unique<xq::testing::XqPlayProcess>(4);
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
    void phoneShot(const std::string& name) {
        auto& b = *browser_;
        b.command("POST", "/session/" + b.sessionId() + "/window/rect", {{"width", 390}, {"height", 1100}});
        // The page fits a phone's width: nothing to scroll sideways.
        EXPECT_EQ(b.executeScript(
                      "return document.documentElement.scrollWidth <= document.documentElement.clientWidth;"),
                  true);
        shot(name);
        b.command("POST", "/session/" + b.sessionId() + "/window/rect", {{"width", 1280}, {"height", 900}});
    }

    std::string dir_;
    std::unique_ptr<xq::testing::XqPlayProcess> server_;
    std::unique_ptr<web::ChromeDriver> driver_;
    std::unique_ptr<web::Browser> browser_;
};

TEST_F(PlayInBrowser, WholeGamesArePlayedByClicksAtTheLowestLevelUntilAResultWithEitherColour) {
    PlayPage page(*browser_);
    EXPECT_EQ(browser_->title(), "Play Xiangqi against xq-engine");
    std::mt19937 rng(2026);
    for (const std::string colour : {"red", "black"}) {
        SCOPED_TRACE("playing " + colour);
        page.choose("level", "1");
        page.choose("color", colour);
        page.flipped = colour == "black";  // the page turns the board so that my side is at the bottom
        page.press("new");
        page.waitForTurn();
        EXPECT_EQ(page.squares("g.piece").size(), 32u);
        if (colour == "red") {
            shot("play-start");
            phoneShot("play-start-phone");
        } else {
            EXPECT_EQ(page.text("#moves").rfind("1. ", 0), 0u) << "the engine, red, moved first";
        }
        int moves = 0;
        while (!page.over() && moves < 200) {
            // Pick one of my pieces that has a move: clicking it shows its targets.
            std::vector<std::string> mine = page.squares("g.piece." + colour), targets;
            std::shuffle(mine.begin(), mine.end(), rng);
            std::string from;
            for (const std::string& sq : mine) {
                page.clickSquare(sq);
                targets = page.squares("circle.target");
                if (!targets.empty()) {
                    from = sq;
                    break;
                }
            }
            ASSERT_FALSE(from.empty()) << "no piece of mine shows a move in " << page.fen();
            if (moves == 5 && colour == "red") shot("play-middle");  // a piece picked, its targets shown
            // A capture when one is shown, else any target.
            const std::string before = page.fen();
            const xq::Position pos(before);
            std::string to = targets[rng() % targets.size()];
            for (const std::string& t : targets)
                if (pos.pieceOn(xq::makeSquare(t[0] - 'a', t[1] - '0')) != xq::NO_PIECE) to = t;
            page.clickSquare(to);
            page.waitForTurn();
            ASSERT_NE(page.fen(), before)
                << "the move " << from << to << " was not played: " << page.text("#message");
            ++moves;
        }
        ASSERT_TRUE(page.over()) << "no result after " << moves << " moves of mine";
        const std::string verdict = page.text("#verdict");
        if (colour == "red") shot("play-end");
        // The verdict in words, and the PGN the page offers reads back with the same result and reason.
        EXPECT_TRUE(verdict.find(" wins") != std::string::npos || verdict.rfind("Draw by ", 0) == 0)
            << verdict;
        const json j = judged(page.downloadedPgn(), "whole-game-" + colour);
        ASSERT_TRUE(j.is_object()) << page.downloadedPgn();
        EXPECT_EQ(j["agree"], 1) << j.dump();
    }
}

TEST_F(PlayInBrowser, AnIllegalMoveByClicksIsRefusedWithItsReasonAndEveryButtonAnswers) {
    PlayPage page(*browser_);
    page.startFrom("4k4/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1");
    // The advisor on e1 shields the generals from each other: moving it away is refused.
    page.move("e1", "d2");
    page.waitForTurn();
    EXPECT_EQ(page.text("#message"), "Refused: this move leaves the generals facing");
    EXPECT_EQ(page.text("#moves"), "");
    // Hint and evaluation answer from the engine; the move then played is shown and marked.
    page.press("hint");
    browser_->waitFor([&] { return page.text("#advice").rfind("Hint: ", 0) == 0; }, 30s, "a hint");
    page.press("eval");
    browser_->waitFor([&] { return page.text("#advice").rfind("Evaluation (red's view): ", 0) == 0; }, 30s,
                      "the evaluation");
    // Flip turns the board: red's general goes from the bottom half to the top, and back.
    auto generalY = [&] {
        return browser_
            ->executeScript(
                "var b = document.getElementById('board').getBoundingClientRect();"
                "var g = document.querySelector('g.piece[data-square=e0]').getBoundingClientRect();"
                "return (g.top + g.height / 2 - b.top) / b.height;")
            .get<double>();
    };
    EXPECT_GT(generalY(), 0.5);
    page.press("flip");
    EXPECT_LT(generalY(), 0.5);
    page.press("flip");
    page.drag("a0", "a9");  // by drag this time
    page.waitForTurn();
    // The moves in Chinese notation, or in ICCS.
    EXPECT_EQ(page.text("#moves").rfind("1. 车九进九 ", 0), 0u) << page.text("#moves");
    page.choose("notation", "iccs");
    browser_->executeScript("document.getElementById('notation').dispatchEvent(new Event('change'));");
    EXPECT_EQ(page.text("#moves").rfind("1. a0a9 ", 0), 0u) << page.text("#moves");
    EXPECT_EQ(page.count("rect.last"), 2) << "the engine's move is marked";
    page.press("undo");
    browser_->waitFor([&] { return page.text("#moves").empty(); }, 30s, "the undo");
    page.press("resign");
    browser_->waitFor([&] { return page.over(); }, 30s, "the resignation");
    EXPECT_EQ(page.text("#verdict"), "Black wins: red resigned");
}

TEST_F(PlayInBrowser, UndoAndResignClearTheLastRefusalAndEvaluation) {
    PlayPage page(*browser_);
    page.startFrom("4k4/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1");
    page.move("a0", "a8");
    page.waitForTurn();
    page.move("a8", "b7");  // a chariot does not move diagonally: refused
    page.waitForTurn();
    ASSERT_EQ(page.text("#message").rfind("Refused: ", 0), 0u);
    page.press("eval");
    browser_->waitFor([&] { return page.text("#advice").rfind("Evaluation", 0) == 0; }, 30s,
                      "the evaluation");
    page.press("undo");
    browser_->waitFor([&] { return page.text("#moves").empty(); }, 30s, "the undo");
    EXPECT_EQ(page.text("#message"), "");
    EXPECT_EQ(page.text("#advice"), "");
    page.move("a0", "b1");
    page.waitForTurn();
    ASSERT_EQ(page.text("#message").rfind("Refused: ", 0), 0u);
    page.press("resign");
    browser_->waitFor([&] { return page.over(); }, 30s, "the resignation");
    EXPECT_EQ(page.text("#message"), "");
    // A resigned game's PGN says so as PGN does: a normal end, not an adjudication.
    const std::string pgn = page.downloadedPgn();
    EXPECT_NE(pgn.find("[Termination \"normal\"]"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("[Result \"0-1\"]"), std::string::npos) << pgn;
}

TEST_F(PlayInBrowser, ThePageNamesYourColourShowsCapturesAndWritesPiecesAsItsMoveList) {
    PlayPage page(*browser_);
    // No game yet: nothing to download (the link would download the page itself).
    EXPECT_EQ(browser_->executeScript("return document.getElementById('pgn').offsetParent === null;"), true);
    page.startFrom("r3k4/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1");
    EXPECT_EQ(page.text("#status"), "Your move (red).");
    EXPECT_EQ(browser_->executeScript("return document.getElementById('pgn').offsetParent !== null;"), true);
    EXPECT_EQ(page.text("#captured"), "");
    page.move("a0", "a9");  // takes black's chariot
    page.waitForTurn();
    EXPECT_EQ(page.text("#captured .taken-by-red"), "You (red) captured: 车");
    // The board writes each piece with the character the move list uses.
    EXPECT_EQ(page.text("#moves").rfind("1. 车九进九", 0), 0u) << page.text("#moves");
    EXPECT_EQ(
        browser_->executeScript("return document.querySelector('g.piece[data-square=a9] text').textContent;"),
        "车");
    EXPECT_EQ(
        browser_->executeScript("return document.querySelector('g.piece[data-square=e0] text').textContent;"),
        "帅");
    // The hint in the list's notation: Chinese, then ICCS once the list is.
    page.press("hint");
    browser_->waitFor([&] { return page.text("#advice").rfind("Hint: ", 0) == 0; }, 30s, "a hint");
    const std::string chinese = page.text("#advice").substr(6);
    EXPECT_FALSE(std::regex_match(chinese, std::regex("[a-i][0-9][a-i][0-9]"))) << chinese;
    EXPECT_GT(chinese.size(), 4u) << "four Chinese characters in UTF-8";
    page.choose("notation", "iccs");
    browser_->executeScript("document.getElementById('notation').dispatchEvent(new Event('change'));");
    page.press("hint");
    browser_->waitFor(
        [&] { return std::regex_match(page.text("#advice"), std::regex("Hint: [a-i][0-9][a-i][0-9]")); }, 30s,
        "a hint in ICCS");
}

TEST_F(PlayInBrowser, APlayerWhoOnlyKeepsCheckingLosesByPerpetualCheck) {
    PlayPage page(*browser_);
    browser_->sendKeys(browser_->find("#startfen"), "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    page.choose("level", "5");
    page.press("new");
    page.waitForTurn();
    // Each turn a check, back to a position already seen whenever one is.
    std::set<std::string> seen;
    for (int turn = 0; turn < 30 && !page.over(); ++turn) {
        xq::Position pos(page.fen());
        std::string chosen;
        for (xq::Move m : xq::legalMoves(pos)) {
            xq::Position after = pos;
            after.doMove(m);
            if (!after.inCheck()) continue;
            const std::string board = after.fen().substr(0, after.fen().find(' '));
            if (chosen.empty() || seen.count(board)) chosen = xq::moveToString(m);
            if (seen.count(board)) break;
        }
        ASSERT_FALSE(chosen.empty()) << "no check in " << page.fen();
        xq::Position after = pos;
        after.doMove(*xq::parseMove(after, chosen));
        seen.insert(after.fen().substr(0, after.fen().find(' ')));
        page.move(chosen.substr(0, 2), chosen.substr(2));
        page.waitForTurn();
        if (turn == 2) shot("play-checking");
    }
    ASSERT_TRUE(page.over()) << page.fen();
    EXPECT_EQ(page.text("#verdict"), "Black wins: perpetual check by red");
    shot("play-perpetual-check");
    phoneShot("play-perpetual-check-phone");
    const json j = judged(page.downloadedPgn(), "perpetual-check");
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["agree"], 1) << j.dump();
    EXPECT_EQ(j["games"][0]["reason"], "perpetual check by red");
}

TEST_F(PlayInBrowser, APlayerWhoLeavesThePageFreesTheGameForTheNext) {
    PlayPage page(*browser_);
    page.press("new");
    page.waitForTurn();
    // The server takes four games: the page's and three more make it full.
    httplib::Client c("127.0.0.1", server_->port);
    c.set_read_timeout(60, 0);
    const std::string body = R"({"level": 1})";
    for (int i = 0; i < 3; ++i) ASSERT_EQ(c.Post("/api/games", body, "application/json")->status, 201);
    EXPECT_EQ(c.Post("/api/games", body, "application/json")->status, 503);
    // The player goes to another page: the page gives its game back as it goes.
    browser_->navigate("about:blank");
    int status = 0;
    browser_->waitFor(
        [&] {
            auto r = c.Post("/api/games", body, "application/json");
            status = r ? r->status : 0;
            return status == 201;
        },
        30s, "the left game's slot to be free");
    EXPECT_EQ(status, 201);
}
