#include "sandbox.h"

#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace xq::worker {

namespace fs = std::filesystem;

namespace {

std::string home() {
    const char* h = std::getenv("HOME");
    return h && *h ? h : "/root";
}

// Whether `path` lies under `dir`.
bool under(const fs::path& path, const fs::path& dir) {
    auto rel = path.lexically_relative(dir);
    return !rel.empty() && *rel.begin() != "..";
}

}  // namespace

std::vector<std::string> Sandbox::wrap(const std::string& cmd, const std::vector<std::string>& args,
                                       const std::vector<std::string>& readable,
                                       const std::vector<std::string>& writable,
                                       const SandboxLimits* limitsOverride) const {
    if (!enabled) {
        std::vector<std::string> out{cmd};
        out.insert(out.end(), args.begin(), args.end());
        return out;
    }
    const SandboxLimits& l = limitsOverride ? *limitsOverride : limits;
    std::vector<std::string> out = {bwrap,
                                    "--unshare-user",
                                    "--unshare-pid",
                                    "--unshare-net",
                                    "--unshare-ipc",
                                    "--unshare-uts",
                                    "--die-with-parent",
                                    "--new-session",
                                    "--ro-bind",
                                    "/",
                                    "/",
                                    "--dev",
                                    "/dev",
                                    "--proc",
                                    "/proc",
                                    "--tmpfs",
                                    "/tmp"};
    // The home directory holds the worker's token (its config), cache and builds: hidden, but for what the
    // program must read or write. /tmp of the host (other workers' files) is replaced too.
    const fs::path h = fs::weakly_canonical(home());
    out.insert(out.end(), {"--tmpfs", h.string()});
    const fs::path tmp = fs::weakly_canonical("/tmp");
    auto bindInto = [&](const std::string& path, const char* how) {
        if (path.empty()) return;
        fs::path p = fs::weakly_canonical(fs::absolute(path));
        // Only paths the two tmpfs hid need binding again (the rest stays read-only as it is).
        if (!under(p, h) && !under(p, tmp) && std::string(how) == "--ro-bind") return;
        out.insert(out.end(), {how, p.string(), p.string()});
    };
    fs::path self_ = fs::weakly_canonical(fs::absolute(self));
    bindInto(self_.string(), "--ro-bind");
    bindInto(cmd, "--ro-bind");
    for (const auto& r : alsoReadable) bindInto(r, "--ro-bind");
    for (const auto& r : readable) bindInto(r, "--ro-bind");
    for (const auto& w : writable) bindInto(w, "--bind");
    out.insert(out.end(),
               {"--chdir", writable.empty() ? "/tmp" : fs::weakly_canonical(writable[0]).string()});
    out.insert(out.end(), {"--", self_.string(), "sandbox-exec", "--memory-mb", std::to_string(l.memoryMb),
                           "--open-files", std::to_string(l.openFiles), "--file-size-mb",
                           std::to_string(l.fileSizeMb), "--processes", std::to_string(l.processes)});
    if (l.allowFork) out.push_back("--fork");
    out.push_back("--");
    out.push_back(fs::weakly_canonical(fs::absolute(cmd)).string());
    out.insert(out.end(), args.begin(), args.end());
    return out;
}

std::vector<std::string> Sandbox::launcher(const std::string& cmd,
                                           const std::vector<std::string>& readable) const {
    if (!enabled) return {};
    auto argv = wrap(cmd, {}, readable);
    argv.pop_back();  // the program itself, which the caller puts there
    return argv;
}

void Sandbox::prepare() {
    if (!enabled) return;
    if (bwrap.find('/') == std::string::npos) {
        const char* path = std::getenv("PATH");
        std::string dirs = path ? path : "/usr/bin:/bin";
        for (std::size_t start = 0; start <= dirs.size();) {
            std::size_t colon = std::min(dirs.find(':', start), dirs.size());
            fs::path candidate = fs::path(dirs.substr(start, colon - start)) / bwrap;
            start = colon + 1;
            if (access(candidate.c_str(), X_OK) == 0) {
                bwrap = candidate.string();
                break;
            }
        }
    }
    std::vector<std::string> argv = wrap("/bin/true", {});
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("sandbox check: cannot fork");
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 2);
        execvp(cargv[0], cargv.data());
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (bwrap.find('/') == std::string::npos || !WIFEXITED(status) || WEXITSTATUS(status) == 127)
        throw std::runtime_error("the sandbox needs bubblewrap ('" + bwrap +
                                 "' not found: apt install bubblewrap), or run with --no-sandbox");
    if (WEXITSTATUS(status) != 0)
        throw std::runtime_error("the sandbox does not run here (" + bwrap +
                                 " with user, PID and network namespaces failed: user namespaces may be "
                                 "disabled); fix that or run with --no-sandbox");
}

int sandboxExec(int argc, char** argv) {
    SandboxLimits l;
    int i = 2;
    auto number = [&](const char* flag) -> std::uint64_t {
        if (i + 1 >= argc) {
            std::cerr << "sandbox-exec: " << flag << " needs a value\n";
            std::exit(2);
        }
        return std::strtoull(argv[++i], nullptr, 10);
    };
    for (; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--") {
            ++i;
            break;
        }
        if (a == "--memory-mb")
            l.memoryMb = number("--memory-mb");
        else if (a == "--open-files")
            l.openFiles = number("--open-files");
        else if (a == "--file-size-mb")
            l.fileSizeMb = number("--file-size-mb");
        else if (a == "--processes")
            l.processes = number("--processes");
        else if (a == "--fork")
            l.allowFork = true;
        else {
            std::cerr << "sandbox-exec: unknown argument '" << a << "'\n";
            return 2;
        }
    }
    if (i >= argc) {
        std::cerr << "sandbox-exec: nothing to run (sandbox-exec [limits] -- CMD ARGS...)\n";
        return 2;
    }
    auto limit = [](int resource, rlim_t value, const char* what) {
        rlimit r{value, value};
        if (setrlimit(resource, &r) != 0) {
            std::cerr << "sandbox-exec: cannot limit " << what << ": " << std::strerror(errno) << "\n";
            std::exit(125);
        }
    };
    if (AddressSpaceLimited) limit(RLIMIT_AS, rlim_t(l.memoryMb) << 20, "the address space");
    limit(RLIMIT_NOFILE, rlim_t(l.openFiles), "open files");
    limit(RLIMIT_FSIZE, rlim_t(l.fileSizeMb) << 20, "file sizes");
    limit(RLIMIT_NPROC, rlim_t(l.processes), "processes");
    limit(RLIMIT_CORE, 0, "core files");

    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        std::cerr << "sandbox-exec: cannot set up seccomp\n";
        return 125;
    }
    int rc = 0;
    // No sockets but Unix ones (the network is unshared anyway: this makes the refusal immediate).
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_NE, AF_UNIX));
    if (!AddressSpaceLimited && !l.allowFork) {
        // A sanitizer build's LeakSanitizer checks at exit from a tracer process, which the filter below
        // refuses: the program would abort at every exit. Its leaks are checked outside the sandbox.
        const char* asan = std::getenv("ASAN_OPTIONS");
        std::string options = asan && *asan ? std::string(asan) + ":detect_leaks=0" : "detect_leaks=0";
        setenv("ASAN_OPTIONS", options.c_str(), 1);
    }
    if (!l.allowFork) {
        // No new processes: threads only (clone with CLONE_THREAD). clone3 answers ENOSYS, so that glibc
        // falls back to clone, where the flags can be seen.
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(fork), 0);
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(vfork), 0);
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                               SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
    }
    if (rc != 0 || seccomp_load(ctx) != 0) {
        std::cerr << "sandbox-exec: cannot load the seccomp filter\n";
        seccomp_release(ctx);
        return 125;
    }
    seccomp_release(ctx);
    execv(argv[i], argv + i);
    std::cerr << "sandbox-exec: cannot run " << argv[i] << ": " << std::strerror(errno) << "\n";
    return 127;
}

}  // namespace xq::worker
