// The WebDriver client against a real headless Chromium: a local httplib server serves a tiny page with
// a button and a form, and each test drives it through a Browser.
#include "webdriver.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace web = xq::testing::web;
using json = nlohmann::json;
using namespace std::chrono_literals;

namespace {

const char* kPage = R"html(<!doctype html>
<html><head><title>xq web test</title></head><body>
<p id="status">waiting</p>
<button id="go" onclick="window.clicks = (window.clicks || 0) + 1;
  document.getElementById('status').textContent = 'clicked ' + window.clicks">Go</button>
<button id="later" onclick="setTimeout(() => document.getElementById('status').textContent = 'later', 300)">
  Later</button>
<ul><li class="item">red</li><li class="item">black</li><li class="item">river</li></ul>
<form id="form" method="post" action="/submit" enctype="multipart/form-data">
  <input id="name" name="name" value="prefilled">
  <input id="file" name="upload" type="file">
  <button id="send" type="submit">Send</button>
</form>
</body></html>)html";

// What the server saw in the last form submission.
struct Submission {
    std::string name, fileName, fileContent;
};

}  // namespace

class WebDriver : public ::testing::Test {
  protected:
    static void TearDownTestSuite() {
        driver_.reset();
        if (!tempDir_.empty()) std::filesystem::remove_all(tempDir_);
        tempDir_.clear();
    }

    void SetUp() override {
        if (tempDir_.empty()) {
            std::string dir = "/tmp/xq-webdriver-XXXXXX";
            ASSERT_NE(mkdtemp(dir.data()), nullptr);
            tempDir_ = dir;
        }
        if (!driver_) driver_ = std::make_unique<web::ChromeDriver>(tempDir_);
        server_.Get("/", [](const httplib::Request&, httplib::Response& res) {
            res.set_content(kPage, "text/html");
        });
        server_.Post("/submit", [this](const httplib::Request& req, httplib::Response& res) {
            Submission s;
            if (req.has_file("name")) s.name = req.get_file_value("name").content;
            if (req.has_file("upload")) {
                s.fileName = req.get_file_value("upload").filename;
                s.fileContent = req.get_file_value("upload").content;
            }
            {
                std::lock_guard lock(mutex_);
                submission_ = s;
            }
            res.set_header("Set-Cookie", "xq_seen=yes; Path=/");
            res.set_content(
                "<!doctype html><html><head><title>Submitted</title></head><body><p id=\"result\">" + s.name +
                    "|" + s.fileName + "|" + s.fileContent + "</p></body></html>",
                "text/html");
        });
        int port = server_.bind_to_any_port("127.0.0.1");
        ASSERT_GT(port, 0);
        base_ = "http://127.0.0.1:" + std::to_string(port);
        serverThread_ = std::thread([this] { server_.listen_after_bind(); });
        browser_ = std::make_unique<web::Browser>(*driver_);
    }

    void TearDown() override {
        browser_.reset();
        server_.stop();
        if (serverThread_.joinable()) serverThread_.join();
    }

    Submission submission() {
        std::lock_guard lock(mutex_);
        return submission_;
    }

    static inline std::string tempDir_;
    static inline std::unique_ptr<web::ChromeDriver> driver_;
    httplib::Server server_;
    std::thread serverThread_;
    std::string base_;
    std::unique_ptr<web::Browser> browser_;
    std::mutex mutex_;
    Submission submission_;
};

TEST_F(WebDriver, ClicksAButtonAndReadsTheChangedText) {
    web::Browser& b = *browser_;
    b.navigate(base_ + "/");
    EXPECT_EQ(b.currentUrl(), base_ + "/");
    EXPECT_EQ(b.title(), "xq web test");
    EXPECT_NE(b.pageSource().find("id=\"status\""), std::string::npos);
    std::string status = b.find("#status");
    EXPECT_EQ(b.text(status), "waiting");
    b.click(b.find("#go"));
    EXPECT_EQ(b.text(status), "clicked 1");
    b.click(b.find("#go"));
    EXPECT_EQ(b.text(status), "clicked 2");
}

TEST_F(WebDriver, WaitsForATextThatChangesLater) {
    web::Browser& b = *browser_;
    b.navigate(base_ + "/");
    std::string status = b.find("#status");
    b.click(b.find("#later"));
    web::Browser::waitFor([&] { return b.text(status) == "later"; }, 5s, "the delayed text");
    EXPECT_EQ(b.text(status), "later");
}

TEST_F(WebDriver, GivesUpWaitingAndNamesWhatItWaitedFor) {
    try {
        web::Browser::waitFor([] { return false; }, 300ms, "the river to freeze");
        FAIL() << "waitFor did not time out";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("the river to freeze"), std::string::npos) << e.what();
    }
}

TEST_F(WebDriver, FindsAllElementsMatchingASelector) {
    web::Browser& b = *browser_;
    b.navigate(base_ + "/");
    auto items = b.findAll("li.item");
    ASSERT_EQ(items.size(), 3u);
    EXPECT_EQ(b.text(items[0]), "red");
    EXPECT_EQ(b.text(items[2]), "river");
    EXPECT_TRUE(b.findAll(".nothing").empty());
}

TEST_F(WebDriver, ReportsAMissingElementByItsSelector) {
    web::Browser& b = *browser_;
    b.navigate(base_ + "/");
    EXPECT_FALSE(b.tryFind("#no-such-thing").has_value());
    EXPECT_TRUE(b.tryFind("#go").has_value());
    try {
        b.find("#no-such-thing");
        FAIL() << "find did not throw";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("#no-such-thing"), std::string::npos) << e.what();
    }
}

TEST_F(WebDriver, FillsAndSubmitsAForm) {
    web::Browser& b = *browser_;
    b.navigate(base_ + "/");
    std::string name = b.find("#name");
    EXPECT_EQ(b.attribute(name, "value"), "prefilled");
    b.clear(name);
    b.sendKeys(name, "Zhu Xi");
    EXPECT_EQ(b.property(name, "value"), "Zhu Xi");
    EXPECT_EQ(b.attribute(name, "value"), "prefilled");  // the attribute keeps the page's initial value
    EXPECT_EQ(b.attribute(name, "no-such-attribute"), "");
    b.click(b.find("#send"));
    web::Browser::waitFor([&] { return b.title() == "Submitted"; }, 10s, "the form's answer page");
    EXPECT_EQ(b.currentUrl(), base_ + "/submit");
    EXPECT_EQ(b.text(b.find("#result")), "Zhu Xi||");
    EXPECT_EQ(submission().name, "Zhu Xi");
    json cookies = b.cookies();
    ASSERT_TRUE(cookies.is_array());
    bool seen = false;
    for (const auto& c : cookies) seen |= c.value("name", "") == "xq_seen" && c.value("value", "") == "yes";
    EXPECT_TRUE(seen) << cookies.dump();
}

TEST_F(WebDriver, UploadsAFileThroughAFileInput) {
    std::string path = tempDir_ + "/opening.txt";
    std::ofstream(path) << "C2=5 h8+7";
    web::Browser& b = *browser_;
    b.navigate(base_ + "/");
    b.sendKeys(b.find("#file"), path);
    b.click(b.find("#send"));
    web::Browser::waitFor([&] { return b.title() == "Submitted"; }, 10s, "the form's answer page");
    Submission s = submission();
    EXPECT_EQ(s.name, "prefilled");
    EXPECT_EQ(s.fileName, "opening.txt");
    EXPECT_EQ(s.fileContent, "C2=5 h8+7");
}

TEST_F(WebDriver, RunsScriptsWithArgumentsAndElements) {
    web::Browser& b = *browser_;
    b.navigate(base_ + "/");
    EXPECT_EQ(b.executeScript("return arguments[0] + arguments[1];", {2, 3}), 5);
    json ref = web::Browser::elementRef(b.find("#status"));
    EXPECT_EQ(b.executeScript("return arguments[0].textContent;", json::array({ref})), "waiting");
    json object = b.executeScript("return {title: document.title, items: 3};");
    EXPECT_EQ(object["title"], "xq web test");
    EXPECT_EQ(object["items"], 3);
}

TEST_F(WebDriver, ReportsAWebDriverErrorWithTheCommandAndMessage) {
    web::Browser& b = *browser_;
    b.navigate(base_ + "/");
    try {
        b.executeScript("throw new Error('cannon misfired');");
        FAIL() << "executeScript did not throw";
    } catch (const std::runtime_error& e) {
        std::string what = e.what();
        EXPECT_NE(what.find("POST /session/"), std::string::npos) << what;
        EXPECT_NE(what.find("/execute/sync"), std::string::npos) << what;
        EXPECT_NE(what.find("javascript error"), std::string::npos) << what;
        EXPECT_NE(what.find("cannon misfired"), std::string::npos) << what;
    }
}

TEST_F(WebDriver, TakesAScreenshotAsPng) {
    web::Browser& b = *browser_;
    b.navigate(base_ + "/");
    std::string path = tempDir_ + "/page.png";
    b.screenshot(path);
    std::ifstream in(path, std::ios::binary);
    std::string png((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_GT(png.size(), 100u);
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    EXPECT_EQ(png.substr(12, 4), "IHDR");
    auto be32 = [&](std::size_t at) {
        return (static_cast<unsigned char>(png[at]) << 24) | (static_cast<unsigned char>(png[at + 1]) << 16) |
               (static_cast<unsigned char>(png[at + 2]) << 8) | static_cast<unsigned char>(png[at + 3]);
    };
    EXPECT_EQ(be32(16), 1280);  // --window-size=1280,900
    EXPECT_GT(be32(20), 0);
}
