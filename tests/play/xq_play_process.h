// `xq play` in a process of its own, as a player meets it: the real binary serving HTTP on 127.0.0.1
// (an OS-picked port) with real engine processes (xq-engine, or xq-go with --game capturego). Shared by
// the API tests and the browser tests.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace xq::testing {

inline const std::string XqEngineBinary = std::string(XQ_BIN_DIR) + "/xq-engine";
inline const std::string XqGoBinary = std::string(XQ_BIN_DIR) + "/xq-go";

struct XqPlayProcess {
    pid_t pid = -1;
    std::string host = "127.0.0.1";
    int port = 0;

    // `xq play --max-games N` with xq-engine; `options` replace "--engine xq-engine" (e.g. "--game",
    // "capturego", "--engine", XqGoBinary).
    explicit XqPlayProcess(int maxGames, std::vector<std::string> options = {}) {
        if (options.empty()) options = {"--engine", XqEngineBinary};
        const std::string xq = std::string(XQ_BIN_DIR) + "/xq", games = std::to_string(maxGames);
        std::vector<std::string> args = {xq, "play", "--http", "127.0.0.1:0", "--max-games", games};
        args.insert(args.end(), options.begin(), options.end());
        std::vector<char*> argv;
        for (std::string& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        int out[2];
        if (pipe(out) != 0) throw std::runtime_error("pipe");
        pid = fork();
        if (pid == 0) {
            dup2(out[1], 1);
            close(out[0]);
            execv(argv[0], argv.data());
            _exit(127);
        }
        close(out[1]);
        // "xq play: open http://127.0.0.1:PORT/ (...)"
        std::string line;
        char ch;
        while (read(out[0], &ch, 1) == 1 && ch != '\n') line += ch;
        close(out[0]);
        const auto at = line.find("http://127.0.0.1:");
        if (at == std::string::npos) throw std::runtime_error("xq play did not start: " + line);
        port = std::stoi(line.substr(at + 17));
    }
    ~XqPlayProcess() {
        if (pid > 0) {
            EXPECT_EQ(stop(), 0) << "xq play did not end cleanly on SIGTERM";
        }
    }
    // SIGTERM, as a service manager stops it; its exit code, or -1 when it is still running 30 s later
    // (then it is killed).
    int stop() {
        kill(pid, SIGTERM);
        int status = 0;
        for (int i = 0; i < 3000; ++i) {
            if (waitpid(pid, &status, WNOHANG) == pid) {
                pid = -1;
                return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        pid = -1;
        return -1;
    }
    std::string url() const { return "http://" + host + ":" + std::to_string(port); }
};

}  // namespace xq::testing
