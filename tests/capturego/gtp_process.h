// A GTP engine (GNU Go) run as a child process: fork/exec with two pipes, one command at a time, the
// answer read up to GTP's blank line. For the Capture Go tests that compare the rules with GNU Go's.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace xq::capturego::test {

// GNU Go's path: $GNUGO if set, else /usr/games/gnugo or /usr/bin/gnugo; nullopt when none is executable.
inline std::optional<std::string> findGnuGo() {
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("GNUGO"); env && *env) candidates.push_back(env);
    candidates.push_back("/usr/games/gnugo");
    candidates.push_back("/usr/bin/gnugo");
    for (const std::string& path : candidates)
        if (access(path.c_str(), X_OK) == 0) return path;
    return std::nullopt;
}

class GtpProcess {
  public:
    GtpProcess(const std::string& path, const std::vector<std::string>& args) {
        int toChild[2], fromChild[2];
        if (pipe(toChild) != 0) throw std::runtime_error("pipe failed");
        if (pipe(fromChild) != 0) {
            close(toChild[0]), close(toChild[1]);
            throw std::runtime_error("pipe failed");
        }
        std::vector<char*> argv;
        argv.push_back(const_cast<char*>(path.c_str()));
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        pid_ = fork();
        if (pid_ < 0) throw std::runtime_error("fork failed");
        if (pid_ == 0) {
            dup2(toChild[0], 0);
            dup2(fromChild[1], 1);
            int devNull = open("/dev/null", O_WRONLY);
            if (devNull >= 0) dup2(devNull, 2);
            close(toChild[0]), close(toChild[1]), close(fromChild[0]), close(fromChild[1]);
            execv(path.c_str(), argv.data());
            _exit(127);
        }
        close(toChild[0]);
        close(fromChild[1]);
        in_ = toChild[1];
        out_ = fromChild[0];
        signal(SIGPIPE, SIG_IGN);  // a dead child shows as a failed write, not a killed test
    }
    GtpProcess(const GtpProcess&) = delete;
    GtpProcess& operator=(const GtpProcess&) = delete;

    ~GtpProcess() {
        if (in_ >= 0) {
            std::string quit = "quit\n";
            [[maybe_unused]] ssize_t n = write(in_, quit.data(), quit.size());
            close(in_);
        }
        // Give it a moment to leave on its own, then make sure.
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
        int status = 0;
        while (waitpid(pid_, &status, WNOHANG) == 0) {
            if (std::chrono::steady_clock::now() > deadline) {
                kill(pid_, SIGKILL);
                waitpid(pid_, &status, 0);
                break;
            }
            usleep(1000);
        }
        close(out_);
    }

    // The answer to `command` without its "= " (success); throws with the engine's message on "? ...",
    // a dead engine or no answer within the timeout.
    std::string command(const std::string& command, int timeoutMs = 20000) {
        std::string line = command + "\n";
        if (write(in_, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
            throw std::runtime_error("GTP: cannot write '" + command + "' (the engine has exited)");
        std::string answer = readAnswer(command, timeoutMs);
        if (answer.rfind("= ", 0) == 0) return answer.substr(2);
        if (answer == "=") return "";
        throw std::runtime_error("GTP '" + command + "' failed: " + answer);
    }

  private:
    std::string readAnswer(const std::string& command, int timeoutMs) {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        for (;;) {
            if (auto end = buffer_.find("\n\n"); end != std::string::npos) {
                std::string answer = buffer_.substr(0, end);
                buffer_.erase(0, end + 2);
                return answer;
            }
            int left = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                            deadline - std::chrono::steady_clock::now())
                                            .count());
            if (left <= 0) throw std::runtime_error("GTP: no answer to '" + command + "'");
            pollfd fd{out_, POLLIN, 0};
            if (poll(&fd, 1, left) <= 0) continue;
            char chunk[4096];
            ssize_t n = read(out_, chunk, sizeof chunk);
            if (n <= 0) throw std::runtime_error("GTP: the engine exited during '" + command + "'");
            for (ssize_t i = 0; i < n; ++i)
                if (chunk[i] != '\r') buffer_ += chunk[i];
        }
    }

    pid_t pid_ = -1;
    int in_ = -1;
    int out_ = -1;
    std::string buffer_;
};

}  // namespace xq::capturego::test
