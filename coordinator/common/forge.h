// Links into the forge that hosts a test's repository: a commit's page on GitHub, GitLab, Codeberg, Gitea's
// and Forgejo's public hosts, Bitbucket or SourceHut, from the repository's URL in any form git takes
// (https://, ssh://, git@host:owner/name.git). A test's page links its commits with it; other hosts (a
// private server, a local path) get no link.
#pragma once

#include <string>

namespace xq::coord {

// "https://github.com/owner/name" for "git@github.com:owner/name.git" and the like; "" when the URL is not
// of a known forge or has no owner/name path.
std::string forgeWebUrl(const std::string& repositoryUrl);
// The commit's page, e.g. "https://gitlab.com/owner/name/-/commit/<hash>"; "" as above, or when `commit`
// is not 7 to 64 hex digits.
std::string forgeCommitUrl(const std::string& repositoryUrl, const std::string& commit);

}  // namespace xq::coord
