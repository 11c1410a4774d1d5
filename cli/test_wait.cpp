#include "test_wait.h"

#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "client.h"
#include "sprt.h"
#include "test_report.h"
#include "test_verdict.h"
#include "util/text.h"

namespace xq::cli {

namespace v1 = xq::v1;

std::string duration(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) return "?";
    char buf[32];
    if (seconds < 90)
        std::snprintf(buf, sizeof buf, "%.0fs", seconds);
    else if (seconds < 5400)
        std::snprintf(buf, sizeof buf, "%.0fm%02.0fs", std::floor(seconds / 60), std::fmod(seconds, 60));
    else
        std::snprintf(buf, sizeof buf, "%.1fh", seconds / 3600);
    return buf;
}

std::string progressLine(const v1::TestView& view, double elapsed) {
    const auto& s = view.summary();
    char buf[256];
    std::snprintf(buf, sizeof buf, "games %llu  W %llu D %llu L %llu", (unsigned long long)s.games(),
                  (unsigned long long)(s.wdl_size() ? s.wdl(0) : 0),
                  (unsigned long long)(s.wdl_size() ? s.wdl(1) : 0),
                  (unsigned long long)(s.wdl_size() ? s.wdl(2) : 0));
    std::string line =
        std::string(buf) + "  Elo " + xq::fixed(s.elo(), 1) + " +- " + xq::fixed(s.elo_error(), 1);
    double rate = elapsed > 0 ? double(s.games()) / elapsed : 0;
    double remainingGames = double(s.games_target()) - double(s.games());
    if (s.is_sprt()) {
        line += "  LLR " + xq::fixed(s.llr(), 2) + " [" + xq::fixed(s.lower_bound(), 2) + ", " +
                xq::fixed(s.upper_bound(), 2) + "]";
        if (s.games() >= 20) {
            xq::stats::Penta p;
            for (int i = 0; i < 5 && i < s.penta().counts_size(); ++i)
                p.pairs[i] = std::int64_t(s.penta().counts(i));
            xq::stats::SprtConfig cfg;
            cfg.elo0 = view.spec().sprt().elo0();
            cfg.elo1 = view.spec().sprt().elo1();
            if (view.spec().sprt().alpha() > 0) cfg.alpha = view.spec().sprt().alpha();
            if (view.spec().sprt().beta() > 0) cfg.beta = view.spec().sprt().beta();
            if (!view.spec().sprt().model().empty())
                cfg.model = xq::stats::parseEloModel(view.spec().sprt().model());
            try {
                remainingGames = std::min(remainingGames, xq::stats::forecastRemaining(p, cfg).expectedGames);
            } catch (const std::exception&) {
            }
        } else {
            remainingGames = NAN;
        }
    }
    line += "  ETA " + (rate > 0 ? duration(remainingGames / rate) : std::string("?"));
    return line;
}

std::string testLink(const std::string& webUrl, std::uint64_t id) {
    if (webUrl.empty()) return "";
    std::string base = webUrl;
    while (!base.empty() && base.back() == '/') base.pop_back();
    return base + "/tests/" + std::to_string(id);
}

void addWebOption(CLI::App* sub, std::string& webUrl) {
    if (const char* env = std::getenv("XQ_WEB")) webUrl = env;
    sub->add_option("--web", webUrl,
                    "the coordinator's web view, e.g. https://xq.example.org (or XQ_WEB): the test's link is "
                    "printed");
}

namespace {

bool unreadable(grpc::StatusCode code) {
    return code == grpc::StatusCode::NOT_FOUND || code == grpc::StatusCode::PERMISSION_DENIED ||
           code == grpc::StatusCode::UNAUTHENTICATED || code == grpc::StatusCode::INVALID_ARGUMENT;
}

}  // namespace

int waitForTest(xq::coord::Client& client, std::uint64_t id, const WaitOptions& options) {
    using Clock = std::chrono::steady_clock;
    std::ostream& progress = options.json ? std::cerr : std::cout;
    const bool tty = isatty(options.json ? STDERR_FILENO : STDOUT_FILENO);
    const auto start = Clock::now();
    const std::string link = testLink(options.webUrl, id);
    if (!link.empty()) std::cerr << options.command << ": test " << id << ": " << link << "\n";
    auto seconds = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    v1::TestView view;
    bool seen = false;
    std::string lastPrinted, lastError;
    while (true) {
        v1::ShowTestRequest req;
        req.set_test_id(id);
        v1::TestView fresh;
        auto ctx = client.context(30);
        grpc::Status status = client.user().ShowTest(ctx.get(), req, &fresh);
        if (status.ok()) {
            view = std::move(fresh);
            seen = true;
            lastError.clear();
            if (xq::coord::testVerdict(view)) break;
            std::string line = progressLine(view, seconds());
            if (view.summary().state() == v1::TEST_STATE_PENDING)
                line = "waiting for an approver: " + xq::coord::pendingHint(id);
            if (tty) {
                progress << "\r" << line << "   " << std::flush;
            } else if (line != lastPrinted) {
                progress << line << std::endl;
            }
            lastPrinted = line;
        } else if (unreadable(status.error_code())) {
            if (tty && !lastPrinted.empty()) progress << "\n";
            std::cerr << options.command << ": cannot read test " << id << ": " << status.error_message()
                      << "\n";
            return xq::coord::VerdictNone;
        } else if (status.error_message() != lastError) {
            lastError = status.error_message();
            if (tty && !lastPrinted.empty()) progress << "\n";
            std::cerr << options.command << ": the coordinator does not answer (" << lastError
                      << "); trying again\n";
            lastPrinted.clear();
        }
        if (options.timeoutSeconds > 0 && seconds() >= options.timeoutSeconds) {
            if (tty && !lastPrinted.empty()) progress << "\n";
            std::cerr << options.command << ": timed out after " << duration(seconds())
                      << " waiting for test " << id << (seen ? " (it goes on)" : "") << "\n";
            if (options.json && seen) std::cout << xq::coord::testViewJson(view) << "\n";
            return xq::coord::VerdictNone;
        }
        std::this_thread::sleep_for(std::chrono::duration<double>(options.pollSeconds));
    }
    if (tty && !lastPrinted.empty()) progress << "\n";
    auto verdict = xq::coord::testVerdict(view);
    if (options.json) {
        auto report = xq::coord::testViewObject(view);
        report["verdict"] = verdict->text;
        report["exit_code"] = verdict->exitCode;
        if (!link.empty()) report["link"] = link;
        std::cout << report.dump(2) << "\n";
    } else {
        std::cout << progressLine(view, seconds()) << "\n" << xq::coord::testViewText(view);
        std::cout << "verdict: " << verdict->text << "\n";
    }
    if (!link.empty()) std::cerr << options.command << ": test " << id << ": " << link << "\n";
    return verdict->exitCode;
}

}  // namespace xq::cli
