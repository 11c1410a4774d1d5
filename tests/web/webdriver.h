// A small WebDriver client for browser tests: starts Debian's chromedriver and drives a real headless
// Chromium through the W3C WebDriver protocol (https://www.w3.org/TR/webdriver2/). Header-only; needs
// cpp-httplib and nlohmann-json.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace xq::testing::web {

using json = nlohmann::json;

namespace detail {

// A loopback port that was free a moment ago (bind to port 0, read it back, close).
inline int freeLoopbackPort() {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) throw std::runtime_error("webdriver: socket() failed");
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    bool ok = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
              getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0;
    close(fd);
    if (!ok) throw std::runtime_error("webdriver: could not find a free loopback port");
    return ntohs(addr.sin_port);
}

// The last `n` bytes of a file, for error messages.
inline std::string fileTail(const std::string& path, std::size_t n = 3000) {
    std::ifstream in(path, std::ios::binary);
    std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return s.size() > n ? "..." + s.substr(s.size() - n) : s;
}

inline std::string base64Decode(const std::string& in) {
    auto value = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        if (c == '+') return 62;
        if (c == '/') return 63;
        return -1;
    };
    std::string out;
    unsigned bits = 0;
    int count = 0;
    for (char c : in) {
        int v = value(c);
        if (v < 0) continue;  // padding, newlines
        bits = (bits << 6) | static_cast<unsigned>(v);
        if ((count += 6) >= 8) out.push_back(static_cast<char>((bits >> (count -= 8)) & 0xFF));
    }
    return out;
}

}  // namespace detail

// A chromedriver child process on a free loopback port, in its own process group so that the
// browsers it starts die with it. Its output goes to <tempDir>/chromedriver.log.
class ChromeDriver {
  public:
    explicit ChromeDriver(std::string tempDir, std::chrono::seconds startTimeout = std::chrono::seconds(30))
        : tempDir_(std::move(tempDir)), logPath_(tempDir_ + "/chromedriver.log") {
        for (int attempt = 1; attempt <= 3; ++attempt) {
            if (start(detail::freeLoopbackPort(), startTimeout)) return;
            if (pid_ > 0) break;  // still running but never ready: retrying will not help
        }
        stop();
        throw std::runtime_error("webdriver: chromedriver did not become ready; log " + logPath_ + ":\n" +
                                 detail::fileTail(logPath_));
    }
    ~ChromeDriver() { stop(); }
    ChromeDriver(const ChromeDriver&) = delete;
    ChromeDriver& operator=(const ChromeDriver&) = delete;

    int port() const { return port_; }
    const std::string& tempDir() const { return tempDir_; }
    const std::string& logPath() const { return logPath_; }

  private:
    // True once /status answers ready; false (with pid_ == 0) when the process exited first.
    bool start(int port, std::chrono::seconds timeout) {
        std::string exe = "/usr/bin/chromedriver", portArg = "--port=" + std::to_string(port);
        char* argv[] = {exe.data(), portArg.data(), nullptr};
        int logFd = open(logPath_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (logFd < 0 || devnull < 0) throw std::runtime_error("webdriver: cannot open " + logPath_);
        pid_t pid = fork();
        if (pid == 0) {  // child: only async-signal-safe calls until exec
            setpgid(0, 0);
            dup2(devnull, 0);
            dup2(logFd, 1);
            dup2(logFd, 2);
            execv(argv[0], argv);
            _exit(127);
        }
        close(logFd);
        close(devnull);
        if (pid < 0) throw std::runtime_error("webdriver: fork failed");
        setpgid(pid, pid);  // also here, so the group exists before we might kill it
        pid_ = pid;
        port_ = port;
        httplib::Client client("127.0.0.1", port);
        client.set_connection_timeout(std::chrono::milliseconds(500));
        client.set_read_timeout(std::chrono::seconds(5));
        auto deadline = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < deadline) {
            if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
                kill(-pid_, SIGKILL);
                pid_ = 0;
                return false;
            }
            if (auto res = client.Get("/status"); res && res->status == 200) {
                auto body = json::parse(res->body, nullptr, false);
                if (body.is_object() && body.contains("value") && body["value"].is_object() &&
                    body["value"].value("ready", false))
                    return true;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return false;
    }

    // SIGTERM to the whole group, SIGKILL after 3 s, then reap chromedriver.
    void stop() {
        if (pid_ <= 0) return;
        kill(-pid_, SIGTERM);
        for (int i = 0; i < 60 && waitpid(pid_, nullptr, WNOHANG) == 0; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        kill(-pid_, SIGKILL);  // stragglers of the group (browsers), and chromedriver if still alive
        waitpid(pid_, nullptr, 0);
        pid_ = 0;
    }

    std::string tempDir_, logPath_;
    pid_t pid_ = 0;
    int port_ = 0;
};

// One WebDriver session with a fresh headless Chromium profile; quits the session when destroyed.
class Browser {
  public:
    static constexpr const char* kElementKey = "element-6066-11e4-a52e-4f735466cecf";

    explicit Browser(ChromeDriver& driver) : http_("127.0.0.1", driver.port()) {
        http_.set_connection_timeout(std::chrono::seconds(5));
        http_.set_read_timeout(std::chrono::seconds(60));
        http_.set_write_timeout(std::chrono::seconds(60));
        std::string profile = driver.tempDir() + "/chromium-profile-XXXXXX";
        if (!mkdtemp(profile.data())) throw std::runtime_error("webdriver: mkdtemp failed for " + profile);
        json options = {{"binary", "/usr/bin/chromium"},
                        {"args",
                         {"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                          "--window-size=1280,900", "--user-data-dir=" + profile}}};
        json caps = {{"capabilities",
                      {{"alwaysMatch", {{"browserName", "chrome"}, {"goog:chromeOptions", options}}}}}};
        session_ = command("POST", "/session", caps)["sessionId"].get<std::string>();
    }
    ~Browser() {
        try {
            quit();
        } catch (...) {  // the driver may already be gone
        }
    }
    Browser(const Browser&) = delete;
    Browser& operator=(const Browser&) = delete;

    // Ends the session (closes the browser); further commands fail.
    void quit() {
        if (session_.empty()) return;
        std::string path = "/session/" + session_;
        session_.clear();
        command("DELETE", path);
    }

    void navigate(const std::string& url) { call("POST", "/url", {{"url", url}}); }
    std::string currentUrl() { return call("GET", "/url"); }
    std::string title() { return call("GET", "/title"); }
    std::string pageSource() { return call("GET", "/source"); }

    // The element id of the first match of a CSS selector; throws naming the selector when none.
    std::string find(const std::string& css) {
        if (auto id = tryFind(css)) return *id;
        throw std::runtime_error("webdriver: no element matches the CSS selector '" + css + "'");
    }
    std::optional<std::string> tryFind(const std::string& css) {
        auto all = findAll(css);  // avoids an error round trip when absent
        if (all.empty()) return std::nullopt;
        return all.front();
    }
    std::vector<std::string> findAll(const std::string& css) {
        std::vector<std::string> ids;
        for (const auto& e : call("POST", "/elements", {{"using", "css selector"}, {"value", css}}))
            ids.push_back(e.at(kElementKey).get<std::string>());
        return ids;
    }

    void click(const std::string& id) { call("POST", "/element/" + id + "/click", json::object()); }
    void clear(const std::string& id) { call("POST", "/element/" + id + "/clear", json::object()); }
    // Types text; on an <input type=file>, an absolute path uploads that file.
    void sendKeys(const std::string& id, const std::string& text) {
        call("POST", "/element/" + id + "/value", {{"text", text}});
    }
    std::string text(const std::string& id) { return call("GET", "/element/" + id + "/text"); }
    // An HTML attribute as written in the page ("" when absent); for what the user typed, use
    // property(id, "value").
    std::string attribute(const std::string& id, const std::string& name) {
        json v = call("GET", "/element/" + id + "/attribute/" + name);
        return v.is_string() ? v.get<std::string>() : "";
    }
    // A DOM property (null when absent), e.g. an input's live "value" or a checkbox's "checked".
    json property(const std::string& id, const std::string& name) {
        return call("GET", "/element/" + id + "/property/" + name);
    }

    // Runs a function body in the page (`arguments[i]` are `args`); returns what it returns. An element
    // id goes in args as elementRef(id).
    json executeScript(const std::string& js, const json& args = json::array()) {
        return call("POST", "/execute/sync", {{"script", js}, {"args", args}});
    }
    static json elementRef(const std::string& id) { return {{kElementKey, id}}; }

    // Writes a PNG of the viewport.
    void screenshot(const std::string& pngPath) {
        std::string png = detail::base64Decode(call("GET", "/screenshot").get<std::string>());
        std::ofstream out(pngPath, std::ios::binary);
        out.write(png.data(), static_cast<std::streamsize>(png.size()));
        if (!out) throw std::runtime_error("webdriver: cannot write " + pngPath);
    }

    json cookies() { return call("GET", "/cookie"); }

    // Polls `cond` every 100 ms until true; throws naming `what` after `timeout`.
    static void waitFor(const std::function<bool()>& cond, std::chrono::milliseconds timeout,
                        const std::string& what) {
        auto deadline = std::chrono::steady_clock::now() + timeout;
        while (!cond()) {
            if (std::chrono::steady_clock::now() >= deadline)
                throw std::runtime_error("webdriver: timed out after " + std::to_string(timeout.count()) +
                                         " ms waiting for " + what);
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }

    const std::string& sessionId() const { return session_; }

    // A raw WebDriver command; returns the response's "value". Errors throw with the command and message.
    json command(const std::string& method, const std::string& path, const json& body = nullptr) {
        std::string what = "webdriver: " + method + " " + path;
        httplib::Result res = method == "GET"    ? http_.Get(path)
                              : method == "POST" ? http_.Post(path, body.dump(), "application/json")
                                                 : http_.Delete(path);
        if (!res) throw std::runtime_error(what + ": HTTP failure: " + httplib::to_string(res.error()));
        json reply = json::parse(res->body, nullptr, false);
        if (reply.is_discarded() || !reply.is_object())
            throw std::runtime_error(what + ": HTTP " + std::to_string(res->status) + ": " + res->body);
        json value = reply.value("value", json());
        if (value.is_object() && value.contains("error")) {
            std::string error = value["error"].get<std::string>(), message = value.value("message", "");
            if (message.rfind(error, 0) != 0) message = error + ": " + message;  // chromedriver repeats it
            throw std::runtime_error(what + ": " + message);
        }
        if (res->status != 200)
            throw std::runtime_error(what + ": HTTP " + std::to_string(res->status) + ": " + res->body);
        return value;
    }

  private:
    json call(const std::string& method, const std::string& path, const json& body = nullptr) {
        if (session_.empty()) throw std::runtime_error("webdriver: " + method + " " + path + ": no session");
        return command(method, "/session/" + session_ + path, body);
    }

    httplib::Client http_;
    std::string session_;
};

}  // namespace xq::testing::web
