// A real xq-go process driven over pipes, as a GTP controller (GoGui, the match runner) would. Its stderr
// (the engine's search reports) is dropped, or kept in a temporary file when asked for.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace xq::go::test {

class GtpProcess {
  public:
    explicit GtpProcess(std::vector<std::string> args = {}, bool keepErrors = false) {
        if (keepErrors) {
            char name[] = "/tmp/xq-go-stderr-XXXXXX";
            const int fd = mkstemp(name);
            if (fd < 0) throw std::runtime_error("mkstemp failed");
            close(fd);
            errPath_ = name;
        }
        int toChild[2], fromChild[2];
        if (pipe(toChild) != 0 || pipe(fromChild) != 0) throw std::runtime_error("pipe failed");
        pid_ = fork();
        if (pid_ < 0) throw std::runtime_error("fork failed");
        if (pid_ == 0) {
            dup2(toChild[0], 0);
            dup2(fromChild[1], 1);
            int err = open(errPath_.empty() ? "/dev/null" : errPath_.c_str(), O_WRONLY);
            if (err >= 0) dup2(err, 2);
            close(toChild[0]), close(toChild[1]), close(fromChild[0]), close(fromChild[1]);
            std::vector<char*> argv{const_cast<char*>(XQ_GO_BINARY)};
            for (auto& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            execv(XQ_GO_BINARY, argv.data());
            _exit(127);
        }
        close(toChild[0]);
        close(fromChild[1]);
        in_ = toChild[1];
        out_ = fromChild[0];
        signal(SIGPIPE, SIG_IGN);
    }
    ~GtpProcess() {
        if (in_ >= 0) close(in_);
        close(out_);
        if (pid_ > 0 && !exited_) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
        if (!errPath_.empty()) unlink(errPath_.c_str());
    }
    // What the process wrote to stderr so far (with keepErrors).
    std::string errors() const {
        std::ifstream in(errPath_);
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    }

    // Sends a command and returns the full response ("= ..." or "? ...", lines joined by '\n', without
    // the blank line ending it), or nullopt after timeoutMs.
    std::optional<std::string> ask(const std::string& command, int timeoutMs = 10000) {
        std::string data = command + "\n";
        if (write(in_, data.data(), data.size()) != ssize_t(data.size())) return std::nullopt;
        return response(timeoutMs);
    }
    std::optional<std::string> response(int timeoutMs) {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        for (;;) {
            if (auto end = buffer_.find("\n\n"); end != std::string::npos) {
                std::string r = buffer_.substr(0, end);
                buffer_.erase(0, end + 2);
                return r;
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
    // The payload of a successful answer ("= X" -> "X"); fails the caller's expectations otherwise.
    static std::string value(const std::optional<std::string>& r) {
        if (!r || r->empty() || (*r)[0] != '=') return "<error: " + (r ? *r : std::string("timeout")) + ">";
        std::size_t i = 1;
        while (i < r->size() && (*r)[i] >= '0' && (*r)[i] <= '9') ++i;  // the command's id
        if (i < r->size() && (*r)[i] == ' ') ++i;
        return r->substr(i);
    }
    bool waitExit(int timeoutMs) {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        while (std::chrono::steady_clock::now() < deadline) {
            int status = 0;
            if (waitpid(pid_, &status, WNOHANG) == pid_) return exited_ = true;
            usleep(10000);
        }
        return false;
    }

  private:
    pid_t pid_ = -1;
    int in_ = -1, out_ = -1;
    bool exited_ = false;
    std::string buffer_;
    std::string errPath_;
};

}  // namespace xq::go::test
