#include "git_source.h"

#include <cctype>
#include <stdexcept>
#include <vector>

#include "program_output.h"

namespace xq::coord {

namespace {

// Runs `git ARGS`; stdout and stderr captured.
ProgramResult git(const std::vector<std::string>& args) {
    std::vector<std::string> argv{"git"};
    argv.insert(argv.end(), args.begin(), args.end());
    ProgramResult r = runProgram(argv);
    if (r.code == 127) throw std::runtime_error("git is not installed (needed for --repo)");
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
