#include "git_source.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <regex>
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
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        dup2(out[1], 1);
        dup2(err[1], 2);
        int devnull = open("/dev/null", O_RDONLY);
        dup2(devnull, 0);
        std::vector<char*> argv{const_cast<char*>("git")};
        for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execvp("git", argv.data());
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    GitResult r;
    // Read both pipes to the end (stderr is small; read stdout first, then stderr).
    char buf[8192];
    for (auto [fd, text] : {std::pair{out[0], &r.out}, std::pair{err[0], &r.err}}) {
        ssize_t n;
        while ((n = read(fd, buf, sizeof buf)) > 0) text->append(buf, std::size_t(n));
        close(fd);
    }
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
    static const std::regex bench(R"(Bench:\s*([0-9]{1,19}))");
    std::uint64_t found = 0;
    for (auto it = std::sregex_iterator(message.begin(), message.end(), bench); it != std::sregex_iterator();
         ++it)
        found = std::stoull((*it)[1].str());
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
    info.bench = benchFromMessage(msg.out);
    return info;
}

void archiveCommit(const std::string& repo, const std::string& commit, const std::string& outPath) {
    auto r = git({"-C", repo, "archive", "--format=tar.gz", "-o", outPath, commit});
    if (r.code != 0) throw std::runtime_error("git archive of " + commit + " failed: " + r.err);
}

std::string localRepository(const std::string& repoOrUrl, const std::string& scratchDir) {
    bool url = repoOrUrl.find("://") != std::string::npos || repoOrUrl.rfind("git@", 0) == 0;
    if (!url) return repoOrUrl;
    std::string dest = scratchDir + "/repository.git";
    auto r = git({"clone", "--quiet", "--bare", "--", repoOrUrl, dest});
    if (r.code != 0) throw std::invalid_argument("cannot clone " + repoOrUrl + ": " + r.err);
    return dest;
}

}  // namespace xq::coord
