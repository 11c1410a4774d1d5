#include "engine_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace xq::match {

namespace {

using Clock = std::chrono::steady_clock;

class PipeProcess final : public EngineProcess {
  public:
    ~PipeProcess() override { terminate(0); }

    void start(const std::string& cmd, const std::vector<std::string>& args) override {
        // A write to an engine that died must fail with EPIPE, not kill the runner.
        static std::once_flag ignoreSigpipe;
        std::call_once(ignoreSigpipe, [] { ::signal(SIGPIPE, SIG_IGN); });

        terminate(0);
        int toChild[2], fromChild[2];
        if (::pipe2(toChild, O_CLOEXEC) != 0)
            throw std::runtime_error("pipe: " + std::string(std::strerror(errno)));
        if (::pipe2(fromChild, O_CLOEXEC) != 0) {
            ::close(toChild[0]);
            ::close(toChild[1]);
            throw std::runtime_error("pipe: " + std::string(std::strerror(errno)));
        }

        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0);
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1);
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
        // Nothing else of ours reaches the engine: a socket it inherited (a server's connection that
        // libraries open without close-on-exec) would stay open after we close it, and its peer would
        // never see the end of it.
        posix_spawn_file_actions_addclosefrom_np(&actions, 3);

        // Own process group: Ctrl-C at the terminal reaches the runner only, which then stops its
        // engines itself instead of counting them as crashed. Signals get their defaults back.
        posix_spawnattr_t attr;
        posix_spawnattr_init(&attr);
        sigset_t none, defaults;
        sigemptyset(&none);
        sigemptyset(&defaults);
        sigaddset(&defaults, SIGPIPE);
        sigaddset(&defaults, SIGINT);
        sigaddset(&defaults, SIGTERM);
        posix_spawnattr_setsigmask(&attr, &none);
        posix_spawnattr_setsigdefault(&attr, &defaults);
        posix_spawnattr_setpgroup(&attr, 0);
        posix_spawnattr_setflags(&attr,
                                 POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

        std::vector<char*> argv;
        argv.push_back(const_cast<char*>(cmd.c_str()));
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);

        pid_t pid = 0;
        int rc = ::posix_spawnp(&pid, cmd.c_str(), &actions, &attr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
        ::close(toChild[0]);
        ::close(fromChild[1]);
        if (rc != 0) {
            ::close(toChild[1]);
            ::close(fromChild[0]);
            throw std::runtime_error("cannot start '" + cmd + "': " + std::strerror(rc));
        }
        pid_ = pid;
        in_ = toChild[1];
        out_ = fromChild[0];
        ::fcntl(out_, F_SETFL, ::fcntl(out_, F_GETFL) | O_NONBLOCK);
        buffer_.clear();
        scanned_ = 0;
        closed_ = false;
        status_ = 0;
        reaped_ = false;
    }

    bool writeLine(std::string_view line) override {
        if (in_ < 0) return false;
        std::string data(line);
        data += '\n';
        const char* p = data.data();
        std::size_t left = data.size();
        while (left > 0) {
            ssize_t n = ::write(in_, p, left);
            if (n < 0) {
                if (errno == EINTR) continue;
                return false;
            }
            p += n;
            left -= std::size_t(n);
        }
        return true;
    }

    ReadStatus readLine(std::string& line, std::int64_t timeoutMs) override {
        auto start = Clock::now();
        while (true) {
            // Engines print many info lines per move: read in large chunks and split here.
            std::size_t nl = buffer_.find('\n', scanned_);
            if (nl != std::string::npos) {
                std::size_t end = nl > 0 && buffer_[nl - 1] == '\r' ? nl - 1 : nl;
                line.assign(buffer_, 0, end);
                buffer_.erase(0, nl + 1);
                scanned_ = 0;
                return ReadStatus::Line;
            }
            scanned_ = buffer_.size();
            // An engine that prints without end and never a newline would fill the memory: past MaxLine the
            // text so far is handed over as a line of its own, which no protocol reads as anything.
            if (buffer_.size() >= MaxLine) {
                line.assign(buffer_, 0, MaxLine);
                buffer_.erase(0, MaxLine);
                scanned_ = 0;
                return ReadStatus::Line;
            }
            if (closed_ || out_ < 0) {
                if (!buffer_.empty()) {  // a last line without newline
                    line.swap(buffer_);
                    buffer_.clear();
                    scanned_ = 0;
                    return ReadStatus::Line;
                }
                return ReadStatus::Closed;
            }
            std::int64_t wait = timeoutMs - millisSince(start);
            if (wait < 0) wait = 0;
            pollfd pfd{out_, POLLIN, 0};
            int ready = ::poll(&pfd, 1, int(std::min<std::int64_t>(wait, 1 << 30)));
            if (ready < 0) {
                if (errno == EINTR) continue;
                closed_ = true;
                continue;
            }
            if (ready == 0) return ReadStatus::Timeout;
            tryRead();
        }
    }

    bool isRunning() override {
        if (pid_ <= 0 || reaped_) return false;
        return !tryReap();
    }

    void terminate(std::int64_t graceMs) override {
        if (pid_ <= 0) return;
        if (in_ >= 0) ::close(in_);
        in_ = -1;
        auto start = Clock::now();
        while (!tryReap() && millisSince(start) < graceMs)
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        if (!reaped_) {
            ::kill(-pid_, SIGKILL);  // the whole group: wrappers and their children too
            ::kill(pid_, SIGKILL);
            while (::waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
            }
            reaped_ = true;
        }
        if (out_ >= 0) ::close(out_);
        out_ = -1;
        pid_ = -1;
    }

    std::string exitDescription() override {
        if (pid_ > 0 && !reaped_) {
            // The output closed; give the process a moment to finish dying so we can say how.
            auto start = Clock::now();
            while (!tryReap() && millisSince(start) < 200)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            if (!reaped_) return "closed its output but is still running";
        }
        if (!reaped_) return "not started";
        if (WIFEXITED(status_)) return "exited with code " + std::to_string(WEXITSTATUS(status_));
        if (WIFSIGNALED(status_)) {
            int sig = WTERMSIG(status_);
            return "killed by signal " + std::to_string(sig) + " (" + ::strsignal(sig) + ")";
        }
        return "ended";
    }

  private:
    // Appends what the pipe holds now; false when nothing was there. Sets closed_ at end of file.
    bool tryRead() {
        char chunk[65536];
        ssize_t n = ::read(out_, chunk, sizeof chunk);
        if (n > 0) {
            buffer_.append(chunk, std::size_t(n));
            return true;
        }
        if (n == 0 || (errno != EINTR && errno != EAGAIN)) closed_ = true;
        return false;
    }

    bool tryReap() {
        if (reaped_) return true;
        pid_t r = ::waitpid(pid_, &status_, WNOHANG);
        if (r == pid_) reaped_ = true;
        return reaped_;
    }

    static constexpr std::size_t MaxLine = 1 << 20;
    pid_t pid_ = -1;
    int in_ = -1, out_ = -1;
    std::string buffer_;
    std::size_t scanned_ = 0;
    bool closed_ = false;
    int status_ = 0;
    bool reaped_ = false;
};

}  // namespace

std::unique_ptr<EngineProcess> makeEngineProcess() {
    return std::make_unique<PipeProcess>();
}

}  // namespace xq::match
