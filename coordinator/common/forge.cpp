#include "forge.h"

#include <algorithm>
#include <cctype>

namespace xq::coord {

namespace {

struct Forge {
    const char* host;
    const char* commitPath;  // after the repository's web URL
};
constexpr Forge Forges[] = {
    {"github.com", "/commit/"}, {"gitlab.com", "/-/commit/"},   {"codeberg.org", "/commit/"},
    {"gitea.com", "/commit/"},  {"bitbucket.org", "/commits/"}, {"git.sr.ht", "/commit/"},
};

const Forge* forgeOf(const std::string& host) {
    for (const auto& f : Forges)
        if (host == f.host) return &f;
    return nullptr;
}

bool safePathPart(const std::string& s) {
    return !s.empty() && s != "." && s != ".." && std::all_of(s.begin(), s.end(), [](unsigned char c) {
        return std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~';
    });
}

// Host and "owner/name" of a repository URL, or empty strings.
std::pair<std::string, std::string> hostAndPath(std::string url) {
    std::string host, path;
    if (auto scheme = url.find("://"); scheme != std::string::npos) {
        std::string rest = url.substr(scheme + 3);
        auto slash = rest.find('/');
        if (slash == std::string::npos) return {};
        host = rest.substr(0, slash);
        path = rest.substr(slash + 1);
    } else if (auto colon = url.find(':'); colon != std::string::npos && url.find('/') > colon) {
        host = url.substr(0, colon);  // scp-like: git@github.com:owner/name.git
        path = url.substr(colon + 1);
    } else {
        return {};
    }
    if (auto at = host.rfind('@'); at != std::string::npos) host = host.substr(at + 1);
    if (auto port = host.find(':'); port != std::string::npos) host = host.substr(0, port);
    std::transform(host.begin(), host.end(), host.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    while (!path.empty() && path.back() == '/') path.pop_back();
    if (path.size() > 4 && path.compare(path.size() - 4, 4, ".git") == 0) path.resize(path.size() - 4);
    return {host, path};
}

}  // namespace

std::string forgeWebUrl(const std::string& repositoryUrl) {
    auto [host, path] = hostAndPath(repositoryUrl);
    if (!forgeOf(host)) return "";
    auto slash = path.find('/');
    if (slash == std::string::npos || path.find('/', slash + 1) != std::string::npos) {
        // GitLab allows groups: owner/group/name. Others have exactly owner/name.
        if (host != "gitlab.com" || slash == std::string::npos) return "";
    }
    std::string part;
    for (std::size_t start = 0; start <= path.size();) {
        auto end = path.find('/', start);
        if (end == std::string::npos) end = path.size();
        if (!safePathPart(path.substr(start, end - start))) return "";
        start = end + 1;
    }
    return "https://" + host + "/" + path;
}

std::string forgeCommitUrl(const std::string& repositoryUrl, const std::string& commit) {
    if (commit.size() < 7 || commit.size() > 64 ||
        !std::all_of(commit.begin(), commit.end(), [](unsigned char c) { return std::isxdigit(c); }))
        return "";
    std::string web = forgeWebUrl(repositoryUrl);
    if (web.empty()) return "";
    return web + forgeOf(hostAndPath(repositoryUrl).first)->commitPath + commit;
}

}  // namespace xq::coord
