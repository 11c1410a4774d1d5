// A real xq-engine process driven over pipes, as a GUI or the match runner would.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace xq::test {

class EngineProcess {
  public:
    explicit EngineProcess(const std::string& path = std::string(XQ_BIN_DIR) + "/xq-engine") {
        int toChild[2], fromChild[2];
        if (pipe(toChild) != 0 || pipe(fromChild) != 0) throw std::runtime_error("pipe failed");
        pid_ = fork();
        if (pid_ < 0) throw std::runtime_error("fork failed");
        if (pid_ == 0) {
            dup2(toChild[0], 0);
            dup2(fromChild[1], 1);
            close(toChild[0]), close(toChild[1]), close(fromChild[0]), close(fromChild[1]);
            execl(path.c_str(), path.c_str(), static_cast<char*>(nullptr));
            _exit(127);
        }
        close(toChild[0]);
        close(fromChild[1]);
        in_ = toChild[1];
        out_ = fromChild[0];
        signal(SIGPIPE, SIG_IGN);
    }
    ~EngineProcess() {
        close(in_);
        close(out_);
        if (pid_ > 0 && !exited_) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
    }

    bool send(const std::string& line) {
        std::string data = line + "\n";
        return write(in_, data.data(), data.size()) == ssize_t(data.size());
    }
    void sendRaw(const std::string& data) { [[maybe_unused]] auto n = write(in_, data.data(), data.size()); }
    void closeInput() { close(in_), in_ = -1; }

    // The next line, or nullopt after timeoutMs without one (or at end of output).
    std::optional<std::string> readLine(int timeoutMs) {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        for (;;) {
            if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
                std::string line = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                return line;
            }
            int left = int(std::chrono::duration_cast<std::chrono::milliseconds>(
                               deadline - std::chrono::steady_clock::now())
                               .count());
            if (left <= 0) return std::nullopt;
            pollfd p{out_, POLLIN, 0};
            if (poll(&p, 1, left) <= 0) continue;
            char chunk[4096];
            ssize_t n = read(out_, chunk, sizeof chunk);
            if (n <= 0) return std::nullopt;
            buffer_.append(chunk, std::size_t(n));
        }
    }

    // Lines up to and including the first starting with prefix; nullopt on timeout.
    std::optional<std::vector<std::string>> readUntil(const std::string& prefix, int timeoutMs) {
        std::vector<std::string> lines;
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        for (;;) {
            int left = int(std::chrono::duration_cast<std::chrono::milliseconds>(
                               deadline - std::chrono::steady_clock::now())
                               .count());
            auto line = readLine(std::max(left, 0));
            if (!line) return std::nullopt;
            lines.push_back(*line);
            if (line->rfind(prefix, 0) == 0) return lines;
        }
    }

    // Whether the process has exited, waiting up to timeoutMs; exitStatus holds its wait status.
    bool waitExit(int timeoutMs) {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        while (std::chrono::steady_clock::now() < deadline) {
            if (waitpid(pid_, &exitStatus, WNOHANG) == pid_) return exited_ = true;
            usleep(10000);
        }
        return false;
    }
    bool alive() { return !exited_ && waitpid(pid_, &exitStatus, WNOHANG) == 0; }

    int exitStatus = 0;

  private:
    pid_t pid_ = -1;
    int in_ = -1, out_ = -1;
    bool exited_ = false;
    std::string buffer_;
};

}  // namespace xq::test
