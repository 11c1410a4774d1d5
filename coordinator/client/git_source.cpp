#include "git_source.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <stdexcept>
#include <vector>

namespace xq::coord {

namespace {

struct GitResult {
    int code = -1;
    std::string out, err;
};

// Runs `git ARGS` without a shell; stdout and stderr captured.
GitResult git(const std::vector<std::string>& args) {
    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
    std::vector<char*> argv{const_cast<char*>("git")};  // made before fork, as everything the child uses
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        dup2(out[1], 1);
        dup2(err[1], 2);
        if (devnull >= 0) dup2(devnull, 0);
        execvp("git", argv.data());
        _exit(127);
    }
    if (devnull >= 0) close(devnull);
    close(out[1]);
    close(err[1]);
    GitResult r;
    // Both pipes at once, so that neither fills while the other is read.
    pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    std::string* texts[2] = {&r.out, &r.err};
    char buf[8192];
    for (int open = 2; open > 0;) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                texts[i]->append(buf, std::size_t(n));
            } else if (n == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
    for (const auto& f : fds)
        if (f.fd >= 0) close(f.fd);
    int status = 0;
    waitpid(pid, &status, 0);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (r.code == 127) throw std::runtime_error("git is not installed (needed for --repo)");
    while (!r.out.empty() && r.out.back() == '\n') r.out.pop_back();
    while (!r.err.empty() && r.err.back() == '\n') r.err.pop_back();
    return r;
}

}  // namespace

std::uint64_t benchFromMessage(const std::string& message) {
    std::uint64_t found = 0;
    for (auto at = message.find("Bench:"); at != std::string::npos; at = message.find("Bench:", at + 1)) {
        std::size_t i = at + 6;
        while (i < message.size() && (message[i] == ' ' || message[i] == '\t')) ++i;
        std::size_t digits = i;
        while (digits < message.size() && std::isdigit(static_cast<unsigned char>(message[digits])) &&
               digits - i < 19)
            ++digits;
        if (digits > i) found = std::stoull(message.substr(i, digits - i));
    }
    return found;
}

CommitInfo resolveCommit(const std::string& repo, const std::string& ref) {
    if (ref.empty() || ref.front() == '-') throw std::invalid_argument("'" + ref + "' is not a git ref");
    auto rev = git({"-C", repo, "rev-parse", "--verify", "--quiet", ref + "^{commit}"});
    if (rev.code != 0 || rev.out.empty())
        throw std::invalid_argument("'" + ref + "' is not a commit of the repository " + repo +
                                    (rev.err.empty() ? "" : ": " + rev.err));
    CommitInfo info;
    info.commit = rev.out;
    auto msg = git({"-C", repo, "log", "-1", "--format=%B", info.commit});
    if (msg.code != 0)
        throw std::invalid_argument("cannot read the message of " + info.commit + ": " + msg.err);
    info.subject = msg.out.substr(0, msg.out.find('\n'));
    if (auto who = git({"-C", repo, "log", "-1", "--format=%an <%ae>", info.commit}); who.code == 0)
        info.author = who.out.substr(0, who.out.find('\n'));
    info.bench = benchFromMessage(msg.out);
    return info;
}

void archiveCommit(const std::string& repo, const std::string& commit, const std::string& outPath) {
    auto r = git({"-C", repo, "archive", "--format=tar.gz", "-o", outPath, commit});
    if (r.code != 0) throw std::runtime_error("git archive of " + commit + " failed: " + r.err);
}

namespace {

bool isUrl(const std::string& repoOrUrl) {
    return repoOrUrl.find("://") != std::string::npos || repoOrUrl.rfind("git@", 0) == 0;
}

std::string withoutCredentials(const std::string& url) {
    auto scheme = url.find("://");
    if (scheme == std::string::npos) return url;
    auto start = scheme + 3;
    auto end = url.find('/', start);
    auto at = url.rfind('@', end == std::string::npos ? std::string::npos : end);
    if (at == std::string::npos || at < start) return url;
    return url.substr(0, start) + url.substr(at + 1);
}

}  // namespace

std::string repositoryUrl(const std::string& repoOrUrl) {
    if (isUrl(repoOrUrl)) return withoutCredentials(repoOrUrl);
    auto origin = git({"-C", repoOrUrl, "remote", "get-url", "origin"});
    if (origin.code != 0) return "";
    return withoutCredentials(origin.out.substr(0, origin.out.find('\n')));
}

std::string localRepository(const std::string& repoOrUrl, const std::string& scratchDir) {
    if (!isUrl(repoOrUrl)) return repoOrUrl;
    std::string dest = scratchDir + "/repository.git";
    auto r = git({"clone", "--quiet", "--bare", "--", repoOrUrl, dest});
    if (r.code != 0) throw std::invalid_argument("cannot clone " + repoOrUrl + ": " + r.err);
    return dest;
}

}  // namespace xq::coord
