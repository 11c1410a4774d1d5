#include "engine_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <initializer_list>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "read_interrupts.h"

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
        // The output stays blocking: a read follows a poll that found it readable, or is one blocking read
        // in a thread whose reads a timer interrupts (read_interrupts.h).
        size_ = head_ = scanned_ = 0;
        closed_ = false;
        status_ = 0;
        reaped_ = false;
    }

    bool writeLine(std::string_view line) override { return writeParts({line, "\n"}); }

    bool writeLines(std::string_view first, std::string_view second) override {
        return writeParts({first, "\n", second, "\n"});
    }

    ReadStatus readLine(std::string& line, std::int64_t timeoutMs) override {
        // The clock is read only when there is nothing to hand over: a move's info lines mostly come
        // several to a read.
        std::optional<Clock::time_point> start;
        while (true) {
            // Engines print many info lines per move: read in large chunks and split here. Handed-over
            // lines are only skipped (head_); the buffer is cleared once it is all read, so nothing is
            // moved per line.
            const char* data = buffer_.get();
            if (const void* found =
                    scanned_ < size_ ? std::memchr(data + scanned_, '\n', size_ - scanned_) : nullptr) {
                const std::size_t nl = std::size_t(static_cast<const char*>(found) - data);
                const std::size_t end = nl > head_ && data[nl - 1] == '\r' ? nl - 1 : nl;
                line.assign(data + head_, end - head_);
                consume(nl + 1);
                return ReadStatus::Line;
            }
            scanned_ = size_;
            // An engine that prints without end and never a newline would fill the memory: past MaxLine the
            // text so far is handed over as a line of its own, which no protocol reads as anything.
            if (size_ - head_ >= MaxLine) {
                line.assign(data + head_, MaxLine);
                consume(head_ + MaxLine);
                return ReadStatus::Line;
            }
            if (closed_ || out_ < 0) {
                if (head_ < size_) {  // a last line without newline
                    line.assign(data + head_, size_ - head_);
                    consume(size_);
                    return ReadStatus::Line;
                }
                return ReadStatus::Closed;
            }
            // The first wait is the whole timeout: the clock is read once for it, not twice.
            std::int64_t wait = timeoutMs;
            if (!start)
                start = Clock::now();
            else
                wait = std::max<std::int64_t>(timeoutMs - millisSince(*start), 0);
            if (wait > 0 && readsInterruptedHere()) {
                // One blocking read instead of poll and read (read_interrupts.h): the timer's signal ends
                // it within ReadInterruptMs, and the limit is looked at then.
                if (!tryRead() && !closed_ && millisSince(*start) >= timeoutMs) return ReadStatus::Timeout;
                continue;
            }
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
    // Marks the buffer read up to `to`; all of it read, it starts again from the front.
    void consume(std::size_t to) {
        head_ = to;
        scanned_ = std::max(scanned_, to);
        if (head_ == size_) {
            size_ = head_ = scanned_ = 0;
        }
    }

    // Writes the parts in one system call, without copying them; goes on after a partial write.
    bool writeParts(std::initializer_list<std::string_view> parts) {
        if (in_ < 0) return false;
        iovec vec[4];
        int count = 0;
        for (std::string_view part : parts)
            if (!part.empty()) vec[count++] = {const_cast<char*>(part.data()), part.size()};
        int first = 0;
        while (first < count) {
            ssize_t n = ::writev(in_, vec + first, count - first);
            if (n < 0) {
                if (errno == EINTR) continue;
                return false;
            }
            std::size_t done = std::size_t(n);
            while (first < count && done >= vec[first].iov_len) done -= vec[first++].iov_len;
            if (first < count) {  // a partial write: go on from where it stopped
                vec[first].iov_base = static_cast<char*>(vec[first].iov_base) + done;
                vec[first].iov_len -= done;
            }
        }
        return true;
    }

    // Reads what the engine has written, straight into the buffer's free end (no copy through the stack).
    bool tryRead() {
        if (head_ > 0) {  // keep only the unread part, a partial line at most
            std::memmove(buffer_.get(), buffer_.get() + head_, size_ - head_);
            size_ -= head_;
            scanned_ -= head_;
            head_ = 0;
        }
        if (capacity_ - size_ < ReadChunk) {  // a long partial line: room for it and a chunk more
            const std::size_t capacity = std::max(2 * capacity_, size_ + ReadChunk);
            auto grown = std::make_unique_for_overwrite<char[]>(capacity);
            if (size_ > 0) std::memcpy(grown.get(), buffer_.get(), size_);
            buffer_ = std::move(grown);
            capacity_ = capacity;
        }
        ssize_t n = ::read(out_, buffer_.get() + size_, capacity_ - size_);
        if (n > 0) {
            size_ += std::size_t(n);
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
    static constexpr std::size_t ReadChunk = 1 << 16;
    std::unique_ptr<char[]> buffer_;  // what was read of the output: [0, size_) of capacity_
    std::size_t size_ = 0, capacity_ = 0;
    std::size_t head_ = 0;     // where the unread text starts
    std::size_t scanned_ = 0;  // no newline in [head_, scanned_)
    bool closed_ = false;
    int status_ = 0;
    bool reaped_ = false;
};

}  // namespace

std::unique_ptr<EngineProcess> makeEngineProcess() {
    return std::make_unique<PipeProcess>();
}

}  // namespace xq::match
