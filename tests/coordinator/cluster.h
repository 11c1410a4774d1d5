// A coordinator and workers as real processes on 127.0.0.1 with an OS-picked port and a real store
// (SQLite, or PostgreSQL: test_store.h), plus the `xq` user commands against them: the setting a user
// meets.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>

#include "process.h"
#include "test_store.h"

namespace xq::coord::testing {

inline std::string bin(const std::string& name) {
    return std::string(XQ_BIN_DIR) + "/" + name;
}

inline std::string lastLine(const std::string& text) {
    std::string t = text;
    while (!t.empty() && t.back() == '\n') t.pop_back();
    auto nl = t.rfind('\n');
    return nl == std::string::npos ? t : t.substr(nl + 1);
}

// The project's Xiangqi opening book if the match runner ships one, else none (then every pair starts from
// the start position, which is enough for counting tests).
inline std::vector<std::string> openingArgs() {
    std::filesystem::path book =
        std::filesystem::path(XQ_SOURCE_DIR) / "data" / "openings" / "xq-balanced.epd";
    if (std::filesystem::exists(book)) return {"--openings", book.string()};
    return {"--no-openings"};
}

struct Cluster {
    TempDir dir;
    TestStore store;
    std::string data = dir.file("data");
    std::string address;
    std::unique_ptr<Process> coordinator;
    std::vector<std::unique_ptr<Process>> workers;
    std::string userToken, workerToken;
    // Approval is off (a test of it turns it on by leaving --no-approval out).
    std::vector<std::string> coordinatorArgs = {
        "--no-approval", "--lease-timeout", "3", "--heartbeat", "1", "--max-chunk-pairs", "2"};
    int starts = 0;

    Cluster() : Cluster(postgresAdminUrl()) {}
    // On a database of the PostgreSQL server of `adminUrl` ("" for SQLite).
    explicit Cluster(const std::string& adminUrl) : store(adminUrl) {
        userToken = createToken("user");
        workerToken = createToken("worker");
    }

    std::string createToken(const std::string& role) {
        std::vector<std::string> argv = {bin("xq-coordinator"), "--data", data};
        for (const auto& a : store.args()) argv.push_back(a);
        argv.insert(argv.end(), {"token", "create", "--role", role});
        auto r = runCommand(argv, dir.path);
        EXPECT_EQ(r.code, 0) << r.err;
        return lastLine(r.out);
    }

    // Starts (or restarts, on the same port) the coordinator.
    void startCoordinator() {
        std::vector<std::string> argv = {bin("xq-coordinator"), "--data", data, "--listen",
                                         address.empty() ? "127.0.0.1:0" : address};
        argv.insert(argv.end(), coordinatorArgs.begin(), coordinatorArgs.end());
        for (const auto& a : store.args()) argv.push_back(a);
        int n = starts++;
        coordinator = std::make_unique<Process>(argv, dir.file("coord" + std::to_string(n) + ".out"),
                                                dir.file("coord" + std::to_string(n) + ".err"));
        auto line = coordinator->waitForLine("listening on ");
        ASSERT_TRUE(line) << "coordinator did not start: " << coordinator->err();
        address = *line;
    }

    std::vector<std::string> workerArgs;  // added to every worker's command line

    Process& startWorker(const std::string& token = "") {
        int n = int(workers.size());
        std::vector<std::string> argv = {bin("xq-worker"),
                                         "--coordinator",
                                         address,
                                         "--token",
                                         token.empty() ? workerToken : token,
                                         "--concurrency",
                                         "1",
                                         "--cache",
                                         dir.file("cache" + std::to_string(n)),
                                         "--name",
                                         "w" + std::to_string(n)};
        argv.insert(argv.end(), workerArgs.begin(), workerArgs.end());
        workers.push_back(std::make_unique<Process>(argv, dir.file("worker" + std::to_string(n) + ".out"),
                                                    dir.file("worker" + std::to_string(n) + ".err")));
        return *workers.back();
    }

    CommandResult xq(std::vector<std::string> args, const std::string& token = "") {
        args.insert(args.begin(), bin("xq"));
        args.insert(args.end(), {"--coordinator", address, "--token", token.empty() ? userToken : token});
        return runCommand(args, dir.path);
    }

    // Submits base vs dev (both our engine) and returns the test id.
    std::uint64_t submit(std::vector<std::string> extra) {
        std::vector<std::string> args = {"submit",      "--base", bin("xq-engine"), "--dev", bin("xq-engine"),
                                         "--max-moves", "120"};
        auto openings = openingArgs();
        args.insert(args.end(), openings.begin(), openings.end());
        args.insert(args.end(), extra.begin(), extra.end());
        auto r = xq(args);
        EXPECT_EQ(r.code, 0) << r.err;
        return std::stoull(lastLine(r.out));
    }

    nlohmann::json show(std::uint64_t id) {
        auto r = xq({"show", std::to_string(id), "--json"});
        EXPECT_EQ(r.code, 0) << r.err;
        return nlohmann::json::parse(r.out);
    }

    // Polls until pred(show(id)) holds; returns the last view.
    nlohmann::json waitFor(std::uint64_t id, const std::function<bool(const nlohmann::json&)>& pred,
                           std::chrono::seconds timeout = std::chrono::seconds(90)) {
        auto end = std::chrono::steady_clock::now() + timeout;
        nlohmann::json view;
        while (std::chrono::steady_clock::now() < end) {
            view = show(id);
            if (pred(view)) return view;
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
        }
        ADD_FAILURE() << "timed out; last view: " << view.dump();
        return view;
    }

    std::string workerLogs() {
        std::string all;
        for (std::size_t i = 0; i < workers.size(); ++i)
            all += "--- worker " + std::to_string(i) + "\n" + workers[i]->err();
        return all + "--- coordinator\n" + (coordinator ? coordinator->err() : "");
    }
};

// An engine that is xq-engine with its input and output copied to c.dir's engine.in and engine.out: what
// the worker told it and what it answered (a shell script: workers need --no-sandbox for it).
inline std::string loggingEngine(Cluster& c) {
    std::string path = c.dir.file("logging-engine.sh");
    writeFile(path, "#!/bin/sh\ntee -a '" + c.dir.file("engine.in") + "' | '" + bin("xq-engine") +
                        "' \"$@\" | tee -a '" + c.dir.file("engine.out") + "'\n");
    std::filesystem::permissions(path, std::filesystem::perms::owner_exec,
                                 std::filesystem::perm_options::add);
    return path;
}

inline std::int64_t pentaGames(const nlohmann::json& view) {
    std::int64_t pairs = 0;
    for (auto c : view["penta"]) pairs += c.get<std::int64_t>();
    return 2 * pairs;
}

inline std::int64_t wdlGames(const nlohmann::json& view) {
    std::int64_t games = 0;
    for (auto c : view["wdl"]) games += c.get<std::int64_t>();
    return games;
}

}  // namespace xq::coord::testing
