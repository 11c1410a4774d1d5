#include "child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <deque>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "sandbox.h"

extern char** environ;

namespace xq::worker {

namespace {

// The worker's environment with `overrides` (NAME=VALUE) replacing or adding entries.
std::vector<std::string> mergedEnvironment(const std::vector<std::string>& overrides) {
    std::vector<std::string> out;
    for (char** e = environ; e && *e; ++e) {
        std::string entry = *e;
        const std::string name = entry.substr(0, entry.find('=') + 1);
        bool replaced = false;
        for (const auto& o : overrides) replaced = replaced || o.compare(0, name.size(), name) == 0;
        if (!replaced) out.push_back(std::move(entry));
    }
    out.insert(out.end(), overrides.begin(), overrides.end());
    return out;
}

}  // namespace

ChildResult runChild(const ChildSpec& spec, const std::function<bool()>& keepGoing) {
    // Everything the child needs is made before fork: other threads may hold the allocator's lock.
    std::vector<char*> args;
    for (const auto& a : spec.argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const std::vector<std::string> env = mergedEnvironment(spec.environment);
    std::vector<char*> envp;
    for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    const int flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC;
    int out = ::open(spec.stdoutPath.c_str(), flags, 0644);
    int err = spec.stderrPath == spec.stdoutPath ? -1 : ::open(spec.stderrPath.c_str(), flags, 0644);
    int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    auto closeAll = [&] {
        for (int fd : {out, err, devnull})
            if (fd >= 0) ::close(fd);
    };
    if (out < 0 || devnull < 0 || (err < 0 && spec.stderrPath != spec.stdoutPath)) {
        closeAll();
        throw std::runtime_error("cannot open the output files " + spec.stdoutPath + " and " +
                                 spec.stderrPath);
    }
    rlimit limit{rlim_t(spec.memoryBytes), rlim_t(spec.memoryBytes)};
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        closeAll();
        throw std::runtime_error("fork failed");
    }
    if (pid == 0) {
        setpgid(0, 0);
        // Killed with the worker (even by SIGKILL), rather than left running with nobody to read its work.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(126);
        if (AddressSpaceLimited && spec.memoryBytes > 0) setrlimit(RLIMIT_AS, &limit);
        if (spec.niceness > 0) setpriority(PRIO_PROCESS, 0, spec.niceness);  // failing: as it is
        if (!spec.dir.empty() && chdir(spec.dir.c_str()) != 0) _exit(126);
        dup2(devnull, 0);
        dup2(out, 1);
        dup2(err >= 0 ? err : out, 2);
        execve(args[0], args.data(), envp.data());
        _exit(127);
    }
    closeAll();
    setpgid(pid, pid);
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(spec.timeoutSeconds);
    ChildResult r;
    while (true) {
        int status = 0;
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) {
            r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            break;
        }
        r.timedOut = spec.timeoutSeconds > 0 && std::chrono::steady_clock::now() > end;
        r.stopped = !r.timedOut && keepGoing && !keepGoing();
        if (r.timedOut || r.stopped) {
            killpg(pid, SIGKILL);
            waitpid(pid, &status, 0);
            r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    killpg(pid, SIGKILL);  // whatever the program left running in its group
    return r;
}

std::string lastLines(const std::string& path, std::size_t count) {
    std::ifstream in(path);
    std::deque<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line.substr(0, 300));
        if (lines.size() > count) lines.pop_front();
    }
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
}

}  // namespace xq::worker
