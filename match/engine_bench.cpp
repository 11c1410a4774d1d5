#include "engine_bench.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace xq::match {

EngineBenchResult parseEngineBenchOutput(const std::string& text) {
    EngineBenchResult r;
    std::istringstream in(text);
    std::string line;
    // "Nodes searched: N" (ours), "Nodes searched  : N" (Stockfish, which aligns its colons).
    auto valueAfter = [](const std::string& l, const std::string& key) -> std::uint64_t {
        if (l.rfind(key, 0) != 0) return 0;
        std::size_t colon = l.find_first_not_of(' ', key.size());
        if (colon == std::string::npos || l[colon] != ':') return 0;
        try {
            return std::stoull(l.substr(colon + 1));
        } catch (const std::exception&) {
            return 0;
        }
    };
    while (std::getline(in, line)) {
        if (std::uint64_t v = valueAfter(line, "Nodes searched")) r.nodes = v;
        if (std::uint64_t v = valueAfter(line, "Nodes/second")) r.nps = v;
    }
    return r;
}

EngineBenchResult runEngineBench(const std::string& enginePath, const EngineBenchRequest& request) {
    std::vector<std::string> args = request.launcher;
    args.insert(args.end(), {enginePath, "bench"});
    if (request.depth > 0 || request.threads > 0 || request.hashMb > 0) {
        args.push_back(std::to_string(request.depth > 0 ? request.depth : 10));
        if (request.threads > 0 || request.hashMb > 0) {
            args.push_back(std::to_string(request.threads > 0 ? request.threads : 1));
            if (request.hashMb > 0) args.push_back(std::to_string(request.hashMb));
        }
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);

    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0)
        throw std::runtime_error("bench of '" + enginePath + "': cannot make a pipe");
    auto start = std::chrono::steady_clock::now();
    pid_t pid = fork();
    if (pid < 0) {
        close(out[0]);
        close(out[1]);
        throw std::runtime_error("bench of '" + enginePath + "': cannot fork");
    }
    if (pid == 0) {
        // Both streams: Stockfish writes its totals to stderr (per-position progress there is skipped).
        dup2(out[1], STDOUT_FILENO);
        dup2(out[1], STDERR_FILENO);
        int devNull = open("/dev/null", O_RDWR);
        if (devNull >= 0) dup2(devNull, STDIN_FILENO);
        execv(argv[0], argv.data());
        _exit(127);
    }
    close(out[1]);
    std::string text;
    bool timedOut = false;
    auto deadline = start + std::chrono::seconds(request.timeoutSeconds);
    char buf[4096];
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                                          std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            timedOut = true;
            break;
        }
        pollfd p{out[0], POLLIN, 0};
        int ready = poll(&p, 1, int(std::min<std::int64_t>(left.count(), 1000)));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue;
        ssize_t n = read(out[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        text.append(buf, std::size_t(n));
    }
    close(out[0]);
    if (timedOut) kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    EngineBenchResult r = parseEngineBenchOutput(text);
    r.wallMs = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start)
                   .count();
    if (timedOut)
        throw std::runtime_error("bench of '" + enginePath + "' took longer than " +
                                 std::to_string(request.timeoutSeconds) + " s");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error("bench of '" + enginePath + "' failed (" +
                                 (WIFEXITED(status) ? "exit code " + std::to_string(WEXITSTATUS(status))
                                                    : std::string("killed by a signal")) +
                                 ")");
    if (r.nodes == 0)
        throw std::runtime_error("bench of '" + enginePath + "' printed no 'Nodes searched:' line");
    return r;
}

}  // namespace xq::match
