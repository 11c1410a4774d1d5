// Real processes for the integration tests: start a binary with its output in files, wait for a line,
// kill it (with SIGKILL when a crash is wanted), collect its exit code. A started process dies with the
// test (PR_SET_PDEATHSIG): a test killed by ctest's timeout leaves no coordinator or worker behind to load
// the tests that follow.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace xq::coord::testing {

class Process {
  public:
    Process(const std::vector<std::string>& argv, const std::string& outPath, const std::string& errPath,
            const std::vector<std::string>& env = {})
        : outPath_(outPath), errPath_(errPath) {
        const pid_t parent = getpid();
        pid_ = fork();
        if (pid_ < 0) throw std::runtime_error("fork failed");
        if (pid_ == 0) {
            // The test's thread is the parent; gtest runs every test on the main thread.
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent) _exit(127);
            int out = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            int err = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            dup2(out, 1);
            dup2(err, 2);
            int devnull = open("/dev/null", O_RDONLY);
            dup2(devnull, 0);
            for (const auto& e : env) putenv(const_cast<char*>(e.c_str()));
            std::vector<char*> args;
            for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
            args.push_back(nullptr);
            execv(args[0], args.data());
            _exit(127);
        }
    }
    ~Process() {
        if (running()) {
            kill(SIGKILL);
            wait();
        }
    }
    Process(const Process&) = delete;

    pid_t pid() const { return pid_; }
    bool running() {
        if (exited_) return false;
        int status;
        pid_t r = waitpid(pid_, &status, WNOHANG);
        if (r == pid_) record(status);
        return !exited_;
    }
    void kill(int sig) {
        if (!exited_) ::kill(pid_, sig);
    }
    // Exit code (128 + signal for a signal); nullopt if still running after the timeout.
    std::optional<int> wait(std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
        auto end = std::chrono::steady_clock::now() + timeout;
        while (running()) {
            if (std::chrono::steady_clock::now() > end) return std::nullopt;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return code_;
    }
    std::string out() const { return readFileOrEmpty(outPath_); }
    std::string err() const { return readFileOrEmpty(errPath_); }

    // Waits until stdout holds a line starting with `prefix`; returns the rest of that line.
    std::optional<std::string> waitForLine(const std::string& prefix,
                                           std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
        auto end = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < end) {
            std::string text = out();
            for (std::size_t pos = 0; pos < text.size();) {
                auto nl = text.find('\n', pos);
                if (nl == std::string::npos) break;
                if (text.compare(pos, prefix.size(), prefix) == 0)
                    return text.substr(pos + prefix.size(), nl - pos - prefix.size());
                pos = nl + 1;
            }
            if (!running()) return std::nullopt;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return std::nullopt;
    }

  private:
    void record(int status) {
        exited_ = true;
        code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    pid_t pid_ = -1;
    bool exited_ = false;
    int code_ = -1;
    std::string outPath_, errPath_;
};

struct CommandResult {
    int code = -1;
    std::string out, err;
};

// Runs a command to completion (at most `timeout`).
inline CommandResult runCommand(const std::vector<std::string>& argv, const std::string& scratchDir,
                                const std::vector<std::string>& env = {},
                                std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
    static int counter = 0;
    std::string base = scratchDir + "/cmd" + std::to_string(counter++);
    Process p(argv, base + ".out", base + ".err", env);
    auto code = p.wait(timeout);
    if (!code) p.kill(SIGKILL);
    return {code.value_or(-1), p.out(), p.err()};
}

}  // namespace xq::coord::testing
